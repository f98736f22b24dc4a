import Findings
import Foundation
import TestTraits
import Testing

@testable import Library

/// The results store behind a library run, on a library of media: 16 captioned talks and 2 uncaptioned ones (copies of
/// the bundled sample), 34 files. Unchanged files are not checked again and read back as they were; a touched file is checked
/// again alone; a run stopped part-way keeps what it finished, and the next run checks only the rest, the results then
/// those of a clean run, none lost or doubled. (The command's side — `check --db`, `report`, a `kill -9` and Ctrl-C —
/// is MedialintCLITests' StoreCommandTests.)
@Suite struct ResultStoreTests {
    /// The library in a new folder, and the store's path beside it.
    static func library() throws -> (folder: URL, library: String, store: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-store-\(UUID().uuidString)")
        let library = folder.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        for index in 0..<16 {
            try FileManager.default.copyItem(
                at: LibraryCheckerTests.media.appendingPathComponent("speech.mp4"), to: library.appendingPathComponent("talk\(index).mp4"))
            try FileManager.default.copyItem(
                at: LibraryCheckerTests.media.appendingPathComponent("speech.vtt"), to: library.appendingPathComponent("talk\(index).vtt"))
        }
        for index in 0..<2 {
            try FileManager.default.copyItem(
                at: LibraryCheckerTests.media.appendingPathComponent("speech.mp4"), to: library.appendingPathComponent("bare\(index).mp4"))
        }
        return (folder, library.path, folder.appendingPathComponent("results.sqlite").path)
    }

    /// Results compared across runs: file, check, verdict and every finding.
    static func described(_ results: [CheckResult]) -> [String] {
        results.map { result in
            "\((result.file as NSString).lastPathComponent) \(result.check.rawValue) \(result.verdict.rawValue) "
                + result.findings.map { "\($0.rule) \($0.severity) \($0.message)" }.joined(separator: "; ")
        }
    }

    /// Every result in the store, read back in path order.
    static func stored(_ path: String) throws -> [CheckResult] {
        var all: [CheckResult] = []
        try StoredResults([try ResultStore(path: path, writable: false)]).forEach { all += $0 }
        return all
    }

    @Test func unchangedFilesAreNotCheckedAgain() throws {
        let (folder, library, path) = try Self.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ResultStore(path: path)
        let (first, results) = LibraryRun(checker: LibraryChecker(jobs: 2), store: store, setup: "test").runKeepingResults(
            try LibraryRun(checker: LibraryChecker(jobs: 2), store: store, setup: "test").plan([library]))
        #expect(first.checked == 34 && first.reused == 0 && first.saveFailures == 0, "18 videos and 16 caption files")
        #expect(results.count == 68, "each talk's captions, sync, flashing and its captions' lint; each bare one's captions and flashing")
        #expect(results.contains { $0.verdict == .fail }, "the uncaptioned talks fail")

        let again = LibraryRun(checker: LibraryChecker(jobs: 2), store: try ResultStore(path: path), setup: "test")
        let plan = try again.plan([library])
        #expect(plan.pending.isEmpty && plan.reusable == 34)
        let (reused, reusedResults) = again.runKeepingResults(plan)
        #expect(reused.checked == 0 && reused.reused == 34)
        #expect(Self.described(reusedResults) == Self.described(results), "the same results, read back")

        // Touching one file checks it again, alone.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: library + "/bare1.mp4")
        let touched = LibraryRun(checker: LibraryChecker(jobs: 2), store: try ResultStore(path: path), setup: "test")
        let touchedPlan = try touched.plan([library])
        #expect(touchedPlan.pending.count == 1 && touchedPlan.reusable == 33)
        let (third, thirdResults) = touched.runKeepingResults(touchedPlan)
        #expect(third.checked == 1 && third.reused == 33)
        #expect(Self.described(thirdResults) == Self.described(results))
        #expect(Set(Self.described(try Self.stored(path))) == Set(Self.described(results)), "the store holds each result once")
    }

    /// Stopped after three files are stored: those three stay; the next run checks the other 31 and its results are a
    /// clean run's, none stored twice.
    @Test(.tags(.slow), .notInFastRun) func aStoppedRunResumes() throws {
        let (folder, library, path) = try Self.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stopped = LibraryRun(checker: LibraryChecker(jobs: 1), store: try ResultStore(path: path), setup: "test")
        let finished = LockedValue(0)
        let (outcome, _) = stopped.runKeepingResults(try stopped.plan([library])) { _ in
            finished.update { $0 += 1 }
            if finished.value == 3 { stopped.stop() }
        }
        #expect(outcome.wasStopped && outcome.checked == 3 && outcome.unchecked == 31)

        let resumed = LibraryRun(checker: LibraryChecker(jobs: 2), store: try ResultStore(path: path), setup: "test")
        let plan = try resumed.plan([library])
        #expect(plan.reusable == 3 && plan.pending.count == 31)
        let (second, results) = resumed.runKeepingResults(plan)
        #expect(second.checked == 31 && second.reused == 3)
        let clean = LibraryRun(checker: LibraryChecker(jobs: 2), store: nil, setup: "test")
        #expect(Self.described(results) == Self.described(clean.runKeepingResults(try clean.plan([library])).results))
        let stored = Self.described(try Self.stored(path))
        #expect(stored.count == 68 && Set(stored).count == 68, "nothing lost or stored twice")
    }
}
