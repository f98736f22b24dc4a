/// Line-by-line reading of decoded caption text (UTF-8) for the line-based formats (SBV, ASS/SSA): each line's byte
/// range without its ending (LF, CR LF or CR).
struct PlainLines {
    /// Each line's start and end (exclusive), in order.
    private(set) var ranges: [Range<Int>] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        ranges.reserveCapacity(bytes.count / 24 + 1)
        var start = 0, i = 0
        let n = bytes.count
        while i < n {
            let byte = bytes[i]
            if byte == 0x0A || byte == 0x0D {
                ranges.append(start..<i)
                i += byte == 0x0D && i + 1 < n && bytes[i + 1] == 0x0A ? 2 : 1
                start = i
            } else {
                i += 1
            }
        }
        if start < n { ranges.append(start..<n) }
    }
}

/// Cue text in WebVTT's syntax from plain text: `&`, `<` and `>` written as references.
enum WebVTTEscaping {
    static func append(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case 0x26: out.append(contentsOf: "&amp;".utf8)
        case 0x3C: out.append(contentsOf: "&lt;".utf8)
        case 0x3E: out.append(contentsOf: "&gt;".utf8)
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
