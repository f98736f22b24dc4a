import Checks
import Findings
import Foundation

/// One run of every check over a library, as `medialint check` makes it: the files found under the paths given (one
/// shard of them, if asked), the stored results of files unchanged since they were stored, and the others checked
/// in parallel — each saved as soon as it is done, so a run stopped at any moment keeps every finished file. `stop()`
/// (Ctrl-C) lets the files being checked finish and starts no other.
public final class LibraryRun: Sendable {
    public let checker: LibraryChecker
    /// Where results are kept and reused; nil checks every file and keeps nothing.
    public let store: ResultStore?
    /// What stored results must have been made with to be reused (the tool's version, the options that change
    /// results).
    public let setup: String
    private let stopped = LockedValue(false)

    public init(checker: LibraryChecker, store: ResultStore?, setup: String) {
        self.checker = checker
        self.store = store
        self.setup = setup
    }

    /// What a run will do: the files and the problems met finding them, and for each file its stored results when
    /// they can be reused.
    public struct Plan: Sendable {
        public let items: [LibraryItem]
        public let problems: [LibraryProblem]
        /// For each item, its stored results (shown under the name this run gives the file), or nil.
        public let stored: [[CheckResult]?]
        let stamps: [FileStamp?]
        /// For each item, the checker set up for its folder; nil: the run's checker for every item.
        let checkers: [LibraryChecker]?

        /// The items to check: those without stored results.
        public var pending: [Int] { items.indices.filter { stored[$0] == nil } }
        /// The problems as error results, then the stored results, in item order: what is known before checking.
        public var knownResults: [CheckResult] { problems.map { $0.result(check: .media) } + stored.compactMap { $0 }.flatMap { $0 } }
    }

    /// Finds the files under `paths` (only those of `shard`, none that `folders` leaves out), the checker for each
    /// when `folders` sets them up by folder, and what the store already holds for them. Throws what `folders` throws.
    public func plan(_ paths: [String], shard: LibraryShard? = nil, folders: (any FolderSettings)? = nil) throws -> Plan {
        var (items, problems) = try LibraryScanner.scan(paths, skip: { try folders?.excludes($0) ?? false })
        if let shard {
            items = items.filter { shard.contains($0.path) }
            problems = problems.filter { shard.contains($0.path) }
        }
        var checkers: [LibraryChecker]?
        var setups = [String](repeating: setup, count: items.count)
        if let folders {
            var list: [LibraryChecker] = []
            for (index, item) in items.enumerated() {
                let (checker, settings) = try folders.checker(for: item, base: checker)
                list.append(checker)
                if !settings.isEmpty { setups[index] += " settings=\(settings)" }
            }
            checkers = list
        }
        var stored = [[CheckResult]?](repeating: nil, count: items.count)
        var stamps = [FileStamp?](repeating: nil, count: items.count)
        if let store {
            for (index, item) in items.enumerated() {
                let companions = item.kind == .media ? CaptionSidecars.find(for: item.path) : []
                stamps[index] = FileStamp.of(item.path, companions: companions, setup: setups[index])
                // Stored under the file's real path: shown under the name this run gives it.
                if let stamp = stamps[index], let results = try? store.results(for: stamp) {
                    stored[index] = results.map { result in
                        var result = result
                        result.file = item.path
                        return result
                    }
                }
            }
        }
        return Plan(items: items, problems: problems, stored: stored, stamps: stamps, checkers: checkers)
    }

    /// What a run gave.
    public struct Outcome: Sendable {
        /// The problems' error results, then every file's results in item order (files never checked have none).
        public var results: [CheckResult]
        /// Files checked in this run, and files whose stored results were reused.
        public var checked: Int
        public var reused: Int
        /// Files left unchecked because the run was stopped.
        public var unchecked: Int
        public var wasStopped: Bool
        /// The first error saving a file's results (one line), and how many files could not be saved.
        public var saveFailure: String?
        public var saveFailures: Int
    }

    /// Checks the pending files of `plan`. `finished` is told each file's results as it is done, and how many of
    /// the `total` pending files are done — one call at a time, in the order files finish (results are saved before).
    public func run(_ plan: Plan, finished: (@Sendable (_ results: [CheckResult], _ done: Int, _ total: Int) -> Void)? = nil) -> Outcome {
        let pending = plan.pending
        let store = store
        let stamps = plan.stamps
        let saveFailure = LockedValue<(first: String?, count: Int)>((nil, 0))
        let done = LockedValue(0)
        let checked = checker.runEach(
            pending.map { plan.items[$0] }, checkers: plan.checkers.map { checkers in pending.map { checkers[$0] } },
            stop: { [stopped] in stopped.value }
        ) { index, results in
            if let store, let stamp = stamps[pending[index]] {
                do { try store.save(stamp, results: results) } catch {
                    let line = String(describing: error).split(whereSeparator: \.isNewline).first.map(String.init)
                    saveFailure.update { $0 = ($0.first ?? line, $0.count + 1) }
                }
            }
            done.update { count in
                count += 1
                finished?(results, count, pending.count)
            }
        }
        var perItem = plan.stored
        let wasStopped = stopped.value
        for (offset, index) in pending.enumerated() where !(wasStopped && checked[offset].isEmpty) { perItem[index] = checked[offset] }
        let failure = saveFailure.value
        let unchecked = perItem.filter { $0 == nil }.count
        return Outcome(
            results: plan.problems.map { $0.result(check: .media) } + perItem.compactMap { $0 }.flatMap { $0 },
            checked: pending.count - unchecked, reused: plan.items.count - pending.count, unchecked: unchecked,
            wasStopped: wasStopped, saveFailure: failure.first, saveFailures: failure.count)
    }

    /// Starts no new file; the ones being checked finish (and are saved). Safe from any thread.
    public func stop() { stopped.update { $0 = true } }

    public var isStopped: Bool { stopped.value }
}
