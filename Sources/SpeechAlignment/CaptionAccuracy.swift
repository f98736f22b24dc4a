/// A caption cue whose words are to be checked against the speech: its times (media seconds) and its text (without
/// markup).
public struct CaptionedSpeech: Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var text: String

    public init(start: Double, end: Double, text: String) {
        self.start = start
        self.end = end
        self.text = text
    }
}

/// What checking one cue's words against the speech found.
public struct CueAccuracy: Sendable, Equatable {
    public enum Status: String, Sendable {
        /// The cue's words are what is said in its time.
        case matched
        /// They are not: the search could not fit them to the speech, or they fit far worse than the programme's
        /// other cues fit theirs (another programme's text, a neighbour's).
        case wrongText = "wrong-text"
        /// Nothing to check them by: no words (a description of sound, a song), or words the dictionary lacks.
        case unverifiable
    }

    /// The cue's place in the cues checked.
    public var cue: Int
    public var status: Status
    /// Why the cue could not be verified (`unverifiable` only).
    public var reason: String?
    /// The words aligned, at media times.
    public var words: [AlignedWord]
    /// How well the words fit: the mean acoustic score per frame of the worst third of them (the decoder's log units).
    public var score: Double?
    /// The score against the programme's: (score − median) / spread, robustly (nil when not scored).
    public var deviation: Double?
}

/// Checks that captions say what is spoken: each cue's words forced onto the audio of its time (with a margin), and
/// how well they fit judged against how well the programme's other cues fit theirs — the acoustic score depends on the
/// voice, the room and the music, so it is calibrated per programme, not fixed.
public struct CaptionAccuracyCheck: Sendable {
    /// Seconds of audio before and after a cue searched for its words.
    public var margin = 0.4
    /// How far below the programme's fit a cue's fit must be to be wrong text, in robust spreads.
    public var spreads = 3.0

    public init() {}

    /// Checks `cues` against `samples` (16 kHz mono, from media time 0).
    public func check(_ cues: [CaptionedSpeech], samples: UnsafeBufferPointer<Float>, aligner: WordAligner) -> [CueAccuracy] {
        var results: [CueAccuracy] = []
        let rate = Double(WordAligner.sampleRate)
        for (index, cue) in cues.enumerated() {
            var result = CueAccuracy(cue: index, status: .unverifiable, reason: nil, words: [], score: nil, deviation: nil)
            let words = SpokenWords.of(cue.text)
            if cue.text.contains("♪") || words.isEmpty {
                result.reason = cue.text.contains("♪") ? "sung" : "no words said (a description of sound)"
                results.append(result)
                continue
            }
            let unknown = words.filter { !aligner.knows($0) }
            if !unknown.isEmpty {
                result.reason = "words not in the pronunciation dictionary: \(unknown.joined(separator: ", "))"
                results.append(result)
                continue
            }
            let from = max(0, Int(((cue.start - margin) * rate).rounded())), to = min(samples.count, Int(((cue.end + margin) * rate).rounded()))
            guard to - from >= Int(rate / 10), let alignment = aligner.align(UnsafeBufferPointer(rebasing: samples[from..<to]), words: words) else {
                result.reason = "no audio in the cue's time"
                results.append(result)
                continue
            }
            let offset = Double(from) / rate
            result.words = alignment.words.map { word in
                var word = word
                word.start += offset
                word.end += offset
                return word
            }
            if alignment.completed {
                result.status = .matched
                result.score = Self.worstThird(alignment.words)
            } else {
                result.status = .wrongText
            }
            results.append(result)
        }
        // The programme's fit: the median and the median absolute deviation of the cues that fit.
        let scores = results.compactMap(\.score).sorted()
        guard scores.count >= 5 else { return results }
        let median = scores[scores.count / 2]
        let spread = max(1.4826 * scores.map { abs($0 - median) }.sorted()[scores.count / 2], 0.02 * abs(median), 1e-12)
        for i in results.indices {
            guard let score = results[i].score else { continue }
            let deviation = (score - median) / spread
            results[i].deviation = deviation
            if deviation < -spreads { results[i].status = .wrongText }
        }
        return results
    }

    /// The mean score per frame of the worst third of the words (at least one): a wrong text forced onto speech fits
    /// some of it, never all.
    static func worstThird(_ words: [AlignedWord]) -> Double? {
        let scores = words.map(\.scorePerFrame).sorted()
        guard !scores.isEmpty else { return nil }
        let worst = scores.prefix(max(1, scores.count / 3))
        return worst.reduce(0, +) / Double(worst.count)
    }
}
