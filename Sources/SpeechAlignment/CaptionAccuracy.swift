#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        /// Most are, but some of its words are not said there (`unmatched`): a word added, or said differently.
        case wordsUnmatched = "words-unmatched"
        /// Nothing to check them by: no words (a description of sound, a song), or words the dictionary lacks.
        case unverifiable
    }

    /// Why a cue could not be verified.
    public enum Unverified: Sendable, Equatable, CustomStringConvertible {
        /// A song (`♪ … ♪`), or no words at all (a description of sound).
        case sung, describesSound
        /// Its words do not read as the model's language.
        case otherLanguage
        /// Words neither the dictionary nor the pronunciations added know.
        case unknownWords([String])
        /// Longer than the longest cue aligned (seconds).
        case tooLong(Double)
        /// More words than its time can hold.
        case tooManyWords(Int, seconds: Double)
        case noAudio
        /// Music or noise over it: its audio's quiet part only this many dB below its loud part.
        case musicTooLoud(Double)

        public var description: String {
            switch self {
            case .sung: "sung"
            case .describesSound: "no words said (a description of sound)"
            case .otherLanguage: "not in the model's language"
            case .unknownWords(let words): "words not in the pronunciation dictionary: \(words.joined(separator: ", "))"
            case .tooLong(let seconds): "longer than \(Int(seconds)) s"
            case .tooManyWords(let count, let seconds): "\(count) words in \(Int(seconds.rounded())) s: more than can be said"
            case .noAudio: "no audio in the cue's time"
            case .musicTooLoud(let contrast):
                "music or noise too loud (the quiet part of its audio only \(Int(contrast.rounded())) dB below the loud part)"
            }
        }

        /// Sounds and songs, and cues in another language: reported together, not cue by cue.
        public var isCounted: Bool { self == .sung || self == .describesSound || self == .otherLanguage }
    }

    /// The cue's place in the cues checked.
    public var cue: Int
    public var status: Status
    /// Why the cue could not be verified (`unverifiable` only).
    public var reason: Unverified?
    /// The words aligned, at media times.
    public var words: [AlignedWord]
    /// How well the words fit: the mean acoustic score per frame of the worst third of them (the decoder's log units).
    public var score: Double?
    /// How well they fit together: the acoustic score per frame of all the words.
    public var overallScore: Double?
    /// How far the loud part of the cue's audio stands above its quiet part, in dB (the 80th and the 20th percentile
    /// of 20-ms levels): speech has pauses between its words, music or noise over it fills them.
    public var contrast: Double?
    /// The score against the programme's: (score − median) / spread, robustly (nil when not scored).
    public var deviation: Double?
    /// The words not found in the speech (`wordsUnmatched`), in the cue's order.
    public var unmatched: [String] = []

    /// A cue not verified, for `reason`.
    public static func unverifiable(_ cue: Int, _ reason: Unverified) -> CueAccuracy {
        CueAccuracy(cue: cue, status: .unverifiable, reason: reason, words: [], score: nil, overallScore: nil, contrast: nil, deviation: nil)
    }
}

/// Checks that captions say what is spoken: each cue's words forced onto the audio of its time (with a margin), and
/// how well they fit judged against how well the programme's other cues fit theirs — the acoustic score depends on the
/// voice, the room and the music, so it is calibrated per programme, not fixed.
public struct CaptionAccuracyCheck: Sendable {
    /// Seconds of audio before and after a cue searched for its words.
    public var margin = 0.4
    /// How far below the programme's fit a cue's fit must be to be wrong text, in robust spreads.
    public var spreads = 3.0
    /// How far below the programme's words a word's fit must be not to be found, in robust spreads.
    public var wordSpreads = 4.0
    /// Cues longer than this (seconds) are not aligned (`unverifiable`): a caption shows a sentence or two.
    public var longestCue = 30.0
    /// A cue over audio whose loud part stands less than this (dB) above its quiet part is not verified: music or noise
    /// that loud hides the words, so that wrong text may fit and right text may not.
    public var leastContrast = 10.0

    public init() {}

    /// Checks `cues` against `samples` (16 kHz mono, from media time 0): `align` each, then `judge` them together.
    public func check(_ cues: [CaptionedSpeech], samples: UnsafeBufferPointer<Float>, aligner: WordAligner) -> [CueAccuracy] {
        let rate = Double(WordAligner.sampleRate)
        let aligned = cues.enumerated().map { index, cue in
            let (start, end) = window(of: cue)
            let from = min(samples.count, max(0, Int((start * rate).rounded()))), to = min(samples.count, max(from, Int((end * rate).rounded())))
            return align(cue, index: index, samples: UnsafeBufferPointer(rebasing: samples[from..<to]), at: Double(from) / rate, aligner: aligner)
        }
        return judge(aligned)
    }

