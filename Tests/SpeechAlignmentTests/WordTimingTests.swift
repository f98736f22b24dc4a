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

    /// What an alignment finds depends on its audio and words alone, not on what the aligner searched before: the
    /// front end's noise tracking starts afresh for each search (it carried over, and a cue's fit changed with the cue
    /// checked before it, or with a decoy searched in between). So a memo (`AlignmentMemo`) can stand in for a search.
    @Test func anAlignmentDependsOnItsAudioAndWordsAlone() throws {
        let texts = FestivalWords.sentences(4, seed: 38)
        let sentences = try FestivalWords.speak(texts, voice: FestivalWords.voices[0], bedBelowSpeech: 10)
        func align(_ aligner: WordAligner, _ index: Int) throws -> WordAlignment {
            try #require(sentences[index].samples.withUnsafeBufferPointer { aligner.align($0, words: SpokenWords.of(sentences[index].text)) })
        }
        let alone = try align(try WordAligner(), 0)
        let used = try WordAligner()
        for index in 1..<sentences.count { _ = try align(used, index) }
        #expect(try align(used, 0) == alone)
        #expect(try align(used, 0) == alone)
        let remembering = try WordAligner()
        remembering.memo = AlignmentMemo()
        #expect(try align(remembering, 0) == alone)
        for index in 1..<sentences.count { _ = try align(remembering, index) }
        #expect(try align(remembering, 0) == alone)
    }
}
