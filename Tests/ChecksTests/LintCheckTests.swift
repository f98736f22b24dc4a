import CaptionQuality
import Captions
import Findings
import Testing

@testable import Checks

/// `LintCheck`: the linter's findings as a result, with the counts by rule as metrics.
@Suite struct LintCheckTests {
    @Test func countsFindingsByRule() throws {
        let text =
            "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nOne\n\n00:00:03.000 --> 00:00:05.000\nTwo overlaps one\n\n00:00:06.000 --> 00:00:06.000\nNever shown\n"
        let document = try CaptionFile.read(Array(text.utf8), format: .webvtt)
        let result = LintCheck(linter: CaptionLinter()).run(document, path: "two.vtt")
        #expect(result.check == .lint && result.verdict == .fail)
        #expect(result.findings.map(\.rule) == ["lint.overlap", "lint.negative-duration"])
        #expect(result.metrics["findingsByRule"] == .object([("lint.negative-duration", .integer(1)), ("lint.overlap", .integer(1))]))
        #expect(result.metrics["cues"] == .integer(3) && result.metrics["profile"] == .string("netflix"))
    }

    /// A library check keeps the first findings of each severity and counts the rest: a late error still fails the
    /// file and is listed (errors have their own quota), the counts by rule and the summary line count them all.
    @Test func aLibraryCheckKeepsTheFirstFindingsOfEachSeverity() throws {
        // 30 cues each too short (a warning), then one that overlaps the cue before (an error).
        var text = "WEBVTT\n\n"
        for k in 0..<30 { text += "00:00:\(String(format: "%02d", k)).000 --> 00:00:\(String(format: "%02d", k)).300\nShort \(k)\n\n" }
        text += "00:00:29.100 --> 00:00:31.000\nLate overlap\n"
        let document = try CaptionFile.read(Array(text.utf8), format: .webvtt)
        let all = LintCheck(linter: CaptionLinter()).run(document, path: "many.vtt")
        let capped = LintCheck(linter: CaptionLinter()).run(document, path: "many.vtt", keepingAtMost: 10)
        #expect(all.verdict == .fail && capped.verdict == .fail)
        let warnings = all.findings.filter { $0.severity == .warning }.count
        #expect(warnings > 10)
        let cappedWarnings: [String] = capped.findings.filter { $0.severity == .warning }.map(\.message)
        let firstWarnings: [String] = Array(all.findings.filter { $0.severity == .warning }.prefix(10).map(\.message))
        #expect(cappedWarnings == firstWarnings)
        #expect(capped.findings.filter { $0.severity == .error }.map(\.rule) == ["lint.overlap"])
        let limit = try #require(capped.findings.last)
        #expect(limit.rule == "check.findings-limit" && limit.severity == .info)
        #expect(limit.message == "\(warnings - 10) more findings not listed (the first 10 of each severity are kept; medialint lint lists them all)")
        #expect(capped.metrics["findingsByRule"] == all.metrics["findingsByRule"])
        #expect(LintCheck.summaryLine(capped) == LintCheck.summaryLine(all))
        #expect(LintCheck.summaryLine(all) == "31 cues · profile netflix · 1 error, \(warnings) warnings")
    }
}
