import ArgumentParser
import Foundation
import Checks
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

            --format jsonl prints each file's results as soon as it is done. Exit status: 0 no failure, 1 a \
            check failed, 2 something could not be read.
            """
    )

    @Argument(help: ArgumentHelp("Files and folders.", valueName: "path"))
    var paths: [String]

    @Option(help: ArgumentHelp("Files checked at once (default: one per core).", valueName: "n"))
    var jobs: Int?

    @Option(help: ArgumentHelp("The results store: unchanged files are not checked again, a stopped run resumes.", valueName: "file"))
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

    @Option(help: "Output format.")
    var format: CheckFormat = .text

    @OptionGroup var output: OutputOptions
    @OptionGroup var playlists: PlaylistOptions

    func validate() throws {
        try NumberRange.check(jobs, "--jobs", 1...1024)
        try NumberRange.check(maxFileMemory, "--max-file-memory (MB)", 16...1_048_576)
    }

    func run() throws {
        playlists.apply(to: paths)
        var (items, problems) = LibraryScanner.scan(paths)
        if let shard {
            items = items.filter { shard.contains($0.path) }
            problems = problems.filter { shard.contains($0.path) }
        }
        var results = problems.map { $0.result(check: .media) }
        for problem in problems { Console.error("\(problem.path): \(problem.message)") }
        var checker = LibraryChecker(jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        if let maxFileMemory { checker.memoryLimitPerFile = Int64(maxFileMemory) << 20 }
        let store = noStore ? nil : try openStore(db)
        for note in store?.notes ?? [] { Console.warning(note) }
        // Files whose stamp matches the store keep their stored results; the others are checked.
        var perItem = [[CheckResult]?](repeating: nil, count: items.count)
        var stamps = [FileStamp?](repeating: nil, count: items.count)
        if let store {
            for (index, item) in items.enumerated() {
                let companions = item.kind == .media ? CaptionSidecars.find(for: item.path) : []
                stamps[index] = FileStamp.of(
                    item.path, companions: companions,
                    setup: ResultStoreDefaults.setup + (maxFileMemory.map { " max-file-memory=\($0)" } ?? "")
                        + (playlists.allowPlaylists ? " allow-playlists" : ""))
                // Stored under the file's real path: shown under the name this run gives it.
                if let stamp = stamps[index], let stored = try? store.results(for: stamp) {
                    perItem[index] = stored.map { result in
                        var result = result
                        result.file = item.path
                        return result
                    }
                }
            }
        }
        let pending = items.indices.filter { perItem[$0] == nil }
        let progress = ProgressLine(label: "check", counting: .files)
        let done = ProgressCounter()
        let streaming = format == .jsonl && output.output == nil
        if streaming {
            for result in results + perItem.compactMap({ $0 }).flatMap({ $0 }) {
                FileHandle.standardOutput.write(Data((try JSONValueEncoder().encode(result).serialized() + "\n").utf8))
            }
        }
        let total = Double(pending.count)
        let saved = stamps
        // Ctrl-C: no new file is started, the ones being checked finish and are stored, then the run ends.
        let interrupted = StopFlag()
        let saveFailure = FirstFailure()
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler {
            interrupted.set()
            Console.writeError("\nmedialint: stopping after the files being checked (Ctrl-C again to quit at once)\n")
            TemporaryFiles.restoreHandler(for: SIGINT)
        }
        interrupt.resume()
        defer { interrupt.cancel() }
        let checked = checker.runEach(pending.map { items[$0] }, stop: { interrupted.isSet }) { index, finished in
            // Saved as soon as the file is done: a run stopped at any moment keeps it.
            if let store, let stamp = saved[pending[index]] {
                do { try store.save(stamp, results: finished) } catch { saveFailure.record(error) }
            }
            if streaming {
                let lines = finished.compactMap { try? JSONValueEncoder().encode($0).serialized() + "\n" }.joined()
                done.withLock { FileHandle.standardOutput.write(Data(lines.utf8)) }
            }
            let count = done.increment()
            done.withLock { progress.update(done: Double(count), total: total) }
        }
        for (offset, index) in pending.enumerated() where !(interrupted.isSet && checked[offset].isEmpty) { perItem[index] = checked[offset] }
        results += perItem.compactMap { $0 }.flatMap { $0 }
        if let failure = saveFailure.first {
            Console.warning(
                "\(db): results could not be saved (\(failure)); the next run checks \(saveFailure.count == 1 ? "that file" : "those \(saveFailure.count) files") again"
            )
        }
        if interrupted.isSet {
            let unchecked = perItem.filter { $0 == nil }.count
            Console.error("stopped: \(unchecked) file\(unchecked == 1 ? "" : "s") not checked" + (store == nil ? "" : "; run again to resume"))
            if !streaming { try? output.emit(results, format: format, metricsLine: OutputOptions.metricsLine(ofAnyCheck:)) }
            throw ExitCode(130)
        }
        progress.finish()
        // Files that could not be checked, each said on standard error (the walk's problems were said already).
        OutputOptions.reportErrors(results.filter { result in !problems.contains { $0.path == result.file } })
        if !streaming {
            try output.emit(results, format: format, metricsLine: OutputOptions.metricsLine(ofAnyCheck:))
            if format == .text {
                let reused = items.count - pending.count
                FileHandle.standardError.write(
                    Data(
                        (Self.summary(results, files: items.count + problems.count)
                            + (store == nil ? "" : " · \(pending.count) checked, \(reused) from the store") + "\n").utf8))
            }
        }
        try OutputOptions.exitForVerdicts(results)
    }

    /// `12 files · 20 results: 14 pass, 3 warn, 2 fail, 1 error`.
    static func summary(_ results: [CheckResult], files: Int) -> String {
        let counts = [Verdict.pass, .warn, .fail, .unverified, .error].compactMap { verdict -> String? in
            let count = results.filter { $0.verdict == verdict }.count
            return count > 0 ? "\(count) \(verdict.rawValue)" : nil
        }
        return "\(files) file\(files == 1 ? "" : "s") · \(results.count) result\(results.count == 1 ? "" : "s"): " + counts.joined(separator: ", ")
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
