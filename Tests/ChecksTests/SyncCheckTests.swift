import Captions
import Findings
import Foundation
import MediaIO
import SyncAnalysis
import TestSupport
import TestTraits
import Testing

@testable import Checks

/// What the sync check makes of caption timing against speech placed at known times (TestSupport's SpeechClips): the
/// findings, their severities and data, the verdict and when timing is not verified — on the speech timeline the
/// detector finds in the script's PCM, in memory. Once through real decoding: the same speech as AAC in MP4 (the
/// encoder's priming delay, resampling). The offsets, drifts and breaks themselves are SyncAnalysisTests'
/// SyncVerdictTests.
@Suite(.tags(.media), .notInFastRun) struct SyncCheckTests {
    static var sentences: [SpeechClips.Sentence] { (try? SpeechClips.script.get().sentences) ?? [] }
    static var duration: Double { (try? SpeechClips.script.get().duration) ?? 0 }

    /// The check of the script's captions (see `SpeechClips.captionText`) against `timeline` (the clean speech by
    /// default), the media as long as the script.
    func check(
        dropping: Set<Int> = [], extra: [(Double, Double, String)] = [], timeline: SpeechTimeline? = nil, mediaStart: Double = 0,
        transform: (Double) -> Double = { $0 }
    ) throws -> SyncCheck.Outcome {
        let captions = try CaptionFile.read(
            Array(SpeechClips.captionText(dropping: dropping, extra: extra, transform: transform).utf8), format: .webvtt)
        return SyncCheck().check(
            path: "speech.m4a", duration: Self.duration, mediaStart: mediaStart, speech: (try timeline ?? SpeechClips.timeline(), 0), captions: captions,
            source: "speech.vtt", silence: "no speech was found in the audio", noAudio: "the media has no audio stream")
    }

    func metric(_ outcome: SyncCheck.Outcome, _ name: String) -> Double? {
        switch outcome.result.metrics[name] {
        case .number(let value)?: value
        case .integer(let value)?: Double(value)
        default: nil
        }
    }

    /// Through decoding: the captions on time against the speech as AAC in MP4 pass, with no finding; every cue starts on
    /// its speech onset and its time is mostly speech.
    @Test func captionsOnTimePassThroughTheDecoder() throws {
        let media = try SpeechClips.media()
        let outcome = SyncCheck().check(
            path: media, media: try MediaProbe.probe(media), speech: try MediaSpeech.detect(path: media),
            captions: try CaptionFile.read(SpeechClips.captions("right.vtt")), source: "right.vtt")
        #expect(outcome.result.verdict == .pass)
        #expect(outcome.result.findings.isEmpty)
        guard case .array(let cues) = try #require(outcome.result.metrics["cues"]) else { throw CocoaError(.coderInvalidValue) }
        #expect(cues.count == 22)
        for cue in cues {
            guard case .number(let residual) = cue["residual"], case .number(let speech) = cue["speech"] else {
                Issue.record("cue without residual: \(cue)")
                continue
            }
            #expect(abs(residual) <= 0.05 && speech >= 0.8, "\(cue)")
        }
        #expect(abs(try #require(metric(outcome, "offsetSeconds"))) <= 0.05)
        #expect(abs(try #require(metric(outcome, "driftRatio")) - 1) <= 1e-3)
    }

    /// Each kind of error gives its finding and verdict, and nothing else: on time passes; an offset (late or early)
    /// and a drift fail; sentences left out warn.
    @Test func eachErrorGivesItsFinding() throws {
        #expect(try check().result.verdict == .pass)
        #expect(try check().result.findings.isEmpty)
        for shift in [1.5, -0.8] {
            let outcome = try check { $0 + shift }
            #expect(outcome.result.verdict == .fail)
            #expect(outcome.result.findings.map(\.rule) == ["sync.offset"])
            #expect(abs(try #require(metric(outcome, "offsetSeconds")) - shift) <= 0.05)
        }
        for ratio in [25 / 23.976, 1.010] {
            let outcome = try check { $0 * ratio }
            #expect(outcome.result.verdict == .fail)
            #expect(outcome.result.findings.map(\.rule).contains("sync.drift"), "\(outcome.result.findings.map(\.rule))")
            #expect(abs(try #require(metric(outcome, "driftRatio")) - ratio) <= 1e-3)
        }
    }

    @Test func missingCuesAreFlaggedWhereTheSpeechIs() throws {
        let dropped: Set = [4, 11, 17]
        let outcome = try check(dropping: dropped)
        #expect(outcome.result.verdict == .warn)
        let gaps = outcome.result.findings.filter { $0.rule == "sync.uncaptioned-speech" }
        #expect(gaps.count == 3)
        for (gap, index) in zip(gaps, dropped.sorted()) {
            #expect(abs((gap.start ?? 0) - Self.sentences[index].start) <= 0.1, "\(gap.message)")
            #expect(abs((gap.end ?? 0) - Self.sentences[index].end) <= 0.25, "\(gap.message)")
            #expect(gap.severity == .warning && gap.guidelines == ["WCAG 1.2.2", "KWCAG 1.2"])
        }
        #expect(outcome.result.findings.count == 3)
    }

    /// Speech under a sound cue is expected; sound descriptions are neither aligned nor flagged.
    @Test func soundCuesAreNotDialogue() throws {
        let song = (Self.sentences[11].start - 0.2, Self.sentences[11].end + 0.2, "♪ ♪")
        let gaps = try check(dropping: [4, 11], extra: [song]).result.findings.filter { $0.rule == "sync.uncaptioned-speech" }
        #expect(gaps.count == 1, "\(gaps.map(\.message))")
        let extra = [
            (Self.sentences[4].start - 2.2, Self.sentences[4].start - 0.4, "[MUSIC]"),
            (Self.sentences[11].start - 2.8, Self.sentences[11].start - 0.5, "♪ ♪"),
            (Self.sentences[15].start - 2.0, Self.sentences[15].start - 0.5, "(door slams)"),
        ]
        let outcome = try check(extra: extra)
        #expect(outcome.result.verdict == .pass, "\(outcome.result.findings.map(\.message))")
        #expect(metric(outcome, "dialogueCues") == 22)
    }

    @Test func cuePastTheEndIsAnError() throws {
        let outcome = try check(extra: [(101, 103.5, "Goodbye, and see you next time.")])
        #expect(outcome.result.verdict == .fail)
        #expect(outcome.result.findings.map(\.rule) == ["sync.cue-after-end"])
        let finding = try #require(outcome.result.findings.first)
        #expect(finding.start == 101 && finding.end == 103.5)
        #expect(finding.message == "cue 23 starts at 00:01:41.000, after the media ends at \(CaptionTime(seconds: Self.duration).webVTTString)")
    }

    /// A cue that ends before the media starts (a stream whose clock starts at 1 s) is never shown: an error.
    @Test func cueBeforeTheStartIsAnError() throws {
        let outcome = try check(extra: [(0.1, 0.6, "Too early to be seen.")], mediaStart: 1)
        let before = outcome.result.findings.filter { $0.rule == "sync.cue-before-start" }
        #expect(before.map(\.message) == ["cue 23 ends at 00:00:00.600, before the media starts at 00:00:01.000"])
        #expect(before.first?.severity == .error && outcome.result.verdict == .fail)
    }

    /// A dialogue cue in the script's longest pause, where nothing is said: over silence, a warning.
    @Test func aDialogueCueOverSilence() throws {
        let pauses = zip(Self.sentences, Self.sentences.dropFirst()).map { ($0.end, $1.start) }
        let pause = try #require(pauses.max { $0.1 - $0.0 < $1.1 - $1.0 })
        #expect(pause.1 - pause.0 >= 1.2, "a pause long enough: \(pause)")
        let middle = (pause.0 + pause.1) / 2
        let outcome = try check(extra: [(middle - 0.3, middle + 0.3, "Nobody says this.")])
        let silent = outcome.result.findings.filter { $0.rule == "sync.cue-over-silence" }
        #expect(silent.count == 1 && silent.first?.severity == .warning, "\(outcome.result.findings.map(\.message))")
    }

    /// Music in the longest pause (voiced sound that holds its shape, on the timeline in memory): a dialogue cue there
    /// has no speech under it, only music — a warning; a sung line there (`♪ … ♪`) is the music's voice — none.
    @Test func aDialogueCueOverMusicButNotASungLine() throws {
        let pauses = zip(Self.sentences, Self.sentences.dropFirst()).map { ($0.end, $1.start) }
        let pause = try #require(pauses.max { $0.1 - $0.0 < $1.1 - $1.0 })
        var timeline = try SpeechClips.timeline()
        let frames = timeline.frame(at: pause.0 + 0.1)..<timeline.frame(at: pause.1 - 0.1)
        for frame in frames {
            timeline.voicedSound[frame] = 1
            timeline.shapeChange[frame] = 3
        }
        let middle = (pause.0 + pause.1) / 2
        let spoken = try check(extra: [(middle - 0.3, middle + 0.3, "Nobody says this.")], timeline: timeline)
        let found = spoken.result.findings.filter { $0.rule == "sync.cue-over-silence" }
        #expect(found.map(\.message) == ["cue 23 (\(CaptionTime(seconds: middle - 0.3).webVTTString)) has no speech under it, only music or other sound"])
        let sung = try check(extra: [(middle - 0.3, middle + 0.3, "♪ Nobody says this ♪")], timeline: timeline)
        #expect(sung.result.findings.isEmpty, "\(sung.result.findings.map(\.message))")
    }

    /// A cut part-way: a break (not an offset) with the offsets on both sides and the cue where the second part starts.
    @Test func aCutPartWayIsABreak() throws {
        let cut = Self.sentences[14].start - 0.3
        let outcome = try check { $0 >= cut ? $0 + 2 : $0 }
        #expect(outcome.result.verdict == .fail)
        let step = try #require(outcome.result.findings.first { $0.rule == "sync.break" }, "\(outcome.result.findings.map(\.message))")
        guard case .number(let before) = step.data["offsetBefore"], case .number(let after) = step.data["offsetAfter"] else {
            throw CocoaError(.coderInvalidValue)
        }
        #expect(abs(before) <= 0.05 && abs(after - 2) <= 0.05, "\(before) \(after)")
        #expect(step.data["cue"] == .integer(15))
        #expect(!outcome.result.findings.contains { $0.rule == "sync.offset" })
        #expect(outcome.fix?.parts.count == 2)
    }

    @Test func noisyAudio() throws {
        let noisy = try SpeechClips.timeline(noiseBelowSpeech: 20)
        let right = try check(timeline: noisy)
        #expect(right.result.verdict == .pass, "\(right.result.findings.map(\.message))")
        #expect(try #require(metric(right, "noiseFloorDecibels")) > -60)
        for shift in [1.5, -0.8] {
            #expect(try check(timeline: noisy) { $0 + shift }.result.findings.map(\.rule) == ["sync.offset"])
        }
    }

    /// The fix, written as WebVTT and read back, passes the check.
    @Test func theFixPutsCaptionsBackInSync() throws {
        for (name, transform) in [("shift", { (t: Double) in t + 1.5 }), ("drift", { $0 * 1.010 - 0.4 }), ("pal", { $0 * 25 / 23.976 })] {
            let outcome = try check(transform: transform)
            #expect(outcome.result.verdict == .fail)
            var document = try CaptionFile.read(Array(SpeechClips.captionText(transform: transform).utf8), format: .webvtt)
            _ = try #require(outcome.fix).apply(to: &document)
            let written = CaptionFile.encode(document, as: .webvtt).bytes
            let again = SyncCheck().check(
                path: "speech.m4a", duration: Self.duration, mediaStart: 0, speech: (try SpeechClips.timeline(), 0),
                captions: try CaptionFile.read(written, format: .webvtt), source: name, silence: "", noAudio: "")
            #expect(again.result.verdict == .pass, "\(name): \(again.result.findings.map(\.message))")
            #expect(abs(try #require(metric(again, "offsetSeconds"))) <= 0.05)
            #expect(abs(try #require(metric(again, "driftRatio")) - 1) <= 2e-4)
        }
    }

    /// A fix applied (`SyncCorrection`): captions 1.5 s late come back within a frame of the speech, the offset
    /// finding turns into a note saying where it was fixed and the verdict is that of what remains; captions on time
    /// are left as they are; without a fix (timing not verified) there is nothing to apply.
    @Test func aCorrectionMarksWhatItFixed() throws {
        let late = { (t: Double) in t + 1.5 }
        let outcome = try check(transform: late)
        #expect(outcome.result.findings.map(\.rule) == [Rule.syncOffset.id] && outcome.result.verdict == .fail)
        let document = try CaptionFile.read(Array(SpeechClips.captionText(transform: late).utf8), format: .webvtt)
        let correction = try #require(outcome.correction(of: document, snap: false))
        #expect(correction.changed && correction.corrects == [.syncOffset, .syncDrift, .syncBreak])
        #expect(correction.summary.hasPrefix("times moved by -1.5"), "\(correction.summary)")
        for (fixed, original) in zip(correction.document.cues, document.cues) {
            #expect(abs(fixed.start.seconds - (original.start.seconds - 1.5)) <= 0.04, "\(fixed.start) vs \(original.start)")
        }
        let result = correction.result(writtenTo: "out.vtt")
        #expect(result.findings.map(\.severity) == [.info] && result.verdict == .pass)
        #expect(result.findings.first?.message.hasSuffix(" — fixed in out.vtt: \(correction.summary)") == true, "\(result.findings)")
        #expect(SyncCorrection.correctedRules(snap: true).contains(.syncCueOffset))

        let onTime = try check()
        let document2 = try CaptionFile.read(Array(SpeechClips.captionText().utf8), format: .webvtt)
        let unchanged = try #require(onTime.correction(of: document2, snap: true))
        #expect(!unchanged.changed && unchanged.document.cues.map(\.start) == document2.cues.map(\.start))
        #expect(unchanged.result(writtenTo: "out.vtt").findings.map(\.message) == onTime.result.findings.map(\.message))

        let unverified = try check(dropping: Set(2..<22))
        #expect(unverified.correction(of: document2, snap: false) == nil)
    }

    @Test func tooFewCuesIsUnverified() throws {
        let outcome = try check(dropping: Set(2..<22))
        #expect(outcome.result.verdict == .unverified)
        #expect(outcome.result.findings.map(\.message) == ["timing not verified: 2 cues with dialogue (at least 3 are needed)"])
    }

    /// Captions written for other speech: the cue pattern matches nothing, and the check says so rather than guessing
    /// an offset.
    @Test func captionsForOtherSpeechAreUnverified() throws {
        let outcome = try check(dropping: Set(0..<22), extra: SpeechClips.unrelatedCues())
        #expect(outcome.result.verdict == .unverified, "\(outcome.result.findings.map(\.message)) \(outcome.result.metrics)")
    }
}

/// The sync check on the bundled samples (Media/), through decoding.
@Suite struct SyncCheckSampleTests {
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

    /// The bundled sample (4 cues, 12 s, AAC with its priming delay) is in sync.
    @Test func bundledSampleIsInSync() throws {
        let path = Self.media + "/speech.mp4"
        let outcome = SyncCheck().check(
            path: path, media: try MediaProbe.probe(path), speech: try MediaSpeech.detect(path: path),
            captions: try CaptionFile.read(Self.media + "/speech.vtt"), source: "speech.vtt")
        #expect(outcome.result.verdict == .pass, "\(outcome.result.findings.map(\.message))")
        let offset: Double? = if case .number(let value)? = outcome.result.metrics["offsetSeconds"] { value } else { nil }
        #expect(abs(offset ?? 9) <= 0.05)
    }
}
