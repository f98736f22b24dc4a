import Checks
import Findings

/// The `rules` section: rules turned off and severities changed, for every check, e.g.
///
///     rules:
///       disable: [captions.audio-description]
///       severity: {lint.line-length: error, sync: warning}
///
/// A rule is named by its id or by a prefix of ids (`lint`, `captions.`); a name that names no rule is an error.
struct RulesSection: SettingsSection {
    static let name = "rules"
    enum Keys: String, CodingKey, CaseIterable {
        case disable, severity
    }

    var disable: [String]
    var severity: [String: String]

    init(from decoder: any Decoder) throws {
        let settings = try decoder.container(keyedBy: Keys.self)
        if let one: String = try? settings.value(.disable) {
            disable = [one]
        } else {
            disable = try settings.value(.disable) ?? []
        }
        severity = try settings.value(.severity) ?? [:]
    }
}

enum RuleSettings {
    /// The policy the section sets; a name that names no rule, or a severity that is not one, is an error naming it.
    static func policy(_ section: ConfigSection) throws -> RulePolicy {
        let settings = try section.decode(RulesSection.self)
        for name in settings.disable + settings.severity.keys.sorted() where !RuleCatalogue.byID.keys.contains(where: { RulePolicy.names(name, $0) }) {
            throw CLIError(
                "\(section.source(of: settings.disable.contains(name) ? "disable" : "severity")): 'rules' names no rule: '\(name)' (medialint rules lists them)"
            )
        }
        var severities: [String: Severity] = [:]
        for (name, value) in settings.severity {
            guard let severity = Severity(rawValue: value == "note" ? "info" : value) else {
                throw CLIError("\(section.source(of: "severity")): 'rules.severity' of '\(name)' must be error, warning or info, not '\(value)'")
            }
            severities[name] = severity
        }
        return RulePolicy(disabled: settings.disable, severities: severities)
    }
}

extension ConfigOptions {
    /// `results` with the `rules` settings of each result's file applied (the settings found from its folder up, or
    /// `--config`, and the `--set`s).
    func applyRules(to results: [CheckResult]) throws -> [CheckResult] {
        let discovery = discovery()
        var policies: [String: RulePolicy] = [:]
        return try results.map { result in
            let folder = result.file.lastIndex(of: "/").map { String(result.file[..<$0]) } ?? "."
            if policies[folder] == nil {
                policies[folder] = try RuleSettings.policy(
                    discovery.settings(inFolder: ConfigDiscovery.absolute(folder.isEmpty ? "/" : folder)).section("rules"))
            }
            return policies[folder]!.apply(result)
        }
    }
}
