/// HTML character references (`&amp;`, `&#233;`, `&#x1F600;`, legacy `&copy` …) as HTML's tokenizer
/// consumes them: in text (what WebVTT cue text uses) and in attribute values. The one table of named references
/// (HTML's 2,231) for every reader of markup.
public enum CharacterReferences {
    /// Name (with or without its `;`) → replacement text.
    static let named: [String: String] = {
        var table: [String: String] = [:]
        table.reserveCapacity(2300)
        for line in HTMLEntityTable.data.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let scalars = line[line.index(after: equals)...].split(separator: " ")
                .compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            table[String(line[..<equals])] = String(String.UnicodeScalarView(scalars))
        }
        return table
    }()

    /// The longest name in the table (`CounterClockwiseContourIntegral;`).
    static let longestName = 32

    /// Code points that numeric references to C1 controls stand for (Windows-1252), per HTML.
    private static let c1Replacements: [UInt32: UInt32] = [
        0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021, 0x88: 0x02C6,
        0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152, 0x8E: 0x017D, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201C,
        0x94: 0x201D, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC, 0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A,
        0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178,
    ]

    /// A consumed reference: its text, where the input continues, and what was wrong with it, if anything.
    package struct Match {
        package var text: String
        package var next: Int
        package var problem: String?
    }

    /// Consumes a reference whose `&` is just before `start`; nil when there is none (the `&` is literal text).
    package static func consume(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Match? {
        guard start < end else { return nil }
        if bytes[start] == UInt8(ascii: "#") { return numeric(bytes, from: start + 1, end: end) }
        guard bytes[start].isASCIIAlphanumeric else { return nil }
        var runEnd = start
        while runEnd < end, runEnd - start < longestName, bytes[runEnd].isASCIIAlphanumeric { runEnd += 1 }
        if runEnd < end, bytes[runEnd] == UInt8(ascii: ";") {
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start...runEnd]), as: UTF8.self)
            if let text = named[name] { return Match(text: text, next: runEnd + 1) }
        }
        // Legacy names may stand without ";": the longest one that prefixes the run.
        var length = runEnd - start
        while length > 0 {
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(start + length)]), as: UTF8.self)
            if let text = named[name] {
                return Match(text: text, next: start + length, problem: "character reference &\(name) has no \";\"")
            }
            length -= 1
        }
        return nil
    }

    /// `text` with its character references decoded as HTML decodes them in text or, `inAttribute`, in an attribute
    /// value (where a legacy reference without ";" followed by "=" or a letter or digit stays as written:
    /// `?a=1&copy=2` keeps its `&copy`).
    public static func decode(_ text: String, inAttribute: Bool = false) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            let input = UnsafeBufferPointer(buffer)
            var output: [UInt8] = []
            output.reserveCapacity(input.count)
            var index = 0
            while index < input.count {
                let byte = input[index]
                guard byte == UInt8(ascii: "&"), let match = consume(input, from: index + 1, end: input.count) else {
                    output.append(byte)
                    index += 1
                    continue
                }
                let legacy = match.next > index + 1 && input[match.next - 1] != UInt8(ascii: ";") && input[index + 1] != UInt8(ascii: "#")
                if inAttribute, legacy, match.next < input.count, input[match.next] == UInt8(ascii: "=") || input[match.next].isASCIIAlphanumeric {
                    output.append(byte)
                    index += 1
                    continue
                }
                output.append(contentsOf: match.text.utf8)
                index = match.next
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    private static func numeric(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Match? {
        var i = start
        var hex = false
        if i < end, bytes[i] | 0x20 == UInt8(ascii: "x") {
            hex = true
            i += 1
        }
        var value: UInt32 = 0
        let digitsStart = i
        while i < end {
            let b = bytes[i]
            let digit: UInt32
            if b.isASCIIDigit {
                digit = UInt32(b - 0x30)
            } else if hex, (b | 0x20) >= UInt8(ascii: "a"), (b | 0x20) <= UInt8(ascii: "f") {
                digit = UInt32((b | 0x20) - UInt8(ascii: "a") + 10)
            } else {
                break
            }
            value = min(value * (hex ? 16 : 10) + digit, 0x110000)
            i += 1
        }
        guard i > digitsStart else { return nil }  // "&#" or "&#x" without digits is text
        var problem: String?
        if i < end, bytes[i] == UInt8(ascii: ";") { i += 1 } else { problem = "numeric character reference without \";\"" }
        if value == 0 || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) {
            value = 0xFFFD
            problem = problem ?? "numeric character reference to an invalid code point"
        } else if let replacement = c1Replacements[value] {
            value = replacement
        }
        return Match(text: String(Unicode.Scalar(value).map(Character.init) ?? "\u{FFFD}"), next: i, problem: problem)
    }
}
