/// Reading JSON back into `JSONValue` (object members keep their order), and check results from it.
extension JSONValue {
    public struct ParseError: Error, CustomStringConvertible {
        public let offset: Int
        public init(offset: Int) { self.offset = offset }
        public var description: String { "invalid JSON at byte \(offset)" }
    }

    /// Parses a JSON text.
    public static func parse(_ text: String) throws(ParseError) -> JSONValue {
        var parser = Parser(bytes: Array(text.utf8))
        let value = try parser.value()
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw ParseError(offset: parser.index) }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D { index += 1 }
        }

        mutating func value() throws(ParseError) -> JSONValue {
            skipSpace()
            guard index < bytes.count else { throw ParseError(offset: index) }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [(key: String, value: JSONValue)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipSpace()
                    let key = try string()
                    skipSpace()
                    try expect(UInt8(ascii: ":"))
                    members.append((key, try value()))
                    skipSpace()
                    guard index < bytes.count else { throw ParseError(offset: index) }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect(UInt8(ascii: "}"))
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [JSONValue] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    items.append(try value())
                    skipSpace()
                    guard index < bytes.count else { throw ParseError(offset: index) }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect(UInt8(ascii: "]"))
                    return .array(items)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default:
                return try number()
            }
        }

        mutating func expect(_ byte: UInt8) throws(ParseError) {
            guard index < bytes.count, bytes[index] == byte else { throw ParseError(offset: index) }
            index += 1
        }

        mutating func literal(_ word: String) throws(ParseError) {
            for byte in word.utf8 { try expect(byte) }
        }

        mutating func number() throws(ParseError) -> JSONValue {
            let start = index
            var isInteger = true
            while index < bytes.count {
                let byte = bytes[index]
                if byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
                    index += 1
                } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                    isInteger = false
                    index += 1
                } else {
                    break
                }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if isInteger, let integer = Int64(text) { return .integer(integer) }
            guard let number = Double(text) else { throw ParseError(offset: start) }
            return .number(number)
        }

        /// A string: runs without escapes are taken as they are (one String from the bytes); escapes are
        /// decoded into a byte buffer.
        mutating func string() throws(ParseError) -> String {
            try expect(UInt8(ascii: "\""))
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
            guard index < bytes.count else { throw ParseError(offset: index) }
            if bytes[index] == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
            }
            var decoded = Array(bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") { return String(decoding: decoded, as: UTF8.self) }
                guard byte == UInt8(ascii: "\\") else {
                    decoded.append(byte)
                    continue
                }
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                var scalar: Unicode.Scalar
                switch escape {
                case UInt8(ascii: "n"): scalar = "\n"
                case UInt8(ascii: "t"): scalar = "\t"
                case UInt8(ascii: "r"): scalar = "\r"
                case UInt8(ascii: "b"): scalar = "\u{08}"
                case UInt8(ascii: "f"): scalar = "\u{0C}"
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        let low = try hex4()
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                default: scalar = Unicode.Scalar(escape)
                }
                decoded.append(contentsOf: UTF8.encode(scalar)!)
            }
            throw ParseError(offset: index)
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16) else {
                throw ParseError(offset: index)
            }
            index += 4
            return value
        }
    }
}
