import Findings
import Foundation
import Reports

/// The exit statuses of the command-line contract (docs/cli.md, "Exit status").
enum ExitStatus: Int32 {
    /// Nothing failed (warnings pass, unless `--strict`).
    case ok = 0
    /// A check failed, or a file could not be checked (a result with verdict `error`: unreadable, corrupt).
    case checkFailed = 1
    /// A usage or settings error, or a path named on the command line that does not exist; for the commands that are
    /// not checks (`probe`, `cues`, `convert`, `shift`, `transcript`), an input that cannot be read.
    case usageError = 2

    /// The status check results give: 2 when a file named does not exist, 1 when a result failed or could not be
    /// checked (or warned, with `strict`), else 0.
    static func of(_ results: [CheckResult], strict: Bool) -> ExitStatus {
        var tally = ResultTally()
        tally.add(results)
        return of(tally, missingFile: namesMissingFile(results), strict: strict)
    }

    /// The status of results counted in `tally`; `missingFile`: one of them is an error for a file that does not exist.
    static func of(_ tally: ResultTally, missingFile: Bool, strict: Bool) -> ExitStatus {
        if missingFile { return .usageError }
        let failing: [Verdict] = strict ? [.fail, .error, .warn] : [.fail, .error]
        return failing.contains { tally.verdicts[$0, default: 0] > 0 } ? .checkFailed : .ok
    }

    /// True when one of `results` is an error for a file that does not exist (a path named that is not there).
    static func namesMissingFile(_ results: [CheckResult]) -> Bool {
        results.contains { $0.verdict == .error && !exists($0.file) }
    }

    /// True when something (a file, a folder, a dangling link) is at `path`.
    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}

/// What a run counts of its results as they come — the summary's counts and what the exit status needs — without
/// keeping them (one call at a time: the caller serialises them).
final class ResultTotals: @unchecked Sendable {
    private(set) var tally = ResultTally()
    /// An error result names a file that does not exist (a path given that is not there: exit status 2).
    private(set) var missingFile = false

    func add(_ results: [CheckResult]) {
        tally.add(results)
        if !missingFile { missingFile = ExitStatus.namesMissingFile(results) }
    }

    func status(strict: Bool) -> ExitStatus { ExitStatus.of(tally, missingFile: missingFile, strict: strict) }
}
