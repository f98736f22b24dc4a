/// Writes JSON text straight into bytes, laid out as `JSONValue.serialized` lays it out (compact on one line, or
/// pretty with two-space indents), in time linear in what is written. Given `chunkHandler`, it hands its bytes
/// on whenever they reach a chunk (after a value ends), so a report of any size is written in flat memory.
///
///     var writer = JSONWriter(pretty: true)
///     writer.beginObject()
///     writer.key("cues"); writer.beginArray(); writer.integer(1); writer.endArray()
///     writer.endObject()
///
/// The bytes go into a `ByteWriter` (a store per byte, not an array append): a writer is not copyable.
public struct JSONWriter: ~Copyable {
    /// Where the text goes.
    public var out: ByteWriter
    public let pretty: Bool
    /// With `pretty`: the members and elements of containers this deep or less get a line each; deeper containers are
    /// written on one line, compact (a long list of records one to a line). No limit by default.
    public var lineBreakDepth = Int.max
    /// How many containers are open where the next value goes.
    public var openContainers: Int { depth }
    private let streams: Bool
    /// How deep the open containers go, and for each of the first 64 whether it has no member or element yet
    /// (bit `depth - 1`); deeper containers' flags are in `deeperFirst`.
    private var depth = 0
    private var firstBits: UInt64 = 0
    private var deeperFirst: [Bool] = []
    private var afterKey = false

    /// `chunkHandler` gets the bytes written so far each time they reach a chunk (and at `finish()`).
    public init(pretty: Bool = false, chunkHandler: ((UnsafeBufferPointer<UInt8>) -> Void)? = nil) {
        self.pretty = pretty
        streams = chunkHandler != nil
        out = ByteWriter(chunkHandler: chunkHandler)
    }

    /// A writer for elements of an array that another writer opened `depth` containers deep: its bytes go after
    /// that writer's (`appendElements(of:count:)`), before its `endArray`. For writing the elements of a long
    /// array in slices, at once; `afterFirst` when elements come before this slice's.
    public init(pretty: Bool, elementsOfArrayAtDepth depth: Int, afterFirst: Bool, capacity: Int = 64 * 1024) {
        self.init(pretty: pretty)
        out.reserve(capacity)
        restartElements(atDepth: depth, afterFirst: afterFirst)
    }

    /// Empties a slice writer (keeping its buffer) for the next run of elements of the array `depth` deep.
    public mutating func restartElements(atDepth depth: Int, afterFirst: Bool) {
        out.removeAll()
        self.depth = 0
        firstBits = 0
        deeperFirst.removeAll()
        afterKey = false
        for _ in 0..<max(1, depth) { push(first: false) }
        setFirst(!afterFirst)
    }

    /// What has been written and not yet handed on.
    public var bytes: [UInt8] { out.bytes }

