/// Turns any `Encodable` into a `JSONValue`, keeping keys in the order `encode(to:)` writes them
/// (declaration order for synthesized conformances). `nil` optionals are left out, as `JSONEncoder` does.
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
            return encoder.storage.value ?? .object([])
        }
    }
}

/// Where a container writes: filled in as the value is encoded. A nested container's slot passes each
/// write on to its parent container.
private final class Slot {
    private let onWrite: ((JSONValue) -> Void)?
    var value: JSONValue? {
        didSet { if let value { onWrite?(value) } }
    }

    init(onWrite: ((JSONValue) -> Void)? = nil) { self.onWrite = onWrite }
}

private final class ValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any] = [:]
    let storage = Slot()

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object = ObjectSlot()
        storage.value = .object([])
        return KeyedEncodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath, owner: storage))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        storage.value = .array([])
        return UnkeyedContainer(codingPath: codingPath, owner: storage)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(codingPath: codingPath, owner: storage)
    }
}

private final class ObjectSlot {
    var members: [(key: String, value: JSONValue)] = []
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: ObjectSlot
    let codingPath: [any CodingKey]
    let owner: Slot

    private func set(_ key: Key, _ value: JSONValue) {
        if let i = object.members.firstIndex(where: { $0.key == key.stringValue }) {
            object.members[i].value = value
        } else {
            object.members.append((key.stringValue, value))
        }
        owner.value = .object(object.members)
    }

    mutating func encodeNil(forKey key: Key) throws { set(key, .null) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(key, try JSONValueEncoder.box(value, codingPath: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        set(key, .object([]))
        let nested = NestedSlot(parent: self, key: key)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: ObjectSlot(), codingPath: codingPath + [key], owner: nested.slot))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        set(key, .array([]))
        let nested = NestedSlot(parent: self, key: key)
        return UnkeyedContainer(codingPath: codingPath + [key], owner: nested.slot)
    }

    mutating func superEncoder() -> any Encoder { ValueEncoder(codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ValueEncoder(codingPath: codingPath + [key]) }

    /// A child slot whose writes are copied into this container under `key`.
    private struct NestedSlot {
        let slot: Slot
        init(parent: KeyedContainer, key: Key) {
            slot = Slot { parent.set(key, $0) }
        }
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let codingPath: [any CodingKey]
    let owner: Slot
    private let items = ItemsSlot()

    init(codingPath: [any CodingKey], owner: Slot) {
        self.codingPath = codingPath
        self.owner = owner
        owner.value = .array([])
    }

    var count: Int { items.values.count }

    private func append(_ value: JSONValue) {
        items.values.append(value)
        owner.value = .array(items.values)
    }

    private func replace(at index: Int, _ value: JSONValue) {
        items.values[index] = value
        owner.value = .array(items.values)
    }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try JSONValueEncoder.box(value, codingPath: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let index = count
        append(.object([]))
        let slot = Slot(onWrite: { [self] in replace(at: index, $0) })
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: ObjectSlot(), codingPath: codingPath, owner: slot))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let index = count
        append(.array([]))
        let slot = Slot(onWrite: { [self] in replace(at: index, $0) })
        return UnkeyedContainer(codingPath: codingPath, owner: slot)
    }

    mutating func superEncoder() -> any Encoder { ValueEncoder(codingPath: codingPath) }
}

private final class ItemsSlot {
    var values: [JSONValue] = []
}

private struct SingleContainer: SingleValueEncodingContainer {
    let codingPath: [any CodingKey]
    let owner: Slot

    mutating func encodeNil() throws { owner.value = .null }
    mutating func encode<T: Encodable>(_ value: T) throws {
        owner.value = try JSONValueEncoder.box(value, codingPath: codingPath)
    }
}
