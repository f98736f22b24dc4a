import ArgumentParser
import Checks
import Foundation
import Reports

/// The output formats of the check commands (`flash`, `sync` …).
enum CheckFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, jsonl, sarif, junit, html, compact, github, gitlab

    /// The reporter that writes results in this format: text with each check's summary line, SARIF with the rules
    /// described from the catalogue.
    /// SARIF names files relative to the working directory and records the run's exit status, and whether it was
    /// stopped, when `summary` is known.
    func reporter(style: TextStyle, summary: RunSummary? = nil) -> any CheckReporter {
        switch self {
        case .text: TextReport(style: style, summaryLine: CheckSummary.line(for:))
        case .json: JSONReport()
        case .jsonl: JSONLinesReport()
        case .sarif:
            {
                var report = SARIFReport(
                    rules: RuleCatalogue.byID,
                    baseDirectory: FileManager.default.currentDirectoryPath, exitStatus: summary?.exitStatus, unchecked: summary?.unchecked)
                report.help = RuleGuide.byID.mapValues { "**Why it matters.** \($0.why)\n\n**How to fix.** \($0.fix)" }
                return report
            }()
        case .junit: JUnitReport(unchecked: summary?.unchecked)
        case .html: HTMLReport(rules: RuleCatalogue.byID, help: RuleGuide.byID.mapValues(\.why), unchecked: summary?.unchecked)
        case .compact: CompactReport(baseDirectory: FileManager.default.currentDirectoryPath)
        case .github: GitHubAnnotationsReport(baseDirectory: FileManager.default.currentDirectoryPath)
        case .gitlab: GitLabCodeQualityReport(baseDirectory: FileManager.default.currentDirectoryPath)
        }
    }
}

/// `--format` of the check commands, with `-o`'s extension as the default.
struct CheckFormatOptions: ParsableArguments {
    @Option(
        name: .customLong("format"),
        help: ArgumentHelp(
            "Output format (default: from the -o file's extension — .json, .jsonl, .sarif, .xml, .html — else text). compact: one line a finding (file:line: severity: message [rule]); github: GitHub Actions annotations; gitlab: a GitLab Code Quality report.",
            valueName: "format"))
    var chosen: CheckFormat?

    /// `--format`, else what `output`'s file extension says, else text.
    func format(writingTo output: OutputOptions) -> CheckFormat {
        chosen ?? output.impliedFormat(CheckFormat.init(rawValue:)) ?? .text
    }
}