    /// The stretch of audio (media seconds) searched for a cue's words: its time and the margin either side.
    public func window(of cue: CaptionedSpeech) -> (start: Double, end: Double) {
        (max(0, cue.start - margin), cue.end + margin)
    }

    /// The first pass, for one cue (`index` in the cues checked): its words forced onto `samples`, the audio of its
    /// `window` (which starts at media time `time`). Its fit is scored; whether that fit is good enough is `judge`'s.
    public func align(_ cue: CaptionedSpeech, index: Int, samples: UnsafeBufferPointer<Float>, at time: Double, aligner: WordAligner) -> CueAccuracy {
        let words = SpokenWords.of(cue.text)
        if cue.text.contains("♪") { return .unverifiable(index, .sung) }
        if words.isEmpty { return .unverifiable(index, .describesSound) }
        let unknown = words.filter { !aligner.knows($0) }
        if !unknown.isEmpty { return .unverifiable(index, .unknownWords(unknown)) }
        let seconds = cue.end - cue.start
        if seconds > longestCue { return .unverifiable(index, .tooLong(longestCue)) }
        // Speech runs at about three words a second; more than eight (at least twenty words) is not speech to align.
        if Double(words.count) > max(20, 8 * seconds) { return .unverifiable(index, .tooManyWords(words.count, seconds: seconds)) }
        guard samples.count >= WordAligner.sampleRate / 10, let alignment = aligner.align(samples, words: words) else {
            return .unverifiable(index, .noAudio)
        }
        var result = CueAccuracy.unverifiable(index, .noAudio)
        result.reason = nil
        result.contrast = Self.contrast(samples)
        result.words = Self.shifted(alignment.words, by: time)
        if alignment.completed {
            result.status = .matched
            result.score = Self.worstThird(alignment.words)
            result.overallScore = alignment.scorePerFrame
        } else if words.count >= Self.fewestToSplit, let (missing, partial) = Self.withoutOneWord(words, samples: samples, aligner: aligner) {
            // The words cannot all be fitted, but all the others can: that one is not said there (if the others fit as
            // well as the programme's cues do: `judge`).
            result.status = .wordsUnmatched
            result.unmatched = [words[missing]]
            result.score = Self.worstThird(partial.words)
            result.overallScore = partial.scorePerFrame
            result.words = Self.shifted(partial.words, by: time)
        } else {
            result.status = .wrongText
        }
        return result
    }

    /// The second pass, over every cue aligned: each fit against the programme's — the median and the median absolute
    /// deviation of the fits — and the cues far below it marked wrong text. Fewer than five fits: no calibration, only
    /// the searches that could not end are wrong.
    public func judge(_ aligned: [CueAccuracy]) -> [CueAccuracy] {
        var results = aligned
        let fitted = results.filter { $0.status == .matched }
        guard let worst = Calibration(fitted.compactMap(\.score)), let overall = Calibration(fitted.compactMap(\.overallScore)) else {
            // Nothing to judge the rest of a cue by: a cue whose words cannot all be fitted is wrong.
            return results.map { result in
                guard result.status == .wordsUnmatched else { return result }
                var wrong = result
                wrong.status = .wrongText
                wrong.unmatched = []
                wrong.words = []
                return wrong
            }
        }
        for i in results.indices {
            guard let score = results[i].score, let whole = results[i].overallScore else { continue }
            let deviation = worst.deviation(of: score)
            results[i].deviation = deviation
            // Wrong text fits badly in its worst words and as a whole; right text under a burst of noise, only in part.
            // A cue with a word not said must fit as well as the programme's cues without it.
            let unmatchedRestFitsBadly = results[i].status == .wordsUnmatched && deviation < -spreads
            if unmatchedRestFitsBadly || (deviation < -spreads && overall.deviation(of: whole) < -spreads) {
                results[i].status = .wrongText
                results[i].unmatched = []
            }
        }
        // A cue flagged whose bad fit is in a few words only (each far below the programme's words), the rest fitting as
        // the programme's cues do: those words are not said there, the rest is.
        if let words = Calibration(results.filter { $0.status == .matched }.flatMap { $0.words.map(\.scorePerFrame) }) {
            // (A cue whose worst words fit badly while the whole still fits — by a spread more than wrong text's — is
            // looked at too: one word not said.)
            for i in results.indices
            where (results[i].status == .wrongText && (results[i].deviation ?? 0) < -spreads)
                || (results[i].status == .matched && (results[i].deviation ?? 0) < -(spreads + 1))
            {
                let cueWords = results[i].words
                let bad = cueWords.filter { words.deviation(of: $0.scorePerFrame) < -wordSpreads }
                let good = cueWords.filter { words.deviation(of: $0.scorePerFrame) >= -wordSpreads }
                guard cueWords.count >= Self.fewestToSplit, !bad.isEmpty, bad.count <= Self.fewUnmatched(of: cueWords.count),
                    let rest = Self.worstThird(good), worst.deviation(of: rest) >= -spreads
                else { continue }
                results[i].status = .wordsUnmatched
                results[i].unmatched = bad.map(\.word)
            }
        }
        // Each word's confidence: the share of the programme's fitted words that fit worse.
        let ranked = results.filter { $0.status == .matched }.flatMap { $0.words.map(\.scorePerFrame) }.sorted()
        if !ranked.isEmpty {
            for i in results.indices {
                for k in results[i].words.indices {
                    let score = results[i].words[k].scorePerFrame
                    results[i].words[k].confidence = Double(Self.countBelow(score, in: ranked)) / Double(ranked.count)
                }
            }
        }
        // Wrong text's words are not the words said: no times for them.
        for i in results.indices where results[i].status == .wrongText { results[i].words = [] }
        // Under music or noise that loud, neither a good fit nor a bad one can be trusted: not verified.
        for i in results.indices where results[i].status != .unverifiable {
            guard let contrast = results[i].contrast, contrast < leastContrast else { continue }
            results[i].status = .unverifiable
            results[i].reason = .musicTooLoud(contrast)
        }
        return results
    }

