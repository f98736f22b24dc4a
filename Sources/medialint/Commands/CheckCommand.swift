import ArgumentParser
import CaptionQuality
import Checks
import Findings
import FlashDetection
import Foundation
import Library
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
            files next to the media). Caption files: their quality rules (--fix rewrites them with overlaps, \
            short cues and gaps, and long lines fixed). HTML pages: autoplaying sound. HLS packages (a \
            multivariant .m3u8): their playlists' rules (subtitle and audio-description renditions, languages, \
            segments), each subtitle rendition's quality and timing, and the video's flashing. \
            Folders are walked recursively (a folder reached twice through links is walked once; unreadable \
            entries are reported and the run goes on). Files are checked in parallel, --jobs at once.

            --format jsonl prints each file's results as soon as it is done, then the run's summary. Exit \
            status: 0 no failure (warnings pass unless --strict), 1 a check failed or a file could not be \
            checked (unreadable, corrupt), 2 a usage error, a path given that does not exist, or nothing to \
            check; 130 stopped by Ctrl-C (the reports say they are incomplete).
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

    @Flag(help: "Also check that each caption source's words are what is spoken (see 'medialint help accuracy'; or accuracy: true in the settings).")
    var accuracy = false

    @Flag(help: "Fix caption files' overlaps, too-short cues and gaps, and long lines before checking them, rewriting each (as lint --fix).")
    var fix = false

    @Option(help: ArgumentHelp("With --fix: keep each original as FILE followed by SUFFIX (e.g. .orig); never over an existing file.", valueName: "suffix"))
    var backup: String?

    @Option(help: ArgumentHelp("Check only shard K of N (files split by a hash of their path: shards are disjoint and together complete).", valueName: "K/N"))
    var shard: LibraryShard?

    @OptionGroup var formatChoice: CheckFormatOptions

    /// `--format`, else what `-o`'s extension says, else text.
    var format: CheckFormat { formatChoice.format(writingTo: output) }

    @Option(
        name: .customLong("captions"),
        help: ArgumentHelp(
            "With one media file: a caption file to check as its captions, instead of the sidecars found by name (repeat for several).",
            valueName: "file"), completion: .file())
    var captionFiles: [String] = []

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
        if !captionFiles.isEmpty {
            var isFolder: ObjCBool = false
            guard paths.count == 1, !(FileManager.default.fileExists(atPath: paths[0], isDirectory: &isFolder) && isFolder.boolValue) else {
                throw ValidationError(
                    "--captions names the captions of one media file: give that one file, not \(paths.count == 1 ? "a folder" : "\(paths.count) paths")")
            }
        }
        if backup != nil, !fix { throw ValidationError("--backup goes with --fix.") }
        if let backup, backup.isEmpty || backup.contains("/") { throw ValidationError("--backup takes a suffix such as .orig (no '/').") }
        if db.isEmpty { throw ValidationError("--db needs a path (or give --no-store to keep no results).") }
        try NumberRange.check(jobs, "--jobs", 1...1024)
        try NumberRange.check(maxFileMemory, "--max-file-memory (MB)", 16...1_048_576)
    }

    func run() throws {
        playlists.apply(to: paths)
        // Each file's settings read the way `flash`, `lint` and `sync` read them for it: the .medialint.yml files
        // from its folder up (or --config), --set, then the profile options.
        let folders = CheckSettingsByFolder(discovery: settings.discovery(), flashProfile: flashProfile, lintProfile: lintProfile, accuracy: accuracy)
        var base = LibraryChecker(jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        if let maxFileMemory { base.file.memoryLimit = Int64(maxFileMemory) << 20 }
        if fix {
            let backup = backup
            base.file.fixCaptions = { path, document, linter in try CaptionFixing.fixInPlace(path, document, linter: linter, backup: backup) }
        }
        if !captionFiles.isEmpty {
            for file in captionFiles where !FileManager.default.fileExists(atPath: file) {
                throw CLIError("\(file): no such caption file (--captions)")
            }
            base.captionFiles = [paths[0]: captionFiles]
        }
        // Progress in bytes across the run, files in part while they decode.
        let progress = LibraryProgress()
        base.progress = { path, fraction in progress.update(path, fraction: fraction) }
        // Settings errors are found before the walk (the settings where the run starts) or during the plan.
        for path in paths { _ = try folders.checker(config: folders.discovery.settings(for: path), base: base) }
        // What the options name is refused before the store is opened (the files the folders hold, once found).
        try output.refuse(inputs: paths + captionFiles + (noStore ? [] : [db]))
        try verdicts.refuseInputs()
        let store = noStore ? nil : try openStore(db)
        for note in store?.notes ?? [] { Console.warning(note) }
        let setup =
            ResultStoreDefaults.setup + (maxFileMemory.map { " max-file-memory=\($0)" } ?? "")
            + (playlists.allowPlaylists ? " allow-playlists" : "")
        let run = LibraryRun(checker: base, store: store, setup: setup)
        let plan = try run.plan(paths, shard: shard, folders: folders)
        // Checking nothing is no pass: a mistyped folder, or settings that leave everything out, must not go green.
        if plan.found == 0 {
            let left = plan.excluded == 0 ? "" : " (\(plan.excluded) left out by the settings' `exclude`)"
            throw CLIError("nothing to check: \(paths.joined(separator: ", ")) \(paths.count == 1 ? "holds" : "hold") no media, caption or HTML files\(left)")
        }
        if let shard, plan.items.isEmpty, plan.problems.isEmpty {
            Console.note("shard \(shard.index)/\(shard.count) holds none of the \(plan.found) file\(plan.found == 1 ? "" : "s") found; nothing to do")
        }
        if !captionFiles.isEmpty, plan.items.first?.kind != .media || plan.items.first?.path != paths[0] {
            throw CLIError("\(paths[0]): not a media file; --captions names the captions of one")
        }
        for problem in plan.problems { Console.error("\(problem.path): \(problem.message)") }
        // The report never goes over a file the run reads — one of the library's files, an HLS package's member, the
        // captions named, the results store — whatever option or folder named it.
        try output.refuse(inputs: plan.items.map(\.path) + captionFiles + (noStore ? [] : [db]))

        // The report is written as the results come, in item order (JSON Lines to standard output: each file as
        // soon as it is done); SARIF, JUnit and HTML keep the results until the end. Only counts are kept here.
        var status = ExitStatus.ok
        var wasStopped = false
        let baseline = try BaselineRun(verdicts, roots: paths)
        try output.stream { sink in
            let write: (UnsafeBufferPointer<UInt8>) -> Void
            if output.output == nil || output.output == "-" {
                write = { StandardOutput.write($0) }
            } else {
                write = { sink.write($0) }
            }
            (status, wasStopped) = try runAndReport(plan, run: run, store: store, progress: progress, baseline: baseline, write: write)
        }
        if wasStopped {
            if let path = verdicts.writeBaseline { Console.warning("\(path): not written: the run was stopped before every file was checked") }
            throw ExitCode(130)
        }
        try baseline.finish()
        if status != .ok { throw ExitCode(status.rawValue) }
    }

    /// Runs `plan`, writing the report with `write` as results come; the exit status, and whether Ctrl-C stopped it.
    private func runAndReport(
        _ plan: LibraryRun.Plan, run: LibraryRun, store: ResultStore?, progress: LibraryProgress, baseline: BaselineRun,
        write: @escaping (UnsafeBufferPointer<UInt8>) -> Void
    ) throws -> (status: ExitStatus, stopped: Bool) {
        let order: LibraryRun.Order = format == .jsonl && output.output == nil ? .finished : .items
        let problemPaths = Set(plan.problems.map(\.path))
        let totals = ResultTotals()
        let format = format, style = output.textStyle
        let report = ReportStream(make: { format.reporter(style: style, summary: $0) }, output: write)
        // Ctrl-C: no new file is started, the ones being checked finish and are stored, then the run ends.
        let interrupt = InterruptSignal.handle {
            run.stop()
            Console.writeError("\nmedialint: stopping after the files being checked (Ctrl-C again to quit at once)\n")
            TemporaryFiles.restoreHandler(for: SIGINT)
        }
        defer { interrupt.cancel() }
        progress.start(plan.pending.map { plan.items[$0] })
        let outcome = run.run(
            plan, order: order,
            deliver: { results in
                let results = baseline.filter(results)
                totals.add(results)
                // Files that could not be checked, each said on standard error (the walk's problems were already).
                OutputOptions.reportErrors(results.filter { !problemPaths.contains($0.file) })
                report.add(results)
            },
            finished: { path in progress.finish(path) })
        store?.finish()
        if let failure = outcome.saveFailure {
            Console.warning(
                "\(db): results could not be saved (\(failure)); the next run checks \(outcome.saveFailures == 1 ? "that file" : "those \(outcome.saveFailures) files") again"
            )
        }
        let files = plan.items.count + plan.problems.count
        if outcome.wasStopped {
            let unchecked = outcome.unchecked
            Console.error("stopped: \(unchecked) file\(unchecked == 1 ? "" : "s") not checked" + (store == nil ? "" : "; run again to resume"))
            try finish(report, RunSummary(tally: totals.tally, files: files, exitStatus: 130, unchecked: outcome.uncheckedPaths))
            return (.ok, true)
        }
        progress.end()
        let status = totals.status(strict: verdicts.strict)
        let summary = RunSummary(tally: totals.tally, files: files, exitStatus: status.rawValue)
        // The summary, in words on standard error whatever the format (JSON Lines also ends with it as a record).
        if !Console.isQuiet {
            Console.writeError(summary.text + (store == nil ? "" : " · \(outcome.checked) checked, \(outcome.reused) from the store") + "\n")
        }
        try finish(report, summary)
        return (status, false)
    }

    /// Closes `report` with `summary`; a report whose kept results cannot be read back is an error, not a partial file.
    private func finish(_ report: ReportStream, _ summary: RunSummary) throws {
        do { try report.finish(summary) } catch { throw CLIError(error.description) }
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
