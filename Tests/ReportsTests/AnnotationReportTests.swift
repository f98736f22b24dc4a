import Findings
import Foundation
import TestSupport
import Testing

@testable import Reports

/// The formats that put findings where developers look: compact lines for terminals and editors, GitHub Actions
/// annotations, GitLab's Code Quality report; and the fingerprint that follows a finding while the file changes.
struct AnnotationReportTests {
    static let results = MachineReportTests.results

    @Test func compactIsOneLineAFinding() {
        #expect(
            CompactReport().report(Self.results) == """
                captions/talk & co.vtt:19: warning: 18.000–21.000 s cue 6: line 1 has 58 characters (at most 42) [lint.line-length]
                captions/talk & co.vtt:30: error: 27.000–29.000 s cue 9: starts before cue 8 ends <here> [lint.overlap]
                captions/talk & co.vtt:2: info: a note [lint.syntax]
                media/flashing.mp4: error: 2.000–4.000 s general flashing: up to 5 flashes a second [flash.general]
                broken.vtt: error: not WebVTT [captions.parse]

                """)
        // Relative to the working directory when inside it.
        let absolute = [
            CheckResult(file: "/work/repo/media/a.vtt", check: .lint, findings: [Finding(ruleID: "lint.empty", severity: .error, message: "empty", line: 3)])
        ]
        #expect(CompactReport(baseDirectory: "/work/repo").report(absolute) == "media/a.vtt:3: error: empty [lint.empty]\n")
        #expect(CompactReport(baseDirectory: "/elsewhere").report(absolute) == "/work/repo/media/a.vtt:3: error: empty [lint.empty]\n")
    }

    /// Each line is a workflow command GitHub reads: `::level key=value,…::message`, with `%`, CR, LF (and in values
    /// `:` and `,`) escaped; the run's counts close it.
    @Test func githubAnnotations() throws {
        var bytes: [UInt8] = []
        let report = GitHubAnnotationsReport()
        report.write(Self.results) { bytes += $0 }
        report.writeSummary(RunSummary(results: Self.results, files: 4, exitStatus: 1)) { bytes += $0 }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "::warning file=captions/talk & co.vtt,line=19,title=medialint lint.line-length::18.000–21.000 s cue 6: line 1 has 58 characters (at most 42)",
                "::error file=captions/talk & co.vtt,line=30,title=medialint lint.overlap::27.000–29.000 s cue 9: starts before cue 8 ends <here>",
                "::notice file=captions/talk & co.vtt,line=2,title=medialint lint.syntax::a note",
                "::error file=media/flashing.mp4,title=medialint flash.general::2.000–4.000 s general flashing: up to 5 flashes a second",
                "::error file=broken.vtt,title=medialint captions.parse::not WebVTT",
                "::notice title=medialint::4 files · 4 results: 1 pass, 2 fail, 1 error",
            ])
        // The grammar GitHub parses: a command, properties without unescaped separators, then the message on one line.
        let command = try Regex(#"^::(error|warning|notice)( (file=[^,:]+)(,line=[0-9]+)?,title=[^,:]+| title=[^,:]+)::[^\r\n]+$"#)
        for line in lines { #expect(line.wholeMatch(of: command) != nil, "\(line)") }
        let awkward = [CheckResult(file: "a,b:c%.vtt", check: .lint, findings: [Finding(ruleID: "lint.x", severity: .warning, message: "50% done\nnext")])]
        #expect(GitHubAnnotationsReport().report(awkward) == "::warning file=a%2Cb%3Ac%25.vtt,title=medialint lint.x::50%25 done%0Anext\n")
    }

    @Test func gitlabCodeQualityFollowsItsSchema() throws {
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/gitlab-code-quality.schema.json")
        let validator = JSONSchemaValidator(root: try JSONNode.parse(String(contentsOf: schema, encoding: .utf8)))
        let twice = Finding(ruleID: "lint.empty", severity: .error, message: "cue 4: the cue has no text", start: 1, end: 2, line: 9)
        let report = GitLabCodeQualityReport().report(Self.results + [CheckResult(file: "b.vtt", check: .lint, findings: [twice, twice])])
        let document = try JSONNode.parse(report)
        #expect(validator.errors(in: document) == [])
        guard case .array(let issues) = document else { throw CocoaError(.coderInvalidValue) }
        #expect(issues.count == 7)
        #expect(
            issues.compactMap { if case .string(let s)? = $0["severity"] { s } else { nil } } == [
                "minor", "critical", "info", "critical", "critical", "critical", "critical",
            ])
        let fingerprints = issues.compactMap { if case .string(let s)? = $0["fingerprint"] { s } else { nil } }
        #expect(Set(fingerprints).count == 7, "unique, the second finding alike numbered: \(fingerprints)")
        #expect(fingerprints[6] == fingerprints[5] + "-2")
        // The validator is no rubber stamp.
        #expect(
            !validator.errors(in: try JSONNode.parse(#"[{"description":"x","check_name":"y","severity":"bad","location":{"path":"p","lines":{"begin":0}}}]"#))
                .isEmpty)
    }

    /// A cue inserted above a finding moves its line and its cue number, not its fingerprint; another rule, file or
    /// time is another finding.
    @Test func fingerprintsFollowAFindingAcrossEdits() {
        let before = Finding(
            ruleID: "lint.line-length", severity: .warning, message: "cue 6: line 1 has 58 characters (at most 42)", start: 18, end: 21, line: 19)
        var after = before
        after.message = "cue 7: line 1 has 58 characters (at most 42)"
        after.line = 23
        #expect(before.fingerprint(file: "a.vtt") == after.fingerprint(file: "a.vtt"))
        #expect(before.fingerprint(file: "a.vtt").count == 16)
        var moved = before
        moved.start = 19
        #expect(before.fingerprint(file: "a.vtt") != moved.fingerprint(file: "a.vtt"))
        #expect(before.fingerprint(file: "a.vtt") != before.fingerprint(file: "b.vtt"))
        var other = before
        other.rule = "lint.reading-speed"
        #expect(before.fingerprint(file: "a.vtt") != other.fingerprint(file: "a.vtt"))
        #expect(Finding.withoutCueNumbers("cues 3–5 overlap cue 12; cue of the day") == "cues #–# overlap cue #; cue of the day")
        // A library checked on another machine, or moved: the folders in a message are not part of it.
        let here = Finding(
            ruleID: "media.outside-root", severity: .error, message: "a link that leads outside the checked root (to /home/ana/films/x.mp4): not read")
        var there = here
        there.message = "a link that leads outside the checked root (to /srv/ci/work/films/x.mp4): not read"
        #expect(here.fingerprint(file: "link.mp4") == there.fingerprint(file: "link.mp4"))
        #expect(Finding.withoutFolders("to /a/b/x.mp4, then \"/c/y.srt\": Media/z.vtt") == "to x.mp4, then \"y.srt\": Media/z.vtt")
    }
}