    /// Calls `body` with what has been written and not yet handed on (no copy).
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try out.withBytes(body)
    }

    /// Adds the bytes of a slice writer (`init(pretty:elementsOfArrayAtDepth:afterFirst:)`) that wrote `count`
    /// elements of the array this writer has open, and empties `slice` (keeping its capacity).
    public mutating func appendElements(_ slice: inout [UInt8], count elements: Int) {
        guard elements > 0 else { return }
        setFirst(false)
        slice.withUnsafeBufferPointer { out.appendHandingOn($0) }
        slice.removeAll(keepingCapacity: true)
    }

    /// Adds what the slice writer `slice` wrote (`count` elements of the array this writer has open): a
    /// streaming writer hands those bytes on as they are, without copying them. `slice` is left as it is.
    public mutating func appendElements(of slice: borrowing JSONWriter, count elements: Int) {
        guard elements > 0 else { return }
        setFirst(false)
        slice.out.withBytes { out.appendHandingOn($0) }
    }

    /// Hands the bytes left to the chunk handler (call once at the end when there is one).
    public mutating func finish() {
        out.finish()
    }

    /// A line break between top-level values (JSON Lines) or at the end of a document.
    public mutating func endLine() {
        out.append(0x0A)
        out.handOnIfFull()
    }

    // MARK: - Structure

    public mutating func beginObject() {
        beforeValue()
        append(UInt8(ascii: "{"))
        push(first: true)
    }

    public mutating func endObject() { end(UInt8(ascii: "}")) }

    public mutating func beginArray() {
        beforeValue()
        append(UInt8(ascii: "["))
        push(first: true)
    }

    public mutating func endArray() { end(UInt8(ascii: "]")) }

    /// An object member's name, written in the code (ASCII that needs no escaping); its value is the next thing
    /// written.
    public mutating func key(_ name: StaticString) {
        // The separator, the line break and indent, and the quoted name with its colon, in one write.
        let length = name.utf8CodeUnitCount
        let comma = depth > 0 && !isFirst
        let pretty = self.pretty && depth <= lineBreakDepth
        let indent = pretty && depth > 0 ? 2 * depth : -1
        if depth > 0 { setFirst(false) }
        out.write(atMost: length + indent + 6) { target in
            var i = 0
            if comma { target[0] = UInt8(ascii: ","); i = 1 }
            if indent >= 0 {
                target[i] = 0x0A
                (target + i + 1).update(repeating: 0x20, count: indent)
                i += 1 + indent
            }
            target[i] = UInt8(ascii: "\"")
            (target + i + 1).update(from: name.utf8Start, count: length)
            i += 1 + length
            target[i] = UInt8(ascii: "\"")
            target[i + 1] = UInt8(ascii: ":")
            i += 2
            if pretty { target[i] = 0x20; i += 1 }
            return i
        }
        afterKey = true
    }

    /// An object member's name from data (escaped as any string); its value is the next thing written.
    public mutating func key(named name: String) {
        separate()
        appendString(name)
        appendColon()
    }

    @inline(__always)
    private mutating func appendColon() {
        append(UInt8(ascii: ":"))
        if pretty, depth <= lineBreakDepth { append(UInt8(ascii: " ")) }
        afterKey = true
    }

    @inline(__always)
    private mutating func end(_ closing: UInt8) {
        let empty = isFirst
        pop()
        if pretty, !empty, depth < lineBreakDepth { newline() }
        append(closing)
        if streams { out.handOnIfFull() }
    }

    /// The comma and line break before a member or an array element.
    @inline(__always)
    private mutating func separate() {
        guard depth > 0 else { return }
        if isFirst {
            setFirst(false)
        } else {
            append(UInt8(ascii: ","))
        }
        if pretty, depth <= lineBreakDepth { newline() }
    }

    @inline(__always)
    private mutating func beforeValue() {
        if afterKey {
            afterKey = false
        } else {
            separate()
        }
    }

    @inline(__always)
    private mutating func newline() {
        out.append(0x0A)
        out.append(repeating: 0x20, count: 2 * depth)
    }

    // MARK: - Nesting

    @inline(__always)
    private var isFirst: Bool {
        depth <= 64 ? firstBits & (1 << (depth - 1)) != 0 : deeperFirst[depth - 65]
    }

    @inline(__always)
    private mutating func setFirst(_ value: Bool) {
        if depth <= 64 {
            let bit: UInt64 = 1 << (depth - 1)
            firstBits = value ? firstBits | bit : firstBits & ~bit
        } else {
            deeperFirst[depth - 65] = value
        }
    }

    @inline(__always)
    private mutating func push(first: Bool) {
        depth += 1
        if depth > 64 { deeperFirst.append(first) }
        setFirst(first)
    }

    @inline(__always)
    private mutating func pop() {
        if depth > 64 { deeperFirst.removeLast() }
        depth -= 1
    }

    // MARK: - Values

    public mutating func null() {
        beforeValue()
        append(StaticString("null"))
    }

    public mutating func bool(_ value: Bool) {
        beforeValue()
        append(value ? StaticString("true") : StaticString("false"))
    }

    public mutating func integer(_ value: Int64) {
        beforeValue()
        out.append(integer: value)
    }

    public mutating func integer(_ value: Int) { integer(Int64(value)) }

    /// The shortest text that reads back as the same Double; integral values without ".0"; NaN and ∞ as null.
    public mutating func number(_ value: Double) {
        beforeValue()
        if !value.isFinite {
            append(StaticString("null"))
        } else if value == value.rounded(), abs(value) < 1e15 {
            out.append(integer: Int64(value))
        } else {
            out.append(String(value))
        }
    }

    /// `milliseconds / 1000` written as `number` writes that Double (`1.5`, `2`, `0.001`), without making it one.
    public mutating func number(thousandths milliseconds: Int64) {
        guard milliseconds.magnitude < 1_000_000_000_000_000 else {
            number(Double(milliseconds) / 1000)
            return
        }
        beforeValue()
        let whole = milliseconds / 1000, fraction = Int(milliseconds.magnitude % 1000)
        if milliseconds < 0, whole == 0 { out.append(UInt8(ascii: "-")) }
        out.append(integer: whole)
        guard fraction != 0 else { return }
        out.append(UInt8(ascii: "."))
        out.append(0x30 + UInt8(fraction / 100))
        if fraction % 100 != 0 {
            out.append(0x30 + UInt8(fraction / 10 % 10))
            if fraction % 10 != 0 { out.append(0x30 + UInt8(fraction % 10)) }
        }
    }

    public mutating func string(_ value: String) {
        beforeValue()
        appendString(value)
    }

    /// Writes `value` and returns where its JSON text lies in the buffer, for `string(copying:)` (nil for a
    /// streaming writer, whose bytes may be handed on in between).
    public mutating func stringMarkingBytes(_ value: String) -> Range<Int>? {
        beforeValue()
        let start = out.count
        appendString(value)
        return streams ? nil : start..<out.count
    }

    /// The JSON text of a string written before (`stringMarkingBytes`), written again without escaping it again.
    public mutating func string(copying written: Range<Int>) {
        beforeValue()
        out.appendCopy(from: written.lowerBound, count: written.count)
    }

    /// A string given as UTF-8 bytes (valid UTF-8).
    public mutating func string(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        beforeValue()
        append(UInt8(ascii: "\""))
        appendEscapedInPieces(bytes)
        append(UInt8(ascii: "\""))
    }

    /// A whole `JSONValue`.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .integer(let number): integer(number)
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let items):
            beginArray()
            for item in items { self.value(item) }
            endArray()
        case .object(let members):
            beginObject()
            for member in members {
                key(named: member.key)
                self.value(member.value)
            }
            endObject()
        }
    }

    // MARK: - Bytes

    @inline(__always)
    private mutating func append(_ byte: UInt8) { out.append(byte) }

    @inline(__always)
    private mutating func append(_ text: StaticString) { out.append(text) }

    @inline(__always)
    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { out.append(bytes) }

    /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\r`, `\t` or `\u00XX`; runs of other
    /// bytes (any UTF-8) copied at once.
    @inline(__always)
    private mutating func appendString(_ value: String) {
        append(UInt8(ascii: "\""))
        if value.utf8.withContiguousStorageIfAvailable({ appendEscapedInPieces($0) }) == nil {
            var copy = value
            copy.withUTF8 { appendEscapedInPieces($0) }
        }
        append(UInt8(ascii: "\""))
    }

    /// A long string of a streaming writer is escaped a chunk at a time and handed on between chunks, so that a
    /// 100 MB string never sits whole in the buffer (pieces cut inside a UTF-8 sequence are copied as they are).
    @inline(__always)
    private mutating func appendEscapedInPieces(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard streams, utf8.count > ByteWriter.chunkSize else {
            appendEscaped(utf8)
            return
        }
        var from = 0
        while from < utf8.count {
            let to = min(utf8.count, from + ByteWriter.chunkSize)
            appendEscaped(UnsafeBufferPointer(rebasing: utf8[from..<to]))
            out.handOnIfFull()
            from = to
        }
    }

    /// The escaped bytes, written straight into the buffer (room for the worst case, 64 KB of input at a time).
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let source = utf8.baseAddress else { return }
        var from = 0
        while from < utf8.count {
            let to = min(utf8.count, from + 64 * 1024)
            out.write(atMost: 6 * (to - from)) { target in Self.escape(source + from, count: to - from, into: target) }
            from = to
        }
    }

    /// Writes the JSON string escape of `count` bytes at `source` to `target` (room for 6 bytes per byte);
    /// returns how many bytes it wrote.
    @inline(__always)
    private static func escape(_ source: UnsafePointer<UInt8>, count n: Int, into target: UnsafeMutablePointer<UInt8>) -> Int {
        let raw = UnsafeRawPointer(source), rawTarget = UnsafeMutableRawPointer(target)
        var i = 0, o = 0
        while i < n {
            // Eight bytes at a time while none needs escaping.
            while i + 8 <= n {
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if needsEscape(word) { break }
                rawTarget.storeBytes(of: word, toByteOffset: o, as: UInt64.self)
                i += 8
                o += 8
            }
            guard i < n else { break }
            let byte = source[i]
            i += 1
            if byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                target[o] = byte
                o += 1
                continue
            }
            target[o] = UInt8(ascii: "\\")
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): target[o + 1] = byte
            case 0x0A: target[o + 1] = UInt8(ascii: "n")
            case 0x0D: target[o + 1] = UInt8(ascii: "r")
            case 0x09: target[o + 1] = UInt8(ascii: "t")
            default:
                let hex: StaticString = "0123456789abcdef"
                target[o + 1] = UInt8(ascii: "u")
                target[o + 2] = UInt8(ascii: "0")
                target[o + 3] = UInt8(ascii: "0")
                target[o + 4] = hex.utf8Start[Int(byte >> 4)]
                target[o + 5] = hex.utf8Start[Int(byte & 0x0F)]
                o += 4
            }
            o += 2
        }
        return o
    }

    /// True when one of the eight bytes of `word` is `"`, `\` or below 0x20 (the bytes a JSON string escapes).
    /// A zero byte of `v` shows in `(v - 0x01…) & ~v & 0x80…`; a byte below 0x20 in `(v - 0x20…) & ~v & 0x80…`.
    @inline(__always)
    private static func needsEscape(_ word: UInt64) -> Bool {
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ 0x2222_2222_2222_2222, backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
        return ((quote &- 0x0101_0101_0101_0101) & ~quote & high) | ((backslash &- 0x0101_0101_0101_0101) & ~backslash & high)
            | ((word &- 0x2020_2020_2020_2020) & ~word & high) != 0
    }
}
