import Basics
import Captions
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

    /// What a run will do: the files and the problems met finding them, and for each file whether the store holds
    /// results it can reuse.
    public struct Plan: Sendable {
        public let items: [LibraryItem]
        public let problems: [LibraryProblem]
        /// The files (and problems) the paths hold before a shard takes its part: 0 means there is nothing to check.
        public var found = 0
        /// The files and folders the settings' `exclude` left out.
        public var excluded = 0
        /// For each item, the store's row of its reusable results, or nil (to be checked).
        let storedRows: [Int64?]
        let stamps: [FileStamp?]
        /// The distinct checkers set up by folder, and for each item the index of its own; nil: the run's checker
        /// for every item.
        let checkers: [LibraryChecker]
        let checkerOfItem: [Int]?

        /// The items to check: those without stored results.
        public var pending: [Int] { items.indices.filter { storedRows[$0] == nil } }
        /// How many items have stored results to reuse.
        public var reusable: Int { storedRows.lazy.filter { $0 != nil }.count }
        /// The problems as error results: what is known before anything is read.
        public var problemResults: [CheckResult] { problems.map { $0.result(check: .media) } }
    }

    /// Finds the files under `paths` (only those of `shard`, none that `folders` leaves out), the checker for each
    /// when `folders` sets them up by folder, and which of them the store holds results for. Throws what `folders`
    /// throws.
    public func plan(_ paths: [String], shard: LibraryShard? = nil, folders: (any FolderSettings)? = nil) throws -> Plan {
        var excluded = 0
        var (items, problems) = try LibraryScanner.scan(
            paths,
            skip: { path in
                let skipped = try folders?.excludes(path) ?? false
                if skipped { excluded += 1 }
                return skipped
            })
        let found = items.count + problems.count
        if let shard {
            items = items.filter { shard.contains($0.path) }
            problems = problems.filter { shard.contains($0.path) }
        }
        var checkers: [LibraryChecker] = []
        var checkerOfItem: [Int]?
        var settingsOfChecker: [String] = []
        if let folders {
            var known: [String: Int] = [:]
            checkerOfItem = try items.map { item in
                let (checker, settings) = try folders.checker(for: item, base: checker)
                if let index = known[settings] { return index }
                known[settings] = checkers.count
                checkers.append(checker)
                settingsOfChecker.append(settings)
                return checkers.count - 1
            }
        }
        var stamps = [FileStamp?](repeating: nil, count: items.count)
        var storedRows = [Int64?](repeating: nil, count: items.count)
        if let store {
            // Each file read for its fingerprint: in slices on every core, each slice listing its own folders.
            let slices = ParallelSlices.bounds(of: items.indices, slices: ParallelSlices.count(for: items.count, minimum: 512))
            let captionFiles = checker.captionFiles
            stamps = ParallelSlices.map(slices.count) { slice in
                let sidecars = CaptionSidecars.FolderCache()
                let realPaths = RealPaths()
                return slices[slice].map { index -> FileStamp? in
                    let item = items[index]
                    let companions = item.kind == .media ? captionFiles[item.path] ?? sidecars.find(for: item.path) : []
                    let settings = checkerOfItem.map { settingsOfChecker[$0[index]] } ?? ""
                    return FileStamp.of(
                        item.path, realPath: realPaths.of(item.path), companions: companions,
                        setup: settings.isEmpty ? setup : setup + " settings=\(settings)")
                }
            }.flatMap { $0 }
            // Stored under the file's real path: shown under the name this run gives it.
            storedRows = (try? store.reusableRows(for: stamps)) ?? storedRows
        }
        var plan = Plan(items: items, problems: problems, storedRows: storedRows, stamps: stamps, checkers: checkers, checkerOfItem: checkerOfItem)
        plan.found = found
        plan.excluded = excluded
        return plan
    }

    /// What a run gave.
    public struct Outcome: Sendable {
        /// Files checked in this run, and files whose stored results were reused.
        public var checked: Int
        public var reused: Int
        /// Files left unchecked because the run was stopped.
        public var unchecked: Int { uncheckedPaths.count }
        /// Their paths, in item order.
        public var uncheckedPaths: [String]
        public var wasStopped: Bool
        /// The first error saving a file's results (one line), and how many files could not be saved.
        public var saveFailure: String?
        public var saveFailures: Int
    }

    /// The order a run hands results over in.
    public enum Order: Sendable {
        /// Item order (the problems first): a report reads the same whatever order files finish in. Results that
        /// finish early wait for those before them.
        case items
        /// Stored results first, then each file as soon as it is done.
        case finished
    }

    /// Checks the pending files of `plan` and hands over every result — the problems' error results, the stored
    /// results (under the names this run gives the files) and each checked file's — to `deliver`, one call at a
    /// time, in `order`; nothing is kept here, so memory does not grow with the library. `finished` is told each
    /// checked file's path as it is done (its results are saved before), in the order files finish.
    public func run(
        _ plan: Plan, order: Order = .items, deliver: @escaping @Sendable ([CheckResult]) -> Void,
        finished: (@Sendable (_ path: String) -> Void)? = nil
    ) -> Outcome {
        let pending = plan.pending
        let store = store
        let stamps = plan.stamps
        let saveFailure = LockedValue<(first: String?, count: Int)>((nil, 0))
        let delivery = LockedValue(InOrderDelivery(plan: plan, store: store, order: order, deliver: deliver))
        delivery.update { $0.start() }
        let started = checker.runEach(
            pending.map { plan.items[$0] }, checkers: plan.checkers, checkerOfItem: plan.checkerOfItem.map { indices in pending.map { indices[$0] } },
            stop: { [stopped] in stopped.value }
        ) { index, results in
            if let store, let stamp = stamps[pending[index]] {
                do { try store.save(stamp, results: results) } catch {
                    let line = String(describing: error).split(whereSeparator: \.isNewline).first.map(String.init)
                    saveFailure.update { $0 = ($0.first ?? line, $0.count + 1) }
                }
            }
            delivery.update { $0.finished(item: pending[index], results: results) }
            finished?(plan.items[pending[index]].path)
        }
        delivery.update { $0.end() }
        let failure = saveFailure.value
        let checked = started.filter { $0 }.count
        let unchecked = zip(pending, started).compactMap { item, began in began ? nil : plan.items[item].path }
        return Outcome(
            checked: checked, reused: plan.items.count - pending.count, uncheckedPaths: unchecked,
            wasStopped: stopped.value, saveFailure: failure.first, saveFailures: failure.count)
    }

    /// `run`, keeping every result in item order (for reports that need them all before they start, and tests).
    public func runKeepingResults(_ plan: Plan, finished: (@Sendable (_ path: String) -> Void)? = nil) -> (outcome: Outcome, results: [CheckResult]) {
        let kept = LockedValue([CheckResult]())
        let outcome = run(plan, deliver: { results in kept.update { $0 += results } }, finished: finished)
        return (outcome, kept.value)
    }

    /// Starts no new file; the ones being checked finish (and are saved). Safe from any thread.
    public func stop() { stopped.update { $0 = true } }

    public var isStopped: Bool { stopped.value }
}

