import Captions
import Foundation
import TestSupport
import Testing

@testable import SyncAnalysis

struct DialogueCueTests {
    @Test(arguments: ["[MUSIC]", "♪ ♪", "(door slams)", "JOHN:", "[laughs] (sighs)", "♪", "- [applause]", ""])
    func soundDescriptionsAreNotSpeech(text: String) {
        #expect(!DialogueCues.isSpeech(text))
    }

    @Test(arguments: ["Hello there.", "JOHN: Hello.", "[whispers] Over here.", "♪ Happy birthday to you ♪", "- Yes.\n- No.", "42"])
    func wordsAreSpeech(text: String) {
        #expect(DialogueCues.isSpeech(text))
    }

    @Test func documentIndicesAreKept() {
        let cues = [
            Cue(start: .init(seconds: 1), end: .init(seconds: 2), text: "[MUSIC]"),
            Cue(start: .init(seconds: 3), end: .init(seconds: 4), text: "<i>Hi</i>"),
            Cue(start: .init(seconds: 5), end: .init(seconds: 5), text: "Empty"),
        ]
        let dialogue = DialogueCues.of(CaptionDocument(format: .webvtt, cues: cues))
        #expect(dialogue.map(\.index) == [1] && dialogue.first?.start == 3)
    }
}

struct AlignerPieceTests {
    /// The overlap for every shift at once equals the overlap measured shift by shift.
    @Test func overlapByShiftMatchesDirectMeasurement() {
        var random = SeededRandom(seed: 5)
        var segments: [(start: Double, end: Double)] = []
        var t = 0.0
        for _ in 0..<40 {
            t += Double.random(in: 0.2...3, using: &random)
            let end = t + Double.random(in: 0.3...4, using: &random)
            segments.append((t, end))
            t = end
        }
        let cues = (0..<25).map { _ in
            let start = Double.random(in: 0...100, using: &random)
            return (start: start, end: start + Double.random(in: 0.5...5, using: &random))
        }
        let aligner = SyncAligner()
        let scale = 1.013, low = -7.3, step = 0.1
        let fast = aligner.overlapByShift(cues, segments, scale: scale, from: low, step: step, count: 147)
        for k in stride(from: 0, to: 147, by: 7) {
            let shift = low + Double(k) * step
            var direct = 0.0
            for cue in cues {
                for segment in segments {
                    direct += max(0, min(scale * cue.end + shift, segment.end) - max(scale * cue.start + shift, segment.start))
                }
            }
            #expect(abs(fast[k] - direct) < 1e-6, "shift \(shift)")
        }
    }

    @Test func speechTimelineSegmentsAndTotals() {
        let timeline = SpeechTimeline(start: 2, mask: [0, 1, 1, 0, 0, 1, 1, 1, 0, 1])
        #expect(timeline.segments.map { [$0.start, $0.end] } == [[2.01, 2.03], [2.05, 2.08], [2.09, 2.1]])
        #expect(abs(timeline.totalSpeech - 0.06) < 1e-9)
        #expect(abs(timeline.speech(from: 2.02, to: 2.07) - 0.03) < 1e-9)
    }

    /// A steady tone in the speech band over a noise bed, by level alone: frames above the floor by the margin
    /// are speech, with the hangover after them; quiet noise alone is not.
    @Test func detectorFollowsTheNoiseFloor() {
        var detector = SpeechDetector(sampleRate: 16_000)
        detector.requiresSpeechLikeness = false
        var random = SeededRandom(seed: 9)
        var samples: [Float] = []
        for i in 0..<(16_000 * 6) {
            let noise = Float.random(in: -0.003...0.003, using: &random)
            let t = Double(i) / 16_000
            let tone: Float = (2...3.5).contains(t) ? Float(0.2 * sin(2 * Double.pi * 1000 * t)) : 0
            samples.append(noise + tone)
        }
        detector.add(samples, at: 0)
        let timeline = detector.finish()
        let segments = timeline.segments
        #expect(segments.count == 1)
        #expect(abs((segments.first?.start ?? 0) - 2) <= 0.02)
        #expect(abs((segments.first?.end ?? 0) - 3.6) <= 0.03)
    }
}
