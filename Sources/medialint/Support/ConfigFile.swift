import FileAccess
import Foundation
import Yams

/// `.medialint.yml`: settings per check, e.g.
///
///     flash:
///       profile: wcag
///       area: 0.25
///
/// Read from `--config FILE`, else from `.medialint.yml` in the current directory when there is one; `--set
/// SECTION.KEY=VALUE` changes one setting on top. Every command reads the same file the same way (`check` included),
/// and command-line options override it (docs/cli.md, "Configuration").
struct ConfigFile {
    /// The file read, if any.
    let path: String?
    private var sections: [String: [String: Any]]
    /// The settings given with `--set`, as `section.key`.
    private var assigned: Set<String> = []

    static let defaultName = ".medialint.yml"

    /// Every section and the settings it takes: an unknown section or setting is an error, not ignored.
    static let known: [String: Set<String>] = [
        "flash": FlashSettings.keys,
        "lint": LintSettings.keys,
        "sync": SyncSettings.keys,
    ]

    init(explicitPath: String?) throws {
        let path = explicitPath ?? (FileManager.default.fileExists(atPath: Self.defaultName) ? Self.defaultName : nil)
        self.path = path
        sections = [:]
        guard let path else { return }
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
        for (name, value) in loaded as? [String: Any] ?? [:] {
            guard let keys = Self.known[name] else {
                throw CLIError("\(path): unknown section '\(name)' (known: \(Self.known.keys.sorted().joined(separator: ", ")))")
            }
            if value is NSNull { continue }  // `flash:` with nothing under it
            guard let values = value as? [String: Any] else { throw CLIError("\(path): '\(name)' must be a mapping of settings") }
            if let unknown = values.keys.sorted().first(where: { !keys.contains($0) }) {
                throw CLIError("\(path): unknown setting '\(name).\(unknown)' (known: \(keys.sorted().joined(separator: ", ")))")
            }
            sections[name] = values
        }
    }

    /// Changes one setting: `SECTION.KEY=VALUE`, the value read as in the file (`10`, `0.25`, `true`, `bbc`,
    /// `[lint.min-gap, lint.max-lines]`, `~` for none).
    mutating func set(_ assignment: String) throws {
        guard let equals = assignment.firstIndex(of: "="), let dot = assignment[..<equals].firstIndex(of: ".") else {
            throw CLIError("--set takes SECTION.KEY=VALUE (e.g. flash.profile=bt1702), not '\(assignment)'")
        }
        let name = String(assignment[..<dot]), key = String(assignment[assignment.index(after: dot)..<equals])
        let text = String(assignment[assignment.index(after: equals)...])
        guard let keys = Self.known[name] else {
            throw CLIError("--set \(assignment): unknown section '\(name)' (known: \(Self.known.keys.sorted().joined(separator: ", ")))")
        }
        guard keys.contains(key) else {
            throw CLIError("--set \(assignment): unknown setting '\(name).\(key)' (known: \(keys.sorted().joined(separator: ", ")))")
        }
        let value: Any
        do {
            value = try Yams.load(yaml: text) ?? NSNull()
        } catch {
            throw CLIError("--set \(assignment): the value is not valid YAML")
        }
        sections[name, default: [:]][key] = value
        assigned.insert("\(name).\(key)")
    }

    /// The settings of one section (`flash`, `lint`, `sync`); named in messages after the file, or `--set`.
    func section(_ name: String) -> ConfigSection {
        ConfigSection(
            file: path ?? "--set", name: name, values: sections[name] ?? [:],
            assigned: Set(assigned.filter { $0.hasPrefix(name + ".") }.map { String($0.dropFirst(name.count + 1)) }))
    }

    /// The settings as text that changes whenever a setting does (keys sorted), for the results store's stamp.
    var canonicalText: String {
        sections.keys.sorted().map { name in
            let values = sections[name] ?? [:]
            return name + "{" + values.keys.sorted().map { "\($0)=\(String(describing: values[$0]!))" }.joined(separator: ",") + "}"
        }.joined(separator: ";")
    }
}
