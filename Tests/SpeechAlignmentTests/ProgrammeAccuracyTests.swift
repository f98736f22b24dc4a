import Foundation
import SpeechAlignment
import TestSupport
import TestTraits
import Testing

/// Caption accuracy on the test programmes (festival's and espeak-ng's voices over recorded music, effects, rooms and
/// telephones): cues on time, every eighth one's text replaced — by turns with a sentence of another programme and
/// with the next cue's text. The tests share what was aligned (`memo`): each edited run searches only the cues it changed.
@Suite(.tags(.media), .notInFastRun) struct ProgrammeAccuracyTests {
    /// Every alignment made here, by its audio and words: the same cue on the same audio is found, not searched again.
    static let memo = AlignmentMemo()

    /// An aligner that keeps what it finds in `memo` (one per test: an aligner is used from one thread at a time).
    static func aligner() throws -> WordAligner {
        let aligner = try WordAligner()
        aligner.memo = memo
        return aligner
    }

    /// Each programme's on-time captions checked, once: the first test to ask checks them while the others wait, so
    /// that every edited run after finds the untouched cues (and their decoys) in `memo`.
    static func onTime(_ kind: Programme.Kind) throws -> ProgrammeAccuracy {
        let slot = onTimeSlots[kind]!
        slot.lock.lock()
        defer { slot.lock.unlock() }
        if let known = slot.result { return known }
        let programme = try Programme.forTests(kind)
        let samples = try programme.samples()
        let aligner = try Self.aligner()
        let result = samples.withUnsafeBufferPointer { CaptionAccuracyCheck().check(cues(of: programme), samples: $0, aligner: aligner) }
        slot.result = result
        return result
    }

    final class OnTimeSlot: @unchecked Sendable {
        let lock = NSLock()
        var result: ProgrammeAccuracy?
    }

    static let onTimeSlots = Dictionary(uniqueKeysWithValues: Programme.Kind.allCases.map { ($0, OnTimeSlot()) })

    /// The programme's cues as its captions give them (the drama's with its speakers' names), on time.
    static func cues(of programme: Programme) -> [CaptionedSpeech] {
        programme.lines.map { line in
            CaptionedSpeech(start: line.start, end: line.end, text: programme.kind == .drama ? "\(line.speaker): \(line.text)" : line.text)
        }
    }

    /// The cues with every eighth one (from the fourth) given wrong text; the indices replaced.
    static func withWrongText(_ cues: [CaptionedSpeech], others: [String]) -> ([CaptionedSpeech], Set<Int>) {
        var cues = cues
        var replaced = Set<Int>()
        for (n, index) in stride(from: 3, to: cues.count - 1, by: 8).enumerated() {
            cues[index].text = n % 2 == 0 ? others[index % others.count] : cues[index + 1].text
            replaced.insert(index)
        }
        return (cues, replaced)
    }

    @Test func wrongTextIsFlaggedAndRightTextIsNot() throws {
        let aligner = try Self.aligner()
        let check = CaptionAccuracyCheck()
        var totals = (wrong: 0, wrongFlagged: 0, right: 0, rightFlagged: 0, untouched: 0, untouchedFlagged: 0)
        for (kind, other) in [(Programme.Kind.magazine, Programme.Kind.lecture), (.drama, .magazine), (.lecture, .drama), (.conversation, .magazine)] {
            let programme = try Programme.forTests(kind)
            let samples = try programme.samples()
            let others = try Programme.forTests(other).lines.map(\.text)
            let cues = Self.cues(of: programme)
            let (edited, replaced) = Self.withWrongText(cues, others: others)
            let whole = try Self.onTime(kind)
            let results = samples.withUnsafeBufferPointer { check.check(edited, samples: $0, aligner: aligner) }.cues
            let untouched = whole.cues
            // The captions as a whole fit far better than decoys, and no untouched cue is found off its words.
            #expect(!whole.mismatched && (whole.separation ?? 0) >= 0.9, "\(kind): separation \(whole.separation ?? -1)")
            #expect(untouched.filter { $0.status == .offTime }.isEmpty, "\(kind): \(untouched.filter { $0.status == .offTime })")
            let flagged = Set(results.filter { $0.status == .wrongText }.map(\.cue))
            // A neighbour's text is found where the neighbour's words are said: it stays wrong, and says whose they are.
            for index in replaced where edited[index].text == cues[index + 1].text && results[index].status == .wrongText {
                #expect(results[index].wordsOf == nil || results[index].wordsOf == index + 1, "\(kind) cue \(index + 1)")
            }
            #expect(results.filter { $0.status == .offTime }.count <= 1, "\(kind): \(results.filter { $0.status == .offTime })")
            let wrongFlagged = replaced.intersection(flagged).count, rightFlagged = flagged.subtracting(replaced).count
            let untouchedFlagged = untouched.filter { $0.status == .wrongText }.count
            let unverified = untouched.filter { $0.status == .unverifiable }.count
            print(
                "\(kind): wrong text flagged \(wrongFlagged)/\(replaced.count), right text flagged \(rightFlagged)/\(cues.count - replaced.count), untouched flagged \(untouchedFlagged)/\(cues.count), not verified \(unverified)"
            )
            totals.wrong += replaced.count
            totals.wrongFlagged += wrongFlagged
            totals.right += cues.count - replaced.count
            totals.rightFlagged += rightFlagged
            totals.untouched += cues.count
            totals.untouchedFlagged += untouchedFlagged
        }
        print("all: \(totals)")
        #expect(Double(totals.wrongFlagged) >= 0.9 * Double(totals.wrong))
        #expect(Double(totals.rightFlagged) <= 0.05 * Double(totals.right))
        #expect(Double(totals.untouchedFlagged) <= 0.05 * Double(totals.untouched))
    }

    /// Music as loud as the speech (recorded game music, its RMS that of the speech) over eight of the lecture's cues,
    /// four of them given the next cue's text: none is called wrong text, or right — all eight are not verified (music
    /// too loud) — and the cues around them are judged as before.
    @Test func tooLoudMusicIsUnverifiableNotWrongText() throws {
        let aligner = try Self.aligner()
        let check = CaptionAccuracyCheck()
        let programme = try Programme.forTests(.lecture)
        _ = try Self.onTime(.lecture)
        var samples = try programme.samples()
        var cues = Self.cues(of: programme)
        let covered = Array(stride(from: 6, to: cues.count - 1, by: 8).prefix(8))
        for (n, index) in covered.enumerated() {
            let line = programme.lines[index]
            let from = max(0, Int((line.start - 0.5) * 16000)), to = min(samples.count, Int((line.end + 0.5) * 16000))
            let speech = samples[from..<to]
            let speechRMS = (speech.reduce(0) { $0 + $1 * $1 } / Float(speech.count)).squareRoot()
            let music = try programme.music(count: to - from, from: Double(index) * 7)
            let musicRMS = max(1e-6, (music.reduce(0) { $0 + $1 * $1 } / Float(music.count)).squareRoot())
            for k in from..<to { samples[k] += music[k - from] * speechRMS / musicRMS }
            if n % 2 == 1 { cues[index].text = cues[index + 1].text }
        }
        let results = samples.withUnsafeBufferPointer { check.check(cues, samples: $0, aligner: aligner) }.cues
        for index in covered {
            let result = results[index]
            #expect(result.status == .unverifiable && result.reason?.description.hasPrefix("music or noise too loud") == true, "cue \(index + 1): \(result)")
        }
        let others = results.indices.filter { !covered.contains($0) }
        #expect(others.filter { results[$0].status == .wrongText }.isEmpty, "\(others.filter { results[$0].status == .wrongText })")
    }

    /// A word added to every eighth cue (from the third, of five words or more) of each programme, in the middle of its
    /// text: most such cues are found to have a word not said there, naming the added word (the search fits the rest
    /// without it, or the word alone fits far worse than the programme's words); most of the others are wrong text;
    /// the untouched cues are left alone.
    @Test func anAddedWordIsAWordNotSaid() throws {
        let aligner = try Self.aligner()
        let check = CaptionAccuracyCheck()
        var totals = (added: 0, named: 0, wrong: 0, others: 0, othersFlagged: 0)
        for kind in [Programme.Kind.magazine, .drama, .lecture, .conversation] {
            let programme = try Programme.forTests(kind)
            _ = try Self.onTime(kind)
            let samples = try programme.samples()
            var cues = Self.cues(of: programme)
            var added: [Int: String] = [:]
            for index in stride(from: 2, to: cues.count, by: 8) where SpokenWords.of(cues[index].text).count >= 5 {
                var words = cues[index].text.split(separator: " ").map(String.init)
                let word = ["elephant", "umbrella", "strawberry", "volcano"][index % 4]
                words.insert(word, at: words.count / 2)
                cues[index].text = words.joined(separator: " ")
                added[index] = word
            }
            let results = samples.withUnsafeBufferPointer { check.check(cues, samples: $0, aligner: aligner) }.cues
            let named = added.filter { results[$0.key].status == .wordsUnmatched && results[$0.key].unmatched.contains($0.value) }.count
            let wrong = added.keys.filter { results[$0].status == .wrongText }.count
            let others = results.filter { added[$0.cue] == nil }
            let othersFlagged = others.filter { $0.status == .wordsUnmatched || $0.status == .wrongText }.count
            print("\(kind): added words named \(named)/\(added.count), called wrong text \(wrong), other cues flagged \(othersFlagged)/\(others.count)")
            totals.added += added.count
            totals.named += named
            totals.wrong += wrong
            totals.others += others.count
            totals.othersFlagged += othersFlagged
        }
        print("all: \(totals)")
        // Measured: 15 of 26 named, 5 more called wrong text, 1 of 191 other cues flagged.
        #expect(Double(totals.named) >= 0.55 * Double(totals.added), "\(totals)")
        #expect(Double(totals.named + totals.wrong) >= 0.75 * Double(totals.added), "\(totals)")
        #expect(Double(totals.othersFlagged) <= 0.02 * Double(totals.others), "\(totals)")
    }

    /// Another programme's captions on a programme's cue times (its lines in order, as another episode's file would
    /// be): the cues' text fits no better than decoys do, so the captions as a whole are wrong — though about half of
    /// the cues, judged only against each other, would pass.
    @Test func anotherProgrammesCaptionsAreWrongAsAWhole() throws {
        let aligner = try Self.aligner()
        let check = CaptionAccuracyCheck()
        // (Measured on all four: separation 0.46–0.55; two of them run here.)
        for (kind, other) in [(Programme.Kind.magazine, Programme.Kind.lecture), (.drama, .conversation)] {
            let programme = try Programme.forTests(kind)
            let samples = try programme.samples()
            let others = try Programme.forTests(other).lines.map(\.text)
            let cues = programme.lines.enumerated().map { i, line in CaptionedSpeech(start: line.start, end: line.end, text: others[i % others.count]) }
            let result = samples.withUnsafeBufferPointer { check.check(cues, samples: $0, aligner: aligner) }
            print("\(kind) with \(other)'s captions: separation \(result.separation ?? -1)")
            #expect(result.mismatched && (result.separation ?? 1) < check.leastSeparation, "\(kind): \(result.separation ?? -1)")
            #expect(result.cues.allSatisfy { $0.status == .wrongText || $0.status == .unverifiable })
        }
    }

    /// Every eighth cue (from the fifth) of each programme moved off its words — by turns 1.5 s late and 2 s early —
    /// the others left on time: those cues' words are found where they are said (within 0.5 s of where the untouched
    /// captions' check finds them), and the cues are off time; the other cues are not.
    @Test func cuesMovedOffTheirWordsAreOffTime() throws {
        let aligner = try Self.aligner()
        let check = CaptionAccuracyCheck()
        var totals = (moved: 0, found: 0, others: 0, othersFlagged: 0)
        var errors: [Double] = []
        for kind in [Programme.Kind.magazine, .drama, .lecture, .conversation] {
            let programme = try Programme.forTests(kind)
            let samples = try programme.samples()
            let onTime = Self.cues(of: programme)
            let truth = try Self.onTime(kind).cues
            var cues = onTime
            var moved: [Int: Double] = [:]
            for (n, index) in stride(from: 4, to: cues.count, by: 8).enumerated() where truth[index].status == .matched {
                let shift = n % 2 == 0 ? 1.5 : -2.0
                cues[index].start += shift
                cues[index].end += shift
                moved[index] = shift
            }
            let results = samples.withUnsafeBufferPointer { check.check(cues, samples: $0, aligner: aligner) }.cues
            let found = moved.filter { index, shift in
                guard results[index].status == .offTime, let offset = results[index].offset, let said = truth[index].words.first?.start else { return false }
                errors.append(abs(offset - (said - cues[index].start)))
                return abs(offset - (said - cues[index].start)) <= 0.5
            }
            let others = results.filter { moved[$0.cue] == nil }
            let othersFlagged = others.filter { $0.status == .offTime || $0.status == .wrongText }.count
            print("\(kind): moved cues found off time \(found.count)/\(moved.count), other cues flagged \(othersFlagged)/\(others.count)")
            for index in moved.keys.sorted() where found[index] == nil {
                print("  cue \(index + 1) moved \(moved[index]!): \(results[index].status), offset \(results[index].offset ?? .nan)")
            }
            totals.moved += moved.count
            totals.found += found.count
            totals.others += others.count
            totals.othersFlagged += othersFlagged
        }
        errors.sort()
        print("all: \(totals); offset error median \(errors[errors.count / 2]) s, largest \(errors.last ?? .nan) s")
        #expect(Double(totals.found) >= 0.85 * Double(totals.moved), "\(totals)")
        #expect(Double(totals.othersFlagged) <= 0.03 * Double(totals.others), "\(totals)")
    }
}
