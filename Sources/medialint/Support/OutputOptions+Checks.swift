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

    /// Prints on standard error one line for each result that could not be completed (`FILE: why`), for the
    /// commands whose exit status would otherwise come with nothing said there.
    static func reportErrors(_ results: [CheckResult]) {
        for result in results where result.verdict == .error {
            let why = result.findings.first { $0.severity == .error }?.message ?? "could not be checked"
            Console.error(why.hasPrefix(result.file + ": ") ? why : "\(result.file): \(why)")
        }
    }

    /// Writes `results` in `format` (JSON Lines closed by the run's summary) and exits with their status
    /// (ExitStatus.of; at least 1 when `failed`, e.g. a fix that could not be written); returns when it is 0.
    /// `streamed`: the results were written already, as they came. `files`: how many files the run looked at.
    func finish(
        _ results: [CheckResult], format: CheckFormat, verdicts: VerdictOptions, files: Int? = nil, streamed: Bool = false, failed: Bool = false
    ) throws {
        let baseline = try BaselineRun(verdicts)
        let results = baseline.filter(results)
        try baseline.finish()
        var status = ExitStatus.of(results, strict: verdicts.strict)
        if failed, status == .ok { status = .checkFailed }
        let summary = RunSummary(results: results, files: files, exitStatus: status.rawValue)
        let reporter = format.reporter(style: textStyle, summary: summary)
        if streamed {
            reporter.writeSummary(summary, to: StandardOutput.write)
        } else {
            try stream { sink in
                reporter.write(results) { sink.write($0) }
                reporter.writeSummary(summary) { sink.write($0) }
            }
        }
        if status != .ok { throw ExitCode(status.rawValue) }
    }
}

/// `--strict`: warnings fail the run; `--baseline`: known findings do not count.
struct VerdictOptions: ParsableArguments {
    @Flag(help: "Warnings fail too: exit status 1 when a result's verdict is 'warn'.")
    var strict = false

    @Option(
        help: ArgumentHelp(
            "Leave out the findings this baseline knows (same file, rule and fingerprint; lines may move): adopt medialint on an existing library and fail only on new findings.",
            valueName: "file"), completion: .file())
    var baseline: String?

    @Option(
        name: .customLong("write-baseline"),
        help: ArgumentHelp("Write this run's findings to a baseline file, for --baseline.", valueName: "file"), completion: .file())
    var writeBaseline: String?

    /// Throws when the baseline to write would go over a file the run reads (`RunInputs`: a caption file, a file in
    /// the folder checked, the results store, a settings file). The `--baseline` being replaced by its successor is
    /// allowed.
    func refuseInputs() throws {
        if let writeBaseline { try OutputStream.refuseInputs(writeBaseline, RunInputs.all, option: "--write-baseline") }
    }
}
