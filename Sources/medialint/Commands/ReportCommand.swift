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
        // By the file's real path (the store's key); a file stored by several shards counts once, from the first store
        // naming it. Only paths and row numbers are held: the results are read a batch at a time as they are written.
        var stores: [ResultStore] = []
        var byFile: [String: (store: Int, row: Int64)] = [:]
        var gone = 0
        for path in merge.isEmpty ? [db] : merge {
            guard FileManager.default.fileExists(atPath: path) else {
                throw CLIError("\(path): no results store here (run 'medialint check' first, or give --db)")
            }
            do {
                let store = try openStore(path, writable: false)
                for (file, row) in try store.rowsByPath() where byFile[file] == nil {
                    // A file deleted since it was checked is not reported (nor does it decide the exit status).
                    guard FileManager.default.fileExists(atPath: file) else {
                        gone += 1
                        continue
                    }
                    byFile[file] = (stores.count, row)
                }
                stores.append(store)
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError("\(path): the stored results cannot be read (\(error))")
            }
        }
        if gone > 0 { Console.note("\(gone) stored file\(gone == 1 ? " is" : "s are") gone since \(gone == 1 ? "it was" : "they were") checked: not reported") }
        let files = byFile.keys.sorted()
        var tally = ResultTally()
        var missingFile = false
        try output.stream { sink in
            let report = ReportStream(make: { [format, style = output.textStyle] in format.reporter(style: style, exitStatus: $0) }, output: { sink.write($0) })
            for start in stride(from: 0, to: files.count, by: 256) {
                let batch = files[start..<min(files.count, start + 256)]
                var read: [Int: [Int64: [CheckResult]]] = [:]
                for (index, store) in stores.enumerated() {
                    let rows = batch.compactMap { byFile[$0].flatMap { $0.store == index ? $0.row : nil } }
                    guard !rows.isEmpty else { continue }
                    do { read[index] = try store.results(inRows: rows) } catch {
                        throw CLIError("\(merge.isEmpty ? db : merge[index]): the stored results cannot be read (\(error))")
                    }
                }
                for file in batch {
                    guard let place = byFile[file], let results = read[place.store]?[place.row] else { continue }
                    tally.add(results)
                    if !missingFile { missingFile = ExitStatus.namesMissingFile(results) }
                    report.add(results)
                }
            }
            let status = ExitStatus.of(tally, missingFile: missingFile, strict: verdicts.strict)
            report.finish(RunSummary(tally: tally, exitStatus: status.rawValue))
        }
        let status = ExitStatus.of(tally, missingFile: missingFile, strict: verdicts.strict)
        if status != .ok { throw ExitCode(status.rawValue) }
    }
}
