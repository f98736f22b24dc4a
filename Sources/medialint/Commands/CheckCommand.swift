import ArgumentParser
import Foundation
import CaptionQuality
import Checks
import FlashDetection
import Library
import Findings
import Reports

/// `medialint check PATH...`: everything that applies to each file of a media library.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check everything that applies to each file: a media library, in parallel.",
        discussion: """
            Media files: captions present (sidecar files and embedded text tracks; WCAG 1.2.2), caption timing \
            against the speech for each caption source, seizure-risk flashing, and an inventory of accessibility \
            assets (caption tracks with language and hearing-impaired flag, audio-description tracks, transcript \
            files next to the media). Caption files: their quality rules. HTML pages: autoplaying sound. \
            Folders are walked recursively (a folder reached twice through links is walked once; unreadable \
            entries are reported and the run goes on). Files are checked in parallel, --jobs at once.

            --format jsonl prints each file's results as soon as it is done, then the run's summary. Exit \
            status: 0 no failure (warnings pass unless --strict), 1 a check failed or a file could not be \
            checked (unreadable, corrupt), 2 a usage error or a path given that does not exist.
            """
    )

    @Argument(help: ArgumentHelp("Files and folders.", valueName: "path"), completion: .file())
    var paths: [String]

    @Option(help: ArgumentHelp("Files checked at once (default: one per core).", valueName: "n"))
    var jobs: Int?

    @Option(help: ArgumentHelp("The results store: unchanged files are not checked again, a stopped run resumes.", valueName: "file"), completion: .file())
    var db: String = ResultStoreDefaults.path

    @Option(
        help: ArgumentHelp(
            "The most memory checking one file may take, in MB (default 2048): a file that would need more is an error result and the run goes on.",
            valueName: "MB"))
    var maxFileMemory: Int?

    @Flag(help: "Check every file, without reading or writing the results store.")
    var noStore = false

    @Option(help: ArgumentHelp("Check only shard K of N (files split by a hash of their path: shards are disjoint and together complete).", valueName: "K/N"))
    var shard: LibraryShard?

    @Option(
        name: .customLong("format"),
        help: ArgumentHelp("Output format (default: from the -o file's extension — .json, .jsonl, .sarif, .xml, .html — else text).", valueName: "format"))
    var formatOption: CheckFormat?

    /// `--format`, else what `-o`'s extension says, else text.
    var format: CheckFormat { formatOption ?? output.impliedFormat(CheckFormat.init(rawValue:)) ?? .text }

    @Option(
        help: ArgumentHelp("Flash thresholds to start from (default: the settings', else wcag).", valueName: "profile"),
        completion: .list(FlashConfiguration.profileNames))
    var flashProfile: String?

    @Option(
        help: ArgumentHelp("Caption rules to start from (default: the settings', else netflix).", valueName: "profile"), completion: .list(QualityProfile.names)
    )
    var lintProfile: String?

    @OptionGroup var settings: ConfigOptions

    @OptionGroup var output: OutputOptions
    @OptionGroup var verdicts: VerdictOptions
    @OptionGroup var playlists: PlaylistOptions

    func validate() throws {
        try NumberRange.check(jobs, "--jobs", 1...1024)
        try NumberRange.check(maxFileMemory, "--max-file-memory (MB)", 16...1_048_576)
    }

    func run() throws {
        playlists.apply(to: paths)
        // Each file's settings read the way `flash`, `lint` and `sync` read them for it: the .medialint.yml files
        // from its folder up (or --config), --set, then the profile options.
        let folders = CheckSettingsByFolder(discovery: settings.discovery(), flashProfile: flashProfile, lintProfile: lintProfile)
        var base = LibraryChecker(jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        if let maxFileMemory { base.memoryLimitPerFile = Int64(maxFileMemory) << 20 }
        // Progress in bytes across the run, files in part while they decode.
        let progress = LibraryProgress()
        base.progress = { path, fraction in progress.update(path, fraction: fraction) }
        // Settings errors are found before the walk (the settings where the run starts) or during the plan.
        for path in paths { _ = try folders.checker(config: folders.discovery.settings(for: path), base: base) }
        let store = noStore ? nil : try openStore(db)
        for note in store?.notes ?? [] { Console.warning(note) }
        let setup =
            ResultStoreDefaults.setup + (maxFileMemory.map { " max-file-memory=\($0)" } ?? "")
            + (playlists.allowPlaylists ? " allow-playlists" : "")
        let run = LibraryRun(checker: base, store: store, setup: setup)
        let plan = try run.plan(paths, shard: shard, folders: folders)
        for problem in plan.problems { Console.error("\(problem.path): \(problem.message)") }

        // A streaming report (JSON Lines) to standard output: what is known at once, then each file as it is done.
        let reporter = format.reporter(style: output.textStyle)
        let streaming = reporter.streams && output.output == nil
        if streaming { reporter.write(plan.knownResults, to: StandardOutput.write) }
        // Ctrl-C: no new file is started, the ones being checked finish and are stored, then the run ends.
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler {
            run.stop()
            Console.writeError("\nmedialint: stopping after the files being checked (Ctrl-C again to quit at once)\n")
            TemporaryFiles.restoreHandler(for: SIGINT)
        }
        interrupt.resume()
        defer { interrupt.cancel() }
        progress.start(plan.pending.map { plan.items[$0] })
        let outcome = run.run(plan) { results, _, _ in
            if let path = results.first?.file { progress.finish(path) }
            if streaming { reporter.write(results, to: StandardOutput.write) }
        }
        let results = outcome.results
        if let failure = outcome.saveFailure {
            Console.warning(
                "\(db): results could not be saved (\(failure)); the next run checks \(outcome.saveFailures == 1 ? "that file" : "those \(outcome.saveFailures) files") again"
            )
        }
        if outcome.wasStopped {
            let unchecked = outcome.unchecked
            Console.error("stopped: \(unchecked) file\(unchecked == 1 ? "" : "s") not checked" + (store == nil ? "" : "; run again to resume"))
            if !streaming { try? output.emit(results, format: format) }
            throw ExitCode(130)
        }
        progress.end()
        // Files that could not be checked, each said on standard error (the walk's problems were said already).
        OutputOptions.reportErrors(results.filter { result in !plan.problems.contains { $0.path == result.file } })
        // The summary, in words on standard error whatever the format (JSON Lines also ends with it as a record).
        let files = plan.items.count + plan.problems.count
        let summary = RunSummary(results: results, files: files, exitStatus: 0).text
        if !Console.isQuiet {
            Console.writeError(summary + (store == nil ? "" : " · \(outcome.checked) checked, \(outcome.reused) from the store") + "\n")
        }
        try output.finish(results, format: format, verdicts: verdicts, files: files, streamed: streaming)
    }
}

/// `--shard K/N`.
extension LibraryShard: ExpressibleByArgument {
    public init?(argument: String) {
        let parts = argument.split(separator: "/")
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }
}

/// Opens the results store, as a one-line error when it cannot be.
func openStore(_ path: String, writable: Bool = true) throws -> ResultStore {
    do { return try ResultStore(path: path, writable: writable) } catch { throw CLIError("\(path): cannot use the results store: \(error)") }
}
