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
        // A word added is found in every cue (the reader's "strawberry", which takes the next word's audio and squeezes
        // it, by the look word by word), and where it is named, the word named is the one added.
        #expect(added.allSatisfy { flags.contains($0) }, "\(added)")
        let addedWords: Set = ["elephant", "umbrella", "strawberry", "volcano"]
        let named = result.cues.filter { $0.cue % 8 == 1 && $0.status == .wordsUnmatched }
        #expect(named.count >= 3 && named.allSatisfy { Set($0.unmatched).isSubset(of: addedWords) }, "\(named.map(\.unmatched))")
    }

    /// A screened first pass (`SearchPrecision.screening`, asked for here though the programme has fewer cues than
    /// screening waits for) flags the cues the exact search flags, each the same way.
    @Test func screeningFlagsWhatTheExactSearchFlags() throws {
        let programme = try Programme.forTests(.recorded)
        let others = try Programme.forTests(.magazine).lines.map(\.text)
        let captions = programme.captionsWithMistakes(upTo: programme.duration, others: others).map {
            CaptionedSpeech(start: $0.start, end: $0.end, text: $0.text)
        }
        let samples = try programme.samples()
        let aligner = try WordAligner()
        let unknown = captions.flatMap { SpokenWords.of($0.text) }.filter { !aligner.knows($0) }
        for (word, phones) in AccuracyCheck.pronunciations(of: Array(Set(unknown)).sorted()) { _ = aligner.add(word, phones: phones) }
        var screening = CaptionAccuracyCheck()
        screening.leastCuesToScreen = 0
        let exact = samples.withUnsafeBufferPointer { CaptionAccuracyCheck().check(captions, samples: $0, aligner: aligner) }
        let screened = samples.withUnsafeBufferPointer { screening.check(captions, samples: $0, aligner: aligner) }
        #expect(CaptionAccuracyCheck().firstPassPrecision(cueCount: captions.count) == .exact)
        #expect(screened.cues.map(\.status) == exact.cues.map(\.status))
        #expect(exact.cues.filter { $0.status != .matched && $0.status != .unverifiable }.count >= captions.count / 5)
    }

    /// Every cue wrong in its turn, four passes over the programme (a quarter of the cues wrong in each, every one
    /// once): half of them say another programme's sentence, half the sentence two cues on; the rest are right. Wrong
    /// text is caught in ≥ 90% of cues, the text two on in ≥ 85% (issue 51's targets), right cues are flagged or not
    /// verified in ≤ 5% of judgments (the 30 s menu, too long to align, aside).
    @Test func everyCueWrongInTurn() throws {
        let programme = try Programme.forTests(.recorded)
        let others = try Programme.forTests(.magazine).lines.map(\.text)
        let lines = programme.lines
        let samples = try programme.samples()
        let aligner = try WordAligner()
        let texts = lines.map(\.text) + others
        let unknown = Set(texts.flatMap { SpokenWords.of($0) }.filter { !aligner.knows($0) })
        for (word, phones) in AccuracyCheck.pronunciations(of: unknown.sorted()) { _ = aligner.add(word, phones: phones) }
        let flags: Set<CueAccuracy.Status> = [.wrongText, .wordsUnmatched, .offTime]
        var other = (caught: 0, of: 0), ahead = (caught: 0, of: 0), right = (flagged: 0, unverifiable: 0, of: 0)
        var missed: [String] = []
        for round in 0..<4 {
            var captions = lines.map { CaptionedSpeech(start: $0.start, end: $0.end, text: $0.text) }
            var kinds: [Int: String] = [:]
            for index in captions.indices where index % 4 == round {
                if index / 4 % 2 == 0 || index + 2 >= lines.count {
                    captions[index].text = others[(index * 7) % others.count]
                    kinds[index] = "another programme's"
                } else {
                    captions[index].text = lines[index + 2].text
                    kinds[index] = "two on"
                }
            }
            let result = samples.withUnsafeBufferPointer { CaptionAccuracyCheck().check(captions, samples: $0, aligner: aligner) }
            for cue in result.cues {
                switch kinds[cue.cue] {
                case "another programme's"?:
                    other.of += 1
                    if flags.contains(cue.status) {
                        other.caught += 1
                    } else {
                        missed.append("\(cue.cue) other: \(cue.status) \(cue.reason.map { "\($0)" } ?? "")")
                    }
                case "two on"?:
                    ahead.of += 1
                    if flags.contains(cue.status) {
                        ahead.caught += 1
                    } else {
                        missed.append("\(cue.cue) two on: \(cue.status) \(cue.reason.map { "\($0)" } ?? "")")
                    }
                default:
                    right.of += 1
                    if flags.contains(cue.status) {
                        right.flagged += 1
                        missed.append("\(cue.cue) right: \(cue.status)")
                    }
                    if cue.status == .unverifiable, cue.reason != .tooLong(30) {
                        right.unverifiable += 1
                        missed.append("\(cue.cue) right: unverifiable")
                    }
                }
            }
        }
        #expect(other.of + ahead.of == lines.count && right.of == 3 * lines.count)
        #expect(
            Double(right.flagged + right.unverifiable) <= 0.05 * Double(right.of),
            "right cues flagged \(right.flagged), unverifiable \(right.unverifiable) of \(right.of): \(missed)")
        #expect(Double(other.caught) >= 0.9 * Double(other.of), "another programme's text caught \(other.caught) of \(other.of): \(missed)")
        #expect(Double(ahead.caught) >= 0.85 * Double(ahead.of), "text two on caught \(ahead.caught) of \(ahead.of): \(missed)")
        print(
            "recorded voices, every cue wrong in turn: another programme's \(other.caught)/\(other.of), two on \(ahead.caught)/\(ahead.of),"
                + " right flagged \(right.flagged) unverifiable \(right.unverifiable) of \(right.of)")
    }
}
