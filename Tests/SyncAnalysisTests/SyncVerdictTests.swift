import Captions
import Foundation
import SyncAnalysis
import TestSupport
import TestTraits
import Testing

/// Caption timing against speech placed at known times — TestSupport's SpeechClips: espeak-ng's sentences with
/// irregular pauses on a 16 kHz timeline — all in memory: the speech detector on the PCM, the aligner on its timeline
/// and the cues, and the fix. Offset, drift, breaks, speech without cues and sound cues, against the sentences' true
/// times. (What the sync check makes of these — findings, verdicts, messages — is ChecksTests' SyncCheckTests.)
@Suite(.tags(.media), .notInFastRun) struct SyncVerdictTests {
    static var sentences: [SpeechClips.Sentence] { (try? SpeechClips.script.get().sentences) ?? [] }

    /// The script's captions (see `SpeechClips.captionText`) as a document.
    static func captions(dropping: Set<Int> = [], extra: [(Double, Double, String)] = [], transform: (Double) -> Double = { $0 }) throws
        -> CaptionDocument
    {
        try CaptionFile.read(Array(SpeechClips.captionText(dropping: dropping, extra: extra, transform: transform).utf8), format: .webvtt)
    }

    /// The aligner's report on `captions`' dialogue cues (sound cues given as sounds), as the sync check asks for it.
    static func align(_ captions: CaptionDocument, _ timeline: SpeechTimeline) -> SyncReport {
        SyncAligner().align(
            cues: DialogueCues.of(captions).map { ($0.start, $0.end) }, sounds: DialogueCues.sounds(of: captions).map { ($0.start, $0.end) },
            speech: timeline)
    }

    @Test func captionsOnTimeFitEverySentence() throws {
        let report = Self.align(try Self.captions(), try SpeechClips.timeline())
        #expect(report.dialogueCues == 22 && report.matchedCues == 22)
        // Every cue's start is on its speech onset, and its time is mostly speech.
        #expect(report.residuals.count == 22 && report.residuals.allSatisfy { abs($0.residual) <= 0.05 }, "\(report.residuals)")
        #expect(report.cueSpeechCoverage.allSatisfy { $0 >= 0.8 }, "\(report.cueSpeechCoverage)")
        #expect(abs(report.offsetSeconds) <= 0.05)
        #expect(abs(report.driftRatio - 1) <= 1e-3)
        #expect(report.parts.count == 1 && report.breaks.isEmpty)
        #expect(report.uncaptionedSpeech.isEmpty && report.cuesOverSilence.isEmpty)
        #expect(report.onsets.allSatisfy { ($0?.offset ?? 0).magnitude <= 0.3 })
    }

    @Test(arguments: [1.5, -0.8]) func constantOffset(shift: Double) throws {
        let report = Self.align(try Self.captions { $0 + shift }, try SpeechClips.timeline())
        #expect(abs(report.offsetSeconds - shift) <= 0.05)
        #expect(abs(report.driftRatio - 1) <= 1e-3)
        #expect(report.breaks.isEmpty && report.uncaptionedSpeech.isEmpty && report.cuesOverSilence.isEmpty)
    }

    @Test(arguments: [25 / 23.976, 1.010]) func drift(ratio: Double) throws {
        let report = Self.align(try Self.captions { $0 * ratio }, try SpeechClips.timeline())
        #expect(abs(report.driftRatio - ratio) <= 1e-3)
        #expect(abs(report.offsetSeconds) <= 0.05)
    }

    /// Three sentences with no cue: speech without a caption where each is.
    @Test func missingCuesAreFoundWhereTheSpeechIs() throws {
        let dropped: Set = [4, 11, 17]
        let report = Self.align(try Self.captions(dropping: dropped), try SpeechClips.timeline())
        #expect(report.uncaptionedSpeech.count == 3)
        for (gap, index) in zip(report.uncaptionedSpeech, dropped.sorted()) {
            #expect(abs(gap.start - Self.sentences[index].start) <= 0.1, "\(gap)")
            #expect(abs(gap.end - Self.sentences[index].end) <= 0.25, "\(gap)")
        }
        #expect(abs(report.offsetSeconds) <= 0.05)
    }

    /// A cue that describes sound makes what sounds under it expected: speech under `♪ ♪` (a song's lyrics left out,
    /// say) is not uncaptioned speech, while the same sentence with no cue over it is.
    @Test func speechUnderASoundCueIsExpected() throws {
        let song = (Self.sentences[11].start - 0.2, Self.sentences[11].end + 0.2, "♪ ♪")
        let report = Self.align(try Self.captions(dropping: [4, 11], extra: [song]), try SpeechClips.timeline())
        #expect(report.uncaptionedSpeech.count == 1, "\(report.uncaptionedSpeech)")
        #expect(abs((report.uncaptionedSpeech.first?.start ?? 0) - Self.sentences[4].start) <= 0.1)
    }

    /// Sound descriptions between the sentences are not dialogue: they are neither aligned nor found over silence.
    @Test func soundDescriptionsAreNotAligned() throws {
        let extra = [
            (Self.sentences[4].start - 2.2, Self.sentences[4].start - 0.4, "[MUSIC]"),
            (Self.sentences[11].start - 2.8, Self.sentences[11].start - 0.5, "♪ ♪"),
            (Self.sentences[15].start - 2.0, Self.sentences[15].start - 0.5, "(door slams)"),
        ]
        let captions = try Self.captions(extra: extra)
        #expect(DialogueCues.of(captions).count == 22 && DialogueCues.sounds(of: captions).count == 3)
        let report = Self.align(captions, try SpeechClips.timeline())
        #expect(report.dialogueCues == 22 && report.cuesOverSilence.isEmpty && report.uncaptionedSpeech.isEmpty)
        #expect(abs(report.offsetSeconds) <= 0.05)
    }

    /// A cue after the media's end does not move the fit.
    @Test func aCuePastTheEndLeavesTheFit() throws {
        let report = Self.align(try Self.captions(extra: [(101, 103.5, "Goodbye, and see you next time.")]), try SpeechClips.timeline())
        #expect(abs(report.offsetSeconds) <= 0.05 && abs(report.driftRatio - 1) <= 1e-3)
    }

    /// Captions 2 s late from sentence 14 on (a cut the captions do not follow): one break, in the pause before that
    /// sentence, with the offsets on both sides; the main offset is the first part's; the fix moves each part by its own
    /// offset, every cue back on its sentence.
    @Test func aCutPartWayIsABreak() throws {
        let cut = Self.sentences[14].start - 0.3
        var captions = try Self.captions { $0 >= cut ? $0 + 2 : $0 }
        let report = Self.align(captions, try SpeechClips.timeline())
        try #require(report.breaks.count == 1, "\(report.breaks)")
        let step = report.breaks[0]
        #expect(step.time > Self.sentences[13].end && step.time < Self.sentences[14].start, "\(step.time)")
        #expect(abs(step.before) <= 0.05 && abs(step.after - 2) <= 0.05, "\(step)")
        #expect(step.cue == 14, "the 15th cue starts the second part")
        #expect(abs(report.offsetSeconds) <= 0.05)
        _ = SyncFix(report, dialogue: Array(0..<22)).apply(to: &captions)
        for (cue, sentence) in zip(captions.cues, Self.sentences) {
            #expect(abs(cue.start.seconds - sentence.start) <= 0.05, "\(cue.start.seconds) \(sentence.start)")
        }
    }

    /// Under white noise 20 dB below the speech: the noise floor is measured, and offsets and drift are still found.
    @Test func noisyAudio() throws {
        let noisy = try SpeechClips.timeline(noiseBelowSpeech: 20)
        #expect(noisy.noiseFloorDecibels > -60)
        let right = Self.align(try Self.captions(), noisy)
        #expect(abs(right.offsetSeconds) <= 0.1 && right.uncaptionedSpeech.isEmpty && right.breaks.isEmpty)
        for shift in [1.5, -0.8] {
            let report = Self.align(try Self.captions { $0 + shift }, noisy)
            #expect(abs(report.offsetSeconds - shift) <= 0.1 && report.breaks.isEmpty && report.uncaptionedSpeech.isEmpty)
        }
        #expect(abs(Self.align(try Self.captions { $0 * 1.010 }, noisy).driftRatio - 1.010) <= 1e-3)
    }

    /// The fix of an offset, a drift with an offset, and a PAL speed-up puts the captions back: aligned again, their
    /// offset is within 0.05 s and their drift within 2 × 10⁻⁴.
    @Test func theFixPutsCaptionsBackInSync() throws {
        for transform in [{ (t: Double) in t + 1.5 }, { $0 * 1.010 - 0.4 }, { $0 * 25 / 23.976 }] {
            var captions = try Self.captions(transform: transform)
            let report = Self.align(captions, try SpeechClips.timeline())
            _ = SyncFix(report, dialogue: Array(0..<22)).apply(to: &captions)
            let again = Self.align(captions, try SpeechClips.timeline())
            #expect(abs(again.offsetSeconds) <= 0.05 && abs(again.driftRatio - 1) <= 2e-4, "\(again.offsetSeconds) \(again.driftRatio)")
            #expect(again.breaks.isEmpty && again.uncaptionedSpeech.isEmpty)
        }
    }

    /// Captions written for other speech: the cue pattern matches nothing, and the fit says so — too few cues start on
    /// speech, or too little confidence (what the sync check calls unverified, rather than guessing an offset).
    @Test func captionsForOtherSpeechMatchNothing() throws {
        let report = Self.align(try Self.captions(dropping: Set(0..<22), extra: SpeechClips.unrelatedCues()), try SpeechClips.timeline())
        #expect(report.matchedCues < 3 || report.confidence < 0.3, "\(report.matchedCues) matched, confidence \(report.confidence)")
    }
}
