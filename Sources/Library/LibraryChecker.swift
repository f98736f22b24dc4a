import Checks
import Findings
import Foundation
import MediaIO

/// The checks of a library's files (`FileCheck`, one file at a time), run in parallel, at most `jobs` files at once.
public struct LibraryChecker: Sendable {
    /// The checks of one file, and the memory it may take.
    public var file: FileCheck
    public var jobs: Int
    /// Caption files named for a media file (by the path the run gives it), checked as its caption sources instead of
    /// the sidecars found by name (`check MEDIA --captions FILE`).
    public var captionFiles: [String: [String]] = [:]
    /// Told, from the thread checking it, how much of a media file is done (0–1) while it is decoded: the audio
    /// for speech, then the video for flashing, by seconds of media.
    public var progress: (@Sendable (_ path: String, _ fraction: Double) -> Void)?
    /// Rules the settings turn off or give another severity, applied to every result.
    public var rules = RulePolicy()

    public init(file: FileCheck = FileCheck(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.file = file
        // Several files at once keep the cores busy between them: one decoder thread each.
        if jobs > 1 { self.file.flash.decodeThreads = 1 }
        self.jobs = max(1, jobs)
    }

    /// Checks every item, handing each item's results to `finished` as it is done (from the thread that checked it;
    /// nothing is kept here). Once `stop` says so, no new item is started (the ones being checked finish); returns
    /// which items were checked. `checkerOfItem`, when given, holds for each item the index of its checker among
    /// `checkers` (settings set up by folder); this one's `jobs` apply.
    @discardableResult
    public func runEach(
        _ items: [LibraryItem], checkers: [LibraryChecker] = [], checkerOfItem: [Int]? = nil, stop: (@Sendable () -> Bool)? = nil,
        finished: (@Sendable (Int, [CheckResult]) -> Void)? = nil
    ) -> [Bool] {
        let checkers = checkers.map { checker in
            var checker = checker
            if jobs > 1 { checker.file.flash.decodeThreads = 1 }
            return checker
        }
        let started = LockedValue([Bool](repeating: false, count: items.count))
        let next = LockedValue(0)
        /// The next index no worker has taken, if any is left.
        @Sendable func take() -> Int? {
            next.update { next in
                guard next < items.count else { return nil }
                defer { next += 1 }
                return next
            }
        }
        let workers = min(jobs, max(1, items.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while stop?() != true, let index = take() {
                started.update { $0[index] = true }
                let results = (checkerOfItem.map { checkers[$0[index]] } ?? self).check(items[index])
                finished?(index, results)
            }
        }
        return started.value
    }

    /// The results for one file: every check that applies to it (`FileCheck`).
    public func check(_ item: LibraryItem) -> [CheckResult] {
        let report = progress.map { report in { @Sendable (fraction: Double) in report(item.path, fraction) } }
        let results = file.check(item.path, kind: item.kind, root: item.root, captionFiles: captionFiles[item.path], progress: report)
        return rules.isEmpty ? results : results.map(rules.apply)
    }
}
