import Basics
import Findings
import Testing

@testable import Reports

/// A result's JSON form (what the JSON reports write and the store keeps) is exactly what its `Encodable`
/// conformance gives, and reads back as the same result.
@Suite struct ResultJSONTests {
    static let result = CheckResult(
        file: "talk \"1\".mp4", check: .sync, verdict: .fail,
        findings: [
            Rule.mediaUnreadable.finding(severity: .warning, message: "a <message> & more", start: 1.25, end: 2, line: 7, data: .object([("k", .integer(3))])),
            Rule.mediaUnreadable.finding(message: "no times"),
        ],
        metrics: .object([("offsetSeconds", .number(0.4)), ("cues", .array([.integer(1), .null]))]))

    @Test func theWriterGivesTheEncodersBytes() throws {
        var writer = JSONWriter()
        Self.result.write(to: &writer)
        let written = writer.withBytes { String(decoding: $0, as: UTF8.self) }
        #expect(written == (try JSONValueEncoder().encode(Self.result).serialized()))
        #expect(written.hasPrefix(#"{"file":"talk \"1\".mp4","check":"sync","verdict":"fail","findings":[{"rule":"media.unreadable","severity":"warning""#))
    }

    @Test func resultsReadBackAsTheyWereWritten() throws {
        let text = CheckResult.json([Self.result, .unreadable(file: "b.srt", check: .lint, reason: "truncated")])
        guard case .array(let items) = try JSONValue.parse(text) else {
            Issue.record("not an array: \(text)")
            return
        }
        let back = try items.map { item throws in try CheckResult(json: item) }
        #expect(CheckResult.json(back) == text)
        #expect(back.map(\.verdict) == [.fail, .error] && back[0].findings.map(\.line) == [7, nil] && back[0].findings[0].start == 1.25)
    }
}
