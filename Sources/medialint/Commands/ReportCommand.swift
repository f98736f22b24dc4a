import ArgumentParser
import Foundation
import LibraryCheck
import Reports

/// `medialint report`: the stored results of earlier `check` runs, without analysing anything again.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Show the results stored by earlier 'medialint check' runs, in any report format.",
        discussion: "Nothing is analysed again. Exit status as for check: 1 when a stored result fails, 2 when one is an error."
    )

    @Option(help: ArgumentHelp("The results store.", valueName: "file"))
    var db: String = ResultStoreDefaults.path

    @Option(help: "Output format.")
    var format: CheckFormat = .text

    @OptionGroup var output: OutputOptions

    func run() throws {
        guard FileManager.default.fileExists(atPath: db) else { throw CLIError("\(db): no results store here (run 'medialint check' first, or give --db)") }
        let results: [CheckResult]
        do {
            results = try openStore(db).allResults()
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("\(db): the stored results cannot be read (\(error))")
        }
        try output.emit(results, format: format, metricsLine: { _ in nil })
        try OutputOptions.exitForVerdicts(results)
    }
}
