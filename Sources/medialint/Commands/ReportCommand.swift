import ArgumentParser
import Checks
import Findings
import Foundation
import Library
import Reports

/// `medialint report`: the stored results of earlier `check` runs, without analysing anything again.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Show the results stored by earlier 'medialint check' runs, in any report format.",
        discussion: "Nothing is analysed again. Exit status as for check: 1 when a stored result fails or is an error."
    )

    @Option(help: ArgumentHelp("The results store.", valueName: "file"), completion: .file())
    var db: String = ResultStoreDefaults.path

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("Combine these stores (one per shard) instead of --db; a file found in several counts once.", valueName: "file"), completion: .file()
    )
    var merge: [String] = []

    @OptionGroup var formatChoice: CheckFormatOptions

    /// `--format`, else what `-o`'s extension says, else text.
    var format: CheckFormat { formatChoice.format(writingTo: output) }

    @OptionGroup var output: OutputOptions
    @OptionGroup var verdicts: VerdictOptions

    func run() throws {
        let paths = merge.isEmpty ? [db] : merge
        var stores: [ResultStore] = []
        for path in paths {
            guard FileManager.default.fileExists(atPath: path) else {
                throw CLIError("\(path): no results store here (run 'medialint check' first, or give --db)")
            }
            stores.append(try openStore(path, writable: false))
        }
        /// A store whose results cannot be read, as one line.
        func unreadable(_ error: StoredResults.ReadError) -> CLIError {
            CLIError("\(paths[error.store]): the stored results cannot be read (\(error.underlying))")
        }
        try output.refuse(inputs: paths)
        let stored: StoredResults
        do throws(StoredResults.ReadError) { stored = try StoredResults(stores) } catch { throw unreadable(error) }
        let gone = stored.gone
        if gone > 0 { Console.note("\(gone) stored file\(gone == 1 ? " is" : "s are") gone since \(gone == 1 ? "it was" : "they were") checked: not reported") }
        let totals = ResultTotals()
        let baseline = try BaselineRun(verdicts, matchesEndings: true)
        try output.stream { sink in
            let report = ReportStream(make: { [format, style = output.textStyle] in format.reporter(style: style, summary: $0) }, output: { sink.write($0) })
            do throws(StoredResults.ReadError) {
                // A report written as results come takes them in one pass; the others (SARIF, JUnit, HTML) read the
                // stores again, as often as they need, after a first pass for the totals: memory stays flat.
                try stored.forEach { results in
                    let results = baseline.filter(results)
                    totals.add(results)
                    if report.writesAsResultsCome { report.add(results) }
                }
                let summary = RunSummary(tally: totals.tally, exitStatus: totals.status(strict: verdicts.strict).rawValue)
                if report.writesAsResultsCome {
                    try? report.finish(summary)  // nothing is kept: nothing to read back
                } else {
                    try report.finish(summary, from: TransformedResults(stored) { baseline.filter($0, again: true) })
                }
            } catch {
                throw unreadable(error)
            }
        }
        try baseline.finish()
        let status = totals.status(strict: verdicts.strict)
        if status != .ok { throw ExitCode(status.rawValue) }
    }
}
