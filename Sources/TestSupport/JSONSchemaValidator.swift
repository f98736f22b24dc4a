import Basics
import Foundation

/// A JSON document as the schema validator sees it.
package indirect enum JSONNode: Equatable {
    case null, bool(Bool), integer(Int64), number(Double), string(String), array([JSONNode]), object([String: JSONNode])

    /// `value` with its objects as dictionaries (of a key written twice, the last).
    package init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .integer(let value): self = .integer(value)
        case .number(let value): self = .number(value)
        case .string(let value): self = .string(value)
        case .array(let items): self = .array(items.map(JSONNode.init))
        case .object(let members):
            self = .object(Dictionary(members.map { ($0.key, JSONNode($0.value)) }, uniquingKeysWith: { $1 }))
        }
    }

    /// Parsed by the product's own parser (`JSONValue.parse`), which throws only for text that is not JSON: a
    /// `Decodable` that tried each type in turn threw, and had the test runner record a backtrace, at every value.
    package static func parse(_ text: String) throws -> JSONNode { JSONNode(try JSONValue.parse(text)) }

    package subscript(key: String) -> JSONNode? {
        if case .object(let members) = self { return members[key] }
        return nil
    }
}

/// Validates JSON against a JSON Schema (draft-07), for the keywords the SARIF 2.1.0 schema uses: `$ref`
/// (local), `type`, `enum`, `required`, `properties`, `additionalProperties`, `items`, `minItems`,
/// `uniqueItems`, `minimum`, `maximum`, `pattern`, `format` (`uri`, `uri-reference`), `anyOf`, `oneOf`.
/// Unknown keywords are refused, so a schema using more than this cannot pass by being half-read.
package struct JSONSchemaValidator {
    package let root: JSONNode

    package init(root: JSONNode) { self.root = root }

    static let known: Set<String> = [
        "$schema", "$id", "$ref", "title", "description", "default", "definitions", "type", "enum",
        "required", "properties", "additionalProperties", "items", "minItems", "uniqueItems",
        "minimum", "maximum", "pattern", "format", "anyOf", "oneOf",
    ]

    /// Every violation, as `path: problem`.
    package func errors(in value: JSONNode) -> [String] {
        var errors: [String] = []
        validate(value, root, "$", &errors)
        return errors
    }

    private func validate(_ value: JSONNode, _ schema: JSONNode, _ path: String, _ errors: inout [String]) {
        guard case .object(let keywords) = schema else {
            if schema == .bool(false) { errors.append("\(path): not allowed") }
            return
        }
        if let unknown = keywords.keys.first(where: { !Self.known.contains($0) }) {
            errors.append("\(path): the validator does not know the keyword \(unknown)")
        }
        if case .string(let reference)? = keywords["$ref"] {
            guard reference.hasPrefix("#/definitions/"), let target = root["definitions"]?[String(reference.dropFirst(14))] else {
                errors.append("\(path): unresolvable $ref \(reference)")
                return
            }
            validate(value, target, path, &errors)
            return  // draft-07: $ref's siblings are ignored
        }
        if let type = keywords["type"] {
            let allowed: [String] =
                switch type {
                case .string(let name): [name]
                case .array(let names): names.compactMap { if case .string(let name) = $0 { name } else { nil } }
                default: []
                }
            if !allowed.contains(where: { Self.matches(value, type: $0) }) { errors.append("\(path): expected \(allowed.joined(separator: " or "))") }
        }
        if case .array(let options)? = keywords["enum"], !options.contains(value) { errors.append("\(path): \(value) is not one of \(options)") }
        if case .object(let members) = value {
            if case .array(let required)? = keywords["required"] {
                for case .string(let name) in required where members[name] == nil { errors.append("\(path): missing \(name)") }
            }
            let properties: [String: JSONNode]
            if case .object(let declared)? = keywords["properties"] { properties = declared } else { properties = [:] }
            for (name, member) in members {
                if let schema = properties[name] {
                    validate(member, schema, "\(path).\(name)", &errors)
                } else if let additional = keywords["additionalProperties"] {
                    if additional == .bool(false) {
                        errors.append("\(path): property \(name) is not allowed")
                    } else if case .object = additional {
                        validate(member, additional, "\(path).\(name)", &errors)
                    }
                }
            }
        }
        if case .array(let items) = value {
            if let schema = keywords["items"] { for (index, item) in items.enumerated() { validate(item, schema, "\(path)[\(index)]", &errors) } }
            if let minimum = Self.number(keywords["minItems"]), Double(items.count) < minimum { errors.append("\(path): fewer than \(minimum) items") }
            if keywords["uniqueItems"] == .bool(true) {
                for i in items.indices where items[(i + 1)...].contains(items[i]) { errors.append("\(path): item \(i) is repeated") }
            }
        }
        if let number = Self.number(value) {
            if let minimum = Self.number(keywords["minimum"]), number < minimum { errors.append("\(path): \(number) < \(minimum)") }
            if let maximum = Self.number(keywords["maximum"]), number > maximum { errors.append("\(path): \(number) > \(maximum)") }
        }
        if case .string(let text) = value {
            if case .string(let pattern)? = keywords["pattern"] {
                let expression = try? NSRegularExpression(pattern: pattern)
                if expression?.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil {
                    errors.append("\(path): \"\(text)\" does not match \(pattern)")
                }
            }
            if case .string(let format)? = keywords["format"] {
                let uriCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")
                let valid = text.unicodeScalars.allSatisfy { uriCharacters.contains($0) }
                switch format {
                case "uri":
                    if !valid || text.range(of: "^[A-Za-z][A-Za-z0-9+.-]*:", options: .regularExpression) == nil {
                        errors.append("\(path): not an absolute URI: \(text)")
                    }
                case "uri-reference":
                    if !valid || text.isEmpty { errors.append("\(path): not a URI reference: \(text)") }
                default:
                    break
                }
            }
        }
        if case .array(let options)? = keywords["anyOf"] {
            if !options.contains(where: { option in
                var scratch: [String] = []; validate(value, option, path, &scratch); return scratch.isEmpty
            }) {
                errors.append("\(path): matches none of anyOf")
            }
        }
        if case .array(let options)? = keywords["oneOf"] {
            let matching = options.filter { option in
                var scratch: [String] = []; validate(value, option, path, &scratch); return scratch.isEmpty
            }
            if matching.count != 1 { errors.append("\(path): matches \(matching.count) of oneOf (exactly 1 expected)") }
        }
    }

    static func matches(_ value: JSONNode, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null), ("integer", .integer),
            ("number", .integer), ("number", .number):
            true
        case ("integer", .number(let number)): number == number.rounded()
        default: false
        }
    }

    static func number(_ value: JSONNode?) -> Double? {
        switch value {
        case .integer(let number)?: Double(number)
        case .number(let number)?: number
        default: nil
        }
    }
}
