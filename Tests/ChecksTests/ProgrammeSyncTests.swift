import Captions
import Checks
import Findings
import Foundation
import MediaIO
import SyncAnalysis
import Synchronization
import TestSupport
import TestTraits
import Testing

/// The sync check on programmes that sound like television (TestSupport.Programme): festival's voices over recorded
/// music, with music-only intros, breaks and effects — through AAC decoding, as users' files come, and as findings.
/// Captions on time pass with no finding at all; a late live captioner's offset and cues off their onsets are said.
/// (The offsets, drifts, breaks, dropped sentences and fixes, case by case, are SyncAnalysisTests'
/// ProgrammeVerdictTests, on the same programmes' PCM.)
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

    /// Music alone (an intro, a jingle, an uncaptioned break, instrumental interludes), effects (thunder, a phone, a
    /// siren, a horn …), the bed under the dialogue and a party's music are not speech, and a short word before a pause
    /// or a sung line is what its cue says: captions on time pass, with no finding at all.
    @Test(arguments: Programme.Kind.allCases) func musicAndEffectsAreNotUncaptionedSpeech(kind: Programme.Kind) throws {
        let checked = try check(kind, .inSync)
        #expect(checked.outcome.result.verdict == .pass, "\(checked.findings.map(\.message))")
        #expect(checked.findings.isEmpty)
        let metrics = try #require(checked.metrics)
        #expect(abs(try #require(metrics.offsetSeconds)) <= 0.05)
        #expect(abs(try #require(metrics.driftRatio) - 1) <= 2.5e-4)
        // The programme has what the claim is about: music alone, effects with no caption.
        // (The drama's music is all captioned; the conversation's plays under the dialogue.)
        #expect(checked.programme.sounds.contains { $0.isMusic && $0.caption == nil } || kind == .drama || kind == .conversation)
        if kind == .drama { #expect(checked.programme.sounds.filter { !$0.isMusic && $0.caption == nil }.count >= 5) }
    }

    /// A late live captioner (each cue 0.25–0.9 s after its sentence): the offset is reported, and single cues still off
    /// once it is corrected are reported one by one; the fix with snapping puts nine cues in ten within 0.1 s. (Not the
    /// conversation: its lines are closer together than the captioner's delays vary; see ProgrammeVerdictTests.)
    @Test(arguments: Programme.Kind.allCases.filter { $0 != .conversation }) func aLateCaptionerIsReportedCueByCue(kind: Programme.Kind) throws {
        let checked = try check(kind, .lateCaptioner(seed: 5))
        #expect(!checked.findings("sync.offset").isEmpty)
        #expect(!checked.findings("sync.cue-offset").isEmpty)
        let snapped = try errorsAfterFix(checked, snap: true)
        let close: Int = snapped.filter { (error: Double) in abs(error) <= 0.1 }.count
        #expect(Double(close) / Double(snapped.count) >= 0.9, "\(snapped)")
    }
}
