import ArgumentParser
import Basics
import Checks
import Findings
import Reports

/// `medialint rules`: the rule catalogue — every rule any check can report, what it checks and where it comes from.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every rule the checks apply: id, default severity, what it checks, the guidelines behind it.",
        discussion: """
            Every finding names one of these rules in its "rule" field (SARIF's ruleId). Thresholds and profiles \
            decide when a rule fires and can change a finding's severity; the id stays the same. \
            `lint --disable RULE` and NOTE comments in caption files turn lint rules off.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Argument(help: ArgumentHelp("Only rules whose id starts with this (flash, sync, lint.reading-speed …).", valueName: "prefix"))
    var prefix: String?

    @Option(
        name: .customLong("format"),
        help: ArgumentHelp("Output format (default: json when the -o file's name ends in .json, else text).", valueName: "format"))
    var formatOption: Format?

    /// `--format`, else what `-o`'s extension says, else text.
    var format: Format { formatOption ?? output.impliedFormat { $0 == "json" ? .json : nil } ?? .text }

    @OptionGroup var output: OutputOptions

    /// The rules asked for: all, or those under `prefix`.
    var rules: [Rule] {
        RuleCatalogue.all.filter { rule in
            guard let prefix else { return true }
            return rule.id == prefix || rule.id.hasPrefix(prefix.hasSuffix(".") ? prefix : prefix + ".")
        }
    }

    func validate() throws {
        if rules.isEmpty { throw ValidationError("No rule id starts with '\(prefix ?? "")': `medialint rules` lists them all.") }
    }

    func run() throws {
        try output.refuseUnwrittenFormat(chosen: formatOption != nil, formats: ["json"], command: "rules")
        switch format {
        case .text: try output.emit(Self.text(rules, style: output.textStyle))
        case .json: try output.emit(try Self.json(rules))
        }
    }

    static func text(_ rules: [Rule], style: TextStyle) -> String {
        let width = rules.map(\.id.count).max() ?? 0
        var out = ""
        for rule in rules {
            let id = rule.id + String(repeating: " ", count: width - rule.id.count)
            out += "\(style.bold(id))  \(rule.defaultSeverity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0))  \(rule.title)\n"
            let indent = String(repeating: " ", count: width + 2)
            out += "\(indent)\(rule.description)\n"
            let guidelines = rule.guidelines.isEmpty ? "" : rule.guidelines.joined(separator: ", ") + " · "
            out += "\(indent)\(style.dim(guidelines + rule.helpURL))\n"
        }
        out += "\(rules.count) rule\(rules.count == 1 ? "" : "s")\n"
        return out
    }

    /// `{"tool", "version", "rules": [Rule]}`.
    struct Catalogue: Encodable {
        var tool = ToolInfo.name
        var version = ToolInfo.version
        var rules: [Rule]
    }

    static func json(_ rules: [Rule]) throws -> String {
        try JSONValueEncoder().encode(Catalogue(rules: rules)).serialized(pretty: true) + "\n"
    }
}
