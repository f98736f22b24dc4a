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
}
