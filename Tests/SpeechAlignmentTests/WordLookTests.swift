import Testing

@testable import SpeechAlignment

/// Which cues are looked at word by word (`wordLooks`), decided on plain values: matched cues of five words or more
/// with a word of three phones or more squeezed (far below the programme's words, in four frames a phone or fewer).
@Suite struct WordLookTests {
    /// A cue matched with `count` words of 0.5 s, each fitting −1 a frame but for `low` at `lowScore` in `lowSeconds`.
    private func matched(_ cue: Int, words count: Int, low: Int? = nil, lowScore: Double = -1, lowSeconds: Double = 0.12) -> CueAccuracy {
        var result = CueAccuracy.unverifiable(cue, .noAudio)
        result.reason = nil
        result.status = .matched
        result.score = -1
        result.overallScore = -1
        result.contrast = 30
        result.words = (0..<count).map { k -> AlignedWord in
            let start = Double(cue * 10 + k)
            let seconds: Double = k == low ? lowSeconds : 0.5
            let score: Double = k == low ? lowScore : -1 + 0.01 * Double(k % 3 - 1)
            return AlignedWord(index: k, word: "w\(k)", start: start, end: start + seconds, scorePerFrame: score)
        }
        return result
    }

    @Test func aCueWithOneWordFarBelowIsLookedAt() {
        let check = CaptionAccuracyCheck()
        var cues = (0..<20).map { matched($0, words: 6) }
        cues[3] = matched(3, words: 6, low: 2, lowScore: -1.5)  // far below: looked at
        cues[5] = matched(5, words: 4, low: 1, lowScore: -1.5)  // too few words to leave one out
        cues[7] = matched(7, words: 6, low: 0, lowScore: -1.02)  // within the programme's spread
        cues[9] = matched(9, words: 6, low: 2, lowScore: -1.5)
        cues[9].status = .offTime  // not matched where it is
        cues[11] = matched(11, words: 6, low: 2, lowScore: -1.5, lowSeconds: 0.13)  // 13 frames for 3 phones: not squeezed
        cues[13] = matched(13, words: 6, low: 4, lowScore: -1.5)  // a short word ("a", "the")
        // Three phones a word ("w4": two), as the dictionary would say.
        let phones: (String) -> Int? = { $0 == "w4" ? 2 : 3 }
        let judged = ProgrammeAccuracy(cues: cues)
        #expect(check.wordLooks(judged, phones: phones) == [3])
        var mismatched = judged
        mismatched.mismatched = true
        #expect(check.wordLooks(mismatched, phones: phones).isEmpty, "captions wrong as a whole are not looked at word by word")
    }

    @Test func aWordNotSaidIsPutInItsCuesPlace() {
        let check = CaptionAccuracyCheck()
        let judged = ProgrammeAccuracy(cues: (0..<20).map { matched($0, words: 6) })
        var found = matched(3, words: 5)
        found.status = .wordsUnmatched
        found.unmatched = ["strawberry"]
        let result = check.withWordLooks(judged, looked: [3: found, 4: nil])
        #expect(result.cues[3].status == .wordsUnmatched && result.cues[3].unmatched == ["strawberry"])
        #expect(result.cues[3].words.allSatisfy { $0.confidence != nil })
        #expect(result.cues[4] == judged.cues[4], "a cue whose look found nothing is left as it was")
    }
}
