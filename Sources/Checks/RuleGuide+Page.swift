import Findings

/// A rule's example as it ran: the command line shown, and what it printed.
public struct RuleExampleRun: Sendable {
    public var example: RuleExample
    public var commandLine: String
    public var output: String

    public init(example: RuleExample, commandLine: String, output: String) {
        self.example = example
        self.commandLine = commandLine
        self.output = output
    }
}

extension RuleGuide {
    /// Where a rule's page is, from the repository's root.
    public static func pagePath(_ id: String) -> String { "docs/rules/\(id).md" }

    /// The page of `rule` (Markdown): its severity, guidelines and their levels, source, what it checks, why it
    /// matters, how to fix it, and its examples as they ran — or, where the bundled samples cannot show it, the tests
    /// that do (`tests`).
    public static func page(for rule: Rule, failing: RuleExampleRun?, passing: RuleExampleRun?, tests: [String]) -> String {
        let guide = byID[rule.id]
        var lines: [String] = []
        lines.append("# `\(rule.id)`: \(rule.title)")
        lines.append("")
        lines.append("| | |")
        lines.append("| --- | --- |")
        lines.append("| Severity | \(rule.defaultSeverity.rawValue) (unless the finding says otherwise) |")
        if !rule.guidelines.isEmpty {
            let cited = rule.guidelines.map { guideline in levels[guideline].map { "\(guideline) (\($0))" } ?? guideline }
            lines.append("| Guidelines | \(cited.joined(separator: ", ")) |")
        }
        lines.append("| Source | <\(rule.helpURL)> |")
        lines.append("| Turn it off | `rules: {disable: [\(rule.id)]}` in `.medialint.yml`, or `--set rules.disable=\(rule.id)` |")
        lines.append("")
        lines.append(rule.description)
        if let guide {
            lines += ["", "## Why it matters", "", guide.why, "", "## How to fix", "", guide.fix]
        }
        if let failing { lines += ["", "## An example that fails", ""] + Self.shown(failing) }
        if let passing { lines += ["", "## The same, passing", ""] + Self.shown(passing) }
        if failing == nil || passing == nil, !tests.isEmpty {
            lines += [
                "", "## Tests that show it", "",
                "The samples bundled with MediaLint cannot show \(failing == nil ? "this rule" : "this rule passing"); these tests do:", "",
            ]
            lines += tests.map { "- `\($0)`" }
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }

    static func shown(_ run: RuleExampleRun) -> [String] {
        var lines: [String] = []
        for file in run.example.files {
            if file.content.hasPrefix("@") {
                lines.append("`\(file.name)`: the bundled sample `\(file.content.dropFirst())`.")
                lines.append("")
            } else {
                lines.append("`\(file.name)`:")
                lines.append("")
                lines.append("```")
                lines.append(file.content.hasSuffix("\n") ? String(file.content.dropLast()) : file.content)
                lines.append("```")
                lines.append("")
            }
        }
        lines.append("```console")
        lines.append("$ \(run.commandLine)")
        if !run.output.isEmpty { lines.append(run.output.hasSuffix("\n") ? String(run.output.dropLast()) : run.output) }
        lines.append("```")
        return lines
    }

    /// docs/rules/README.md: every rule, with its title, severity and guidelines, linking its page.
    public static func index(_ rules: [Rule]) -> String {
        var lines = [
            "# The rules", "",
            "Every rule MediaLint checks, with a page each: why it matters, how to fix what it finds, and examples that fail and pass (run by the tests, which write these pages: `MEDIALINT_RECORD_RULE_DOCS=1 swift test --filter RuleDocsTests`).",
            "", "| rule | what it finds | severity | guidelines |", "| --- | --- | --- | --- |",
        ]
        for rule in rules {
            lines.append("| [`\(rule.id)`](\(rule.id).md) | \(rule.title) | \(rule.defaultSeverity.rawValue) | \(rule.guidelines.joined(separator: ", ")) |")
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }
}
