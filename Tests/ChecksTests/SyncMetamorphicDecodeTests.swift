import Captions
import Checks
import Findings
import Foundation
import MediaIO
import SyncAnalysis
import TestSupport
import TestTraits
import Testing

/// The sync verdict does not flip on what nobody can hear, through decoding as users' files come: each programme's AAC
/// (96 kb/s) encoded again at 128 kb/s, and resampled from 48 to 44.1 kHz (FLAC: nothing else lost), gives the same
/// findings as the programme itself for every caption case — on time, late, early, drifted, cut, inserted, two breaks,
/// sentences left out: the same rules, the same breaks (each within half a second), offsets and drift, every fixed cue
/// within 0.1 s (`SyncOutcome`). (Delays of 1–100 samples and noise at −80 dBFS, in memory: SyncAnalysisTests'
/// SyncMetamorphicTests.)
@Suite(.tags(.media, .slow), .notInFastRun) struct SyncMetamorphicDecodeTests {
    /// The programme's audio changed in ways nobody hears, each made once per machine (TestMediaCache).
    static func changes(of programme: Programme) throws -> [(name: String, path: String)] {
        let kind = programme.kind.rawValue
        return [
            (
                "AAC again at 128 kb/s",
                try TestMediaCache.ffmpeg("\(kind)-aac128.m4a", ["-i", programme.media, "-c:a", "aac", "-b:a", "128k", TestMediaCache.output])
            ),
            (
                "resampled to 44.1 kHz",
                try TestMediaCache.ffmpeg("\(kind)-44100.flac", ["-i", programme.media, "-ar", "44100", "-c:a", "flac", TestMediaCache.output])
            ),
        ]
    }

    /// The rules of the sync check's findings on `captions`, with how often each fired.
    static func rules(_ captions: CaptionDocument, speech: MediaSpeech, media: MediaInfo, path: String) -> [String: Int] {
        let outcome = SyncCheck().check(path: path, media: media, speech: speech, captions: captions, source: "captions")
        return outcome.result.findings.reduce(into: [:]) { $0[$1.rule, default: 0] += 1 }
    }

    @Test(arguments: Programme.Kind.allCases) func reEncodedOrResampledAudioGivesTheSameFindings(kind: Programme.Kind) throws {
        let programme = try Programme.forTests(kind)
        let cases = programme.cases.filter { $0.name != "captioner" }
        let captions = try cases.map { try CaptionFile.read(Array(programme.captions($0.variant).utf8), format: .srt) }
        let media = try MediaProbe.probe(programme.media)
        let base = try MediaSpeech.detect(path: programme.media)
        let baseline = captions.map { SyncOutcome(captions: $0, speech: base.timeline) }
        let baselineRules = captions.map { Self.rules($0, speech: base, media: media, path: programme.media) }
        var flips: [String] = []
        for change in try Self.changes(of: programme) {
            let speech = try MediaSpeech.detect(path: change.path)
            let changedMedia = try MediaProbe.probe(change.path)
            for (index, (name, _)) in cases.enumerated() {
                var differences = SyncOutcome(captions: captions[index], speech: speech.timeline).differences(from: baseline[index])
                let rules = Self.rules(captions[index], speech: speech, media: changedMedia, path: change.path)
                if rules != baselineRules[index] {
                    differences.append("findings \(rules.sorted { $0.key < $1.key }), were \(baselineRules[index].sorted { $0.key < $1.key })")
                }
                if !differences.isEmpty { flips.append("\(kind) \(name), \(change.name): \(differences.joined(separator: "; "))") }
            }
        }
        for flip in flips { print(flip) }
        #expect(flips.isEmpty, "\(flips.count) of \(2 * cases.count)")
    }
}
