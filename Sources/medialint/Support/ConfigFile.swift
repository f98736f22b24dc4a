import FileAccess
import Foundation
import Yams

/// `.medialint.yml`: settings per check, rules turned off or given another severity, and files to leave out, e.g.
///
///     flash:
///       profile: wcag
///       area: 0.25
///     rules:
///       disable: [captions.audio-description]
///     exclude: [drafts, "*.bak.srt"]
///
/// The settings for a file are those of every `.medialint.yml` from the file's folder up, nearer files overriding
/// further ones setting by setting, up to one that says `root: true` (ConfigDiscovery); `--config FILE` reads that one
/// file instead. `--set SECTION.KEY=VALUE` changes one setting on top, and command-line options override
/// everything (docs/cli.md, "Configuration").
struct ConfigFile {
    /// The files read, furthest first.
    private(set) var paths: [String] = []
    private var sections: [String: [String: Any]] = [:]
    /// Where each setting (`section.key`) came from: a file, or `--set`.
    private var origins: [String: String] = [:]
    /// The `exclude:` globs of the files read.
    private(set) var excludes: [ExcludePattern] = []

    static let defaultName = ".medialint.yml"

    /// Every section, typed: the settings it takes are its keys; an unknown section or setting is an error, not
    /// ignored.
    static let sections: [any SettingsSection.Type] = [FlashSection.self, LintSection.self, SyncSection.self, AccuracySection.self, RulesSection.self]
    static let known: [String: Set<String>] = Dictionary(uniqueKeysWithValues: sections.map { ($0.name, $0.keys) })
    /// Top-level keys that are not a check's section.
    static let otherKeys = ["exclude", "root"]

    static var knownNames: String { (known.keys.sorted() + otherKeys).joined(separator: ", ") }

    /// No settings: every check's defaults.
    init() {}

    /// The settings of `paths`, read in order: a later file's setting replaces an earlier one's.
    init(layers paths: [String]) throws {
        for path in paths { try read(path) }
    }

    private mutating func read(_ path: String) throws {
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
        let settings = loaded as? [String: Any] ?? [:]
        if let root = settings["root"] {
            guard let isRoot = root as? Bool else { throw CLIError("\(path): 'root' must be true or false") }
            // The files further up no longer count.
            if isRoot { self = ConfigFile() }
        }
        paths.append(path)
        for (name, value) in settings.sorted(by: { $0.key < $1.key }) where name != "root" {
            if name == "exclude" {
                let folder = (path as NSString).deletingLastPathComponent
                let globs = value is NSNull ? [] : (value as? String).map { [$0] } ?? value as? [String]
                guard let globs else { throw CLIError("\(path): 'exclude' must be a list of paths or globs (e.g. [drafts, \"*.bak.srt\"])") }
                excludes += globs.map { ExcludePattern($0, folder: folder.isEmpty ? "." : folder) }
                continue
            }
            guard let keys = Self.known[name] else {
                throw CLIError("\(path): unknown section '\(name)' (known: \(Self.knownNames))")
            }
            if value is NSNull { continue }  // `flash:` with nothing under it
            if name == AccuracySection.name, let enabled = value as? Bool {  // `accuracy: true`
                sections[name, default: [:]]["enabled"] = enabled
                origins["\(name).enabled"] = path
                continue
            }
            guard let values = value as? [String: Any] else { throw CLIError("\(path): '\(name)' must be a mapping of settings") }
            if let unknown = values.keys.sorted().first(where: { !keys.contains($0) }) {
                throw CLIError("\(path): unknown setting '\(name).\(unknown)' (known: \(keys.sorted().joined(separator: ", ")))")
            }
            for (key, setting) in values {
                sections[name, default: [:]][key] = setting
                origins["\(name).\(key)"] = path
            }
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
        origins["\(name).\(key)"] = "--set"
    }

    /// The settings of one section (`flash`, `lint`, `sync`); each named in messages after the file it came from, or
    /// `--set`.
    func section(_ name: String) -> ConfigSection {
        let prefix = name + "."
        return ConfigSection(
            name: name, values: sections[name] ?? [:],
            origins: Dictionary(uniqueKeysWithValues: origins.filter { $0.key.hasPrefix(prefix) }.map { (String($0.key.dropFirst(prefix.count)), $0.value) }))
    }

    /// True when an `exclude:` glob of the files read leaves out `path` (or a folder above it).
    func excludes(_ path: String) -> Bool { excludes.contains { $0.matches(path) } }

    /// The settings as text that changes whenever a setting does (keys sorted), for the results store's stamp.
    var canonicalText: String {
        sections.keys.sorted().map { name in
            let values = sections[name] ?? [:]
            return name + "{" + values.keys.sorted().map { "\($0)=\(String(describing: values[$0]!))" }.joined(separator: ",") + "}"
        }.joined(separator: ";")
    }
}