/// Hands a run's results over in the order asked for, holding only what waits for a file before it: stored results
/// are read from the store in batches as their turn comes.
struct InOrderDelivery {
    let plan: LibraryRun.Plan
    let store: ResultStore?
    let order: LibraryRun.Order
    let deliver: @Sendable ([CheckResult]) -> Void
    /// The next item to hand over (item order), and the results of later items already done.
    private var next = 0
    private var waiting: [Int: [CheckResult]] = [:]
    /// Stored results read ahead, by row.
    private var readAhead: [Int64: [CheckResult]] = [:]

    init(plan: LibraryRun.Plan, store: ResultStore?, order: LibraryRun.Order, deliver: @escaping @Sendable ([CheckResult]) -> Void) {
        self.plan = plan
        self.store = store
        self.order = order
        self.deliver = deliver
    }

    /// The problems, then (item order) every item up to the first to be checked, or (finished order) every stored one.
    mutating func start() {
        let problems = plan.problemResults
        if !problems.isEmpty { deliver(problems) }
        switch order {
        case .items: advance(final: false)
        case .finished:
            for index in plan.items.indices where plan.storedRows[index] != nil { deliver(stored(index)) }
        }
    }

    mutating func finished(item: Int, results: [CheckResult]) {
        switch order {
        case .finished: deliver(results)
        case .items:
            waiting[item] = results
            advance(final: false)
        }
    }

    /// The run is over: what still waits is handed over; items never checked (a stopped run) are passed by.
    mutating func end() {
        if order == .items { advance(final: true) }
    }

    private mutating func advance(final: Bool) {
        while next < plan.items.count {
            if plan.storedRows[next] != nil {
                deliver(stored(next))
            } else if let results = waiting.removeValue(forKey: next) {
                deliver(results)
            } else if !final {
                return
            }
            next += 1
        }
    }

    /// The stored results of item `index`, named as this run names the file.
    private mutating func stored(_ index: Int) -> [CheckResult] {
        guard let row = plan.storedRows[index] else { return [] }
        if readAhead[row] == nil, let store {
            // This row and the next stored ones, a batch at a time.
            var rows: [Int64] = []
            var cursor = index
            while cursor < plan.items.count, rows.count < ResultStore.readBatch {
                if let later = plan.storedRows[cursor] { rows.append(later) }
                cursor += 1
            }
            readAhead = (try? store.results(inRows: rows)) ?? [:]
        }
        let path = plan.items[index].path
        return (readAhead.removeValue(forKey: row) ?? []).map { result in
            var result = result
            result.file = path
            return result
        }
    }
}
