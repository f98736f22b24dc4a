import Captions
import Foundation
import SyncAnalysis
import Synchronization
import TestSupport
import TestTraits
import Testing

/// Caption timing on a programme of recorded people (TestSupport's `Programme.Kind.recorded`: a professional telephone
/// voice's prompts at 8 kHz — one of them a 30 s menu — and a LibriVox reader, over recorded music, with recorded
/// effects and a sustained instrumental interlude; all from Debian packages nobody here made), in memory: the speech
/// detector frame by frame against where the recordings play, and every caption case of the synthetic programmes fitted
/// and fixed. What does not hold yet on recorded sound is marked as a known issue, measured, so that fixing it shows.
@Suite(.tags(.media), .notInFastRun) struct RecordedProgrammeTests {
    /// The programme's speech timeline, found once per process.
    static let timeline = Mutex<SpeechTimeline?>(nil)

    func timeline(_ programme: Programme) throws -> SpeechTimeline {
        try Self.timeline.withLock { found in
            if let found { return found }
            var detector = SpeechDetector(sampleRate: 16_000)
            detector.add(try programme.samples(), at: 0)
            let timeline = detector.finish()
            found = timeline
            return timeline
        }
    }

    /// Speech frames in `start..<end` (seconds), and all the frames there.
    func speechFrames(_ timeline: SpeechTimeline, _ start: Double, _ end: Double) -> (speech: Int, of: Int) {
        let frames = Int(start * 100)..<min(timeline.mask.count, Int(end * 100))
        return (frames.filter { timeline.mask[$0] == 1 }.count, frames.count)
    }

    /// Frame by frame, the detector finds the recorded voices (precision ≥ 0.95, recall ≥ 0.9; 0.962 and 0.923 when
    /// written), and the recorded effects — a phone ringing, a camera shutter, an alarm clock, a bin emptied, a chime —
    /// are not speech. Known: a rising three-note login chime and the sustained instrumental are partly taken for it.
    @Test func theDetectorFindsRecordedVoicesAndNotRecordedEffects() throws {
        let programme = try Programme.forTests(.recorded)
        let timeline = try timeline(programme)
        var truth = [Bool](repeating: false, count: timeline.mask.count)
        for line in programme.lines {
            for frame in Int(line.start * 100)..<min(truth.count, Int(line.end * 100)) { truth[frame] = true }
        }
        let found = truth.indices.filter { timeline.mask[$0] == 1 }
        let right = found.filter { truth[$0] }.count
        let precision = Double(right) / Double(found.count), recall = Double(right) / Double(truth.filter { $0 }.count)
        #expect(precision >= 0.95 && recall >= 0.9, "precision \(precision), recall \(recall)")
        let effects = programme.sounds.filter { !$0.isMusic && $0.name != "service-login" }
        #expect(Set(effects.map(\.name)).count >= 5)
        for effect in effects {
            #expect(speechFrames(timeline, effect.start, effect.end).speech == 0, "\(effect.name) at \(effect.start) s")
        }
        for sound in programme.sounds where sound.name == "service-login" || sound.isMusic && sound.caption == nil {
            let (speech, frames) = speechFrames(timeline, sound.start, sound.end)
            withKnownIssue("recorded tonal sound partly taken for speech: \(sound.name) at \(sound.start) s, \(speech) of \(frames) frames") {
                #expect(Double(speech) / Double(frames) <= 0.05)
            }
        }
    }

    /// Every case the synthetic programmes are checked with — on time, late, early, PAL and NTSC drift, an advert cut
    /// out and one put in, two edits, three long sentences uncaptioned, a late live captioner — is measured and fixed on
    /// recorded voices, seven prompts run together among them: offsets within 0.1 s, drifts within 0.00025, the breaks
    /// where they are, the sentences left uncaptioned found, and after the fix every cue within 0.1 s of its sentence
    /// (with snapping, the late captioner's in four cases of five).
    @Test(arguments: ["sync", "late", "early", "pal", "ntsc", "cut", "insert", "dropped", "captioner", "two-breaks"])
    func everyCaseIsMeasuredAndFixed(name: String) throws {
        let programme = try Programme.forTests(.recorded)
        let variant = try #require(programme.cases.first { $0.name == name }?.variant)
        let captions = try CaptionFile.read(Array(programme.captions(variant).utf8), format: .srt)
        let dialogue = DialogueCues.of(captions)
        let report = SyncAligner().align(
            cues: dialogue.map { ($0.start, $0.end) }, sounds: DialogueCues.sounds(of: captions).map { ($0.start, $0.end) },
            speech: try timeline(programme))
        var fixed = captions
        _ = SyncFix(report, dialogue: dialogue.map(\.index)).apply(to: &fixed, snap: name == "captioner")
        let errors = programme.startErrors(of: fixed)
        #expect(errors.count == dialogue.count)
        switch variant {
        case .shifted(let seconds): #expect(abs(report.offsetSeconds - seconds) <= 0.1 && abs(report.driftRatio - 1) <= 2.5e-4)
        case .drifted(let scale, let offset): #expect(abs(report.offsetSeconds - offset) <= 0.1 && abs(report.driftRatio - scale) <= 2.5e-4)
        default: break
        }
        let breaks: Int =
            switch variant {
            case .cut: 1
            case .steps(let steps): steps.count
            default: 0
            }
        #expect(report.breaks.count == breaks, "\(report.breaks)")
        #expect(report.cuesOverSilence.isEmpty && report.cuesOverMusic.isEmpty, "\(report.cuesOverSilence) \(report.cuesOverMusic)")
        // Each sentence left uncaptioned is said, and nothing else: not the login chime nor the sustained instrumental
        // (recorded tonal sound, said to be uncaptioned speech in every case before the spectrum's change was weighed).
        let dropped: [Programme.Line] = if case .dropped(let lines) = variant { lines.map { programme.lines[$0] } } else { [] }
        for line in dropped {
            #expect(report.uncaptionedSpeech.contains { $0.start < line.end && $0.end > line.start }, "\(line.text)")
        }
        let others = report.uncaptionedSpeech.filter { stretch in !dropped.contains { stretch.start < $0.end && stretch.end > $0.start } }
        #expect(others.isEmpty, "\(others)")
        let close = errors.filter { abs($0) <= 0.1 }.count
        if case .lateCaptioner = variant {
            #expect(Double(close) / Double(errors.count) >= 0.8, "\(errors)")
        } else {
            #expect(close == errors.count, "\(errors)")
        }
    }
}
