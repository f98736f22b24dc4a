/// Line-by-line reading of decoded caption text (UTF-8) for the line-based formats (SBV, ASS/SSA): each line's byte
/// range without its ending (LF, CR LF or CR), one at a time.
struct LineCursor {
    let text: UnsafeBufferPointer<UInt8>
    private(set) var position = 0
    /// The number (1-based) of the line `next()` returned last.
    private(set) var number = 0

    init(_ text: UnsafeBufferPointer<UInt8>) { self.text = text }

    mutating func next() -> Range<Int>? {
        let n = text.count
        guard position < n, let base = text.baseAddress else { return nil }
        let start = position
        var i = start
        while i < n {
            let byte = base[i]
            if byte == 0x0A || byte == 0x0D { break }
            i += 1
        }
        position = i < n && base[i] == 0x0D && i + 1 < n && base[i + 1] == 0x0A ? i + 2 : min(n, i + 1)
        number += 1
        return start..<i
    }
}

/// Cue text in WebVTT's syntax from plain text: `&`, `<` and `>` written as references; control characters other than
/// tab and line breaks (NUL, form feed …), which no caption shows and XML cannot hold, as U+FFFD.
enum WebVTTEscaping {
    static func append(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case 0x26: out.append(contentsOf: "&amp;".utf8)
        case 0x3C: out.append(contentsOf: "&lt;".utf8)
        case 0x3E: out.append(contentsOf: "&gt;".utf8)
        case 0x09, 0x0A, 0x0D: out.append(byte)
        case 0x00..<0x20, 0x7F: out += [0xEF, 0xBF, 0xBD]
        default: out.append(byte)
        }
    }

    static func append<C: Collection<UInt8>>(_ bytes: C, to out: inout [UInt8]) {
        for byte in bytes { append(byte, to: &out) }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes of `range` are all spaces or tabs.
    func isBlank(_ range: Range<Int>) -> Bool {
        range.allSatisfy { self[$0] == 0x20 || self[$0] == 0x09 }
    }

    /// `range` without leading and trailing spaces and tabs.
    func trimmed(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, self[lower] == 0x20 || self[lower] == 0x09 { lower += 1 }
        while upper > lower, self[upper - 1] == 0x20 || self[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }

    /// Whether `range` starts with `prefix`, ASCII letters compared without case.
    func hasPrefix(_ range: Range<Int>, caseInsensitive prefix: StaticString) -> Bool {
        guard range.count >= prefix.utf8CodeUnitCount else { return false }
        let p = prefix.utf8Start
        for k in 0..<prefix.utf8CodeUnitCount where Self.lower(self[range.lowerBound + k]) != Self.lower(p[k]) { return false }
        return true
    }

    static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    func string(_ range: Range<Int>) -> String { String(decoding: self[range], as: UTF8.self) }
}

/// Gives a mapped file's pages back as a reader passes them (`MappedFile.release`), for text read in place.
struct PageRelease {
    private let mapping: MappedFile?
    private let offset: Int
    private var releasedUpTo = 0

    /// For `text`, when it lies inside `mapping` (read in place); otherwise it does nothing.
    init(text: UnsafeBufferPointer<UInt8>, mapping: MappedFile?) {
        if let mapping, let base = text.baseAddress, let mappingBase = mapping.buffer.baseAddress,
            base >= mappingBase, base < mappingBase + mapping.buffer.count
        {
            self.mapping = mapping
            offset = mappingBase.distance(to: base)
        } else {
            self.mapping = nil
            offset = 0
        }
    }

    /// Everything of the text before `position` has been read.
    @inline(__always)
    mutating func consumed(upTo position: Int) {
        guard position - releasedUpTo >= MappedFile.releaseStep, let mapping else { return }
        mapping.release((offset + releasedUpTo)..<(offset + position))
        releasedUpTo = position
    }
}
