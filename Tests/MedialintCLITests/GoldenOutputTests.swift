import Checks
import Foundation
import Testing

/// Every command's machine-readable output on the bundled samples, byte for byte: what scripts and CI read must not
/// change by accident. Each case's record (`Fixtures/Golden/NAME.txt`) holds the command, its exit status, standard
/// output, standard error and any file it wrote. After a deliberate change, record again with
/// `MEDIALINT_RECORD_GOLDEN=1 swift test --filter GoldenOutputTests` (that run fails, to be run again without it) and
/// read the diff.
@Suite struct GoldenOutputTests {
    /// A command line; `$OUT` stands for a file in a fresh temporary folder, whose content the record includes, and
    /// `$DB` for a results store there, filled first by `check Media --jobs 1 --db $DB`.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String]
        var testDescription: String { name }

        init(_ name: String, _ arguments: String) {
            self.name = name
            self.arguments = arguments.split(separator: " ").map(String.init)
        }
    }

    static let mediaFiles = [
        "audio-only.ogg", "audio-with-cover.m4a", "corrupt-header.mp4", "embedded-subtitles.mkv", "empty.mp4",
        "flashing.mp4", "gray-ramp-10bit.mkv", "no-audio.mp4", "not-media.mp4", "rgb-primaries.mkv",
        "speech.mp4", "truncated.mp4", "unknown-codec.avi",
    ]
    static let reportFormats = ["json", "jsonl", "sarif", "junit", "html", "text"]

    static let cases: [Case] =
        mediaFiles.map { Case("probe-\($0)", "probe Media/\($0) --format json") }
        + [
            Case("probe-text-embedded-subtitles.mkv", "probe Media/embedded-subtitles.mkv"),
            Case("cues-speech.srt", "cues Media/speech.srt --format json"),
            Case("cues-speech.vtt", "cues Media/speech.vtt --format json"),
            Case("cues-text-speech.vtt", "cues Media/speech.vtt"),
            Case("cues-embedded-track-3", "cues Media/embedded-subtitles.mkv --track 3 --format json"),
            Case("convert-srt-to-vtt", "convert Media/speech.srt $OUT --to vtt"),
            Case("convert-vtt-to-srt", "convert Media/speech.vtt $OUT --to srt"),
            Case("convert-embedded-track-4", "convert Media/embedded-subtitles.mkv $OUT --track 4 --to vtt"),
            Case("shift-by", "shift Media/speech.srt --by -0.25"),
            Case("shift-scale", "shift Media/speech.vtt --scale 1.001 -o $OUT"),
            Case("transcript-text", "transcript Media/speech.srt --timestamps"),
            Case("transcript-markdown", "transcript Media/speech.vtt --format markdown --title Speech"),
            Case("transcript-html", "transcript Media/speech.vtt --format html --title Speech --media-url speech.mp4"),
            Case("transcript-json", "transcript Media/speech.srt --format json"),
            Case("flash-no-audio", "flash Media/no-audio.mp4 --format json"),
            Case("flash-unknown-codec", "flash Media/unknown-codec.avi --format json"),
            Case("flash-kwcag", "flash Media/flashing.mp4 --profile kwcag --format json"),
            Case("sync-srt", "sync Media/speech.mp4 Media/speech.srt --format json"),
            Case("sync-sidecars", "sync Media/speech.mp4 --format json"),
            Case("sync-embedded", "sync Media/embedded-subtitles.mkv --track 2 --format json"),
            Case("sync-no-audio", "sync Media/no-audio.mp4 Media/speech.srt --format json"),
            Case("autoplay-kwcag", "autoplay Media/autoplay-sample.html --profile kwcag --format json"),
            Case("autoplay-media", "autoplay --media Media/audio-only.ogg --media Media/speech.mp4 --format json"),
            Case("lint-sarif-srt", "lint Media/speech.srt --format sarif"),
        ]
        + reportFormats.flatMap { format in
            [
                Case("lint-\(format)", "lint Media/speech.srt Media/speech.vtt --format \(format)"),
                Case("flash-\(format)", "flash Media/flashing.mp4 --format \(format)"),
                Case("sync-\(format)", "sync Media/speech.mp4 Media/speech.srt --format \(format)"),
                Case("autoplay-\(format)", "autoplay Media/autoplay-sample.html --format \(format)"),
                Case("check-\(format)", "check Media --jobs 1 --no-store --format \(format)"),
                Case("report-\(format)", "report --db $DB --format \(format)"),
            ]
        }

    static let fixtures = Medialint.root.appendingPathComponent("Tests/MedialintCLITests/Fixtures/Golden")
    static var recording: Bool { ProcessInfo.processInfo.environment["MEDIALINT_RECORD_GOLDEN"] == "1" }

    /// The results store the `report` cases read (`$DB`): filled once per run by `check Media --jobs 1 --db`, in a folder
    /// of its own; `report` only reads it. The cases share it, so none can remove it: the folder goes when the test
    /// process exits.
    /// `filledStore`'s folder (set once, when it is made).
    nonisolated(unsafe) static var storeFolder: String?

    static let filledStore = Result<String, any Error> {
        let directory = try Medialint.temporaryDirectory()
        storeFolder = directory.path
        atexit { if let folder = GoldenOutputTests.storeFolder { try? FileManager.default.removeItem(atPath: folder) } }
        let store = directory.appendingPathComponent("results.sqlite").path
        let filled = try Medialint.run(["check", "Media", "--jobs", "1", "--db", store, "--format", "json", "-o", "/dev/null"])
        guard filled.status == 1 else {
            throw CocoaError(
                .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "check Media (some samples are unreadable on purpose: exit 1): \(filled.stderr)"])
        }
        return store
    }

    @Test(arguments: cases) func outputIsUnchanged(_ golden: Case) throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out").path
        let store = golden.arguments.contains("$DB") ? try Self.filledStore.get() : ""
        let arguments = golden.arguments.map { $0 == "$OUT" ? output : $0 == "$DB" ? store : $0 }
        let result = try Medialint.run(arguments)
        var record = "$ medialint \(golden.arguments.joined(separator: " "))\nexit \(result.status)\n--- stdout\n\(result.stdout)"
        if !result.stderr.isEmpty { record += "--- stderr\n\(result.stderr)" }
        if golden.arguments.contains("$OUT") {
            record += "--- $OUT\n" + ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "(not written)\n")
        }
        record = record.replacingOccurrences(of: directory.path, with: "$TMP")
        if !store.isEmpty { record = record.replacingOccurrences(of: (store as NSString).deletingLastPathComponent, with: "$TMP") }
        // JUnit's times change from run to run.
        record = record.replacingOccurrences(of: #" time="[0-9]+\.[0-9]{3}""#, with: #" time="…""#, options: .regularExpression)
        // SARIF names the working directory (the repository, where the tests run) as its base.
        record = record.replacingOccurrences(of: "\"file://" + SARIFURI.encode(Medialint.root.path) + "/\"", with: "\"file://$ROOT/\"")
        let file = Self.fixtures.appendingPathComponent("\(golden.name).txt")
        if Self.recording {
            try FileManager.default.createDirectory(at: Self.fixtures, withIntermediateDirectories: true)
            try record.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("recorded \(file.lastPathComponent): run again without MEDIALINT_RECORD_GOLDEN")
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(record == expected, "\(golden.name): the output differs from \(file.lastPathComponent)")
        if record != expected {
            let got = directory.deletingLastPathComponent().appendingPathComponent("medialint-golden-\(golden.name).txt")
            try? record.write(to: got, atomically: true, encoding: .utf8)
            Issue.record("what it printed: \(got.path) (diff it against the record)")
        }
    }

    /// No record lies unused (a case renamed or removed leaves none behind).
    @Test func everyRecordHasACase() throws {
        let records = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter { $0.hasSuffix(".txt") }
        #expect(Set(records) == Set(Self.cases.map { "\($0.name).txt" }))
    }
}

