import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Output for CI tools, read as they read it: SARIF for code scanning (valid SARIF 2.1.0, files relative to the
/// working directory, sync findings in the caption file at the cue's line with the media beside, the exit status in
/// the invocation), JUnit for test reports (a unique name per test case, times).
@Suite struct CIOutputTests {
    /// A library with a video whose captions are 1.5 s late and have a cue after its end.
    static func library() throws -> (URL, cueLine: Int) {
        let directory = try Medialint.temporaryDirectory()
        try FileManager.default.copyItem(atPath: Medialint.media("speech.mp4"), toPath: directory.appendingPathComponent("talk.mp4").path)
        #expect(try Medialint.run(["shift", Medialint.media("speech.srt"), "--by", "1.5", "-o", "talk.en.srt"], in: directory).status == 0)
        let captions = directory.appendingPathComponent("talk.en.srt")
        let text = try String(contentsOf: captions, encoding: .utf8) + "\n5\n00:00:30,000 --> 00:00:31,000\nAfter the end.\n"
        try text.write(to: captions, atomically: true, encoding: .utf8)
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("00:00:30,000") }) + 1
        return (directory, line)
    }

    static func node(_ value: JSONNode?, _ path: String...) -> JSONNode? {
        var current = value
        for key in path {
            if let index = Int(key), case .array(let items)? = current { current = index < items.count ? items[index] : nil } else { current = current?[key] }
        }
        return current
    }

    @Test func sarifLocatesFindingsWhereCodeScanningShowsThem() throws {
        let (directory, cueLine) = try Self.library()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Medialint.run(["check", ".", "--no-store", "--format", "sarif"], in: directory)
        #expect(result.status == 1)
        let document = try JSONNode.parse(result.stdout)
        let schema = Medialint.root.appendingPathComponent("Tests/ReportsTests/Fixtures/sarif-schema-2.1.0.json").path
        #expect(JSONSchemaValidator(root: try JSONNode.parse(String(contentsOfFile: schema, encoding: .utf8))).errors(in: document) == [])

        let run = Self.node(document, "runs", "0")
        #expect(Self.node(run, "invocations", "0", "exitCode") == .integer(1))
        #expect(Self.node(run, "originalUriBaseIds", "%SRCROOT%", "uri") == .string("file://" + SARIFURI.encode(directory.path) + "/"))
        guard case .array(let rules)? = Self.node(run, "tool", "driver", "rules"), case .array(let results)? = run?["results"] else {
            Issue.record("no rules or results")
            return
        }
        for rule in rules { #expect(rule["helpUri"] != nil, "every rule links to its source: \(rule)") }
        func located(_ id: String) -> JSONNode? { results.first { $0["ruleId"] == .string(id) } }
        let afterEnd = try #require(located("sync.cue-after-end"))
        #expect(
            Self.node(afterEnd, "locations", "0", "physicalLocation", "artifactLocation")
                == .object(["uri": .string("talk.en.srt"), "uriBaseId": .string("%SRCROOT%")]))
        #expect(Self.node(afterEnd, "locations", "0", "physicalLocation", "region", "startLine") == .integer(Int64(cueLine)))
        #expect(Self.node(afterEnd, "relatedLocations", "0", "physicalLocation", "artifactLocation", "uri") == .string("talk.mp4"))
        let offset = try #require(located("sync.offset"))
        #expect(Self.node(offset, "locations", "0", "physicalLocation", "artifactLocation", "uri") == .string("talk.en.srt"))
        #expect(Self.node(offset, "locations", "0", "physicalLocation", "region", "startLine") == .integer(1))
        let flash = results.first { Self.node($0, "properties", "check") == .string("captions") }
        #expect(Self.node(flash, "locations", "0", "physicalLocation", "artifactLocation", "uri") == .string("talk.mp4"))

        // Run from elsewhere, a file outside the working directory is an absolute file URI.
        let outside = try JSONNode.parse(try Medialint.run(["check", directory.path, "--no-store", "--format", "sarif"]).stdout)
        guard case .array(let far)? = Self.node(outside, "runs", "0", "results") else { throw CocoaError(.coderValueNotFound) }
        let uri = Self.node(far.first, "locations", "0", "physicalLocation", "artifactLocation")
        #expect(uri?["uriBaseId"] == nil)
        if case .string(let text)? = uri?["uri"] { #expect(text.hasPrefix("file://" + SARIFURI.encode(directory.path) + "/")) } else { Issue.record("no uri") }
    }

    /// One test case per result with a name of its own — a video with two caption files has two sync test cases —
    /// and the seconds each took; the counts agree with the cases.
    @Test func junitNamesEveryTestCaseOnceAndTimesIt() throws {
        let (directory, _) = try Self.library()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(atPath: Medialint.media("speech.vtt"), toPath: directory.appendingPathComponent("talk.vtt").path)
        let result = try Medialint.run(["check", ".", "--no-store", "--format", "junit"], in: directory)
        #expect(result.status == 1)
        let document = try XMLDocument(xmlString: result.stdout)
        let cases = try document.nodes(forXPath: "//testsuite[@name='medialint sync']/testcase").compactMap { $0 as? XMLElement }
        let names = cases.compactMap { $0.attribute(forName: "name")?.stringValue }
        #expect(names == ["./talk.mp4 [./talk.en.srt]", "./talk.mp4 [./talk.vtt]"])
        let all = try document.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
        #expect(all.count == 6, "captions, two syncs, flash, and the lint of each caption file")
        for testCase in all {
            let time = try #require(Double(testCase.attribute(forName: "time")?.stringValue ?? ""), "\(testCase)")
            #expect(time >= 0 && time < 120)
        }
        let flashTime = Double(try document.nodes(forXPath: "//testsuite[@name='medialint flash']/testcase/@time").first?.stringValue ?? "") ?? 0
        #expect(flashTime > 0, "300 frames were decoded")
        let failures = try document.nodes(forXPath: "//testcase/failure").count
        #expect(try document.nodes(forXPath: "/testsuites/@failures").first?.stringValue == String(failures))
    }

    /// Checking nothing is no pass: an empty folder, a folder whose files the settings all exclude, a folder of no pages
    /// for `autoplay`, exit 2 with why; a shard that holds none of a library's files has nothing to do (exit 0, said);
    /// `autoplay` refuses a file that is not a page rather than reading it as one.
    @Test func checkingNothingIsAnError() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("empty"), excluded = directory.appendingPathComponent("excluded")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: excluded.appendingPathComponent("drafts"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Medialint.media("speech.srt"), toPath: excluded.appendingPathComponent("drafts/talk.srt").path)
        try "exclude:\n  - drafts\n".write(to: excluded.appendingPathComponent(".medialint.yml"), atomically: true, encoding: .utf8)
        let nothing = try Medialint.run(["check", "empty", "--no-store"], in: directory)
        #expect(nothing.status == 2 && nothing.stdout.isEmpty)
        #expect(nothing.stderr == "medialint: error: nothing to check: empty holds no media, caption or HTML files\n")
        let allExcluded = try Medialint.run(["check", "excluded", "--no-store", "-o", "r.sarif"], in: directory)
        #expect(allExcluded.status == 2 && allExcluded.stderr.contains("holds no media, caption or HTML files (1 left out by the settings' `exclude`)"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("r.sarif").path), "no report of nothing")
        let noPages = try Medialint.run(["autoplay", "empty"], in: directory)
        #expect(noPages.status == 2 && noPages.stderr.contains("nothing to check: empty holds no HTML pages"))
        let notAPage = try Medialint.run(["autoplay", Medialint.media("speech.srt")], in: directory)
        #expect(notAPage.status == 1 && notAPage.stdout.contains("not an HTML page"))
        var shards: [Int32] = []
        for shard in ["1/2", "2/2"] {
            let run = try Medialint.run(["check", Medialint.media("speech.srt"), "--no-store", "--shard", shard], in: directory)
            shards.append(run.status)
            if run.stdout.isEmpty { #expect(run.stderr.contains("holds none of the 1 file found; nothing to do")) }
        }
        #expect(shards.sorted() == [0, 0])
    }

    /// Adopting medialint on a library: `--write-baseline` records today's findings; cues inserted above them later
    /// move their lines and numbers, and `--baseline` still knows them: only the new cue's findings count.
    @Test func aBaselineSurvivesCuesInsertedAbove() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let captions = directory.appendingPathComponent("talk.srt")
        try FileManager.default.copyItem(atPath: Medialint.media("speech.srt"), toPath: captions.path)
        let first = try Medialint.run(["check", "talk.srt", "--no-store", "--write-baseline", "baseline.json"], in: directory)
        #expect(first.status == 0 && first.stderr.contains("2 findings written to baseline.json as the baseline"))
        let text = try String(contentsOf: captions, encoding: .utf8)
        try ("0\n00:00:00,000 --> 00:00:00,300\nA cue far too short to read and far too long for its one line\n\n" + text).write(
            to: captions, atomically: true, encoding: .utf8)
        let later = try Medialint.run(["lint", "talk.srt", "--baseline", "baseline.json", "--format", "compact"], in: directory)
        #expect(later.stderr.contains("2 findings known in baseline.json left out"))
        let rules = later.stdout.split(separator: "\n").map { $0.split(separator: "[").last.map { String($0.dropLast()) } ?? "" }
        #expect(rules == ["lint.min-duration", "lint.reading-speed", "lint.line-length"], "the new cue's findings alone: \(later.stdout)")
        #expect(later.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("talk.srt:2: ") })
        // Without the baseline, all five.
        #expect(try Medialint.run(["lint", "talk.srt", "--format", "compact"], in: directory).stdout.split(separator: "\n").count == 5)
        // A baseline that is not one is refused.
        try "{}".write(to: directory.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let bad = try Medialint.run(["lint", "talk.srt", "--baseline", "bad.json"], in: directory)
        #expect(bad.status == 2 && bad.stderr.contains("bad.json: not a medialint baseline"))
    }

    /// A baseline names files relative to the folder checked: written from its parent (`check libb`), it matches from
    /// inside (`check .`) and in `report` from the parent.
    @Test func aBaselineMatchesFromAnyWorkingDirectory() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("libb")
        try FileManager.default.createDirectory(at: library.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let overlap = "1\n00:00:01,000 --> 00:00:03,000\nAn overlap: it ends late.\n\n2\n00:00:02,500 --> 00:00:04,000\nNext.\n"
        try overlap.write(to: library.appendingPathComponent("a.srt"), atomically: true, encoding: .utf8)
        try overlap.write(to: library.appendingPathComponent("sub/b.srt"), atomically: true, encoding: .utf8)
        let written = try Medialint.run(["check", "libb", "--db", "store.sqlite", "--write-baseline", "b.json"], in: directory)
        #expect(written.stderr.contains("2 findings written to b.json as the baseline"), "\(written.stderr)")
        let baseline = try String(contentsOf: directory.appendingPathComponent("b.json"), encoding: .utf8)
        #expect(baseline.contains(#"{"file":"a.srt","rule":"lint.overlap""#) && baseline.contains(#"{"file":"sub/b.srt","rule":"lint.overlap""#))
        #expect(!baseline.contains(directory.path), "no absolute path")
        let inside = try Medialint.run(["check", ".", "--no-store", "--baseline", "../b.json"], in: library)
        #expect(inside.status == 0 && inside.stderr.contains("2 findings known in ../b.json left out"), "\(inside.stderr)")
        let report = try Medialint.run(["report", "--db", "store.sqlite", "--baseline", "b.json"], in: directory)
        #expect(report.status == 0 && report.stderr.contains("2 findings known in b.json left out"), "\(report.stderr)")
    }

    /// Any rule can be turned off or given another severity, by id or prefix, in `.medialint.yml` or with `--set`:
    /// the same in `check` and the single commands; a name that names no rule is an error.
    @Test func rulesCanBeTurnedOffOrRetuned() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(atPath: Medialint.media("speech.srt"), toPath: directory.appendingPathComponent("talk.srt").path)
        try FileManager.default.copyItem(atPath: Medialint.media("no-audio.mp4"), toPath: directory.appendingPathComponent("clip.mp4").path)
        let before = try Medialint.run(["check", ".", "--no-store", "--format", "compact"], in: directory)
        #expect(before.stdout.contains("[captions.audio-description]") && before.stdout.contains("[lint.line-length]"))
        try "rules:\n  disable: [captions.audio-description]\n  severity: {lint.line-length: error}\n".write(
            to: directory.appendingPathComponent(".medialint.yml"), atomically: true, encoding: .utf8)
        let after = try Medialint.run(["check", ".", "--no-store", "--format", "compact"], in: directory)
        #expect(!after.stdout.contains("captions.audio-description") && after.stdout.contains("talk.srt:6: error:"))
        #expect(after.status == 1)
        let lint = try Medialint.run(["lint", "talk.srt", "--format", "compact"], in: directory)
        #expect(lint.status == 1 && lint.stdout.contains("talk.srt:6: error:"), "lint reads the same settings")
        let off = try Medialint.run(["lint", "talk.srt", "--set", "rules.disable=lint", "--format", "compact"], in: directory)
        #expect(off.status == 0 && off.stdout.isEmpty)
        let typo = try Medialint.run(["lint", "talk.srt", "--set", "rules.disable=lint.lin-length"], in: directory)
        #expect(typo.status == 2 && typo.stderr.contains("'rules' names no rule: 'lint.lin-length'"))
    }

    /// The example GitHub Actions workflow's medialint lines, run as written on a library: the SARIF and JUnit files
    /// it uploads are made (formats from their names), and the status it fails on is the exit status.
    @Test func theExampleWorkflowRuns() throws {
        let (directory, _) = try Self.library()
        defer { try? FileManager.default.removeItem(at: directory) }
        let media = directory.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        for name in ["talk.mp4", "talk.en.srt"] {
            try FileManager.default.moveItem(at: directory.appendingPathComponent(name), to: media.appendingPathComponent(name))
        }
        let workflow = try String(contentsOf: Medialint.root.appendingPathComponent("Examples/github-actions/medialint.yml"), encoding: .utf8)
        // Uploads are skipped when the run is cancelled (a partial analysis would close alerts never checked).
        #expect(!workflow.contains("always()") && workflow.components(separatedBy: "if: success() || failure()").count == 4)
        let lines = workflow.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("medialint ") }
        #expect(lines.count == 2)
        var statuses: [Int32] = []
        for line in lines {
            let arguments = line.replacingOccurrences(of: "\"$MEDIA\"", with: "media").split(separator: " ").dropFirst().map(String.init)
            statuses.append(try Medialint.run(arguments, in: directory).status)
        }
        #expect(statuses == [1, 1], "the late captions fail, in the check and in the report")
        let sarif = try JSONNode.parse(String(contentsOf: directory.appendingPathComponent("medialint.sarif"), encoding: .utf8))
        #expect(sarif["version"] == .string("2.1.0"))
        let junit = try String(contentsOf: directory.appendingPathComponent("medialint-junit.xml"), encoding: .utf8)
        #expect(junit.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"medialint\""))
        #expect(junit.contains("name=\"media/talk.mp4 [media/talk.en.srt]\""))
    }
}
