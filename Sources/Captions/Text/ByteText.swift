import Foundation

// Byte-level helpers shared by the readers: they work on UTF-8 bytes, not Strings, to read fast.

/// Read-only view of UTF-8 text with the operations the readers need.
///
/// Line breaks are LF, CR LF and a lone CR (WebVTT's rule). SRT files converted to Windows line endings twice
/// have CR CR LF: with `collapsesCarriageReturnRuns`, a run of CRs (up to 8) followed by LF is one line break.
struct ByteText {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The mapped file `bytes` lie in, if any, and where they start in it. Not counted: the reader that made
    /// this view keeps the file alive, and a view is copied into every helper (no reference counting there).
    private unowned(unsafe) let mapping: MappedFile?
    private let mappingOffset: Int
    /// False when the text has no CR at all (LF line breaks only): lines and strings then need no CR handling.
    let hasCarriageReturns: Bool
    /// True for SRT: CR CR LF (and longer runs of CRs before an LF) is one line break.
    let collapsesCarriageReturnRuns: Bool

    init(bytes: UnsafeBufferPointer<UInt8>, mapping: MappedFile? = nil, collapsesCarriageReturnRuns: Bool = false) {
        self.bytes = bytes
        self.mapping = mapping
        self.collapsesCarriageReturnRuns = collapsesCarriageReturnRuns
        hasCarriageReturns = bytes.baseAddress.map { memchr($0, 0x0D, bytes.count) != nil } ?? false
        if let mapping, let base = bytes.baseAddress, let mappingBase = mapping.buffer.baseAddress {
            mappingOffset = mappingBase.distance(to: base)
        } else {
            mappingOffset = 0
        }
    }

    /// Tells a mapped file that everything from `releasedUpTo` to `position` has been read: its pages are given
    /// back once a few megabytes have gathered (`releasedUpTo` is the caller's own, so parsers of different parts
    /// of a file each give back theirs).
    @inline(__always)
    func consumed(upTo position: Int, releasedUpTo: inout Int) {
        // The distance first: taking `mapping` retains it, and parsers of other parts retain the same object.
        guard position - releasedUpTo >= MappedFile.releaseStep, let mapping else { return }
        mapping.release((mappingOffset + releasedUpTo)..<(mappingOffset + position))
        releasedUpTo = position
    }

    /// The same view of `range` (its positions start at 0), with the same mapping and line rules.
    func slice(_ range: Range<Int>) -> ByteText {
        ByteText(bytes: UnsafeBufferPointer(rebasing: bytes[range]), mapping: mapping, collapsesCarriageReturnRuns: collapsesCarriageReturnRuns)
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
    /// `finder` remembers where the next line breaks are, so that a file of any line endings is scanned once.
    func scanLine(from start: Int, _ finder: inout LineEndFinder) -> (end: Int, hasArrow: Bool) {
        let n = bytes.count
        guard start < n, let base = bytes.baseAddress else { return (start, false) }
        let end = finder.lineEnd(in: self, from: start)
        var from = start + 2
        while from < end, let found = memchr(base + from, 0x3E, end - from) {
            let gt = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if base[gt - 1] == 0x2D, base[gt - 2] == 0x2D { return (end, true) }
            from = gt + 1
        }
        return (end, false)
    }

    /// The start of the next line after a line ending at `end` (skips one CR, LF or CRLF; for SRT, a run of
    /// CRs followed by LF).
    func nextLineStart(after end: Int) -> Int {
        guard end < bytes.count else { return end }
        if bytes[end] == 0x0D {
            if end + 1 < bytes.count, bytes[end + 1] == 0x0A { return end + 2 }
            if collapsesCarriageReturnRuns, let afterRun = endOfCarriageReturnRun(from: end) { return afterRun }
        }
        return end + 1
    }

    /// Where the line break starting with the CR at `start` ends when it is a run of at most 8 CRs followed
    /// by LF (CR CR LF: a file converted to Windows line endings twice); nil otherwise. Bounded, so linear.
    @inline(__always)
    private func endOfCarriageReturnRun(from start: Int) -> Int? {
        var i = start + 1
        let limit = min(bytes.count, start + 8)
        while i < limit, bytes[i] == 0x0D { i += 1 }
        return i < bytes.count && bytes[i] == 0x0A && i > start + 1 ? i + 1 : nil
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

    /// The text of `start..<end` with every line break (CR, CRLF, LF; for SRT, CR CR LF) written as LF.
    func string(_ start: Int, _ end: Int) -> String {
        guard start < end else { return "" }
        let base = bytes.baseAddress! + start
        let length = end - start
        if !hasCarriageReturns || !containsCarriageReturn(base, length) {
            return String(decoding: UnsafeBufferPointer(start: base, count: length), as: UTF8.self)
        }
        // A short text is normalized on the stack and made a string as LF text is; a long one in place.
        if length <= 1024 {
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { output in
                String(
                    decoding: UnsafeBufferPointer(start: output.baseAddress, count: normalizingLineBreaks(start, end, into: output.baseAddress!)),
                    as: UTF8.self)
            }
        }
        return String(unsafeUninitializedCapacity: length) { normalizingLineBreaks(start, end, into: $0.baseAddress!) }
    }

    /// Copies `start..<end` to `output` with each line break written as one LF; returns how many bytes it wrote.
    /// The runs between CRs are copied at once.
    @inline(__always)
    private func normalizingLineBreaks(_ start: Int, _ end: Int, into output: UnsafeMutablePointer<UInt8>) -> Int {
        let base = bytes.baseAddress!
        var written = 0
        var i = start
        while i < end {
            let run = memchr(base + i, 0x0D, end - i).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? end
            if run > i {
                (output + written).update(from: base + i, count: run - i)
                written += run - i
            }
            guard run < end else { break }
            output[written] = 0x0A
            written += 1
            i = min(end, nextLineStart(after: run))
        }
        return written
    }
}

/// Finds line ends in linear time whatever the line endings: it remembers the next LF and the next CR found,
/// so each byte is searched once (searching for LF afresh from every line of a CR-only file is quadratic).
struct LineEndFinder {
    private var nextLF = -1
    private var nextCR = -1

    init() {}

    /// The end of the line starting at `start` (index of its CR or LF, or the end of the text).
    mutating func lineEnd(in text: ByteText, from start: Int) -> Int {
        let n = text.count
        guard let base = text.bytes.baseAddress, start < n else { return n }
        if nextLF < start {
            nextLF = memchr(base + start, 0x0A, n - start).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? n
        }
        guard text.hasCarriageReturns else { return nextLF }
        if nextCR < start {
            nextCR = memchr(base + start, 0x0D, n - start).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? n
        }
        return min(nextLF, nextCR)
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
