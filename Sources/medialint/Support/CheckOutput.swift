import ArgumentParser
import Reports

/// The output formats of the check commands (`flash`, `sync` …).
enum CheckFormat: String, ExpressibleByArgument, CaseIterable { case text, json, jsonl, sarif, junit, html }

/// Printing check results and turning their verdicts into the exit status (cli.md).
extension OutputOptions {
    /// Writes `results` in `format`; text gives each result the line `metricsLine` makes of its metrics, SARIF
    /// describes the rules with `ruleDescriptions`.
    func emit(_ results: [CheckResult], format: CheckFormat, metricsLine: (CheckResult) -> String?,
              ruleDescriptions: [String: String] = [:]) throws {
        switch format {
        case .text:
            let report = TextReport(style: TextReport.Style(enabled: textStyle.enabled))
            try emit(results.map { report.render($0, metricsLine: metricsLine($0)) }.joined(separator: "\n"))
        case .json:
            try stream { sink in
                var writer = JSONWriter.streaming(pretty: true, to: sink)
                CheckReport(results: results).write(to: &writer)
                writer.endLine()
                writer.finish()
            }
        case .jsonl:
            try stream { sink in
                var writer = JSONWriter.streaming(pretty: false, to: sink)
                for result in results {
                    result.write(to: &writer)
                    writer.endLine()
                }
                writer.finish()
            }
        case .sarif:
            try emit(SARIFReport(ruleDescriptions: ruleDescriptions).render(results).serialized(pretty: true) + "\n")
        case .junit:
            try emit(JUnitReport().render(results))
        case .html:
            try emit(HTMLReport().render(results))
        }
    }

    /// The metrics line of a result of any check (for `check` and `report`, which print several kinds).
    static func metricsLine(ofAnyCheck result: CheckResult) -> String? {
        switch result.check {
        case "flash": FlashCommand.metricsLine(result)
        case "sync": SyncCommand.metricsLine(result)
        case "lint": LintCommand.metricsLine(result)
        case "autoplay": AutoplayCommand.metricsLine(result)
        default: nil
        }
    }

    /// Exits 2 when an input could not be read, 1 when a check failed; returns otherwise.
    static func exitForVerdicts(_ results: [CheckResult]) throws {
        if results.contains(where: { $0.verdict == .error }) { throw ExitCode(ExitStatus.unreadableInput.rawValue) }
        if results.contains(where: { $0.verdict == .fail }) { throw ExitCode(ExitStatus.checkFailed.rawValue) }
    }
}
