/// Reads any `Decodable` from a `JSONValue`: how a check's typed metrics are read back from a result (made in this
/// run, or parsed from the results store or a JSON report). Numbers read as either kind: `30` parsed from JSON is an
/// integer and reads as a `Double`; `30.0` reads as an `Int`. A missing key reads as `nil` for optionals.
public struct JSONValueDecoder {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder.unbox(value, as: type, codingPath: [])
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func unbox<T: Decodable>(_ value: JSONValue, as type: T.Type, codingPath: [any CodingKey]) throws -> T {
        func mismatch(_ expected: String) -> DecodingError {
            .typeMismatch(type, DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.kindName)"))
        }
        switch type {
        case is JSONValue.Type: return value as! T
        case is Double.Type:
            guard let number = value.doubleValue else { throw mismatch("a number") }
            return number as! T
        case is Int.Type:
            guard let number = value.intValue else { throw mismatch("a whole number") }
            return number as! T
        case is Int64.Type:
            guard let number = value.intValue else { throw mismatch("a whole number") }
            return Int64(number) as! T
        case is String.Type:
            guard case .string(let text) = value else { throw mismatch("a string") }
            return text as! T
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw mismatch("true or false") }
            return flag as! T
        case let integer as any BinaryInteger.Type:
            guard let number = value.intValue, let exact = integer.init(exactly: number) else { throw mismatch("a whole number in range") }
            return exact as! T
        case let floating as any BinaryFloatingPoint.Type:
            guard let number = value.doubleValue else { throw mismatch("a number") }
            return floating.init(number) as! T
        default:
            return try T(from: ValueDecoder(value: value, codingPath: codingPath))
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw DecodingError.typeMismatch(
                [String: Any].self, DecodingError.Context(codingPath: codingPath, debugDescription: "expected an object, found \(value.kindName)"))
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else {
            throw DecodingError.typeMismatch(
                [Any].self, DecodingError.Context(codingPath: codingPath, debugDescription: "expected an array, found \(value.kindName)"))
        }
        return UnkeyedContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleContainer(value: value, codingPath: codingPath) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(key: String, value: JSONValue)]
    let codingPath: [any CodingKey]
    /// Key → position, for objects too large to search member by member.
    private let positions: [String: Int]?

    init(members: [(key: String, value: JSONValue)], codingPath: [any CodingKey]) {
        self.members = members
        self.codingPath = codingPath
        if members.count > 16 {
            var positions: [String: Int] = [:]
            for (index, member) in members.enumerated() { positions[member.key] = index }
            self.positions = positions
        } else {
            positions = nil
        }
    }

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    private func member(_ key: Key) -> JSONValue? {
        if let positions { return positions[key.stringValue].map { members[$0].value } }
        return members.last { $0.key == key.stringValue }?.value
    }

    private func required(_ key: Key) throws -> JSONValue {
        guard let value = member(key) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "no member \"\(key.stringValue)\""))
        }
        return value
    }

    func contains(_ key: Key) -> Bool { member(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { try required(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ValueDecoder.unbox(required(key), as: type, codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: required(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: required(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoder(value: .object(members), codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ValueDecoder(value: try required(key), codingPath: codingPath + [key]) }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(items: [JSONValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private func current<T>(_ type: T.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: codingPath, debugDescription: "the array has no more elements"))
        }
        return items[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard try current(JSONValue.self) == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try ValueDecoder.unbox(current(type), as: type, codingPath: codingPath)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try ValueDecoder(value: current(JSONValue.self), codingPath: codingPath).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try ValueDecoder(value: current(JSONValue.self), codingPath: codingPath).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = ValueDecoder(value: try current(JSONValue.self), codingPath: codingPath)
        currentIndex += 1
        return decoder
    }
}

private struct SingleContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try ValueDecoder.unbox(value, as: type, codingPath: codingPath) }
}

extension JSONValue {
    /// What kind of value this is, for messages: `a string`, `an object` ….
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
