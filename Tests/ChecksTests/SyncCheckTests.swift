import Captions
import Foundation
import Checks
import MediaIO
import Findings
import Reports
import SyncAnalysis
import Testing
import TestSupport

/// Captions with known timing errors against speech placed at known times (SpeechClips): the offset, drift
/// and findings the check reports, and the verdict.
@Suite(.serialized) struct SyncCheckTests {
    /// Speech found in each generated media file, once per run.
    nonisolated(unsafe) static var speechCache: [String: MediaSpeech] = [:]

    func run(_ captions: String, media: String? = nil) throws -> SyncCheck.Outcome {
        let media = try media ?? SpeechClips.media()
        let speech: MediaSpeech
        if let cached = Self.speechCache[media] {
            speech = cached
        } else {
            speech = try MediaSpeech.detect(path: media)
            Self.speechCache[media] = speech
        }
        let document = try CaptionFile.read(captions)
        return SyncCheck().check(
            path: media, media: try MediaProbe.probe(media), speech: speech, captions: document,
            source: captions)
    }

    func metric(_ outcome: SyncCheck.Outcome, _ name: String) -> Double? {
        guard case .object(let pairs) = outcome.result.metrics else { return nil }
        switch pairs.first(where: { $0.0 == name })?.1 {
        case .number(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }

    @Test func captionsOnTimePass() throws {
        let outcome = try run(SpeechClips.captions("right.vtt"))
        #expect(outcome.result.verdict == .pass)
        #expect(outcome.result.findings.isEmpty)
        // Every cue's start is on its speech onset, and its time is mostly speech.
        guard case .array(let cues) = try #require(outcome.result.metrics["cues"]) else { throw CocoaError(.coderInvalidValue) }
        #expect(cues.count == 22)
        for cue in cues {
            guard case .number(let residual) = cue["residual"], case .number(let speech) = cue["speech"] else {
                Issue.record("cue without residual: \(cue)")
                continue
            }
            #expect(abs(residual) <= 0.05 && speech >= 0.8, "\(cue)")
        }
        let offset = try #require(metric(outcome, "offsetSeconds"))
        #expect(abs(offset) <= 0.05)
        #expect(abs(try #require(metric(outcome, "driftRatio")) - 1) <= 1e-3)
    }

    @Test(arguments: [1.5, -0.8]) func constantOffset(shift: Double) throws {
        let outcome = try run(SpeechClips.captions("shift\(shift).vtt") { $0 + shift })
        #expect(outcome.result.verdict == .fail)
        #expect(abs(try #require(metric(outcome, "offsetSeconds")) - shift) <= 0.05)
        #expect(abs(try #require(metric(outcome, "driftRatio")) - 1) <= 1e-3)
        #expect(outcome.result.findings.map(\.rule) == ["sync.offset"])
    }

    @Test(arguments: [25 / 23.976, 1.010]) func drift(ratio: Double) throws {
        let outcome = try run(SpeechClips.captions("drift\(ratio).vtt") { $0 * ratio })
        #expect(outcome.result.verdict == .fail)
        #expect(abs(try #require(metric(outcome, "driftRatio")) - ratio) <= 1e-3)
        #expect(abs(try #require(metric(outcome, "offsetSeconds"))) <= 0.05)
    }
}

extension SyncCheckTests {
    @Test func missingCuesAreFlaggedWhereTheSpeechIs() throws {
        let dropped: Set = [4, 11, 17]
        let outcome = try run(SpeechClips.captions("missing.vtt", dropping: dropped))
        #expect(outcome.result.verdict == .warn)
        let gaps = outcome.result.findings.filter { $0.rule == "sync.uncaptioned-speech" }
        let sentences = try SpeechClips.script.get().sentences
        #expect(gaps.count == 3)
        for (gap, index) in zip(gaps, dropped.sorted()) {
            #expect(abs((gap.start ?? 0) - sentences[index].start) <= 0.1, "\(gap.message)")
            #expect(abs((gap.end ?? 0) - sentences[index].end) <= 0.25, "\(gap.message)")
            #expect(gap.severity == .warning && gap.guidelines == ["WCAG 1.2.2", "KWCAG 1.2"])
        }
        #expect(outcome.result.findings.count == 3)
        #expect(abs(try #require(metric(outcome, "offsetSeconds"))) <= 0.05)
    }

    /// A cue that describes sound makes what sounds under it expected: speech under `♪ ♪` (a song's lyrics left
    /// out, say) is not reported as uncaptioned, while the same sentence with no cue over it is.
    @Test func speechUnderASoundCueIsExpected() throws {
        let sentences = try SpeechClips.script.get().sentences
        let song = (sentences[11].start - 0.2, sentences[11].end + 0.2, "♪ ♪")
        let outcome = try run(SpeechClips.captions("song.vtt", dropping: [4, 11], extra: [song]))
        let gaps = outcome.result.findings.filter { $0.rule == "sync.uncaptioned-speech" }
        #expect(gaps.count == 1, "\(gaps.map(\.message))")
        #expect(abs((gaps.first?.start ?? 0) - sentences[4].start) <= 0.1, "\(gaps.map(\.message))")
    }

    @Test func cuePastTheEndIsAnError() throws {
        let outcome = try run(SpeechClips.captions("past-end.vtt", extra: [(101, 103.5, "Goodbye, and see you next time.")]))
        #expect(outcome.result.verdict == .fail)
        #expect(outcome.result.findings.map(\.rule) == ["sync.cue-after-end"])
        let finding = try #require(outcome.result.findings.first)
        #expect(finding.start == 101 && finding.end == 103.5)
        #expect(finding.message == "cue 23 starts at 00:01:41.000, after the media ends at 00:01:39.929")
        #expect(abs(try #require(metric(outcome, "offsetSeconds"))) <= 0.05)
    }

    @Test func soundDescriptionsAreNotAlignedOrFlagged() throws {
        let sentences = try SpeechClips.script.get().sentences
        let extra = [
            (sentences[4].start - 2.2, sentences[4].start - 0.4, "[MUSIC]"),
            (sentences[11].start - 2.8, sentences[11].start - 0.5, "♪ ♪"),
            (sentences[15].start - 2.0, sentences[15].start - 0.5, "(door slams)"),
        ]
        let outcome = try run(SpeechClips.captions("sounds.vtt", extra: extra))
        #expect(outcome.result.verdict == .pass, "\(outcome.result.findings.map(\.message))")
        #expect(metric(outcome, "dialogueCues") == 22)
    }

    @Test func aCutPartWayIsABreak() throws {
        let sentences = try SpeechClips.script.get().sentences
        let cut = sentences[14].start - 0.3
        let outcome = try run(SpeechClips.captions("break.vtt") { $0 >= cut ? $0 + 2 : $0 })
        #expect(outcome.result.verdict == .fail)
        let step = try #require(outcome.result.findings.first { $0.rule == "sync.break" }, "\(outcome.result.findings.map(\.message))")
        // In the pause before sentence 14, with the offsets on both sides; the main offset is the first part's.
        let time = try #require(step.start)
        #expect(time > sentences[13].end && time < sentences[14].start, "\(time) \(sentences[13].end)–\(sentences[14].start)")
        guard case .number(let before) = step.data["offsetBefore"], case .number(let after) = step.data["offsetAfter"] else {
            throw CocoaError(.coderInvalidValue)
        }
        #expect(abs(before) <= 0.05 && abs(after - 2) <= 0.05, "\(before) \(after)")
        #expect(step.data["cue"] == .integer(15))
        #expect(!outcome.result.findings.contains { $0.rule == "sync.offset" })
        // The fix moves each part by its own offset: every cue back on its sentence.
        var document = try CaptionFile.read(SpeechClips.captions("break.vtt") { $0 >= cut ? $0 + 2 : $0 })
        try #require(outcome.fix).apply(to: &document)
        for (cue, sentence) in zip(document.cues, sentences) {
            #expect(abs(cue.start.seconds - sentence.start) <= 0.05, "\(cue.start.seconds) \(sentence.start)")
        }
    }

    @Test func noisyAudio() throws {
        let media = try SpeechClips.media(noiseBelowSpeech: 20)
        let right = try run(SpeechClips.captions("right.vtt"), media: media)
        #expect(right.result.verdict == .pass, "\(right.result.findings.map(\.message))")
        #expect(abs(try #require(metric(right, "offsetSeconds"))) <= 0.1)
        for shift in [1.5, -0.8] {
            let outcome = try run(SpeechClips.captions("shift\(shift).vtt") { $0 + shift }, media: media)
            #expect(outcome.result.findings.map(\.rule) == ["sync.offset"])
            #expect(abs(try #require(metric(outcome, "offsetSeconds")) - shift) <= 0.1)
        }
        let drifted = try run(SpeechClips.captions("drift1.01.vtt") { $0 * 1.010 }, media: media)
        #expect(abs(try #require(metric(drifted, "driftRatio")) - 1.010) <= 1e-3)
        #expect(try #require(metric(right, "noiseFloorDecibels")) > -60)
    }

    @Test func theFixPutsCaptionsBackInSync() throws {
        for (name, transform) in [
            ("fix-shift.vtt", { (t: Double) in t + 1.5 }), ("fix-drift.vtt", { $0 * 1.010 - 0.4 }),
            ("fix-pal.vtt", { $0 * 25 / 23.976 }),
        ] {
            let path = try SpeechClips.captions(name, transform: transform)
            let outcome = try run(path)
            #expect(outcome.result.verdict == .fail)
            var document = try CaptionFile.read(path)
            _ = try #require(outcome.fix).apply(to: &document)
            let fixed = path + ".fixed.vtt"
            try Data(CaptionFile.encode(document, as: .webvtt).bytes).write(to: URL(fileURLWithPath: fixed))
            let again = try run(fixed)
            #expect(again.result.verdict == .pass, "\(name): \(again.result.findings.map(\.message))")
            #expect(abs(try #require(metric(again, "offsetSeconds"))) <= 0.05)
            #expect(abs(try #require(metric(again, "driftRatio")) - 1) <= 2e-4)
        }
    }
}

extension SyncCheckTests {
    static let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Media").standardized.path

    @Test func noAudioIsUnverified() throws {
        let path = Self.media + "/no-audio.mp4"
        let outcome = SyncCheck().check(
            path: path, media: try MediaProbe.probe(path), speech: nil,
            captions: try CaptionFile.read(Self.media + "/speech.vtt"), source: "speech.vtt")
        // The clip is 4 s long: two of the four cues are past its end whatever the audio would say.
        #expect(outcome.result.verdict == .fail)
        #expect(
            outcome.result.findings.map(\.message) == [
                "cue 3 starts at 00:00:06.500, after the media ends at 00:00:04.000",
                "cue 4 starts at 00:00:09.500, after the media ends at 00:00:04.000",
                "timing not verified: the media has no audio stream",
            ])
        #expect(outcome.fix == nil)
        var firstTwo = try CaptionFile.read(Self.media + "/speech.vtt")
        firstTwo.cues.removeLast(2)
        let inside = SyncCheck().check(
            path: path, media: try MediaProbe.probe(path), speech: nil, captions: firstTwo,
            source: "speech.vtt")
        #expect(inside.result.verdict == .unverified)
    }

    @Test func tooFewCuesIsUnverified() throws {
        let path = try SpeechClips.captions("two.vtt", dropping: Set(2..<22))
        let outcome = try run(path)
        #expect(outcome.result.verdict == .unverified)
        #expect(outcome.result.findings.map(\.message) == ["timing not verified: 2 cues with dialogue (at least 3 are needed)"])
    }

    /// Captions written for other speech: the cue pattern matches nothing, and the check says so rather than
    /// guessing an offset.
    @Test func captionsForOtherSpeechAreUnverified() throws {
        var random = SeededRandom(seed: 3)
        var t = 0.5
        var extra: [(Double, Double, String)] = []
        for _ in 0..<18 {
            let length = Double.random(in: 0.4...0.9, using: &random)
            extra.append((t, t + length, "Something else."))
            t += length + Double.random(in: 3.5...6, using: &random)
        }
        let outcome = try run(SpeechClips.captions("other.vtt", dropping: Set(0..<22), extra: extra))
        #expect(outcome.result.verdict == .unverified, "\(outcome.result.findings.map(\.message)) \(outcome.result.metrics)")
    }

    /// The bundled sample (4 cues, 12 s, AAC with its priming delay) is in sync.
    @Test func bundledSampleIsInSync() throws {
        let path = Self.media + "/speech.mp4"
        let outcome = SyncCheck().check(
            path: path, media: try MediaProbe.probe(path), speech: try MediaSpeech.detect(path: path),
            captions: try CaptionFile.read(Self.media + "/speech.vtt"), source: "speech.vtt")
        #expect(outcome.result.verdict == .pass, "\(outcome.result.findings.map(\.message))")
        #expect(abs(metric(outcome, "offsetSeconds") ?? 9) <= 0.05)
    }
}
