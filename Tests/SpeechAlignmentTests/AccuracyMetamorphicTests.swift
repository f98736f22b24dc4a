import Foundation
import SpeechAlignment
import TestSupport
import TestTraits
import Testing

/// The accuracy verdict does not flip on what nobody can hear: the conversation's first minute (café babble, a party's
/// music, a voice on the telephone and one in a hall), captioned with a word added here, another programme's or the
/// next line's text there, a cue moved off its words, flags the same cues with the same findings when its mix is played
/// 1 or 100 samples later or has noise at −80 dBFS added. (Through AAC at another bit rate and resampled to 44.1 kHz:
/// ChecksTests' AccuracyMetamorphicDecodeTests.) So does a screened first pass (`SearchPrecision.screening`, asked for
/// here though the minute has fewer cues than screening waits for).
@Suite(.tags(.media, .slow), .notInFastRun) struct AccuracyMetamorphicTests {
    /// Each cue flagged, by its index: wrong text, a word not said, off its words.
    static func flagged(_ captions: [CaptionedSpeech], _ samples: [Float], screened: Bool = false) throws -> [Int: CueAccuracy.Status] {
        let aligner = try WordAligner()
        var check = CaptionAccuracyCheck()
        if screened { check.leastCuesToScreen = 0 }
        let result = samples.withUnsafeBufferPointer { check.check(captions, samples: $0, aligner: aligner) }
        return result.cues.reduce(into: [:]) { flagged, cue in
            if [.wrongText, .wordsUnmatched, .offTime].contains(cue.status) { flagged[cue.cue] = cue.status }
        }
    }

    @Test(arguments: [false, true]) func inaudibleChangesFlagTheSameCues(screened: Bool) throws {
        let seconds = 60.0
        let programme = try Programme.forTests(.conversation)
        let others = try Programme.forTests(.magazine).lines.map(\.text)
        let captions = programme.captionsWithMistakes(upTo: seconds, others: others).map {
            CaptionedSpeech(start: $0.start, end: $0.end, text: $0.text)
        }
        let samples = Array(try programme.samples().prefix(Int((seconds + 1) * 16_000)))
        let baseline = try Self.flagged(captions, samples, screened: screened)
        // The mistakes are there to be found: most of them are.
        #expect(baseline.count >= captions.count / 4, "\(baseline) of \(captions.count)")
        for (name, changed) in [
            ("1 sample later", InaudibleChanges.delayed(samples, by: 1)), ("100 samples later", InaudibleChanges.delayed(samples, by: 100)),
            ("noise at −80 dBFS", InaudibleChanges.withNoise(samples)),
        ] {
            let found = try Self.flagged(captions, changed, screened: screened)
            #expect(found == baseline, "\(name): \(FlaggedCues.differences(found, from: baseline))")
        }
    }
}
