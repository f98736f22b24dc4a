import Foundation
import Testing

/// The results store tells the truth: a store that cannot be written is refused before any work, a damaged one is
/// moved aside and started afresh (never silently re-used, never duplicated), rows are keyed by the file's real path
/// (one library, whatever it is called), and files deleted since are not reported.
@Suite struct StoreTruthTests {
    private let manager = FileManager.default

    /// A library of two caption files: `good.srt` passes, `bad.srt` fails (overlapping cues).
    private func library() throws -> (directory: URL, lib: String) {
        let directory = try Medialint.temporaryDirectory()
        let lib = directory.appendingPathComponent("lib").path
        try manager.createDirectory(atPath: lib, withIntermediateDirectories: true)
        try "1\n00:00:01,000 --> 00:00:03,000\nHello.\n".write(toFile: lib + "/good.srt", atomically: false, encoding: .utf8)
        try "1\n00:00:01,000 --> 00:00:05,000\nHello there.\n\n2\n00:00:02,000 --> 00:00:03,000\nOverlap.\n"
            .write(toFile: lib + "/bad.srt", atomically: false, encoding: .utf8)
        return (directory, lib)
    }

    @Test func aStoreThatCannotBeWrittenIsRefusedBeforeAnyWork() throws {
        let (directory, lib) = try library()
        defer { try? manager.removeItem(at: directory) }
        let db = directory.appendingPathComponent("store.sqlite").path
        #expect(try Medialint.run(["check", lib, "--db", db]).status == 1)
        // A store file the user may not write (as root, permissions do not stop writes: only when not root).
        if getuid() != 0 {
            chmod(db, 0o444)
            let result = try Medialint.run(["check", lib, "--db", db])
            #expect(result.status == 2 && result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("medialint: error: \(db): cannot use the results store: cannot be written ("))
            #expect(result.stderr.hasSuffix("): give --db another file, or --no-store\n"))
            #expect(try Medialint.run(["report", "--db", db]).status == 1, "reading it still works")
            chmod(db, 0o644)
        }
        // SQLite writes through a journal beside the store: a folder in its place makes it unusable (as root too).
        try manager.createDirectory(atPath: db + "-journal", withIntermediateDirectories: false)
        let result = try Medialint.run(["check", lib, "--db", db])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty, "refused before any file is checked")
        #expect(result.stderr.hasPrefix("medialint: error: \(db): cannot use the results store: "))
        #expect(result.stderr.split(separator: "\n").count == 1)
        // A store in a folder that cannot hold it.
        let nowhere = try Medialint.run(["check", lib, "--db", "/proc/medialint/store.sqlite"])
        #expect(nowhere.status == 2 && nowhere.stdout.isEmpty)
        #expect(nowhere.stderr.hasPrefix("medialint: error: /proc/medialint/store.sqlite: cannot use the results store: "))
    }

    @Test func aDamagedStoreIsMovedAsideAndRebuilt() throws {
        let (directory, lib) = try library()
        defer { try? manager.removeItem(at: directory) }
        let db = directory.appendingPathComponent("store.sqlite").path
        #expect(try Medialint.run(["check", lib, "--db", db]).status == 1)
        // Garble every page but the first (the header stays: SQLite opens it and only the integrity check tells).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        #expect(bytes.count >= 8192)
        for index in 4096..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        try bytes.write(to: URL(fileURLWithPath: db))

        let report = try Medialint.run(["report", "--db", db])
        #expect(report.status == 2)
        #expect(report.stderr.hasPrefix("medialint: error: \(db): cannot use the results store: damaged ("))

        let check = try Medialint.run(["check", lib, "--db", db])
        #expect(check.status == 1)
        let aside = try manager.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("store.sqlite.damaged-") }
        #expect(aside.count == 1)
        #expect(check.stderr.hasPrefix("medialint: warning: \(db): the results store was damaged ("))
        #expect(check.stderr.contains("; it was moved to \(directory.path)/\(aside.first ?? "?") and a new one started: every file is checked again\n"))
        #expect(check.stderr.hasSuffix("2 files · 2 results: 1 pass, 1 fail · 2 checked, 0 from the store\n"))
        let again = try Medialint.run(["report", "--db", db])
        #expect(again.status == 1)
        #expect(again.stdout.components(separatedBy: "  lint\n").count == 3, "each file once")
    }

    /// A file that never was a store — one of the run's own caption files, a page, another program's database — is
    /// refused before any work and left exactly as it was (never renamed aside, never written); `--db ''` is a usage
    /// error, not a run that stores nothing.
    @Test func aFileThatIsNotAStoreIsRefusedAndLeftAlone() throws {
        let (directory, lib) = try library()
        defer { try? manager.removeItem(at: directory) }
        let caption = lib + "/good.srt"
        let before = try Data(contentsOf: URL(fileURLWithPath: caption))
        let onCaption = try Medialint.run(["check", lib, "--db", caption])
        #expect(onCaption.status == 2 && onCaption.stdout.isEmpty)
        #expect(
            onCaption.stderr
                == "medialint: error: \(caption): cannot use the results store: is not a results store (not an SQLite database), and is left as it is: give --db a store or a new file, or --no-store\n"
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: caption)) == before)
        #expect(try manager.contentsOfDirectory(atPath: lib).sorted() == ["bad.srt", "good.srt"], "nothing moved aside, no store made")
        #expect(try Medialint.run(["report", "--db", caption]).status == 2)

        // Another program's SQLite database.
        let other = directory.appendingPathComponent("other.sqlite").path
        let made = try Medialint.runTool(
            "/usr/bin/env", ["python3", "-c", "import sqlite3; c = sqlite3.connect('\(other)'); c.execute('CREATE TABLE notes (t TEXT)'); c.commit()"])
        try #require(made.status == 0)
        let otherBefore = try Data(contentsOf: URL(fileURLWithPath: other))
        let onOther = try Medialint.run(["check", lib, "--db", other])
        #expect(onOther.status == 2 && onOther.stderr.contains("is an SQLite database but not a results store (its tables: notes)"), "\(onOther.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == otherBefore)

        let empty = try Medialint.run(["check", lib, "--db", ""])
        #expect(empty.status == 2 && empty.stderr.contains("--db needs a path (or give --no-store to keep no results)."), "\(empty.stderr)")
    }

    @Test func oneLibraryWhateverItIsCalled() throws {
        let (directory, lib) = try library()
        defer { try? manager.removeItem(at: directory) }
        let db = directory.appendingPathComponent("store.sqlite").path
        let link = directory.appendingPathComponent("link-to-lib").path
        try manager.createSymbolicLink(atPath: link, withDestinationPath: lib)
        // Media with a sidecar too: the sidecar is part of the media's stamp, whatever the library is called.
        try manager.copyItem(atPath: Medialint.media("speech.mp4"), toPath: lib + "/talk.mp4")
        try manager.copyItem(atPath: Medialint.media("speech.srt"), toPath: lib + "/talk.srt")
        let first = try Medialint.run(["check", lib, "--db", db])
        #expect(first.stderr.hasSuffix("· 4 checked, 0 from the store\n"), "\(first.stderr)")
        for name in [lib + "/", directory.path + "/./lib", link, directory.path + "/lib/../lib"] {
            let again = try Medialint.run(["check", name, "--db", db])
            #expect(again.status == 1)
            #expect(again.stderr.hasSuffix("· 0 checked, 4 from the store\n"), "\(name): \(again.stderr)")
            #expect(again.stdout.contains((name as NSString).appendingPathComponent("bad.srt") + "  FAIL  lint\n"), "shown under the name given")
        }
        let report = try Medialint.run(["report", "--db", db, "--format", "jsonl"])
        #expect(report.stdout.split(separator: "\n").count == 7, "each result once (3 for talk.mp4), then the summary")

        // A file deleted since: not reported, and its failure no longer decides the exit status.
        try manager.removeItem(atPath: lib + "/bad.srt")
        let after = try Medialint.run(["report", "--db", db])
        #expect(after.status == 0)
        #expect(!after.stdout.contains("bad.srt"))
        #expect(after.stderr == "medialint: note: 1 stored file is gone since it was checked: not reported\n")
    }
}
