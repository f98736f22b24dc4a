import Findings
import Foundation
import Testing

@testable import Library

/// `LibraryRun`: stored results reused for unchanged files, every finished file saved, a stopped run checks nothing
/// more and says what it left.
@Suite struct LibraryRunTests {
    static func library() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("lib"), withIntermediateDirectories: true)
        try "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nA line that is rather too long for any profile to accept as it is\n"
            .write(to: directory.appendingPathComponent("lib/talk.vtt"), atomically: true, encoding: .utf8)
        try "1\n00:00:01,000 --> 00:00:03,000\nFine.\n".write(to: directory.appendingPathComponent("lib/clean.srt"), atomically: true, encoding: .utf8)
        try "<video src=\"../../outside.mp4\" autoplay></video>".write(to: directory.appendingPathComponent("lib/page.html"), atomically: true, encoding: .utf8)
        return directory
    }

    @Test func unchangedFilesComeFromTheStore() throws {
        let directory = try Self.library()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try ResultStore(path: directory.appendingPathComponent("results.sqlite").path, writable: true)
        let library = directory.appendingPathComponent("lib").path
        let first = LibraryRun(checker: LibraryChecker(jobs: 2), store: store, setup: "test")
        let plan = try first.plan([library])
        #expect(plan.items.count == 3 && plan.pending.count == 3 && plan.reusable == 0 && plan.problemResults.isEmpty)
        let finished = LockedValue<[String]>([])
        let delivered = LockedValue<[[CheckResult]]>([])
        let outcome = first.run(plan, deliver: { results in delivered.update { $0.append(results) } }) { path in
            finished.update { $0.append((path as NSString).lastPathComponent) }
        }
        #expect(finished.value.sorted() == ["clean.srt", "page.html", "talk.vtt"])
        #expect(outcome.checked == 3 && outcome.reused == 0 && outcome.unchecked == 0 && !outcome.wasStopped && outcome.saveFailures == 0)
        // Handed over in item order, a file at a time, whatever order they finished in.
        let results = delivered.value.flatMap { $0 }
        #expect(delivered.value.count == 3)
        #expect(results.map(\.check) == [.lint, .autoplay, .lint])
        #expect(results.map(\.verdict) == [.pass, .error, .warn])

        let again = LibraryRun(checker: LibraryChecker(jobs: 2), store: store, setup: "test")
        let replan = try again.plan([library])
        #expect(replan.pending.isEmpty && replan.reusable == 3)
        let (reused, reusedResults) = again.runKeepingResults(replan)
        #expect(reused.checked == 0 && reused.reused == 3)
        #expect(reusedResults.map(\.verdict) == results.map(\.verdict))
        #expect(reusedResults.map(\.file) == results.map(\.file))

        // Another setup (another version, other options): nothing is reused.
        #expect(try LibraryRun(checker: LibraryChecker(jobs: 1), store: store, setup: "other").plan([library]).pending.count == 3)
    }

    @Test func aStoppedRunStartsNothingMore() throws {
        let directory = try Self.library()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = LibraryRun(checker: LibraryChecker(jobs: 1), store: nil, setup: "test")
        let plan = try run.plan([directory.appendingPathComponent("lib").path, directory.appendingPathComponent("missing").path])
        #expect(plan.problems.map { ($0.path as NSString).lastPathComponent } == ["missing"])
        run.stop()
        #expect(run.isStopped)
        let (outcome, results) = run.runKeepingResults(plan)
        #expect(outcome.wasStopped && outcome.unchecked == 3 && outcome.checked == 0)
        #expect(results.map(\.check) == [.media], "only the problem's error result")
    }

    /// Item order holds only what waits for an earlier file: results that finish early are handed over once every
    /// file before them is; stored results are read as their turn comes; files never checked are passed by.
    @Test func deliveryInItemOrderHoldsOnlyWhatWaits() throws {
        let directory = try Self.library()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try ResultStore(path: directory.appendingPathComponent("results.sqlite").path, writable: true)
        let names = ["a", "b", "c", "d", "e"]
        for name in names {
            try "1\n00:00:01,000 --> 00:00:03,000\n\(name)\n".write(
                to: directory.appendingPathComponent("lib/\(name).srt"), atomically: true, encoding: .utf8)
        }
        let items = names.map { LibraryItem(kind: .captions, path: directory.appendingPathComponent("lib/\($0).srt").path, root: directory.path) }
        let stamps = items.map { FileStamp.of($0.path, setup: "test") }
        // b and d were stored before.
        for index in [1, 3] { try store.save(stamps[index]!, results: [CheckResult(file: "old name", check: .lint, verdict: .warn, findings: [])]) }
        let rows = try store.reusableRows(for: stamps)
        #expect(rows.map { $0 != nil } == [false, true, false, true, false])
        let plan = LibraryRun.Plan(
            items: items, problems: [], storedRows: rows, stamps: stamps, checkers: [], checkerOfItem: nil)
        #expect(plan.pending == [0, 2, 4])

        let delivered = LockedValue<[String]>([])
        var delivery = InOrderDelivery(plan: plan, store: store, order: .items) { results in
            delivered.update { $0 += results.map { "\(($0.file as NSString).lastPathComponent) \($0.verdict.rawValue)" } }
        }
        delivery.start()
        #expect(delivered.value.isEmpty, "a is not done: nothing after it goes out")
        delivery.finished(item: 2, results: [CheckResult(file: items[2].path, check: .lint, verdict: .pass, findings: [])])
        #expect(delivered.value.isEmpty)
        delivery.finished(item: 0, results: [CheckResult(file: items[0].path, check: .lint, verdict: .fail, findings: [])])
        #expect(delivered.value == ["a.srt fail", "b.srt warn", "c.srt pass", "d.srt warn"], "stored results under this run's names")
        delivery.end()  // e never started (a stopped run)
        #expect(delivered.value.count == 4)

        // As finished: the stored ones first, then each as it comes.
        let asFinished = LockedValue<[String]>([])
        var quick = InOrderDelivery(plan: plan, store: store, order: .finished) { results in
            asFinished.update { $0 += results.map { ($0.file as NSString).lastPathComponent } }
        }
        quick.start()
        quick.finished(item: 4, results: [CheckResult(file: items[4].path, check: .lint, verdict: .pass, findings: [])])
        quick.end()
        #expect(asFinished.value == ["b.srt", "d.srt", "e.srt"])
    }
}
