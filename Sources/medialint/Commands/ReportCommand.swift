import ArgumentParser
import Foundation
import Checks
import Library
import Findings
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
        // By the file's real path (the store's key); a file stored by several shards counts once.
        var byFile: [String: [CheckResult]] = [:]
        var gone = 0
        for store in merge.isEmpty ? [db] : merge {
            guard FileManager.default.fileExists(atPath: store) else {
                throw CLIError("\(store): no results store here (run 'medialint check' first, or give --db)")
            }
            do {
                for row in try openStore(store, writable: false).allRows() where byFile[row.path] == nil {
                    // A file deleted since it was checked is not reported (nor does it decide the exit status).
                    guard FileManager.default.fileExists(atPath: row.path) else {
                        gone += 1
                        continue
                    }
                    byFile[row.path] = row.results
                }
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError("\(store): the stored results cannot be read (\(error))")
            }
        }
        if gone > 0 { Console.note("\(gone) stored file\(gone == 1 ? " is" : "s are") gone since \(gone == 1 ? "it was" : "they were") checked: not reported") }
        let results = byFile.keys.sorted().flatMap { byFile[$0]! }
        try output.finish(results, format: format, verdicts: verdicts)
    }
}