    /// A programme's fit: the median of its cues' scores and their spread (the median absolute deviation, scaled to a
    /// standard deviation; at least 2% of the median). Nil for fewer than five scores.
    struct Calibration {
        let median: Double
        let spread: Double

        init?(_ scores: [Double]) {
            guard scores.count >= 5 else { return nil }
            let sorted = scores.sorted()
            let middle = sorted[sorted.count / 2]
            median = middle
            spread = max(1.4826 * sorted.map { abs($0 - middle) }.sorted()[sorted.count / 2], 0.02 * abs(middle), 1e-12)
        }

        func deviation(of score: Double) -> Double { (score - median) / spread }
    }

    /// The first word of `words` (from the middle out, at most a dozen tried) without which the rest can be fitted to
    /// `samples`, and that fit.
    static func withoutOneWord(_ words: [String], samples: UnsafeBufferPointer<Float>, aligner: WordAligner) -> (Int, WordAlignment)? {
        let middle = words.count / 2
        let order = (0..<words.count).sorted { abs($0 - middle) < abs($1 - middle) }.prefix(12)
        for missing in order {
            var rest = words
            rest.remove(at: missing)
            if let alignment = aligner.align(samples, words: rest), alignment.completed { return (missing, alignment) }
        }
        return nil
    }

    /// `words` moved `seconds` later (from the start of a cue's window to media time).
    static func shifted(_ words: [AlignedWord], by seconds: Double) -> [AlignedWord] {
        words.map { word in
            var word = word
            word.start += seconds
            word.end += seconds
            return word
        }
    }

    /// The cues whose words do not read as the model's language (its dictionary's), and the share of all the cues'
    /// words the dictionary has (nil for fewer than twenty words). A cue: fewer than half its words in the dictionary,
    /// or — for English — another language's function words and none of English's (`SpokenWords.readAsEnglish`).
    public static func otherLanguage(_ cues: [CaptionedSpeech], aligner: WordAligner) -> (cues: Set<Int>, knownShare: Double?) {
        let cueWords = cues.map { SpokenWords.of($0.text) }
        var known = 0, total = 0
        var other = Set<Int>()
        for (index, words) in cueWords.enumerated() {
            let inDictionary = words.filter { aligner.knows($0) }.count
            (known, total) = (known + inDictionary, total + words.count)
            if words.count >= 3, inDictionary * 2 < words.count {
                other.insert(index)
            } else if aligner.model.language == "en", SpokenWords.readAsEnglish(words) == false {
                other.insert(index)
            }
        }
        return (other, total >= 20 ? Double(known) / Double(total) : nil)
    }

    /// How many of `sorted` are below `value` (a binary search).
    static func countBelow(_ value: Double, in sorted: [Double]) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Cues of fewer words are wrong or right as a whole: a few of their words are most of them.
    static let fewestToSplit = 5

    /// The most words of a cue of `count` that may be missing for the rest to be right: a quarter (at least one).
    static func fewUnmatched(of count: Int) -> Int { max(1, count / 4) }

    /// The 80th minus the 20th percentile of the 20-ms levels of `samples`, in dB (nil for less than half a second).
    static func contrast(_ samples: UnsafeBufferPointer<Float>) -> Double? {
        let frame = WordAligner.sampleRate / 50
        guard samples.count >= frame * 25 else { return nil }
        var levels: [Double] = []
        levels.reserveCapacity(samples.count / frame)
        var start = 0
        while start + frame <= samples.count {
            var energy: Float = 0
            for k in start..<(start + frame) { energy += samples[k] * samples[k] }
            levels.append(10 * log10(Double(energy / Float(frame)) + 1e-10))
            start += frame
        }
        levels.sort()
        return levels[levels.count * 4 / 5] - levels[levels.count / 5]
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
