import Findings
import Foundation
import Testing

@testable import Library

/// `LibraryChecker`: what each kind of file gets, and files that cannot be checked as error results.
@Suite struct LibraryCheckerTests {
    static let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Media")

    /// An MP4 cut to 100 bytes keeps a duration but no stream: `check` makes it an error, not a pass.
    @Test func aFileWithNoStreamIsAnError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-library-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cut-to-100-bytes.mp4").path
        try Data(contentsOf: Self.media.appendingPathComponent("speech.mp4")).prefix(100).write(to: URL(fileURLWithPath: path))
        let results = LibraryChecker(jobs: 1).check(LibraryItem(kind: .media, path: path, root: directory.path))
        #expect(results.map(\.verdict) == [.error])
        #expect(results.map(\.check) == [.media])
        #expect(results.first?.findings.map(\.rule) == ["media.unreadable"])
        #expect(results.first?.findings.first?.message == "no audio or video stream could be read (the container states 12.000 s)")
    }

    /// A file over the memory bound is an error result before it is read; the rule says why.
    @Test func aFileOverTheMemoryBoundIsNotRead() throws {
        var checker = LibraryChecker(jobs: 1)
        checker.file.memoryLimit = 1
        let results = checker.check(LibraryItem(kind: .media, path: Self.media.appendingPathComponent("speech.mp4").path, root: Self.media.path))
        #expect(results.map(\.verdict) == [.error])
        #expect(results.first?.findings.map(\.rule) == ["check.memory-limit"])
    }
}
