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
        #expect(plan.items.count == 3 && plan.pending.count == 3 && plan.knownResults.isEmpty)
        let calls = LockedValue<[Int]>([])
        let outcome = first.run(plan) { _, done, total in calls.update { $0.append(done * 10 + total) } }
        #expect(calls.value == [13, 23, 33])
        #expect(outcome.checked == 3 && outcome.reused == 0 && outcome.unchecked == 0 && !outcome.wasStopped && outcome.saveFailures == 0)
        #expect(outcome.results.map(\.check) == [.lint, .autoplay, .lint])
        #expect(outcome.results.map(\.verdict) == [.pass, .error, .warn])

        let again = LibraryRun(checker: LibraryChecker(jobs: 2), store: store, setup: "test")
        let replan = try again.plan([library])
        #expect(replan.pending.isEmpty && replan.knownResults.count == 3)
        let reused = again.run(replan)
        #expect(reused.checked == 0 && reused.reused == 3)
        #expect(reused.results.map(\.verdict) == outcome.results.map(\.verdict))
        #expect(reused.results.map(\.file) == outcome.results.map(\.file))

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
        let outcome = run.run(plan)
        #expect(outcome.wasStopped && outcome.unchecked == 3 && outcome.checked == 0)
        #expect(outcome.results.map(\.check) == [.media], "only the problem's error result")
    }
}
