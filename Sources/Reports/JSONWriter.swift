/// Writes JSON text straight into bytes, laid out as `JSONValue.serialized` lays it out (compact on one line, or
/// pretty with two-space indents), in time linear in what is written. Given `chunkHandler`, it hands its bytes
/// on whenever they reach a chunk (after a value ends), so a report of any size is written in flat memory.
///
///     var writer = JSONWriter(pretty: true)
///     writer.beginObject()
///     writer.key("cues"); writer.beginArray(); writer.integer(1); writer.endArray()
///     writer.endObject()
public struct JSONWriter {
    /// What has been written and not yet handed on.
    public private(set) var bytes: [UInt8] = []
    public let pretty: Bool
    private let chunkHandler: ((inout [UInt8]) -> Void)?
    /// Per open container: true until its first member or element is written.
    private var isFirst: [Bool] = []
    private var afterKey = false

    /// How many bytes are gathered before they are handed on.
    public static let chunkSize = 256 * 1024

    /// `chunkHandler` gets the bytes written so far (and may empty them) each time they reach `chunkSize`.
    public init(pretty: Bool = false, chunkHandler: ((inout [UInt8]) -> Void)? = nil) {
        self.pretty = pretty
        self.chunkHandler = chunkHandler
        bytes.reserveCapacity(chunkHandler == nil ? 256 : Self.chunkSize + 4096)
    }

    /// Hands the bytes left to the chunk handler (call once at the end when there is one).
    public mutating func finish() {
        if let chunkHandler, !bytes.isEmpty { chunkHandler(&bytes) }
    }

    /// A line break between top-level values (JSON Lines) or at the end of a document.
    public mutating func endLine() {
        bytes.append(0x0A)
        if let chunkHandler, bytes.count >= Self.chunkSize { chunkHandler(&bytes) }
    }

    // MARK: - Structure

    public mutating func beginObject() {
        beforeValue()
        bytes.append(UInt8(ascii: "{"))
        isFirst.append(true)
    }

    public mutating func endObject() { end(UInt8(ascii: "}")) }

    public mutating func beginArray() {
        beforeValue()
        bytes.append(UInt8(ascii: "["))
        isFirst.append(true)
    }

    public mutating func endArray() { end(UInt8(ascii: "]")) }

    /// An object member's name; its value is the next thing written.
    public mutating func key(_ name: String) {
        separate()
        appendString(name)
        if pretty {
            bytes.append(UInt8(ascii: ":"))
            bytes.append(UInt8(ascii: " "))
        } else {
            bytes.append(UInt8(ascii: ":"))
        }
        afterKey = true
    }

    private mutating func end(_ closing: UInt8) {
        let empty = isFirst.removeLast()
        if pretty, !empty { newline() }
        bytes.append(closing)
        if let chunkHandler, bytes.count >= Self.chunkSize { chunkHandler(&bytes) }
    }

    /// The comma and line break before a member or an array element.
    private mutating func separate() {
        if isFirst.isEmpty { return }
        if isFirst[isFirst.count - 1] {
            isFirst[isFirst.count - 1] = false
        } else {
            bytes.append(UInt8(ascii: ","))
        }
        if pretty { newline() }
    }

    private mutating func beforeValue() {
        if afterKey {
            afterKey = false
        } else {
            separate()
        }
    }

    private mutating func newline() {
        bytes.append(0x0A)
        for _ in 0..<isFirst.count {
            bytes.append(0x20)
            bytes.append(0x20)
        }
    }

    // MARK: - Values

    public mutating func null() {
        beforeValue()
        bytes.append(contentsOf: "null".utf8)
    }

    public mutating func bool(_ value: Bool) {
        beforeValue()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    public mutating func integer(_ value: Int64) {
        beforeValue()
        appendInteger(value)
    }

    public mutating func integer(_ value: Int) { integer(Int64(value)) }

    /// The shortest text that reads back as the same Double; integral values without ".0"; NaN and ∞ as null.
    public mutating func number(_ value: Double) {
        beforeValue()
        if !value.isFinite {
            bytes.append(contentsOf: "null".utf8)
        } else if value == value.rounded(), abs(value) < 1e15 {
            appendInteger(Int64(value))
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    public mutating func string(_ value: String) {
        beforeValue()
        appendString(value)
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
                key(member.key)
                self.value(member.value)
            }
            endObject()
        }
    }

    private mutating func appendInteger(_ value: Int64) {
        if value >= 0, value < 10 {
            bytes.append(0x30 + UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for Int64.min's 20 characters
        withUnsafeMutableBytes(of: &digits) { buffer in
            var magnitude = value.magnitude
            var i = buffer.count
            repeat {
                i -= 1
                buffer[i] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                i -= 1
                buffer[i] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: buffer[i...])
        }
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\r`, `\t` or `\u00XX`; runs of other
    /// bytes (any UTF-8) copied at once.
    private mutating func appendString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            var i = 0
            let n = utf8.count
            while i < n {
                let byte = utf8[i]
                if byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                    i += 1
                    continue
                }
                if i > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
                case 0x0A: bytes.append(contentsOf: "\\n".utf8)
                case 0x0D: bytes.append(contentsOf: "\\r".utf8)
                case 0x09: bytes.append(contentsOf: "\\t".utf8)
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: "\\u00".utf8)
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0x0F)])
                }
                i += 1
                runStart = i
            }
            if n > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<n])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
