import Testing

@testable import SpeechAlignment

/// A screened first pass (`SearchPrecision.screening`) and the exact second look, decided on plain values: which cues are
/// searched again, and how their exact scores are put on the screening scale.
@Suite struct ScreeningTests {
    /// A cue matched with `score` for its worst third and `score + 1` as a whole, one word at `score + 1`.
    private func matched(_ cue: Int, _ score: Double) -> CueAccuracy {
        var result = CueAccuracy.unverifiable(cue, .noAudio)
        result.reason = nil
        result.status = .matched
        result.score = score
        result.overallScore = score + 1
        result.contrast = 30
        result.words = [AlignedWord(index: 0, word: "word", start: Double(cue), end: Double(cue) + 0.5, scorePerFrame: score + 1)]
        return result
    }

    /// 80 cues (every second one a decoy's window, as `decoy` spreads forty through them), scores −10 ± 0.1 but for cue
    /// 7 at −10.5 (two and a half spreads below) and cue 9 not fitted.
    private func firstPass() -> (cues: [CaptionedSpeech], first: [CueAccuracy]) {
        let cues = (0..<80).map { CaptionedSpeech(start: Double($0) * 3, end: Double($0) * 3 + 2, text: "cue number \($0)") }
        var first = cues.indices.map { matched($0, -10 + 0.05 * Double($0 % 5 - 2)) }
        first[7].score = -10.5
        first[9].status = .wrongText
        first[9].score = nil
        first[9].overallScore = nil
        first[20] = .unverifiable(20, .describesSound)
        return (cues, first)
    }

    @Test func doubtfulCuesAndTheDecoysWindowsAreSearchedAgain() {
        var check = CaptionAccuracyCheck()
        check.leastCuesToScreen = 50
        let (cues, first) = firstPass()
        #expect(check.firstPassPrecision(cueCount: 49) == .exact)
        #expect(check.firstPassPrecision(cueCount: 50) == .screening)
        let again = Set(check.rechecks(first, decoys: [], cues: cues))
        let decoyWindows = Set(cues.indices.filter { check.decoy(for: $0, in: cues) != nil })
        #expect(decoyWindows.count == 40 && decoyWindows.contains(0) && decoyWindows.contains(2) && !decoyWindows.contains(1))
        // The decoys' windows (less the one not verified), the doubtful cue and the one not fitted.
        #expect(again == decoyWindows.subtracting([20]).union([7, 9]))
        // Captions wrong as a whole: nothing searched again (the decoys decided it).
        #expect(check.rechecks(first, decoys: Array(repeating: 0, count: 40), cues: cues).isEmpty)
    }

    @Test func exactScoresArePutOnTheScreeningScale() throws {
        let check = CaptionAccuracyCheck()
        let (cues, first) = firstPass()
        // Exact searches score the decoys' windows 0.3 (worst third) and 0.2 (whole) a frame better, cue 13 0.9 better;
        // cue 7 fits as the others do when searched exactly; cue 9 still cannot be fitted.
        var exact: [Int: CueAccuracy] = [:]
        for index in stride(from: 0, to: 80, by: 2) where index != 20 {
            var found = first[index]
            found.score! += index == 10 ? 0.9 : 0.3
            found.overallScore! += 0.2
            exact[index] = found
        }
        exact[7] = matched(7, -9.7)
        exact[9] = first[9]
        let (results, shift) = check.rescored(first, exact: exact, cues: cues)
        let scale = try #require(shift)
        #expect(abs(scale.worst - 0.3) < 1e-9 && abs(scale.overall - 0.2) < 1e-9)
        #expect(abs(try #require(results[7].score) - -10.0) < 1e-9)
        #expect(abs(try #require(results[7].overallScore) - -8.9) < 1e-9)
        #expect(abs(results[7].words[0].scorePerFrame - -8.9) < 1e-9)
        #expect(results[9].status == .wrongText)
        #expect(abs(try #require(results[10].score) - (try #require(first[10].score) + 0.6)) < 1e-9)
        #expect(results[1] == first[1], "a cue not searched again is left as the first pass found it")
        // Fewer than eight cues searched both ways: no scale, nothing moved.
        let few = exact.filter { $0.key < 14 }
        #expect(check.rescored(first, exact: few, cues: cues).1 == nil)
        #expect(check.rescored(first, exact: few, cues: cues).0 == first)
    }
}
