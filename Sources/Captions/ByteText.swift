import Foundation

// Byte-level helpers shared by the readers: they work on UTF-8 bytes, not Strings, to read fast.

extension UInt8 {
    /// ASCII whitespace as WebVTT and HTML define it: tab, LF, FF, CR, space.
    @inlinable var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0C || self == 0x0D }
    @inlinable var isASCIIDigit: Bool { self &- 0x30 < 10 }
    @inlinable var isASCIIAlphanumeric: Bool { isASCIIDigit || (self | 0x20) &- 0x61 < 26 }
}

/// Read-only view of UTF-8 text with the operations the readers need.
struct ByteText {
    let bytes: UnsafeBufferPointer<UInt8>

    var count: Int { bytes.count }

    @inlinable subscript(i: Int) -> UInt8 { bytes[i] }

    /// The end of the line starting at `start` (index of its CR or LF, or the end of the text).
    @inlinable
    func lineEnd(from start: Int) -> Int {
        var i = start
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b == 0x0A || b == 0x0D { return i }
            i += 1
        }
        return n
    }

    /// The start of the next line after a line ending at `end` (skips one CR, LF or CRLF).
    @inlinable
    func nextLineStart(after end: Int) -> Int {
        guard end < bytes.count else { return end }
        if bytes[end] == 0x0D, end + 1 < bytes.count, bytes[end + 1] == 0x0A { return end + 2 }
        return end + 1
    }

    /// True when `start..<end` contains `-->`.
    @inlinable
    func containsArrow(_ start: Int, _ end: Int) -> Bool {
        var i = start + 2
        while i < end {
            if bytes[i] == 0x3E, bytes[i - 1] == 0x2D, bytes[i - 2] == 0x2D { return true }
            i += 1
        }
        return false
    }

    /// True when `start..<end` holds only ASCII whitespace.
    func isBlank(_ start: Int, _ end: Int) -> Bool {
        var i = start
        while i < end {
            if !bytes[i].isASCIIWhitespace { return false }
            i += 1
        }
        return true
    }

    /// True when `start..<end` begins with the ASCII `prefix`.
    func hasPrefix(_ prefix: StaticString, _ start: Int, _ end: Int) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard end - start >= length else { return false }
        let p = prefix.utf8Start
        for k in 0..<length where bytes[start + k] != p[k] { return false }
        return true
    }

    /// The text of `start..<end` with every CR, CRLF and LF written as LF.
    func string(_ start: Int, _ end: Int) -> String {
        guard start < end else { return "" }
        let base = bytes.baseAddress! + start
        let length = end - start
        if memchr(base, 0x0D, length) == nil {
            return String(decoding: UnsafeBufferPointer(start: base, count: length), as: UTF8.self)
        }
        var normalized: [UInt8] = []
        normalized.reserveCapacity(length)
        var i = start
        while i < end {
            let b = bytes[i]
            if b == 0x0D {
                normalized.append(0x0A)
                if i + 1 < end, bytes[i + 1] == 0x0A { i += 1 }
            } else {
                normalized.append(b)
            }
            i += 1
        }
        return String(decoding: normalized, as: UTF8.self)
    }
}

/// Replaces every NUL byte with U+FFFD (EF BF BD), as the WebVTT parser requires; nil when there is none.
func replacingNulls(in bytes: [UInt8]) -> [UInt8]? {
    guard !bytes.isEmpty, bytes.withUnsafeBufferPointer({ memchr($0.baseAddress!, 0, $0.count) != nil }) else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count + 16)
    for b in bytes {
        if b == 0 { output.append(contentsOf: [0xEF, 0xBF, 0xBD]) } else { output.append(b) }
    }
    return output
}
