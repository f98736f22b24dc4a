/// Bytes written into a buffer of their own and, given `chunkHandler`, handed on whenever they reach a chunk: the
/// report writers (text, JSON, SARIF, JUnit, HTML) write through one, so a report of any size is written in time
/// linear in its size and in flat memory. Not copyable: the buffer has one owner.
public struct ByteWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    public private(set) var count = 0
    private var capacity: Int
    private let chunkHandler: ((UnsafeBufferPointer<UInt8>) -> Void)?

    /// How many bytes are gathered before they are handed on.
    public static let chunkSize = 256 * 1024

    /// `chunkHandler` gets the bytes written so far each time `handOnIfFull()` finds a chunk, and at `finish()`.
    public init(capacity: Int = 256, chunkHandler: ((UnsafeBufferPointer<UInt8>) -> Void)? = nil) {
        self.chunkHandler = chunkHandler
        self.capacity = max(16, chunkHandler == nil ? capacity : Self.chunkSize + 4096)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written and not yet handed on, as an array.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Calls `body` with the bytes written and not yet handed on (no copy).
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// The bytes written, as text (the writer is left empty).
    public mutating func takeString() -> String {
        defer { count = 0 }
        return String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }

    /// Empties the writer (keeping its buffer).
    public mutating func removeAll() { count = 0 }

    /// Hands the bytes on when they make a chunk (call it between pieces that may be cut apart).
    @inline(__always)
    public mutating func handOnIfFull() {
        if count >= Self.chunkSize { handOn() }
    }

    /// Hands the bytes left to the chunk handler (call once at the end when there is one).
    public mutating func finish() { handOn() }

    /// Adds `bytes` after those written: with a chunk handler, hands on what was written and then `bytes`
    /// themselves in chunk-size pieces (no copy here); without one, appends them.
    public mutating func appendHandingOn(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let chunkHandler, bytes.count >= Self.chunkSize / 4 else {
            var from = 0
            while from < bytes.count {
                let to = min(bytes.count, from + Self.chunkSize)
                append(UnsafeBufferPointer(rebasing: bytes[from..<to]))
                handOnIfFull()
                from = to
            }
            return
        }
        handOn()
        var from = 0
        while from < bytes.count {
            let to = min(bytes.count, from + Self.chunkSize)
            chunkHandler(UnsafeBufferPointer(rebasing: bytes[from..<to]))
            from = to
        }
    }

    private mutating func handOn() {
        guard let chunkHandler, count > 0 else { return }
        chunkHandler(UnsafeBufferPointer(start: base, count: count))
        count = 0
    }

    // MARK: - Writing

    /// Room for `extra` more bytes.
    @inline(__always)
    public mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(extra) }
    }

    private mutating func grow(_ extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Lets `body` write at most `maximum` bytes straight into the buffer; it returns how many it wrote.
    @inline(__always)
    public mutating func write(atMost maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maximum)
        count += body(base + count)
    }

    @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count)
        if bytes.count <= 16 {
            for i in 0..<bytes.count { base[count + i] = source[i] }
        } else {
            (base + count).update(from: source, count: bytes.count)
        }
        count += bytes.count
    }

    @inline(__always)
    public mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// The UTF-8 bytes of `text`.
    @inline(__always)
    public mutating func append(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            var copy = text
            copy.withUTF8 { append($0) }
        }
    }

    /// `count` copies of `byte`.
    @inline(__always)
    public mutating func append(repeating byte: UInt8, count repeats: Int) {
        reserve(repeats)
        if repeats <= 16 {
            for i in 0..<repeats { base[count + i] = byte }
        } else {
            (base + count).update(repeating: byte, count: repeats)
        }
        count += repeats
    }

    /// `length` bytes written before, from `start` (a count read then, with nothing handed on since), again.
    public mutating func appendCopy(from start: Int, count length: Int) {
        guard start >= 0, length > 0, start + length <= count else { return }
        reserve(length)
        (base + count).update(from: base + start, count: length)
        count += length
    }

    /// A whole number in decimal.
    public mutating func append(integer value: Int64) {
        if value >= 0, value < 10 {
            append(0x30 + UInt8(value))
            return
        }
        reserve(20)
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 0
        var probe = magnitude
        repeat {
            digits += 1
            probe /= 10
        } while probe > 0
        var i = count + digits
        repeat {
            i -= 1
            base[i] = 0x30 + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        count += digits
    }

    @inline(__always)
    public mutating func append(integer value: Int) { append(integer: Int64(value)) }

    /// `12.345` (seconds with three decimals, as the text report writes times; see `TextReport.seconds`).
    public mutating func append(seconds value: Double) {
        let milliseconds = Int64(saturating: (value * 1000).rounded())
        if milliseconds < 0 { append(UInt8(ascii: "-")) }
        append(integer: Int64(milliseconds.magnitude / 1000))
        let fraction = Int(milliseconds.magnitude % 1000)
        reserve(4)
        base[count] = UInt8(ascii: ".")
        base[count + 1] = 0x30 + UInt8(fraction / 100)
        base[count + 2] = 0x30 + UInt8(fraction / 10 % 10)
        base[count + 3] = 0x30 + UInt8(fraction % 10)
        count += 4
    }

    /// Text for XML attributes and content, escaped by `XMLText`.
    public mutating func append(xmlEscaped text: String, apostrophes: Bool = true) {
        var text = text
        text.withUTF8 { utf8 in XMLText.escapedPieces(of: utf8, apostrophes: apostrophes) { append($0) } }
    }
}
