import Foundation
import SpeechAlignment
import TestSupport
import TestTraits
import Testing

/// Caption accuracy on the test programmes (festival's and espeak-ng's voices over recorded music, effects, rooms and
/// telephones): cues on time, every eighth one's text replaced — by turns with a sentence of another programme and
/// with the next cue's text.
@Suite(.tags(.media), .notInFastRun, .serialized) struct ProgrammeAccuracyTests {
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
        let aligner = try WordAligner()
        let check = CaptionAccuracyCheck()
        var totals = (wrong: 0, wrongFlagged: 0, right: 0, rightFlagged: 0, untouched: 0, untouchedFlagged: 0)
        for (kind, other) in [(Programme.Kind.magazine, Programme.Kind.lecture), (.drama, .magazine), (.lecture, .drama), (.conversation, .magazine)] {
            let programme = try Programme.forTests(kind)
            let samples = try programme.samples()
            let others = try Programme.forTests(other).lines.map(\.text)
            let cues = Self.cues(of: programme)
            let (edited, replaced) = Self.withWrongText(cues, others: others)
            let results = samples.withUnsafeBufferPointer { check.check(edited, samples: $0, aligner: aligner) }
            let untouched = samples.withUnsafeBufferPointer { check.check(cues, samples: $0, aligner: aligner) }
            let flagged = Set(results.filter { $0.status == .wrongText }.map(\.cue))
            let wrongFlagged = replaced.intersection(flagged).count, rightFlagged = flagged.subtracting(replaced).count
            let untouchedFlagged = untouched.filter { $0.status == .wrongText }.count
            print(
                "\(kind): wrong text flagged \(wrongFlagged)/\(replaced.count), right text flagged \(rightFlagged)/\(cues.count - replaced.count), untouched flagged \(untouchedFlagged)/\(cues.count)"
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
}
