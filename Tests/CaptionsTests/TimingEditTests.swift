import Foundation
import Testing

@testable import Captions

@Suite struct TimingEditTests {
    private func document(_ ranges: [(Int64, Int64)], text: String = "x") -> CaptionDocument {
        CaptionDocument(
            format: .webvtt,
            cues: ranges.map {
                Cue(start: CaptionTime(milliseconds: $0.0), end: CaptionTime(milliseconds: $0.1), text: text)
            })
    }

    @Test func shift() {
        var doc = document([(1000, 2000), (3500, 4000)])
        #expect(TimingEdit(offset: 1.5).apply(to: &doc).isEmpty)
        #expect(doc.cues.map(\.start.milliseconds) == [2500, 5000])
        #expect(doc.cues.map(\.end.milliseconds) == [3500, 5500])
    }

    @Test func scaleAndShift() {
        var doc = document([(0, 1000), (60_000, 61_001)])
        _ = TimingEdit(offset: -0.5, scale: 25 / 23.976).apply(to: &doc)
        // 60 s × 25/23.976 = 62.5625… s; minus 0.5 s.
        #expect(doc.cues[1].start.milliseconds == 62_063)
        #expect(doc.cues[1].end.milliseconds == 63_106)
    }

    @Test func clampsBelowZero() {
        var doc = document([(500, 1500), (2000, 3000)])
        let diagnostics = TimingEdit(offset: -0.8).apply(to: &doc)
        #expect(doc.cues.map(\.start.milliseconds) == [0, 1200])
        #expect(doc.cues.map(\.end.milliseconds) == [700, 2200])
        #expect(diagnostics.map(\.rule) == ["captions.timing-clamped"])
        #expect(diagnostics.first?.message == "1 cue would start or end before 0 and was set to 0 (cue 1)")
    }

    @Test func inlineTimestampsMove() {
        var doc = document([(1000, 3000)], text: "one <00:00:01.500>two <b>x</b> <1 not a time>")
        _ = TimingEdit(offset: 2).apply(to: &doc)
        #expect(doc.cues[0].text == "one <00:00:03.500>two <b>x</b> <1 not a time>")
    }
}
