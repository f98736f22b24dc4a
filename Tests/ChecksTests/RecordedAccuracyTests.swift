import Foundation
import SpeechAlignment
import TestSupport
import TestTraits
import Testing

@testable import Checks

/// Caption accuracy on a programme of recorded people (TestSupport's `Programme.Kind.recorded`: a professional
/// telephone voice at 8 kHz and a LibriVox reader over recorded music), captioned with the mistakes a captioner makes
/// (`captionsWithMistakes`: a word added, another programme's sentence, the next line's, a cue moved off its words).
/// Words the dictionary lacks ("rerecord", "touchtone", "Digium") are pronounced by espeak-ng, as `accuracy` does. What
/// holds is asserted; what does not yet is a known issue, measured, so that fixing it shows.
@Suite(.tags(.media, .slow), .notInFastRun) struct RecordedAccuracyTests {
    @Test func mistakesOnRecordedVoices() throws {
        let programme = try Programme.forTests(.recorded)
        let others = try Programme.forTests(.magazine).lines.map(\.text)
        let mistakes = programme.captionsWithMistakes(upTo: programme.duration, others: others)
        let captions = mistakes.map { CaptionedSpeech(start: $0.start, end: $0.end, text: $0.text) }
        let samples = try programme.samples()
        let aligner = try WordAligner()
        let unknown = captions.flatMap { SpokenWords.of($0.text) }.filter { !aligner.knows($0) }
        for (word, phones) in AccuracyCheck.pronunciations(of: Array(Set(unknown)).sorted()) { _ = aligner.add(word, phones: phones) }
        let result = samples.withUnsafeBufferPointer { CaptionAccuracyCheck().check(captions, samples: $0, aligner: aligner) }
        var status: [String: [CueAccuracy.Status]] = [:]
        for cue in result.cues {
            let kind =
                switch cue.cue % 8 {
                case 1: "added word"
                case 3 where cue.cue + 1 < captions.count: cue.cue / 8 % 2 == 0 ? "another programme's" : "the next line's"
                case 6: "moved"
                default: "right"
                }
            status[kind, default: []].append(cue.status)
        }
        let flags: Set<CueAccuracy.Status> = [.wrongText, .wordsUnmatched, .offTime]
        let right = try #require(status["right"])
        #expect(right.count >= 15)
        #expect(right.allSatisfy { !flags.contains($0) }, "a right cue flagged: \(right)")
        #expect(try #require(status["another programme's"]).allSatisfy { $0 == .wrongText })
        #expect(try #require(status["moved"]).allSatisfy { $0 != .matched }, "\(status["moved"] ?? [])")
        let added = try #require(status["added word"]), neighbour = try #require(status["the next line's"])
        #expect(neighbour.allSatisfy { flags.contains($0) }, "\(neighbour)")
        let unverifiable = right.filter { $0 == .unverifiable }.count
        #expect(Double(unverifiable) <= 0.05 * Double(right.count), "\(unverifiable) of \(right.count) right cues unverifiable")
        // Not yet (measured when written: a word added found in 4 cues of 5).
        withKnownIssue("on recorded voices, a word added is missed") {
            #expect(added.allSatisfy { flags.contains($0) }, "\(added)")
        }
    }
}
