import Basics
import Foundation

/// The settings of one check as a settings file (and `--set`) writes them, read into a typed section.
struct ConfigSection {
    let name: String
    let values: [String: Any]
    /// Where each key's value came from: a settings file, or `--set`.
    var origins: [String: String] = [:]

    /// Where `key`'s value came from, for messages: the file, or `--set`.
    func source(of key: String) -> String { origins[key] ?? "settings" }

    /// The section read as `Section`: a value of the wrong kind is an error naming the setting and where it came from.
    func decode<Section: SettingsSection>(_ type: Section.Type) throws -> Section {
        do {
            return try JSONValueDecoder().decode(type, from: Self.json(values))
        } catch let DecodingError.typeMismatch(expected, context) {
            let key = context.codingPath.first?.stringValue ?? ""
            let kind: String =
                switch expected {
                case is Int.Type: "a whole number"
                case is Bool.Type: "true or false"
                case is String.Type: "text"
                case is [String].Type, is [Any].Type: "a list of text"
                default: "a number"
                }
            throw CLIError("\(source(of: key)): '\(name).\(key)' must be \(kind)")
        }
    }

    /// A value as YAML loads it (numbers, text, true/false, `~`, lists, mappings) as JSON.
    static func json(_ value: Any) -> JSONValue {
        switch value {
        case let flag as Bool: .bool(flag)
        case let number as Int: .integer(Int64(number))
        case let number as Double: .number(number)
        case let text as String: .string(text)
        case let list as [Any]: .array(list.map(json))
        case let mapping as [String: Any]: .object(mapping.sorted { $0.key < $1.key }.map { ($0.key, json($0.value)) })
        case is NSNull: .null
        default: .string(String(describing: value))
        }
    }
}

/// A check's section of the settings, typed: its coding keys are the settings it takes (an unknown one is an
/// error), and a value of the wrong kind fails with the setting's name.
protocol SettingsSection: Decodable, SendableMetatype {
    associatedtype Keys: CodingKey & CaseIterable & RawRepresentable<String>
    /// `flash`, `lint`, `sync`.
    static var name: String { get }
}

extension SettingsSection {
    /// The settings the section takes.
    static var keys: Set<String> { Set(Keys.allCases.map(\.rawValue)) }
}

/// One setting as written: `~` (none: a rule's number dropped, a limit switched off), or a value.
enum Setting<Value: Decodable>: Decodable {
    case none
    case value(Value)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .none : .value(try container.decode(Value.self))
    }
}

extension KeyedDecodingContainer {
    /// The setting at `key`: nil when it is not there.
    func setting<Value: Decodable>(_ key: Key) throws -> Setting<Value>? {
        contains(key) ? try decode(Setting<Value>.self, forKey: key) : nil
    }

    /// The value at `key`: nil when it is not there; `~` is not a value of `Value` (a mismatch, as any other kind).
    func value<Value: Decodable>(_ key: Key) throws -> Value? {
        contains(key) ? try decode(Value.self, forKey: key) : nil
    }
}
