import Captions
import Foundation
import SyncAnalysis
import TestSupport
import Testing

/// The aligner on speech timelines built in memory — no audio at all: SpeechClips' 22 sentences with their irregular
/// pauses, each spoken for as long as its text takes at 15 characters a second with a short breath at every comma, as
/// the speech detector's 10-ms frames. Offsets, drifts, breaks and missing cues are found on the mask alone.
@Suite struct AlignerTimelineTests {
    /// Where each sentence is (seconds), and the timeline of them all.
    static let script: (sentences: [(start: Double, end: Double)], timeline: SpeechTimeline) = {
        var mask: [UInt8] = []
        var sentences: [(start: Double, end: Double)] = []
        for (text, gap) in zip(SpeechClips.texts, SpeechClips.gaps) {
            mask += [UInt8](repeating: 0, count: Int(gap * 100))
            let start = Double(mask.count) / 100
            for (index, part) in text.split(separator: ",").enumerated() {
                if index > 0 { mask += [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] }  // a 120-ms breath
                mask += [UInt8](repeating: 1, count: Int(Double(part.count) / 15 * 100))
            }
            sentences.append((start, Double(mask.count) / 100))
        }
        mask += [UInt8](repeating: 0, count: 300)
        return (sentences, SpeechTimeline(start: 0, mask: mask))
    }()

    /// The aligner's report on cues at the sentences' times passed through `transform` (sentences at `dropped` left out).
    private func align(dropping dropped: Set<Int> = [], _ transform: (Double) -> Double = { $0 }) -> SyncReport {
        let cues = Self.script.sentences.enumerated().filter { !dropped.contains($0.offset) }.map { (transform($0.element.start), transform($0.element.end)) }
        return SyncAligner().align(cues: cues, speech: Self.script.timeline)
    }

    @Test func cuesOnTheSpeechFitExactly() {
        let report = align()
        #expect(report.matchedCues == 22 && abs(report.offsetSeconds) <= 0.01 && abs(report.driftRatio - 1) <= 1e-4)
        #expect(report.breaks.isEmpty && report.uncaptionedSpeech.isEmpty && report.cuesOverSilence.isEmpty)
    }

    @Test(arguments: [2.5, -1.2, 0.3]) func aConstantOffsetIsMeasured(shift: Double) {
        let report = align { $0 + shift }
        #expect(abs(report.offsetSeconds - shift) <= 0.02, "\(report.offsetSeconds)")
        #expect(abs(report.driftRatio - 1) <= 1e-4 && report.breaks.isEmpty)
    }

    /// A PAL speed-up and a 1% stretch with an offset: the ratio to 10⁻⁴ and the offset at time 0.
    @Test(arguments: [(25 / 23.976, 0.0), (1.01, -0.4)]) func aDriftIsMeasured(ratio: Double, offset: Double) {
        let report = align { $0 * ratio + offset }
        #expect(abs(report.driftRatio - ratio) <= 1e-4, "\(report.driftRatio)")
        #expect(abs(report.offsetSeconds - offset) <= 0.02, "\(report.offsetSeconds)")
    }

    /// 3 s late from sentence 9 on: one break in the pause before it, the offsets on both sides.
    @Test func aCutIsOneBreakInThePause() throws {
        let cut = Self.script.sentences[9].start - 0.2
        let report = align { $0 >= cut ? $0 + 3 : $0 }
        try #require(report.breaks.count == 1, "\(report.breaks)")
        #expect(report.breaks[0].time > Self.script.sentences[8].end && report.breaks[0].time < Self.script.sentences[9].start)
        #expect(abs(report.breaks[0].before) <= 0.02 && abs(report.breaks[0].after - 3) <= 0.02)
        #expect(report.breaks[0].cue == 9)
    }

    /// Two cuts: +3 s from sentence 7, back to +1.2 s from sentence 15 (and the other way round): both breaks, each in
    /// the pause before its sentence, with the offsets on each side.
    @Test(arguments: [(3.0, 1.2), (1.2, 3.0), (-2.0, 1.5)]) func twoBreaksAreBothFound(first: Double, second: Double) throws {
        let cuts = [Self.script.sentences[7].start - 0.2, Self.script.sentences[15].start - 0.2]
        let report = align { $0 >= cuts[1] ? $0 + second : $0 >= cuts[0] ? $0 + first : $0 }
        try #require(report.breaks.count == 2, "\(report.breaks)")
        for (step, (index, before, after)) in zip(report.breaks, [(7, 0.0, first), (15, first, second)]) {
            #expect(step.time > Self.script.sentences[index - 1].end && step.time < Self.script.sentences[index].start, "\(step)")
            #expect(abs(step.before - before) <= 0.02 && abs(step.after - after) <= 0.02 && step.cue == index, "\(step)")
        }
    }

    /// Sentences without a cue are speech without captions, each where it is.
    @Test func sentencesWithoutACueAreFound() {
        let report = align(dropping: [3, 16])
        #expect(report.uncaptionedSpeech.count == 2)
        for (gap, index) in zip(report.uncaptionedSpeech, [3, 16]) {
            #expect(abs(gap.start - Self.script.sentences[index].start) <= 0.05 && abs(gap.end - Self.script.sentences[index].end) <= 0.2, "\(gap)")
        }
    }
}
