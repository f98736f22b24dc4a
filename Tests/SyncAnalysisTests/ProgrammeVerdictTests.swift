import Captions
import Foundation
import SyncAnalysis
import Synchronization
import TestSupport
import TestTraits
import Testing

/// Caption timing on programmes that sound like television (TestSupport's Programme: festival's voices over recorded
/// music, with music-only intros, breaks and effects), in memory: the speech detector on each programme's mix as PCM,
/// the aligner on its timeline and captions with known errors — late, early, drifted, cut, with sentences left out, and
/// from a late live captioner — and the fix. Every assertion is against where the programme's sentences really are.
/// (Through AAC decoding, and as findings, in ChecksTests' ProgrammeSyncTests.)
@Suite(.tags(.media), .notInFastRun) struct ProgrammeVerdictTests {
    /// Each programme's speech timeline, found once per process.
    static let timelines = Mutex<[Programme.Kind: SpeechTimeline]>([:])

    struct Aligned {
        var programme: Programme
        var captions: CaptionDocument
        var report: SyncReport
        var dialogue: [Int]

        /// How far each dialogue cue starts from its sentence once the fix is applied (snapping if asked).
        func errorsAfterFix(snap: Bool = false) -> [Double] {
            var document = captions
            _ = SyncFix(report, dialogue: dialogue).apply(to: &document, snap: snap)
            return programme.startErrors(of: document)
        }
    }

    func align(_ kind: Programme.Kind, _ variant: Programme.Variant) throws -> Aligned {
        let programme = try Programme.forTests(kind)
        let timeline = try Self.timelines.withLock { found in
            if let known = found[kind] { return known }
            var detector = SpeechDetector(sampleRate: 16_000)
            detector.add(try programme.samples(), at: 0)
            let timeline = detector.finish()
            found[kind] = timeline
            return timeline
        }
        let captions = try CaptionFile.read(Array(programme.captions(variant).utf8), format: .srt)
        let dialogue = DialogueCues.of(captions)
        let report = SyncAligner().align(
            cues: dialogue.map { ($0.start, $0.end) }, sounds: DialogueCues.sounds(of: captions).map { ($0.start, $0.end) }, speech: timeline)
        return Aligned(programme: programme, captions: captions, report: report, dialogue: dialogue.map(\.index))
    }

    /// How much of `span` the gaps cover, 0–1.
    func cover(_ gaps: [(start: Double, end: Double)], _ span: (start: Double, end: Double)) -> Double {
        gaps.reduce(0.0) { $0 + max(0, min($1.end, span.end) - max($1.start, span.start)) } / (span.end - span.start)
    }

    /// Music alone, effects and the bed under the dialogue are not speech: captions on time fit with nothing to say —
    /// no speech without a cue, no cue over silence, no cue off its onset.
    @Test(arguments: Programme.Kind.allCases) func musicAndEffectsAreNotUncaptionedSpeech(kind: Programme.Kind) throws {
        let aligned = try align(kind, .inSync)
        let report = aligned.report
        #expect(abs(report.offsetSeconds) <= 0.05 && abs(report.driftRatio - 1) <= 2.5e-4, "\(report.offsetSeconds) \(report.driftRatio)")
        #expect(report.breaks.isEmpty && report.uncaptionedSpeech.isEmpty && report.cuesOverSilence.isEmpty, "\(report.uncaptionedSpeech)")
        // Only a sung line's cue may have no speech under it, only music (the voice is the music's).
        let sung = aligned.dialogue.indices.filter { aligned.captions.cues[aligned.dialogue[$0]].plainText(in: .srt).contains("♪") }
        #expect(Set(report.cuesOverMusic).isSubset(of: sung), "\(report.cuesOverMusic) \(sung)")
        #expect(report.onsets.allSatisfy { ($0?.offset ?? 0).magnitude <= 0.3 })
        // (The drama's music is all captioned; the conversation's plays under the dialogue.)
        #expect(aligned.programme.sounds.contains { $0.isMusic && $0.caption == nil } || kind == .drama || kind == .conversation)
        if kind == .drama { #expect(aligned.programme.sounds.filter { !$0.isMusic && $0.caption == nil }.count >= 5) }
    }

    /// A dialogue cue where nobody speaks is found, whatever sounds there — in each pause between lines (0.6 s), over
    /// each stretch of music and each effect no line overlaps (up to 2 s) — as over silence or over music; and no cue
    /// of the real dialogue with them. On the synthetic programmes and the one of recorded people.
    @Test(arguments: Programme.Kind.allCases.filter { $0 != .conversation } + [.recorded])
    func aCueWhereNobodySpeaksIsFound(kind: Programme.Kind) throws {
        let aligned = try align(kind, .inSync)
        var cues = DialogueCues.of(aligned.captions).map { (start: $0.start, end: $0.end, placed: "") }
        let places = aligned.programme.placesWhereNobodySpeaks
        #expect(places.count >= 8, "\(places.count)")
        cues += places.map { ($0.start, $0.end, $0.name) }
        cues.sort { $0.start < $1.start }
        let report = SyncAligner().align(
            cues: cues.map { ($0.start, $0.end) }, sounds: DialogueCues.sounds(of: aligned.captions).map { ($0.start, $0.end) },
            speech: Self.timelines.withLock { $0[kind]! })
        #expect(abs(report.offsetSeconds) <= 0.05 && report.breaks.isEmpty)
        let found = Set(report.cuesOverSilence + report.cuesOverMusic)
        let placed = Set(cues.indices.filter { !cues[$0].placed.isEmpty })
        // Known: where the detector takes a tenth or more of the cue's time for speech (travel's dense instrumentals,
        // footsteps, the login chime: its frame-level precision), or a word-like effect (a phone's warble, an
        // explosion), the cue is not found.
        let missed = placed.sorted().filter { !found.contains($0) }
        #expect(missed.count * 3 <= placed.count, "\(missed.map { cues[$0].placed })")
        for index in missed {
            withKnownIssue("a cue where nobody speaks is not found: \(cues[index].placed), speech \(report.cueSpeechCoverage[index])") {
                Issue.record("not found")
            }
        }
        let sung = Set(cues.indices.filter { index in aligned.programme.lines.contains { $0.speaker == "SINGER" && abs($0.start - cues[index].start) < 0.01 } })
        #expect(found.subtracting(sung).isSubset(of: placed), "\(found.subtracting(placed).map { cues[$0] })")
    }

    /// A constant offset or a frame-rate drift is measured to ±0.1 s and ±0.00025, with no break, and the fix puts every
    /// cue within 0.1 s of its sentence.
    @Test(arguments: Programme.Kind.allCases, ["late", "early", "pal", "ntsc"])
    func offsetAndDriftAreMeasuredAndFixed(kind: Programme.Kind, name: String) throws {
        let programme = try Programme.forTests(kind)
        let variant = try #require(programme.cases.first { $0.name == name }?.variant)
        let (offset, ratio): (Double, Double) =
            switch variant {
            case .shifted(let seconds): (seconds, 1)
            case .drifted(let scale, let shift): (shift, scale)
            default: (0, 1)
            }
        let aligned = try align(kind, variant)
        #expect(abs(aligned.report.offsetSeconds - offset) <= 0.1, "\(variant)")
        #expect(abs(aligned.report.driftRatio - ratio) <= 2.5e-4, "\(variant): \(aligned.report.driftRatio)")
        #expect(aligned.report.breaks.isEmpty && aligned.report.uncaptionedSpeech.isEmpty, "\(aligned.report.breaks) \(aligned.report.uncaptionedSpeech)")
        let errors = aligned.errorsAfterFix()
        #expect(errors.count == programme.lines.count - (name == "early" ? programme.lines.filter { $0.start < 1.5 }.count : 0))
        #expect(errors.allSatisfy { abs($0) <= 0.1 }, "\(errors.map { ($0 * 1000).rounded() / 1000 })")
    }

    /// An advert cut out of the media (captions 5 s late after it) or put in (3 s early after it): one break, in the
    /// pause where the offset changes (±1 s), with both offsets; the main offset is the first part's; the fix moves each
    /// part by its own offset and every cue ends within 0.1 s of its sentence.
    @Test(arguments: Programme.Kind.allCases, ["cut", "insert"])
    func breaksAreLocatedAndFixedPiecewise(kind: Programme.Kind, name: String) throws {
        let programme = try Programme.forTests(kind)
        guard case .cut(let after, let seconds) = try #require(programme.cases.first { $0.name == name }?.variant) else {
            throw CocoaError(.coderInvalidValue)
        }
        let aligned = try align(kind, .cut(afterLine: after, seconds: seconds))
        let report = aligned.report
        try #require(report.breaks.count == 1, "\(report.breaks)")
        let pause = (programme.lines[after].end, programme.lines[after + 1].start)
        #expect(report.breaks[0].time >= pause.0 - 1 && report.breaks[0].time <= pause.1 + 1, "break at \(report.breaks[0].time), pause \(pause)")
        #expect(abs(report.breaks[0].before) <= 0.1 && abs(report.breaks[0].after - seconds) <= 0.1, "\(report.breaks[0])")
        #expect(abs(report.offsetSeconds) <= 0.1 && abs(report.driftRatio - 1) <= 2.5e-4, "\(report.driftRatio)")
        #expect(report.uncaptionedSpeech.isEmpty && report.parts.count == 2)
        let errors = aligned.errorsAfterFix()
        #expect(errors.count == programme.lines.count)
        #expect(errors.allSatisfy { abs($0) <= 0.1 }, "\(errors.map { ($0 * 1000).rounded() / 1000 })")
    }

    /// Two edits (3 s late from a third of the way, 1.2 s late from 70%: a step out and a step part-way back): both
    /// breaks, each in the pause where its offset changes (±1 s), with the offsets on each side; the fix moves each part
    /// by its own offset and every cue ends within 0.1 s of its sentence.
    @Test(arguments: Programme.Kind.allCases) func twoBreaksAreBothLocatedAndFixed(kind: Programme.Kind) throws {
        let programme = try Programme.forTests(kind)
        guard case .steps(let steps) = try #require(programme.cases.first { $0.name == "two-breaks" }?.variant) else {
            throw CocoaError(.coderInvalidValue)
        }
        let aligned = try align(kind, .steps(steps))
        let report = aligned.report
        try #require(report.breaks.count == 2, "\(report.breaks)")
        for (step, (found, before)) in zip(steps, zip(report.breaks, [0, steps[0].seconds])) {
            let pause = (programme.lines[step.afterLine].end, programme.lines[step.afterLine + 1].start)
            #expect(found.time >= pause.0 - 1 && found.time <= pause.1 + 1, "break at \(found.time), pause \(pause)")
            #expect(abs(found.before - before) <= 0.1 && abs(found.after - step.seconds) <= 0.1, "\(found)")
        }
        #expect(report.uncaptionedSpeech.isEmpty && report.parts.count == 3)
        let errors = aligned.errorsAfterFix()
        #expect(errors.count == programme.lines.count)
        #expect(errors.allSatisfy { abs($0) <= 0.1 }, "\(errors.map { ($0 * 1000).rounded() / 1000 })")
    }

    /// Three long sentences left uncaptioned — under the music bed in the magazine and the drama — are each found,
    /// covered to 80% or more; nothing else is.
    @Test(arguments: Programme.Kind.allCases) func droppedSentencesAreFound(kind: Programme.Kind) throws {
        let programme = try Programme.forTests(kind)
        guard case .dropped(let dropped) = try #require(programme.cases.first { $0.name == "dropped" }?.variant) else {
            throw CocoaError(.coderInvalidValue)
        }
        #expect(dropped.count == 3)
        let report = try align(kind, .dropped(dropped)).report
        for index in dropped {
            let line = programme.lines[index]
            #expect(cover(report.uncaptionedSpeech, (line.start, line.end)) >= 0.8, "line \(index) \(line.start)–\(line.end): \(report.uncaptionedSpeech)")
        }
        for gap in report.uncaptionedSpeech {
            #expect(dropped.contains { gap.start < programme.lines[$0].end && gap.end > programme.lines[$0].start }, "\(gap)")
        }
        #expect(abs(report.offsetSeconds) <= 0.1)
    }

    /// A late live captioner (each cue 0.25–0.9 s after its sentence): an offset over the tolerance, single cues still off
    /// their onset once it is corrected, and the snapping fix moves each cue onto its own onset — far closer than the
    /// offset alone, never reordering cues. (Not the conversation: with 0.25–0.7 s between its lines, a delay of up to
    /// 0.9 s reaches past the next line's start, and no onset tells whose line a cue is.)
    @Test(arguments: Programme.Kind.allCases.filter { $0 != .conversation }) func aLateCaptionerIsSnappedOntoTheSpeech(kind: Programme.Kind) throws {
        let aligned = try align(kind, .lateCaptioner(seed: 5))
        #expect(aligned.report.offsetSeconds > 0.1)
        #expect(aligned.report.onsets.contains { ($0?.offset ?? 0).magnitude > 0.3 })
        let shifted = aligned.errorsAfterFix()
        let snapped = aligned.errorsAfterFix(snap: true)
        let within = { (errors: [Double]) in Double(errors.filter { abs($0) <= 0.1 }.count) / Double(errors.count) }
        #expect(within(snapped) >= 0.9, "\(snapped.map { ($0 * 1000).rounded() / 1000 })")
        #expect(within(snapped) > within(shifted) + 0.2)
        #expect(snapped.allSatisfy { abs($0) <= 0.45 }, "\(snapped.map { ($0 * 1000).rounded() / 1000 })")
        var document = aligned.captions
        _ = SyncFix(aligned.report, dialogue: aligned.dialogue).apply(to: &document, snap: true)
        #expect(zip(document.cues, document.cues.dropFirst()).allSatisfy { $0.start <= $1.start })
    }
}
