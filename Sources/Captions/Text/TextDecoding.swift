import Basics
import Foundation

/// Turns a caption file's bytes into UTF-8, detecting the encoding when none is given:
/// a byte-order mark (UTF-8, UTF-32 LE/BE, UTF-16 LE/BE), else valid UTF-8, else (with a fallback) UTF-8 whose
/// few bad lines are read as Windows-1252, else Windows-1252 throughout.
/// Named encodings (`--encoding`) go through the system's iconv, which knows hundreds of them.
public enum TextDecoding {
    /// The decoded text as UTF-8 bytes (without a byte-order mark) and the name of the encoding used.
    public struct Result: Sendable {
        public var utf8: [UInt8]
        public var encoding: String
        /// True when the name came from a guess (no BOM, not valid UTF-8).
        public var guessed: Bool
        /// True when invalid UTF-8 sequences were found (they read as U+FFFD).
        public var hadInvalidUTF8: Bool
        /// The lines (1-based) of a UTF-8 file that held bytes that are not UTF-8, each read as the fallback.
        public var recoveredLines: [Int] = []
        /// What was wrong with UTF-16 text (an odd trailing byte, unpaired surrogates), for a diagnostic.
        public var utf16Problem: String?
    }

    /// Decodes `bytes`. `encoding` (an IANA/iconv name such as `windows-1251`) overrides detection;
    /// `fallback` is what non-UTF-8 text without a BOM is read as (nil: keep it as UTF-8 with replacements).
    public static func decode(
        _ bytes: [UInt8], encoding: String? = nil,
        fallback: String? = "windows-1252"
    ) throws(CaptionError) -> Result {
        let detection = try bytes.withUnsafeBufferPointer { buffer in
            Swift.Result { () throws(CaptionError) in try detect(buffer, encoding: encoding, fallback: fallback) }
        }.get()
        switch detection {
        case let .utf8(bomLength, valid):
            return Result(
                utf8: bomLength == 0 ? bytes : Array(bytes.dropFirst(bomLength)), encoding: "utf-8", guessed: false,
                hadInvalidUTF8: !valid)
        case .converted(let result):
            return result
        }
    }

    /// What the bytes are: UTF-8 to read in place (after a BOM of `bomLength` bytes), or text converted to UTF-8.
    enum Detection {
        case utf8(bomLength: Int, valid: Bool)
        case converted(Result)
    }

