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
