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
    /// The mapped file `bytes` lie in, if any, and where they start in it. Not counted: the reader that made
    /// this view keeps the file alive, and a view is copied into every helper (no reference counting there).
    private unowned(unsafe) let mapping: MappedFile?
    private let mappingOffset: Int
    /// False when the text has no CR at all (LF line breaks only): lines and strings then need no CR handling.
    let hasCarriageReturns: Bool

    init(bytes: UnsafeBufferPointer<UInt8>, mapping: MappedFile? = nil) {
        self.bytes = bytes
        self.mapping = mapping
        hasCarriageReturns = bytes.baseAddress.map { memchr($0, 0x0D, bytes.count) != nil } ?? false
        if let mapping, let base = bytes.baseAddress, let mappingBase = mapping.buffer.baseAddress {
            mappingOffset = mappingBase.distance(to: base)
        } else {
            mappingOffset = 0
        }
    }

    /// Tells a mapped file that everything before `position` has been read.
    @inline(__always)
    func consumed(upTo position: Int) {
        mapping?.release(upTo: mappingOffset + position)
    }

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

    /// The end of the line starting at `start`, and whether the line contains `-->` (found with memchr).
    @inlinable
    func scanLine(from start: Int) -> (end: Int, hasArrow: Bool) {
        let n = bytes.count
        guard start < n, let base = bytes.baseAddress else { return (start, false) }
        var end = n
        if let lf = memchr(base + start, 0x0A, n - start) { end = base.distance(to: lf.assumingMemoryBound(to: UInt8.self)) }
        if hasCarriageReturns, let cr = memchr(base + start, 0x0D, end - start) {
            end = base.distance(to: cr.assumingMemoryBound(to: UInt8.self))
        }
        var from = start + 2
        while from < end, let found = memchr(base + from, 0x3E, end - from) {
            let gt = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if base[gt - 1] == 0x2D, base[gt - 2] == 0x2D { return (end, true) }
            from = gt + 1
        }
        return (end, false)
    }

    /// The start of the next line after a line ending at `end` (skips one CR, LF or CRLF).
    @inlinable
    func nextLineStart(after end: Int) -> Int {
        guard end < bytes.count else { return end }
        if bytes[end] == 0x0D, end + 1 < bytes.count, bytes[end + 1] == 0x0A { return end + 2 }
        return end + 1
    }

    /// How many times "-->" occurs: an upper bound on the number of cues, to size arrays once.
    func arrowCount() -> Int {
        guard let base = bytes.baseAddress, bytes.count >= 3 else { return 0 }
        var count = 0
        var i = 2
        let n = bytes.count
        while i < n {
            guard let found = memchr(base + i, 0x3E, n - i) else { break }
            let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if bytes[index - 1] == 0x2D, bytes[index - 2] == 0x2D { count += 1 }
            i = index + 1
        }
        return count
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
        if !hasCarriageReturns || !containsCarriageReturn(base, length) {
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

/// True when the bytes hold a CR (short runs are scanned inline, long ones with memchr).
@inline(__always)
private func containsCarriageReturn(_ base: UnsafePointer<UInt8>, _ length: Int) -> Bool {
    if length > 64 { return memchr(base, 0x0D, length) != nil }
    for i in 0..<length where base[i] == 0x0D { return true }
    return false
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
