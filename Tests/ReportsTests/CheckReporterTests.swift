import Findings
import Reports
import Testing

/// Every format behind one protocol: only JSON Lines streams, and a streaming report written piece by piece
/// (what `check --format jsonl` prints as files finish) is the report written at once; the others bracket the
/// results, so two of their reports one after the other are not one report.
struct CheckReporterTests {
    static let reporters: [(name: String, reporter: any CheckReporter)] = [
        ("text", TextReport()), ("json", JSONReport()), ("jsonl", JSONLinesReport()), ("sarif", SARIFReport()),
        ("junit", JUnitReport()), ("html", HTMLReport()),
    ]

    @Test func onlyJSONLinesStreams() {
        #expect(Self.reporters.filter(\.reporter.streams).map(\.name) == ["jsonl"])
    }

    @Test func aStreamingReportWrittenPieceByPieceIsTheReportWrittenAtOnce() {
        let results = MachineReportTests.results
        for (name, reporter) in Self.reporters {
            let whole = reporter.report(results)
            let pieces = reporter.report(Array(results[..<1])) + reporter.report(Array(results[1...]))
            #expect((pieces == whole) == reporter.streams, "\(name)")
        }
        #expect(JSONLinesReport().report(results).split(separator: "\n").count == results.count)
    }

    @Test func textPutsEachResultsSummaryLineUnderItsFindingsAndABlankLineBetweenResults() {
        let results = Array(MachineReportTests.results[2...])
        let text = TextReport(summaryLine: { $0.file == "clean.srt" ? "4 cues · profile netflix" : nil }).report(results)
        #expect(
            text == """
                clean.srt  PASS  lint
                  4 cues · profile netflix

                broken.vtt  ERROR  lint
                  ✗ not WebVTT  [captions.parse]

                """)
    }
}
