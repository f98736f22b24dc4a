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
            decide when a rule fires and can change a finding's severity; the id stays the same. The settings' \
            `rules: {disable: [RULE]}` turns any rule off; `lint --disable RULE` and NOTE comments in caption \
            files turn lint rules off. Each rule has a page, docs/rules/RULE.md: why it matters, how to fix it, \
            and examples that fail and pass; `medialint rules RULE` prints why and how to fix.
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
            // One rule asked for: why it matters and how to fix it too.
            if rules.count == 1, let guide = RuleGuide.byID[rule.id] {
                out += "\(indent)Why it matters: \(guide.why)\n\(indent)How to fix: \(guide.fix)\n"
            }
            let guidelines = rule.guidelines.map { guideline in RuleGuide.levels[guideline].map { "\(guideline) (\($0))" } ?? guideline }
            let cited = guidelines.isEmpty ? "" : guidelines.joined(separator: ", ") + " · "
            out += "\(indent)\(style.dim(cited + rule.helpURL + " · " + RuleGuide.pagePath(rule.id)))\n"
        }
        out += "\(rules.count) rule\(rules.count == 1 ? "" : "s")\n"
        return out
    }

    /// `{"tool", "version", "rules": [Rule + why, fix, page]}`.
    static func json(_ rules: [Rule]) throws -> String {
        let entries: [JSONValue] = try rules.map { rule in
            guard case .object(var members) = try JSONValueEncoder().encode(rule) else { return .null }
            if let guide = RuleGuide.byID[rule.id] { members += [("why", .string(guide.why)), ("fix", .string(guide.fix))] }
            members.append(("page", .string(RuleGuide.pagePath(rule.id))))
            return .object(members)
        }
        let catalogue = JSONValue.object([("tool", .string(ToolInfo.name)), ("version", .string(ToolInfo.version)), ("rules", .array(entries))])
        return catalogue.serialized(pretty: true) + "\n"
    }
}
