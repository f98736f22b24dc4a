import FileAccess
import Foundation
import Yams

/// `.medialint.yml`: settings per check, e.g.
///
///     flash:
///       profile: wcag
///       area: 0.25
///
/// Read from `--config FILE`, else from `.medialint.yml` in the current directory when there is one.
/// Command-line options override it.
struct ConfigFile {
    let path: String?
    private let sections: [String: Any]

    static let defaultName = ".medialint.yml"

    init(explicitPath: String?) throws {
        let path = explicitPath ?? (FileManager.default.fileExists(atPath: Self.defaultName) ? Self.defaultName : nil)
        self.path = path
        guard let path else {
            sections = [:]
            return
        }
        let text: String
        do {
            text = String(decoding: try RegularFile(path: path).readAll(limit: 1 << 20), as: UTF8.self)
        } catch {
            throw CLIError("\(path): cannot be read: \(error.reason)")
        }
        let loaded: Any?
        do {
            loaded = try Yams.load(yaml: text)
        } catch {
            throw CLIError("\(path): not valid YAML: \(String(describing: error).split(separator: "\n").first ?? "")")
        }
        guard loaded == nil || loaded is [String: Any] else { throw CLIError("\(path): expected a mapping of check names to settings") }
        sections = loaded as? [String: Any] ?? [:]
    }

    /// The settings of one check (`flash`, `lint` …), checked against the keys it knows.
    func section(_ name: String, keys: Set<String>) throws -> ConfigSection {
        guard let value = sections[name] else { return ConfigSection(file: path ?? "", name: name, values: [:]) }
        guard let values = value as? [String: Any] else { throw CLIError("\(path ?? ""): '\(name)' must be a mapping") }
        if let unknown = values.keys.sorted().first(where: { !keys.contains($0) }) {
            throw CLIError("\(path ?? ""): unknown setting '\(name).\(unknown)' (known: \(keys.sorted().joined(separator: ", ")))")
        }
        return ConfigSection(file: path ?? "", name: name, values: values)
    }
}

/// The settings of one check in a config file, read with type checks.
struct ConfigSection {
    let file: String
    let name: String
    let values: [String: Any]

    func double(_ key: String) throws -> Double? {
        guard let value = values[key] else { return nil }
        if let number = value as? Double { return number }
        if let number = value as? Int { return Double(number) }
        throw CLIError("\(file): '\(name).\(key)' must be a number")
    }

    func int(_ key: String) throws -> Int? {
        guard let value = values[key] else { return nil }
        guard let number = value as? Int else { throw CLIError("\(file): '\(name).\(key)' must be a whole number") }
        return number
    }

    func bool(_ key: String) throws -> Bool? {
        guard let value = values[key] else { return nil }
        guard let flag = value as? Bool else { throw CLIError("\(file): '\(name).\(key)' must be true or false") }
        return flag
    }

    func string(_ key: String) throws -> String? {
        guard let value = values[key] else { return nil }
        guard let text = value as? String else { throw CLIError("\(file): '\(name).\(key)' must be text") }
        return text
    }

    /// A list of text (`disable: [lint.min-gap, lint.max-duration]`), or one text.
    func strings(_ key: String) throws -> [String]? {
        guard let value = values[key] else { return nil }
        if let text = value as? String { return [text] }
        guard let list = value as? [Any], let texts = list as? [String] else { throw CLIError("\(file): '\(name).\(key)' must be a list of text") }
        return texts
    }

    /// True when the key is there with no value (`darker-state: ~`), to switch a rule off.
    func isNull(_ key: String) -> Bool { values.keys.contains(key) && values[key] is NSNull }
}
