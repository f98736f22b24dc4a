import Captions
import Checks
import Findings
import Foundation
import MediaIO
import SyncAnalysis
import Synchronization
import Testing
import TestSupport
import TestTraits

/// Caption timing on programmes that sound like television (TestSupport.Programme): festival's voices over
/// recorded music, with music-only intros, breaks and effects, and captions with known errors — late, early,
/// drifted, cut, with sentences left out, and from a late live captioner. Every assertion is against where
/// the programme's sentences really are.
@Suite(.tags(.media), .notInFastRun) struct ProgrammeSyncTests {
    /// Each programme's speech, found once per process (whichever test asks first; the others wait for it).
    static let speech = Mutex<[Programme.Kind: MediaSpeech]>([:])

    struct Checked {
        var programme: Programme
        var captions: CaptionDocument
        var outcome: SyncCheck.Outcome
        var findings: [Finding] { outcome.result.findings }
        func findings(_ rule: String) -> [Finding] { findings.filter { $0.rule == rule } }
        var metrics: SyncMetrics? { outcome.result.metrics(as: SyncMetrics.self) }
    }

    func check(_ kind: Programme.Kind, _ variant: Programme.Variant) throws -> Checked {
        let programme = try Programme.forTests(kind)
        let speech = try Self.speech.withLock { found in
            if let known = found[kind] { return known }
            let detected = try MediaSpeech.detect(path: programme.media)
            found[kind] = detected
            return detected
        }
        let captions = try CaptionFile.read(Array(programme.captions(variant).utf8), format: .srt)
        let outcome = SyncCheck().check(
            path: programme.media, media: try MediaProbe.probe(programme.media), speech: speech, captions: captions, source: "\(kind)")
        return Checked(programme: programme, captions: captions, outcome: outcome)
    }

    /// How far each dialogue cue starts from its sentence once `fix` is applied (snapping if asked).
    func errorsAfterFix(_ checked: Checked, snap: Bool = false) throws -> [Double] {
        var document = checked.captions
        try #require(checked.outcome.fix).apply(to: &document, snap: snap)
        return checked.programme.startErrors(of: document)
    }

    /// How much of `span` the findings cover, 0–1.
    func cover(_ findings: [Finding], _ span: (start: Double, end: Double)) -> Double {
        let covered = findings.reduce(0.0) { total, finding in
            total + max(0, min(finding.end ?? 0, span.end) - max(finding.start ?? 0, span.start))
        }
        return covered / (span.end - span.start)
    }

    /// Music alone (an intro, a jingle, an uncaptioned break), effects (thunder, a phone, a siren, a horn …) and
    /// the bed under the dialogue are not speech: captions on time pass, with no finding at all.
    @Test(arguments: Programme.Kind.allCases) func musicAndEffectsAreNotUncaptionedSpeech(kind: Programme.Kind) throws {
        let checked = try check(kind, .inSync)
        #expect(checked.outcome.result.verdict == .pass, "\(checked.findings.map(\.message))")
        #expect(checked.findings.isEmpty)
        let metrics = try #require(checked.metrics)
        #expect(abs(try #require(metrics.offsetSeconds)) <= 0.05)
        #expect(abs(try #require(metrics.driftRatio) - 1) <= 1e-3)
        // The programme has what the claim is about: music alone, effects with no caption.
        #expect(checked.programme.sounds.contains { $0.isMusic && $0.caption == nil } || kind == .drama)
        if kind == .drama { #expect(checked.programme.sounds.filter { !$0.isMusic && $0.caption == nil }.count >= 5) }
    }

    /// A constant offset or a frame-rate drift is measured to ±0.1 s and ±0.001, with no break, and the fix puts
    /// every cue within 0.1 s of its sentence.
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
        let checked = try check(kind, variant)
        #expect(checked.outcome.result.verdict == .fail)
        let metrics = try #require(checked.metrics)
        #expect(abs(try #require(metrics.offsetSeconds) - offset) <= 0.1, "\(variant)")
        #expect(abs(try #require(metrics.driftRatio) - ratio) <= 1e-3, "\(variant)")
        #expect(checked.findings("sync.break").isEmpty && checked.findings("sync.uncaptioned-speech").isEmpty, "\(checked.findings.map(\.message))")
        let errors = try errorsAfterFix(checked)
        #expect(errors.count == programme.lines.count - (name == "early" ? programme.lines.filter { $0.start < 1.5 }.count : 0))
        #expect(errors.allSatisfy { abs($0) <= 0.1 }, "\(errors.map { ($0 * 1000).rounded() / 1000 })")
    }

    /// An advert cut out of the media (captions 5 s late after it) or put in (3 s early after it): one break, in
    /// the pause where the offset changes (±1 s), with both offsets; the main offset is the first part's; the
    /// fix moves each part by its own offset and every cue ends within 0.1 s of its sentence.
    @Test(arguments: Programme.Kind.allCases, ["cut", "insert"])
    func breaksAreLocatedAndFixedPiecewise(kind: Programme.Kind, name: String) throws {
        let programme = try Programme.forTests(kind)
        guard case .cut(let after, let seconds) = try #require(programme.cases.first { $0.name == name }?.variant) else {
            throw CocoaError(.coderInvalidValue)
        }
        let checked = try check(kind, .cut(afterLine: after, seconds: seconds))
        let breaks = checked.findings("sync.break")
        try #require(breaks.count == 1, "\(checked.findings.map(\.message))")
        let time = try #require(breaks[0].start)
        let pause = (programme.lines[after].end, programme.lines[after + 1].start)
        #expect(time >= pause.0 - 1 && time <= pause.1 + 1, "break at \(time), pause \(pause)")
        guard case .number(let before) = breaks[0].data["offsetBefore"], case .number(let later) = breaks[0].data["offsetAfter"] else {
            throw CocoaError(.coderInvalidValue)
        }
        #expect(abs(before) <= 0.1 && abs(later - seconds) <= 0.1, "\(before) \(later)")
        #expect(abs(try #require(checked.metrics?.offsetSeconds)) <= 0.1)
        #expect(abs(try #require(checked.metrics?.driftRatio) - 1) <= 1e-3)
        #expect(checked.findings("sync.offset").isEmpty && checked.findings("sync.uncaptioned-speech").isEmpty, "\(checked.findings.map(\.message))")
        #expect(checked.metrics?.fix?.parts?.count == 2)
        let errors = try errorsAfterFix(checked)
        #expect(errors.count == programme.lines.count)
        #expect(errors.allSatisfy { abs($0) <= 0.1 }, "\(errors.map { ($0 * 1000).rounded() / 1000 })")
    }

    /// Three long sentences left uncaptioned — under the music bed in the magazine and the drama — are each
    /// reported, covered to 80% or more; nothing else is.
    @Test(arguments: Programme.Kind.allCases) func droppedSentencesAreFound(kind: Programme.Kind) throws {
        let programme = try Programme.forTests(kind)
        guard case .dropped(let dropped) = try #require(programme.cases.first { $0.name == "dropped" }?.variant) else {
            throw CocoaError(.coderInvalidValue)
        }
        #expect(dropped.count == 3)
        let checked = try check(kind, .dropped(dropped))
        let found = checked.findings("sync.uncaptioned-speech")
        for index in dropped {
            let line = programme.lines[index]
            #expect(cover(found, (line.start, line.end)) >= 0.8, "line \(index) \(line.start)–\(line.end): \(found.map { ($0.start ?? 0, $0.end ?? 0) })")
        }
        for finding in found {
            let inside = dropped.contains { (finding.start ?? 0) < programme.lines[$0].end && (finding.end ?? 0) > programme.lines[$0].start }
            #expect(inside, "\(finding.message)")
        }
        #expect(abs(try #require(checked.metrics?.offsetSeconds)) <= 0.1)
    }

    /// A late live captioner (each cue 0.25–0.9 s after its sentence): the offset is reported, single cues still off
    /// once it is corrected are reported one by one, and `--fix --snap` moves each cue onto its own onset —
    /// far closer than the offset alone, never reordering cues.
    @Test(arguments: Programme.Kind.allCases) func aLateCaptionerIsSnappedOntoTheSpeech(kind: Programme.Kind) throws {
        let checked = try check(kind, .lateCaptioner(seed: 5))
        #expect(!checked.findings("sync.offset").isEmpty)
        #expect(!checked.findings("sync.cue-offset").isEmpty)
        let shifted = try errorsAfterFix(checked)
        let snapped = try errorsAfterFix(checked, snap: true)
        let within = { (errors: [Double]) in Double(errors.filter { abs($0) <= 0.1 }.count) / Double(errors.count) }
        #expect(within(snapped) >= 0.9, "\(snapped.map { ($0 * 1000).rounded() / 1000 })")
        #expect(within(snapped) > within(shifted) + 0.2)
        #expect(snapped.allSatisfy { abs($0) <= 0.45 }, "\(snapped.map { ($0 * 1000).rounded() / 1000 })")
        var document = checked.captions
        try #require(checked.outcome.fix).apply(to: &document, snap: true)
        #expect(zip(document.cues, document.cues.dropFirst()).allSatisfy { $0.start <= $1.start })
    }
}
