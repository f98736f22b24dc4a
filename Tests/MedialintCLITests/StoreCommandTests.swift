import Foundation
import TestTraits
import Testing

/// The results store as `medialint check --db` and `medialint report` use it: the run's summary says what came from the
/// store, `report` prints what `check` printed, a run killed with `kill -9` resumes. (The store itself, through the
/// library's API, is LibraryTests' ResultStoreTests.)
@Suite struct StoreCommandTests {
    /// 16 captioned talks (copies of the sample) and 2 uncaptioned ones, in one folder.
    func library() throws -> URL {
        let root = try Medialint.temporaryDirectory()
        for index in 0..<16 {
            try FileManager.default.copyItem(atPath: Medialint.media("speech.mp4"), toPath: root.appendingPathComponent("talk\(index).mp4").path)
            try FileManager.default.copyItem(atPath: Medialint.media("speech.vtt"), toPath: root.appendingPathComponent("talk\(index).vtt").path)
        }
        for index in 0..<2 {
            try FileManager.default.copyItem(atPath: Medialint.media("speech.mp4"), toPath: root.appendingPathComponent("bare\(index).mp4").path)
        }
        return root
    }

    func summary(_ stderr: String) -> String { String(stderr.split(separator: "\n").last ?? "") }

    @Test func unchangedFilesAreNotCheckedAgain() throws {
        let root = try library()
        defer { try? FileManager.default.removeItem(at: root) }
        let db = root.appendingPathComponent("store/results.sqlite").path
        let first = try Medialint.run(["check", root.path, "--db", db])
        #expect(first.status == 1)
        #expect(summary(first.stderr).hasSuffix("· 34 checked, 0 from the store"))

        // Nothing checked again (how much faster that is, a re-run at most 5% of the first: `make bench` scale).
        let second = try Medialint.run(["check", root.path, "--db", db])
        #expect(second.stdout == first.stdout, "the same report")
        #expect(summary(second.stderr).hasSuffix("· 0 checked, 34 from the store"))

        // Touching one file re-checks only it.
        let bare = root.appendingPathComponent("bare1.mp4").path
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: bare)
        let third = try Medialint.run(["check", root.path, "--db", db])
        #expect(summary(third.stderr).hasSuffix("· 1 checked, 33 from the store"))
        #expect(third.stdout == first.stdout)

        let report = try Medialint.run(["report", "--db", db])
        #expect(report.status == 1 && report.stdout == first.stdout)
        #expect(try Medialint.run(["report", "--db", root.appendingPathComponent("none.sqlite").path]).status == 2)
    }

    /// `kill -9` part-way, then a second run: the results equal a clean run's, none lost or doubled.
    @Test(.tags(.slow), .notInFastRun) func aKilledRunResumes() throws {
        let root = try library()
        defer { try? FileManager.default.removeItem(at: root) }
        let db = root.appendingPathComponent("killed.sqlite").path
        let process = Process()
        process.executableURL = Medialint.executable
        process.arguments = ["check", root.path, "--db", db, "--jobs", "1", "--format", "sarif"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until some files are stored, then kill it without warning.
        var stored = 0
        for _ in 0..<600 where stored < 3 {
            Thread.sleep(forTimeInterval: 0.05)
            if FileManager.default.fileExists(atPath: db),
                let report = try? Medialint.run(["report", "--db", db, "--format", "jsonl"])
            {
                stored =
                    Set(
                        report.stdout.split(separator: "\n").compactMap { line in
                            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["file"] as? String
                        }
                    ).count
            }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(stored >= 3)

        let resumed = try Medialint.run(["check", root.path, "--db", db, "--format", "json"])
        let clean = try Medialint.run(["check", root.path, "--no-store", "--format", "json"])
        #expect(resumed.stdout == clean.stdout)
        let report = try Medialint.run(["report", "--db", db, "--format", "json"])
        let results = ((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]]) ?? []
        let keys = results.map { "\($0["file"] ?? "") \($0["check"] ?? "") \((($0["metrics"] as? [String: Any])?["captions"]) ?? "")" }
        #expect(keys.count == Set(keys).count, "nothing stored twice")
        #expect(Set(results.compactMap { $0["file"] as? String }).count == 34)
    }
}

