/// A JSON document whose objects keep their keys in the order they were written, so output reads
/// the way it is declared (`file`, `format`, `duration`, `streams` …) and is byte-stable. (Not `indirect`: arrays
/// already hold their elements apart, and a value is not a heap box of its own — a million findings' data stay small.)
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.integer(a), .number(b)), let (.number(b), .integer(a)): Double(a) == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The member named `key` of an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// A number as a `Double`, whether written as an integer or not (`30` read back from JSON is an integer).
    public var doubleValue: Double? {
        switch self {
        case .number(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    /// A whole number as an `Int`, whether written as an integer or not.
    public var intValue: Int? {
        switch self {
        case .integer(let value): Int(exactly: value)
        case .number(let value): Int(exactly: value)
        default: nil
        }
    }
}

extension JSONValue {
    /// The document as JSON text: compact on one line, or pretty with two-space indents.
    public func serialized(pretty: Bool = false) -> String {
        var writer = JSONWriter(pretty: pretty)
        writer.value(self)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }
}

extension JSONValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case .object(let members):
            var container = encoder.container(keyedBy: MemberKey.self)
            for member in members { try container.encode(member.value, forKey: MemberKey(member.key)) }
        }
    }

    private struct MemberKey: CodingKey {
        let stringValue: String
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}
