import Foundation
import SpeechAlignment
import TestSupport
import TestTraits
import Testing

/// Word times found by forcing each sentence's text onto festival's speech, against the times festival spoke them at:
/// three voices (an HMM voice and two diphone voices), clean and over a bed of noise 10 dB below the speech.
@Suite(.tags(.media), .notInFastRun) struct WordTimingTests {
    @Test func wordStartsAreWhereTheSynthesisPutThem() throws {
        let aligner = try WordAligner()
        let texts = FestivalWords.sentences(16, seed: 38)
        var errors: [Double] = []
        for voice in FestivalWords.voices {
            for bed in [nil, 10.0] {
                for sentence in try FestivalWords.speak(texts, voice: voice, bedBelowSpeech: bed) {
                    let words = SpokenWords.of(sentence.text)
                    try #require(words == sentence.words.map(\.word), "festival said \(sentence.words.map(\.word)) for \(words)")
                    let alignment = try #require(sentence.samples.withUnsafeBufferPointer { aligner.align($0, words: words) })
                    #expect(
                        alignment.completed, "\(voice) bed \(String(describing: bed)): \(sentence.text) \(sentence.samples.count) \(sentence.words.last!.end)")
                    for (found, said) in zip(alignment.words, sentence.words) { errors.append(abs(found.start - said.start)) }
                }
            }
        }
        let sorted = errors.sorted()
        let median = sorted[sorted.count / 2], p90 = sorted[sorted.count * 9 / 10]
        print("word starts: \(sorted.count) words, median error \(Int((median * 1000).rounded())) ms, p90 \(Int((p90 * 1000).rounded())) ms")
        #expect(median <= 0.030 && p90 <= 0.080, "median \(median) s, p90 \(p90) s")
    }
}
