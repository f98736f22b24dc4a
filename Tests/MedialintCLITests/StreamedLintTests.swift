import CaptionQuality
import Captions
import Checks
import Findings
import Foundation
import Reports
import TestTraits
import Testing

/// `lint` streams its findings into the report a window of cues at a time: every format must read exactly as the
/// same result held in memory — across window edges (overlaps that span them), with the file's own problems first.
@Suite(.tags(.slow), .notInFastRun) struct StreamedLintTests {
    private func document() throws -> CaptionDocument {
        var text = ""
        var time = 0
        for index in 0..<70_000 {
            // Long lines (warnings), a few overlaps (errors) and a cue at each window edge that overlaps the next.
            let start = time, end = time + (index % 997 == 0 || index == 65_535 ? 3_000 : 1_500)
            text +=
                "\(index + 1)\n\(stamp(start)) --> \(stamp(end))\n"
                + (index % 3 == 0 ? "A line that is long enough to break the limit of the profile\n\n" : "Short.\n\n")
            time += 2_000
        }
        return try CaptionFile.read(Array(("garbage before the cues\n\n" + text).utf8), format: .srt)
    }

    private func stamp(_ milliseconds: Int) -> String {
        String(format: "%02d:%02d:%02d,%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60, milliseconds / 1000 % 60, milliseconds % 1000)
    }

    /// The result in every format.
    private func rendered(_ result: CheckResult) -> [String] {
        let reporters: [any CheckReporter] = [
            TextReport(summaryLine: { _ in "m" }), JSONReport(), JSONLinesReport(), SARIFReport(rules: RuleCatalogue.byID), JUnitReport(), HTMLReport(),
        ]
        return reporters.map { $0.report([result]) }
    }

    @Test func streamedFindingsReadAsHeldOnes() throws {
        let document = try document()
        let check = LintCheck(linter: CaptionLinter())
        let held = check.run(document, path: "big.srt")
        let streamed = check.runStreaming(document, path: "big.srt")
        #expect(held.findings.count > 20_000)
        #expect(held.findings.contains { $0.severity == .error } && held.findings.contains { $0.rule == "lint.syntax" })
        #expect(streamed.findings.isEmpty && streamed.findingCount == held.findings.count)
        #expect(streamed.verdict == held.verdict && streamed.metrics == held.metrics)
        #expect(Array(streamed.allFindings).map(\.message) == held.findings.map(\.message))
        let (a, b) = (rendered(held), rendered(streamed))
        for (format, (heldText, streamedText)) in zip(["text", "json", "sarif", "junit", "html"], zip(a, b)) {
            #expect(heldText == streamedText, "\(format) differs")
        }
    }
}
