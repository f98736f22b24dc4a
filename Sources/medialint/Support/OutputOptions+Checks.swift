import ArgumentParser
import Checks
import Findings
import Findings
import Reports

/// Printing check results and turning their verdicts into the exit status (docs/cli.md).
extension OutputOptions {
    /// Writes `results` in `format`; text gives each result its check's summary line, SARIF describes the rules from
    /// the catalogue.
    func emit(_ results: [CheckResult], format: CheckFormat) throws {
        try stream { sink in
            var out = ByteWriter { sink.write($0) }
            switch format {
            case .text:
                let report = TextReport(style: textStyle)
                for (index, result) in results.enumerated() {
                    if index > 0 { out.append(0x0A) }
                    report.write(result, metricsLine: CheckSummary.line(for: result), to: &out)
                }
            case .json:
                var writer = JSONWriter.streaming(pretty: true, to: sink)
                CheckReport(results: results).write(to: &writer)
                writer.endLine()
                writer.finish()
            case .jsonl:
                var writer = JSONWriter.streaming(pretty: false, to: sink)
                for result in results {
                    result.write(to: &writer)
                    writer.endLine()
                }
                writer.finish()
            case .sarif:
                var writer = JSONWriter.streaming(pretty: true, to: sink)
                SARIFReport(rules: RuleCatalogue.byID).write(results, to: &writer)
                writer.endLine()
                writer.finish()
            case .junit:
                JUnitReport().write(results, to: &out)
            case .html:
                HTMLReport().write(results, to: &out)
            }
            out.finish()
        }
    }

    /// Exits 2 when an input could not be read, 1 when a check failed; returns otherwise.
    /// Prints on standard error one line for each result that could not be completed (`FILE: why`), for the
    /// commands whose exit status 2 would otherwise come with nothing said there.
    static func reportErrors(_ results: [CheckResult]) {
        for result in results where result.verdict == .error {
            let why = result.findings.first { $0.severity == .error }?.message ?? "could not be checked"
            Console.error("\(result.file): \(why)")
        }
    }

    static func exitForVerdicts(_ results: [CheckResult]) throws {
        if results.contains(where: { $0.verdict == .error }) { throw ExitCode(ExitStatus.unreadableInput.rawValue) }
        if results.contains(where: { $0.verdict == .fail }) { throw ExitCode(ExitStatus.checkFailed.rawValue) }
    }
}
