import Foundation
import Testing

/// One configuration, every command: `check` reads `.medialint.yml` (or `--config`, `--set`) exactly as `flash`,
/// `lint` and `sync` do, so a file and a library run give the same verdict and findings for the same file.
@Suite struct SettingsAgreementTests {
    /// A folder with a flashing video and a caption file of its own, and settings that change both verdicts:
    /// flashing up to 10 a second allowed (the video flashes 5 a second), the BBC caption rules at 5 characters a second.
    func library() throws -> URL {
        let root = try Medialint.temporaryDirectory()
        try FileManager.default.copyItem(atPath: Medialint.media("flashing.mp4"), toPath: root.appendingPathComponent("flashing.mp4").path)
        try FileManager.default.copyItem(atPath: Medialint.media("speech.srt"), toPath: root.appendingPathComponent("notes.srt").path)
        try "flash:\n  max-flashes: 10\nlint:\n  profile: bbc\n  max-cps: 5\n".write(
            to: root.appendingPathComponent(".medialint.yml"), atomically: true, encoding: .utf8)
        return root
    }

    /// The results of a JSON report, by check, as parsed JSON.
    func results(_ output: String) throws -> [String: [String: Any]] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let results = try #require(report["results"] as? [[String: Any]])
        var byKey: [String: [String: Any]] = [:]
        for result in results {
            let file = ((result["file"] as? String ?? "") as NSString).lastPathComponent
            byKey["\(result["check"] as? String ?? "") \(file)"] = result
        }
        return byKey
    }

    /// Verdict and findings (rule, severity, message, times) of a result, to compare across commands.
    func outcome(_ result: [String: Any]?) -> String {
        guard let result else { return "none" }
        let findings = (result["findings"] as? [[String: Any]] ?? []).map { finding in
            ["rule", "severity", "message", "start", "end", "line"].map { "\(finding[$0] ?? "-")" }.joined(separator: "|")
        }
        return "\(result["verdict"] ?? "-"): " + findings.joined(separator: "; ")
    }

    @Test func aFileAndALibraryRunAgreeUnderTheSameSettings() throws {
        let root = try library()
        defer { try? FileManager.default.removeItem(at: root) }
        // Settings found in the current directory, as users run it.
        let flash = try results(Medialint.run(["flash", "flashing.mp4", "--format", "json"], in: root).stdout)
        let lint = try results(Medialint.run(["lint", "notes.srt", "--format", "json"], in: root).stdout)
        let check = try results(Medialint.run(["check", ".", "--no-store", "--format", "json", "--jobs", "2"], in: root).stdout)
        #expect(flash["flash flashing.mp4"]?["verdict"] as? String == "pass", "10 flashes a second allowed")
        #expect(outcome(check["flash flashing.mp4"]) == outcome(flash["flash flashing.mp4"]))
        #expect(outcome(lint["lint notes.srt"]).contains("(at most 37)"), "the BBC profile: 37 characters a line")
        #expect(outcome(lint["lint notes.srt"]).contains("lint.reading-speed"))
        #expect(outcome(check["lint notes.srt"]) == outcome(lint["lint notes.srt"]))
        // The same settings given on the command line, from anywhere: `--config`, and `--set` alone.
        let config = root.appendingPathComponent(".medialint.yml").path
        try FileManager.default.copyItem(atPath: config, toPath: config + ".kept")
        let named = try results(Medialint.run(["check", root.path, "--no-store", "--format", "json", "--config", config]).stdout)
        #expect(outcome(named["flash flashing.mp4"]) == outcome(flash["flash flashing.mp4"]))
        #expect(outcome(named["lint notes.srt"]) == outcome(lint["lint notes.srt"]))
        let set = try results(
            Medialint.run([
                "check", root.path, "--no-store", "--format", "json", "--set", "flash.max-flashes=10", "--set", "lint.profile=bbc", "--set", "lint.max-cps=5",
            ]).stdout)
        #expect(outcome(set["flash flashing.mp4"]) == outcome(flash["flash flashing.mp4"]))
        #expect(outcome(set["lint notes.srt"]) == outcome(lint["lint notes.srt"]))
        // Run from elsewhere, the settings of the folder given still apply; without them the same video fails.
        let elsewhere = try results(Medialint.run(["check", root.path, "--no-store", "--format", "json"]).stdout)
        #expect(outcome(elsewhere["flash flashing.mp4"]) == outcome(flash["flash flashing.mp4"]))
        try FileManager.default.removeItem(at: root.appendingPathComponent(".medialint.yml"))
        let plain = try results(Medialint.run(["check", root.path, "--no-store", "--format", "json"]).stdout)
        #expect(plain["flash flashing.mp4"]?["verdict"] as? String == "fail")
        try FileManager.default.copyItem(atPath: config + ".kept", toPath: config)
        // A flag beats the file: --flash-profile on top of the file's thresholds.
        let kwcag = try results(Medialint.run(["check", ".", "--no-store", "--format", "json", "--flash-profile", "kwcag"], in: root).stdout)
        let kwcagFlash = try results(Medialint.run(["flash", "flashing.mp4", "--format", "json", "--profile", "kwcag"], in: root).stdout)
        #expect(outcome(kwcag["flash flashing.mp4"]) == outcome(kwcagFlash["flash flashing.mp4"]))
    }

    @Test func unknownSectionsSettingsAndProfilesAreErrorsThatListWhatIsKnown() throws {
        let root = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(atPath: Medialint.media("speech.srt"), toPath: root.appendingPathComponent("notes.srt").path)
        try "lnt:\n  profile: bbc\n".write(to: root.appendingPathComponent(".medialint.yml"), atomically: true, encoding: .utf8)
        for command in [["check", ".", "--no-store"], ["lint", "notes.srt"], ["flash", "notes.srt"]] {
            let result = try Medialint.run(command, in: root)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(command)")
            #expect(result.stderr.contains("unknown section 'lnt' (known: accuracy, flash, lint, rules, sync, exclude, root)"), "\(command): \(result.stderr)")
        }
        try "lint:\n  max-cpss: 5\n".write(to: root.appendingPathComponent(".medialint.yml"), atomically: true, encoding: .utf8)
        let key = try Medialint.run(["check", ".", "--no-store"], in: root)
        #expect(key.status == 2 && key.stderr.contains("unknown setting 'lint.max-cpss'"))
        // A bad value is blamed on where it came from: `--set`, not the file beside it.
        try "lint:\n  max-cps: 17\n".write(to: root.appendingPathComponent(".medialint.yml"), atomically: true, encoding: .utf8)
        let value = try Medialint.run(["lint", "notes.srt", "--set", "lint.max-cps=fast"], in: root)
        #expect(value.status == 2 && value.stderr.contains("--set: 'lint.max-cps' must be a number"), "\(value.stderr)")
        try "lint:\n  max-cps: fast\n".write(to: root.appendingPathComponent(".medialint.yml"), atomically: true, encoding: .utf8)
        let fileValue = try Medialint.run(["lint", "notes.srt", "--set", "lint.max-lines=2"], in: root)
        #expect(fileValue.status == 2 && fileValue.stderr.contains(".medialint.yml: 'lint.max-cps' must be a number"), "\(fileValue.stderr)")
        try FileManager.default.removeItem(at: root.appendingPathComponent(".medialint.yml"))
        let set = try Medialint.run(["check", ".", "--no-store", "--set", "flash.maxflashes=3"], in: root)
        #expect(set.status == 2 && set.stderr.contains("unknown setting 'flash.maxflashes'"), "\(set.stderr)")
        let form = try Medialint.run(["lint", "notes.srt", "--set", "profile=bbc"], in: root)
        #expect(form.status == 2 && form.stderr.contains("--set takes SECTION.KEY=VALUE"), "\(form.stderr)")
        let profile = try Medialint.run(["check", ".", "--no-store", "--lint-profile", "bcc"], in: root)
        #expect(profile.status == 2 && profile.stderr.contains("unknown lint profile 'bcc' (netflix, bbc, dcmp)"), "\(profile.stderr)")
    }

    /// Settings found like `.editorconfig`'s: the nearest `.medialint.yml` up from each file wins, setting by setting,
    /// over the ones further up; `exclude:` globs leave files and folders out of the walk, relative to their file.
    @Test func theNearestSettingsApplyAndExcludesLeaveFilesOut() throws {
        let root = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ text: String, _ path: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let captions = try String(contentsOfFile: Medialint.media("speech.srt"), encoding: .utf8)
        for path in ["notes.srt", "notes.bak.srt", "drafts/a.srt", "strict/notes.srt", "strict/old/2019/b.srt", "strict/keep/c.srt"] {
            try write(captions, path)
        }
        try write("lint:\n  profile: bbc\nexclude: [drafts, \"*.bak.srt\"]\n", ".medialint.yml")
        try write("lint:\n  max-chars-per-line: 20\nexclude: [\"old/**/*.srt\"]\n", "strict/.medialint.yml")
        let check = try Medialint.run(["check", ".", "--no-store", "--format", "json"], in: root)
        let byFile = try results(check.stdout)
        #expect(byFile.count == 2, "notes.srt, c.srt (and strict/notes.srt, by the same name)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        let files = (report["results"] as? [[String: Any]] ?? []).compactMap { $0["file"] as? String }
        #expect(files == ["./notes.srt", "./strict/keep/c.srt", "./strict/notes.srt"], "drafts/, *.bak.srt and strict/old/**/*.srt left out")
        // The file in strict/ gets the BBC profile from above and 20 characters a line from its own folder.
        func lint(_ path: String, in folder: URL) throws -> String {
            try outcome(results(Medialint.run(["lint", path, "--format", "json"], in: folder).stdout)["lint notes.srt"])
        }
        let strict = try lint("strict/notes.srt", in: root)
        #expect(strict.contains("(at most 20)") && strict.contains("lint.reading-speed"), "\(strict)")
        let top = try lint("notes.srt", in: root)
        #expect(top.contains("(at most 37)") && !top.contains("(at most 20)"), "\(top)")
        // A file and a library run agree, run from the root, from the folder itself, or from elsewhere.
        let strictResult = (report["results"] as? [[String: Any]] ?? []).first { $0["file"] as? String == "./strict/notes.srt" }
        #expect(outcome(strictResult) == strict)
        #expect(try lint("notes.srt", in: root.appendingPathComponent("strict")) == strict)
        let outside = try results(Medialint.run(["check", root.path, "--no-store", "--format", "json"]).stdout)
        #expect(outside.count == 2 && outcome(outside["lint c.srt"]).contains("(at most 20)"))
        // A file named on the command line is checked even when a glob matches it.
        let named = try Medialint.run(["check", "drafts/a.srt", "--no-store", "--format", "json"], in: root)
        #expect(try results(named.stdout).keys.sorted() == ["lint a.srt"])
        // `root: true` stops the search: strict/ no longer takes the BBC profile (nor the excludes) from above.
        try write("root: true\nlint:\n  max-chars-per-line: 20\n", "strict/.medialint.yml")
        let rooted = try lint("strict/notes.srt", in: root)
        #expect(rooted.contains("(at most 20)") && !rooted.contains("lint.reading-speed"), "\(rooted)")
        // A bad `exclude:` is an error naming the file.
        try write("exclude: {drafts: true}\n", "strict/.medialint.yml")
        let bad = try Medialint.run(["check", ".", "--no-store"], in: root)
        #expect(bad.status == 2 && bad.stderr.contains("strict/.medialint.yml: 'exclude' must be a list"), "\(bad.stderr)")
    }

    /// Stored results are reused only under the settings they were made with.
    @Test func changedSettingsCheckTheFilesAgain() throws {
        let root = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(atPath: Medialint.media("speech.srt"), toPath: root.appendingPathComponent("notes.srt").path)
        let db = root.appendingPathComponent("results.sqlite").path
        func run(_ extra: [String]) throws -> String { try Medialint.run(["check", root.path, "--db", db] + extra).stderr }
        #expect(try run([]).contains("1 checked, 0 from the store"))
        #expect(try run([]).contains("0 checked, 1 from the store"))
        #expect(try run(["--set", "lint.max-cps=5"]).contains("1 checked, 0 from the store"))
        #expect(try run(["--set", "lint.max-cps=5"]).contains("0 checked, 1 from the store"))
        #expect(try run(["--lint-profile", "bbc", "--set", "lint.max-cps=5"]).contains("1 checked, 0 from the store"))
    }
}
