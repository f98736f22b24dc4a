import Foundation
import Yams

/// The settings of one check in a config file, read with type checks.
struct ConfigSection {
    let name: String
    let values: [String: Any]
    /// Where each key's value came from: a settings file, or `--set`.
    var origins: [String: String] = [:]

    /// Where `key`'s value came from, for messages: the file, or `--set`.
    func source(of key: String) -> String { origins[key] ?? "settings" }

    func double(_ key: String) throws -> Double? {
        guard let value = values[key] else { return nil }
        if let number = value as? Double { return number }
        if let number = value as? Int { return Double(number) }
        throw CLIError("\(source(of: key)): '\(name).\(key)' must be a number")
    }

    func int(_ key: String) throws -> Int? {
        guard let value = values[key] else { return nil }
        guard let number = value as? Int else { throw CLIError("\(source(of: key)): '\(name).\(key)' must be a whole number") }
        return number
    }

    func bool(_ key: String) throws -> Bool? {
        guard let value = values[key] else { return nil }
        guard let flag = value as? Bool else { throw CLIError("\(source(of: key)): '\(name).\(key)' must be true or false") }
        return flag
    }

    func string(_ key: String) throws -> String? {
        guard let value = values[key] else { return nil }
        guard let text = value as? String else { throw CLIError("\(source(of: key)): '\(name).\(key)' must be text") }
        return text
    }

    /// A list of text (`disable: [lint.min-gap, lint.max-duration]`), or one text.
    func strings(_ key: String) throws -> [String]? {
        guard let value = values[key] else { return nil }
        if let text = value as? String { return [text] }
        guard let list = value as? [Any], let texts = list as? [String] else { throw CLIError("\(source(of: key)): '\(name).\(key)' must be a list of text") }
        return texts
    }

    /// True when the key is there with no value (`darker-state: ~`), to switch a rule off.
    func isNull(_ key: String) -> Bool { values.keys.contains(key) && values[key] is NSNull }
}
