/// Turns any `Encodable` into a `JSONValue`, keeping keys in the order `encode(to:)` writes them
/// (declaration order for synthesized conformances). `nil` optionals are left out, as `JSONEncoder` does.
///
/// Containers collect their members and become a `JSONValue` once, when the value they belong to is done, so
/// encoding is linear in the size of the result (copying a container into its parent at every write is not).
public struct JSONValueEncoder {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try JSONValueEncoder.box(value, codingPath: [])
    }

    static func box<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> JSONValue {
        switch value {
        case let value as JSONValue: return value
        case let value as Double: return .number(value)
        case let value as Float: return .number(Double(value))
        case let value as Int: return .integer(Int64(value))
        case let value as Int64: return .integer(value)
        case let value as Int32: return .integer(Int64(value))
        case let value as UInt32: return .integer(Int64(value))
        case let value as String: return .string(value)
        case let value as Bool: return .bool(value)
        default:
            let encoder = ValueEncoder(codingPath: codingPath)
            try value.encode(to: encoder)
            return encoder.node.value
        }
    }
}

/// A value being encoded: nothing yet, a finished value, or a container still being filled.
private final class Node {
    enum Content {
        case empty
        case value(JSONValue)
        case object(ObjectStorage)
        case array(ArrayStorage)
    }

    var content = Content.empty

    /// The finished value (containers made into `JSONValue` here, once).
    var value: JSONValue {
        switch content {
        case .empty: .object([])
        case .value(let value): value
        case .object(let object): .object(object.members.map { ($0.key, $0.value.value) })
        case .array(let array): .array(array.items.map(\.value))
        }
    }

    /// The object this node holds, made one if it holds nothing (a type may ask for its container twice).
    func object() -> ObjectStorage {
        if case .object(let object) = content { return object }
        let object = ObjectStorage()
        content = .object(object)
        return object
    }

    func array() -> ArrayStorage {
        if case .array(let array) = content { return array }
        let array = ArrayStorage()
        content = .array(array)
        return array
    }
}

/// A member or element: a finished value, or a nested container (still being filled by its own container).
private enum Slot {
    case value(JSONValue)
    case nested(Node)

    var value: JSONValue {
        switch self {
        case .value(let value): value
        case .nested(let node): node.value
        }
    }
}

private final class ObjectStorage {
    var members: [(key: String, value: Slot)] = []
    /// Key → position, built once an object has many members (for a key written twice, which replaces).
    private var positions: [String: Int]?

    func set(_ key: String, _ slot: Slot) {
        if let index = position(of: key) {
            members[index].value = slot
            return
        }
        positions?[key] = members.count
        members.append((key, slot))
    }

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        if members.count < 16 { return members.firstIndex { $0.key == key } }
        var built: [String: Int] = [:]
        for (index, member) in members.enumerated() { built[member.key] = index }
        positions = built
        return built[key]
    }
}

private final class ArrayStorage {
    var items: [Slot] = []
}

private final class ValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any] = [:]
    let node = Node()

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(object: node.object(), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(array: node.array(), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(codingPath: codingPath, node: node)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: ObjectStorage
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { object.set(key.stringValue, .value(.null)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(key.stringValue, .value(try JSONValueEncoder.box(value, codingPath: codingPath + [key])))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = Node()
        object.set(key.stringValue, .nested(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: nested.object(), codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = Node()
        object.set(key.stringValue, .nested(nested))
        return UnkeyedContainer(array: nested.array(), codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { ValueEncoder(codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ValueEncoder(codingPath: codingPath + [key]) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let array: ArrayStorage
    let codingPath: [any CodingKey]

    var count: Int { array.items.count }

    mutating func encodeNil() throws { array.items.append(.value(.null)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        array.items.append(.value(try JSONValueEncoder.box(value, codingPath: codingPath)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = Node()
        array.items.append(.nested(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: nested.object(), codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = Node()
        array.items.append(.nested(nested))
        return UnkeyedContainer(array: nested.array(), codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder { ValueEncoder(codingPath: codingPath) }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let codingPath: [any CodingKey]
    let node: Node

    mutating func encodeNil() throws { node.content = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        node.content = .value(try JSONValueEncoder.box(value, codingPath: codingPath))
    }
}