    /// Detects the encoding of `bytes` without copying them when they are UTF-8.
    static func detect(_ bytes: UnsafeBufferPointer<UInt8>, encoding: String?, fallback: String?) throws(CaptionError) -> Detection {
        let hasBOM = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        if let encoding {
            let name = encoding.lowercased()
            if name == "utf-8" || name == "utf8" {
                return .utf8(bomLength: hasBOM ? 3 : 0, valid: validate(bytes))
            }
            return .converted(try decode(Array(bytes), named: encoding))
        }
        if hasBOM { return .utf8(bomLength: 3, valid: validate(UnsafeBufferPointer(rebasing: bytes[3...]))) }
        // UTF-32's marks first: FF FE 00 00 also starts UTF-16LE's.
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            let (utf8, valid) = utf32ToUTF8(bytes[4...], bigEndian: false)
            return .converted(Result(utf8: utf8, encoding: "utf-32le", guessed: false, hadInvalidUTF8: !valid))
        }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
            let (utf8, valid) = utf32ToUTF8(bytes[4...], bigEndian: true)
            return .converted(Result(utf8: utf8, encoding: "utf-32be", guessed: false, hadInvalidUTF8: !valid))
        }
        if bytes.starts(with: [0xFF, 0xFE]) {
            let (utf8, problem) = utf16ToUTF8(bytes[2...], bigEndian: false)
            return .converted(Result(utf8: utf8, encoding: "utf-16le", guessed: false, hadInvalidUTF8: problem != nil, utf16Problem: problem))
        }
        if bytes.starts(with: [0xFE, 0xFF]) {
            let (utf8, problem) = utf16ToUTF8(bytes[2...], bigEndian: true)
            return .converted(Result(utf8: utf8, encoding: "utf-16be", guessed: false, hadInvalidUTF8: problem != nil, utf16Problem: problem))
        }
        if validate(bytes) { return .utf8(bomLength: 0, valid: true) }
        if let bigEndian = looksLikeUTF16WithoutBOM(bytes) {
            let (utf8, problem) = utf16ToUTF8(bytes[...], bigEndian: bigEndian)
            return .converted(
                Result(
                    utf8: utf8, encoding: bigEndian ? "utf-16be" : "utf-16le",
                    guessed: true, hadInvalidUTF8: problem != nil, utf16Problem: problem))
        }
        guard let fallback else { return .utf8(bomLength: 0, valid: false) }
        if let mixed = try recoverLines(bytes, fallback: fallback) { return .converted(mixed) }
        var result = try decode(Array(bytes), named: fallback)
        result.guessed = true
        return .converted(result)
    }

    /// A UTF-8 file with a few lines that are not (a Latin-1 line pasted into it): when some line holds valid
    /// UTF-8 beyond ASCII, each line is decoded on its own — valid lines as UTF-8, the others as `fallback` —
    /// and the bad lines are listed. Nil when no line is UTF-8 beyond ASCII (the whole file is `fallback`).
    /// Lines end as SRT's do (LF, CR LF, CR CR LF, CR).
    static func recoverLines(_ bytes: UnsafeBufferPointer<UInt8>, fallback: String) throws(CaptionError) -> Result? {
        let text = ByteText(bytes: bytes, collapsesCarriageReturnRuns: true)
        /// Calls `body` with each line's bounds and where the next one starts, until it returns false.
        func forEachLine(_ body: (_ start: Int, _ end: Int, _ next: Int) throws(CaptionError) -> Bool) throws(CaptionError) {
            var finder = LineEndFinder()
            var start = 0
            while start < bytes.count {
                let end = finder.lineEnd(in: text, from: start)
                let next = end < bytes.count ? text.nextLineStart(after: end) : end
                guard try body(start, end, next) else { return }
                start = next
            }
        }
        var sawUTF8 = false
        try forEachLine { (start, end, _) throws(CaptionError) in
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            sawUTF8 = line.contains { $0 >= 0x80 } && validate(line)
            return !sawUTF8
        }
        guard sawUTF8 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 16)
        var recovered: [Int] = []
        var number = 0
        try forEachLine { (start, end, next) throws(CaptionError) in
            number += 1
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if validate(line) {
                output.append(contentsOf: line)
            } else {
                output.append(contentsOf: try decode(Array(line), named: fallback).utf8)
                recovered.append(number)
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[end..<next]))
            return true
        }
        return Result(utf8: output, encoding: "utf-8", guessed: false, hadInvalidUTF8: true, recoveredLines: recovered)
    }

    /// The encoding found for text read in place or converted (`withUTF8`).
    struct Found {
        var encoding: String
        var guessed: Bool
    }

    /// Calls `body` with `bytes` as UTF-8 — in place when they are UTF-8 already (after a byte-order mark), else
    /// converted as `decode` would — and the encoding found. `guess` names what text that turns out not to be UTF-8
    /// (and has no byte-order mark) is read as throughout (nil: `fallback`, line by line where some lines are UTF-8);
    /// it is asked only then, after the one check of the bytes.
    static func withUTF8<R>(
        _ bytes: UnsafeBufferPointer<UInt8>, encoding: String?, fallback: String? = "windows-1252",
        guess: ((UnsafeBufferPointer<UInt8>) -> String?)? = nil,
        _ body: (UnsafeBufferPointer<UInt8>, Found) throws(CaptionError) -> R
    ) throws(CaptionError) -> R {
        var detection = try detect(bytes, encoding: encoding, fallback: guess == nil ? fallback : nil)
        if case .utf8(0, false) = detection, encoding == nil, let guess {
            if let name = guess(bytes) {
                var result = try decode(Array(bytes), named: name)
                result.guessed = true
                detection = .converted(result)
            } else {
                detection = try detect(bytes, encoding: nil, fallback: fallback)
            }
        }
        switch detection {
        case .utf8(let bomLength, _):
            return try body(UnsafeBufferPointer(rebasing: bytes[bomLength...]), Found(encoding: "utf-8", guessed: false))
        case .converted(let result):
            return try result.utf8.withUnsafeBufferPointer { (text) throws(CaptionError) in
                try body(text, Found(encoding: result.encoding, guessed: result.guessed))
            }
        }
    }

    /// Whether text that is not UTF-8 reads as Korean in CP949 (EUC-KR and its extension): nearly every byte above
    /// ASCII is the lead of a valid pair, and most pairs are EUC-KR's Hangul syllables (leads B0–C8, trails A1–FE).
    /// Latin text in Windows-1252 has lone accented letters, not pairs in that range.
    static func looksLikeCP949(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var pairs = 0, hangul = 0, bad = 0
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            guard lead >= 0x80 else {
                i += 1
                continue
            }
            guard lead >= 0x81, lead <= 0xFE, i + 1 < bytes.count else {
                bad += 1
                i += 1
                continue
            }
            let trail = bytes[i + 1]
            if (0x41...0x5A).contains(trail) || (0x61...0x7A).contains(trail) || (0x81...0xFE).contains(trail) {
                pairs += 1
                if (0xB0...0xC8).contains(lead), trail >= 0xA1 { hangul += 1 }
                i += 2
            } else {
                bad += 1
                i += 1
            }
        }
        return pairs > 0 && bad * 50 <= pairs && hangul * 2 >= pairs
    }

    /// Decodes `bytes` as the named encoding.
    static func decode(_ bytes: [UInt8], named name: String) throws(CaptionError) -> Result {
        switch name.lowercased() {
        case "utf-8", "utf8":
            let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
            return Result(utf8: body, encoding: "utf-8", guessed: false, hadInvalidUTF8: !isValidUTF8(body))
        case "windows-1252", "cp1252", "latin1", "iso-8859-1", "us-ascii", "ascii":
            // As browsers do (WHATWG Encoding), Latin-1 and ASCII labels read as Windows-1252.
            return Result(utf8: windows1252ToUTF8(bytes), encoding: "windows-1252", guessed: false, hadInvalidUTF8: false)
        default:
            return Result(utf8: try iconvToUTF8(bytes, from: name), encoding: name.lowercased(), guessed: false, hadInvalidUTF8: false)
        }
    }

    // MARK: - UTF-8

    /// True when `bytes` is well-formed UTF-8.
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { validate($0) }
    }

    /// True when `bytes` is well-formed UTF-8; long texts are checked in parts on all cores, each part starting
    /// at a byte that begins a character (a sequence never spans two parts).
    static func validate(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let parts = ParallelSlices.count(for: bytes.count, minimum: 4 << 20)
        guard parts > 1 else { return firstInvalidUTF8(bytes) == nil }
        var starts = [0]
        for k in 1..<parts {
            var start = max(starts.last!, bytes.count * k / parts)
            // Step past continuation bytes (10xxxxxx) to the start of a character: at most 3 in valid text.
            while start < bytes.count, start < bytes.count * k / parts + 3, bytes[start] & 0xC0 == 0x80 { start += 1 }
            starts.append(start)
        }
        starts.append(bytes.count)
        let valid = ParallelSlices.map(parts) { k in firstInvalidUTF8(UnsafeBufferPointer(rebasing: bytes[starts[k]..<starts[k + 1]])) == nil }
        return !valid.contains(false)
    }

    /// The offset of the first byte sequence in `bytes` that is not UTF-8, nil when there is none.
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        let n = bytes.count
        guard let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        while i < n {
            // ASCII runs, eight bytes at a time.
            while i + 8 <= n, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
            guard i < n else { break }
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                continue
            }
            let length: Int
            let minimum: UInt32
            var scalar: UInt32
            switch b {
            case 0xC2...0xDF: length = 2; minimum = 0x80; scalar = UInt32(b & 0x1F)
            case 0xE0...0xEF: length = 3; minimum = 0x800; scalar = UInt32(b & 0x0F)
            case 0xF0...0xF4: length = 4; minimum = 0x10000; scalar = UInt32(b & 0x07)
            default: return i
            }
            guard i + length <= n else { return i }
            for k in 1..<length {
                let c = bytes[i + k]
                guard c & 0xC0 == 0x80 else { return i }
                scalar = scalar << 6 | UInt32(c & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return i }
            i += length
        }
        return nil
    }

    // MARK: - UTF-16

    /// The text as UTF-8 (unpaired surrogates as U+FFFD, an odd last byte dropped), and what was wrong, if anything.
    private static func utf16ToUTF8(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, bigEndian: Bool) -> (utf8: [UInt8], problem: String?) {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = bytes.startIndex
        var unpaired = 0
        var pendingHigh = false
        while i + 1 < bytes.endIndex {
            let a = UInt16(bytes[i]), b = UInt16(bytes[i + 1])
            let unit = bigEndian ? a << 8 | b : b << 8 | a
            units.append(unit)
            switch unit {
            case 0xD800...0xDBFF:
                if pendingHigh { unpaired += 1 }
                pendingHigh = true
            case 0xDC00...0xDFFF:
                if pendingHigh { pendingHigh = false } else { unpaired += 1 }
            default:
                if pendingHigh { unpaired += 1 }
                pendingHigh = false
            }
            i += 2
        }
        if pendingHigh { unpaired += 1 }
        var problems: [String] = []
        if bytes.count % 2 == 1 { problems.append("an odd trailing byte (dropped)") }
        if unpaired > 0 { problems.append("\(unpaired) unpaired surrogate\(unpaired == 1 ? "" : "s") (read as U+FFFD)") }
        let problem = problems.isEmpty ? nil : "UTF-16 text with " + problems.joined(separator: " and ")
        return (Array(String(decoding: units, as: UTF16.self).utf8), problem)
    }

    // MARK: - UTF-32

    /// UTF-32 code units as UTF-8; units that are not Unicode scalars (and a partial last unit) become U+FFFD.
    private static func utf32ToUTF8(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, bigEndian: Bool) -> (utf8: [UInt8], valid: Bool) {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count / 4 + 16)
        var valid = bytes.count % 4 == 0
        var i = bytes.startIndex
        while i + 3 < bytes.endIndex {
            let a = UInt32(bytes[i]), b = UInt32(bytes[i + 1]), c = UInt32(bytes[i + 2]), d = UInt32(bytes[i + 3])
            let value = bigEndian ? a << 24 | b << 16 | c << 8 | d : d << 24 | c << 16 | b << 8 | a
            let scalar =
                Unicode.Scalar(value)
                ?? {
                    valid = false
                    return "\u{FFFD}"
                }()
            output.append(contentsOf: UTF8.encode(scalar)!)
            i += 4
        }
        if !valid, bytes.count % 4 != 0 { output.append(contentsOf: [0xEF, 0xBF, 0xBD]) }
        return (output, valid)
    }

    /// UTF-16 text without a BOM shows as many zero bytes in one byte position: nil when it does not.
    private static func looksLikeUTF16WithoutBOM(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        let sample = bytes.prefix(4096)
        guard sample.count >= 8 else { return nil }
        var evenZeros = 0, oddZeros = 0
        for (i, b) in sample.enumerated() where b == 0 {
            if i % 2 == 0 { evenZeros += 1 } else { oddZeros += 1 }
        }
        let half = sample.count / 2
        if oddZeros > half * 3 / 5 && evenZeros < half / 10 { return false }  // ASCII in LE: "A\0"
        if evenZeros > half * 3 / 5 && oddZeros < half / 10 { return true }
        return nil
    }

    // MARK: - Windows-1252

    /// Code points of bytes 0x80–0x9F in Windows-1252 (undefined bytes keep their C1 code point, as WHATWG says).
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    static func windows1252ToUTF8(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for b in bytes {
            if b < 0x80 {
                output.append(b)
                continue
            }
            let scalar = b < 0xA0 ? windows1252High[Int(b - 0x80)] : UInt32(b)
            output.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
        }
        return output
    }

    // MARK: - iconv

    private static func iconvToUTF8(_ bytes: [UInt8], from name: String) throws(CaptionError) -> [UInt8] {
        guard let converted = iconvConvert(bytes, from: name, to: "UTF-8") else {
            throw CaptionError(
                rule: "captions.encoding",
                message: "unknown text encoding '\(name)' (try utf-8, utf-16, windows-1252, windows-1251, iso-8859-2, gb2312, big5, shift_jis …)")
        }
        guard case .success(let output) = converted else {
            if case .failure(let failedAt) = converted {
                throw CaptionError(rule: "captions.encoding", message: "the text is not valid \(name): bad byte sequence at byte \(failedAt.offset)")
            }
            return []
        }
        return output.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(output.dropFirst(3)) : output
    }

    /// UTF-8 text (without a byte order mark) in the encoding `name` (an iconv name, as `decode` reports them), for
    /// writing a file back in its own encoding; nil when iconv does not know the name or the text has a character the
    /// encoding cannot hold.
    public static func encode(utf8 bytes: [UInt8], as name: String) -> [UInt8]? {
        guard case .success(let output)? = iconvConvert(bytes, from: "UTF-8", to: name) else { return nil }
        return output
    }

    /// Where a conversion stopped: the byte of the input it could not convert.
    struct ConversionFailure: Error {
        let offset: Int
    }

    /// `bytes` converted by iconv from `from` to `to`; nil when iconv knows neither name.
    private static func iconvConvert(_ bytes: [UInt8], from: String, to: String) -> Swift.Result<[UInt8], ConversionFailure>? {
        let converter = iconv_open(to, from)
        guard converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: bytes.count * 4 + 16)
        var failedAt: Int?
        let produced = input.withUnsafeMutableBufferPointer { inBuffer -> Int in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int in
                var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBuffer.baseAddress)?.assumingMemoryBound(to: CChar.self)
                var inLeft = inBuffer.count
                var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuffer.baseAddress)?.assumingMemoryBound(to: CChar.self)
                var outLeft = outBuffer.count
                while inLeft > 0 {
                    if iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) == -1 {
                        failedAt = inBuffer.count - inLeft
                        break
                    }
                }
                return outBuffer.count - outLeft
            }
        }
        if let failedAt { return .failure(ConversionFailure(offset: failedAt)) }
        output.removeLast(output.count - produced)
        return .success(output)
    }
}