/// `medialint rules`: the catalogue, and every rule the commands printed on the samples is in it.
@Suite struct RulesCommandTests {
    @Test func listsTheCatalogue() throws {
        let json = try Medialint.run(["rules", "--format", "json"])
        #expect(json.status == 0 && json.stderr.isEmpty)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let rules = try #require(document["rules"] as? [[String: Any]])
        let ids = rules.compactMap { $0["id"] as? String }
        #expect(ids.count >= 37 && Set(ids).count == ids.count)
        for rule in rules {
            #expect(["title", "description", "defaultSeverity", "helpURL"].allSatisfy { (rule[$0] as? String)?.isEmpty == false }, "\(rule)")
        }

        // Every rule id any golden record shows (findings' "rule", SARIF's "ruleId", text's "[rule]") is listed.
        let records = GoldenOutputTests.fixtures
        var seen = Set<String>()
        // JSON's "rule" and SARIF's "ruleId" whatever their namespace (a misspelt one included); text's "[rule]" in the
        // catalogue's namespaces (a reader's diagnostics, such as [webvtt.timing], are quoted in messages).
        let pattern = try NSRegularExpression(
            pattern: #""rule(?:Id)?": "([a-z0-9]+\.[a-z0-9-]+)"|\[((?:flash|pattern|sync|lint|autoplay|captions|transcript|media|check|hls)\.[a-z-]+)\]"#)
        for name in try FileManager.default.contentsOfDirectory(atPath: records.path) {
            let text = try String(contentsOf: records.appendingPathComponent(name), encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let group = match.range(at: 1).location != NSNotFound ? 1 : 2
                seen.insert(String(text[Range(match.range(at: group), in: text)!]))
            }
        }
        // (transcript.missing is no longer among them: the bundled audio-only sample is a tone, not speech; CheckCommandTests
        // covers it.)
        #expect(seen.count >= 9)
        #expect(seen.subtracting(ids).isEmpty, "rules reported but not catalogued: \(seen.subtracting(ids).sorted())")
        #expect(Set(ids) == Set(RuleCatalogue.byID.keys), "`medialint rules` lists the catalogue")

        let text = try Medialint.run(["rules", "sync.offset"])
        #expect(text.status == 0)
        #expect(
            text.stdout == """
                sync.offset  warning  captions off their speech
                             Every caption is early or late by the same amount against the speech in the media's audio, by more than the tolerance.
                             Why it matters: Captions that come early or late are hard to follow: a deaf viewer cannot match the words to the speaker or the action (WCAG 1.2.2 asks for synchronized captions).
                             How to fix: Move every cue by the offset measured: `medialint sync MEDIA CAPTIONS --fix FIXED` writes the corrected file.
                             WCAG 1.2.2 (WCAG 2.2 Level A), KWCAG 1.2 (Korean guideline 2.0, required) · https://www.w3.org/WAI/WCAG22/Understanding/captions-prerecorded.html · docs/rules/sync.offset.md
                1 rule

                """)
        let unknown = try Medialint.run(["rules", "nope"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("Error: No rule id starts with 'nope': `medialint rules` lists them all."))
    }
}

/// A path as SARIF writes it in a `file://` URI: unreserved characters and `/` kept, the rest percent-encoded.
enum SARIFURI {
    static func encode(_ path: String) -> String {
        var output = ""
        for byte in path.utf8 {
            if (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || "-._~/".utf8.contains(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += String(format: "%%%02X", byte)
            }
        }
        return output
    }
}
