import ArgumentParser
import Checks
import Findings
import Reports

/// Printing check results and turning their verdicts into the exit status (docs/cli.md).
extension OutputOptions {
    /// Writes `results` in `format`, where the output goes.
    func emit(_ results: [CheckResult], format: CheckFormat) throws {
        let reporter = format.reporter(style: textStyle)
        try stream { sink in reporter.write(results) { sink.write($0) } }
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
