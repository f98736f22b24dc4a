import Captions
import Checks
import Foundation
import MediaIO
import SpeechAlignment
import TestSupport
import TestTraits
import Testing

/// The accuracy verdict does not flip on what nobody can hear, through decoding: the magazine's first 90 s (four
/// voices over a music bed) as made (AAC at 96 kb/s, 48 kHz), encoded again at 128 kb/s, and resampled to 44.1 kHz,
/// captioned with a word added here, another programme's or the next line's text there, a cue moved off its words:
/// the same cues flagged, with the same findings. (Delays and noise in memory: SpeechAlignmentTests'
/// AccuracyMetamorphicTests.)
@Suite(.tags(.media, .slow), .notInFastRun) struct AccuracyMetamorphicDecodeTests {
    @Test func reEncodedOrResampledAudioFlagsTheSameCues() throws {
        let seconds = 90.0
        let programme = try Programme.forTests(.magazine)
        let others = try Programme.forTests(.lecture).lines.map(\.text)
        let captions = try CaptionFile.read(
            Array(Programme.subRip(programme.captionsWithMistakes(upTo: seconds, others: others)).utf8), format: .srt)
        // The first 90 s as they are (AAC packets copied), and changed from there.
        let cut = try TestMediaCache.ffmpeg("magazine-90s.m4a", ["-i", programme.media, "-t", "\(seconds + 1)", "-c", "copy", TestMediaCache.output])
        let versions = [
            ("as made", cut),
            (
                "AAC again at 128 kb/s",
                try TestMediaCache.ffmpeg("magazine-90s-aac128.m4a", ["-i", cut, "-c:a", "aac", "-b:a", "128k", TestMediaCache.output])
            ),
            (
                "resampled to 44.1 kHz",
                try TestMediaCache.ffmpeg("magazine-90s-44100.flac", ["-i", cut, "-ar", "44100", "-c:a", "flac", TestMediaCache.output])
            ),
        ]
        var flagged: [(name: String, cues: [Int: CueAccuracy.Status], rules: [String])] = []
        for (name, path) in versions {
            let outcome = try AccuracyCheck().check(
                path: path, media: try MediaProbe.probe(path), captions: captions, source: "captions", fix: nil, language: "en")
            let cues = outcome.cues.reduce(into: [Int: CueAccuracy.Status]()) { found, cue in
                if [.wrongText, .wordsUnmatched, .offTime].contains(cue.status) { found[cue.cue] = cue.status }
            }
            flagged.append((name, cues, outcome.result.findings.map { "\($0.rule) \($0.data["cue"].map { "\($0)" } ?? "")" }.sorted()))
        }
        #expect(flagged[0].cues.count >= captions.cues.count / 4, "\(flagged[0].cues) of \(captions.cues.count)")
        for other in flagged.dropFirst() {
            #expect(other.cues == flagged[0].cues, "\(other.name): \(FlaggedCues.differences(other.cues, from: flagged[0].cues))")
            #expect(other.rules == flagged[0].rules, "\(other.name)")
        }
    }
}