/// `--shard K/N` splits a library into disjoint, complete parts; their stores merged give a single run's report.
@Suite struct ShardTests {
    @Test func shardsCoverEveryFileOnceAndMergeToASingleRun() throws {
        let root = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        for index in 0..<9 {
            try FileManager.default.copyItem(
                atPath: Medialint.media(index % 3 == 0 ? "flashing.mp4" : "speech.mp4"),
                toPath: root.appendingPathComponent("clip\(index).mp4").path)
        }
        try FileManager.default.copyItem(atPath: Medialint.media("speech.vtt"), toPath: root.appendingPathComponent("clip1.vtt").path)
        let single = try Medialint.run(["check", root.path, "--no-store", "--format", "json"])
        var stores: [String] = []
        var seen: [String] = []
        for shard in 1...3 {
            let db = root.appendingPathComponent("shard\(shard).sqlite").path
            stores.append(db)
            let part = try Medialint.run(["check", root.path, "--shard", "\(shard)/3", "--db", db, "--format", "json"])
            let results = ((try JSONSerialization.jsonObject(with: Data(part.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]]) ?? []
            seen += Set(results.compactMap { $0["file"] as? String }).sorted()
        }
        #expect(seen.count == 10 && Set(seen).count == 10, "every file in exactly one shard")
        let merged = try Medialint.run(["report", "--merge"] + stores + ["--format", "json"])
        #expect(merged.stdout == single.stdout)
        // The reports that read the stores twice (counts first) are the union too; JUnit's times aside (not stored).
        for format in ["sarif", "junit", "html", "gitlab"] {
            let untimed = { (text: String) in text.replacing(/time="[0-9.]+"/, with: "time") }
            let merged = try Medialint.run(["report", "--merge"] + stores + ["--format", format])
            let single = try Medialint.run(["check", root.path, "--no-store", "--format", format])
            #expect(merged.status == single.status && single.stdout.count > 1000, "\(format)")
            #expect(untimed(merged.stdout) == untimed(single.stdout), "\(format)")
        }
        #expect(try Medialint.run(["check", root.path, "--shard", "4/3"]).status == 2)
    }
}

/// Ctrl-C during `check`: the files being checked finish and are stored, the run ends with 130, and the next
/// run resumes.
@Suite struct InterruptTests {
    @Test(.tags(.slow), .notInFastRun) func ctrlCStopsCleanly() throws {
        let root = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        for index in 0..<12 {
            try FileManager.default.copyItem(atPath: Medialint.media("speech.mp4"), toPath: root.appendingPathComponent("talk\(index).mp4").path)
        }
        let db = root.appendingPathComponent("store.sqlite").path
        let process = Process()
        process.executableURL = Medialint.executable
        process.arguments = ["check", root.path, "--db", db, "--jobs", "1", "--format", "sarif"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Ctrl-C once a file's results are stored (JSON Lines: the results, then the summary line).
        var stored = 0
        for _ in 0..<600 where stored < 1 {
            Thread.sleep(forTimeInterval: 0.05)
            if FileManager.default.fileExists(atPath: db), let report = try? Medialint.run(["report", "--db", db, "--format", "jsonl"]) {
                stored = report.stdout.split(separator: "\n").count - 1
            }
        }
        kill(process.processIdentifier, SIGINT)
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(errors.contains("stopping after the files being checked") && errors.contains("run again to resume"))
        // A valid report of what was checked, which says it is not all: the run did not succeed, and the files it left
        // are named (code scanning must not take their alerts as fixed).
        let run = ((try JSONSerialization.jsonObject(with: output) as? [String: Any])?["runs"] as? [[String: Any]])?.first ?? [:]
        let invocation = (run["invocations"] as? [[String: Any]])?.first ?? [:]
        #expect(invocation["executionSuccessful"] as? Bool == false && invocation["exitCode"] as? Int == 130)
        let notification = (((invocation["toolExecutionNotifications"] as? [[String: Any]])?.first?["message"]) as? [String: Any])?["text"] as? String
        #expect(notification?.hasPrefix("the run was stopped (Ctrl-C) before") == true && notification?.contains("talk") == true, "\(notification ?? "")")
        let checkedFiles = Set(
            ((run["results"] as? [[String: Any]]) ?? []).compactMap { result in
                (((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"]
                    as? String
            })
        #expect(checkedFiles.count < 12, "a report of part of the library: \(checkedFiles)")
        let resumed = try Medialint.run(["check", root.path, "--db", db])
        #expect(resumed.stderr.contains("from the store"))
        #expect(!resumed.stderr.contains(", 0 from the store"))
    }
}
