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
        /// The words are what is said, but far from the cue's time (`offset`): the cue shows before or after them.
        case offTime = "off-time"
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
    /// Why the cue could not be verified (`unverifiable`), or why its text is wrong without a search (`wrongText`: more
    /// words than its time holds).
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
    /// Seconds from the cue's start to its first word's (`offTime`: beyond the tolerance either way).
    public var offset: Double?
    /// The cue whose words these are (`wrongText`, when found in a wider search where that cue's words are said).
    public var wordsOf: Int?

    /// A cue not verified, for `reason`.
    public static func unverifiable(_ cue: Int, _ reason: Unverified) -> CueAccuracy {
        CueAccuracy(cue: cue, status: .unverifiable, reason: reason, words: [], score: nil, overallScore: nil, contrast: nil, deviation: nil)
    }
}

/// How a programme's exact scores stand to its screening ones (`SearchPrecision`), per frame: the median differences
/// of the worst third's scores and of the whole's, over cues searched both ways.
public struct ScreeningShift: Sendable, Equatable {
    public var worst: Double
    public var overall: Double
}

extension CueAccuracy {
    /// This exact search's scores on the screening scale: less `shift` (the worst third's, and the whole's and each
    /// word's), so that they are judged with the screened cues.
    public func onScreeningScale(_ shift: ScreeningShift) -> CueAccuracy {
        var moved = self
        moved.score = score.map { $0 - shift.worst }
        moved.overallScore = overallScore.map { $0 - shift.overall }
        moved.words = words.map { word in
            var word = word
            word.scorePerFrame -= shift.overall
            return word
        }
        return moved
    }
}

/// What checking a programme's captions found: each cue, and whether the captions as a whole are what is said.
public struct ProgrammeAccuracy: Sendable, Equatable {
    /// Per cue checked, in their order.
    public var cues: [CueAccuracy]
    /// How much better the cues' own text fits their speech than other cues' text fits it: the chance that a cue's
    /// fit is better than a decoy's (1: always; 0.5: no better than chance). Nil when too few were fitted to tell.
    public var separation: Double?
    /// The captions as a whole are not what is said (`separation` below the check's least): every cue checked is
    /// wrong text.
    public var mismatched = false

    public init(cues: [CueAccuracy], separation: Double? = nil, mismatched: Bool = false) {
        self.cues = cues
        self.separation = separation
        self.mismatched = mismatched
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
    /// Captions whose cues fit their speech better than decoys (other cues' text in the same windows) less often than
    /// this are not what is said as a whole. Measured: right captions 0.9 and more, another programme's about 0.5.
    public var leastSeparation = 0.7
    /// How many cues (spread through the programme) get a decoy fitted to their window.
    public var decoys = 40
    /// Seconds before and after a cue searched again for the words not found in its window.
    public var relocationMargin = 3.0
    /// A matched cue with a word more than `wordSpreads` below the programme's words is searched again without each
    /// word in turn (`lookWordByWord`); a word is not said when the rest fits at least this share better per frame
    /// without it. Measured: an added word's cue 30% better without it; right cues at most 9% (most worse).
    public var leastWordGain = 0.2
    /// The most cues searched again (those judged wrong text, from the first).
    public var mostRelocated = 100
    /// Programmes of at least this many cues are screened: the first pass searches at `.screening` precision, and the
    /// cues it does not find clearly right are searched again exactly (`rechecks`), with forty more to put the two on
    /// one scale — which pays only over a few hundred cues.
    public var leastCuesToScreen = 200
    /// A screened cue is searched again exactly unless it matched with its worst words no more than this many spreads
    /// below the programme's.
    public var recheckSpreads = 1.0
    /// A cue shown more than this (seconds) before its first word is said is off time (`offTime`)…
    public var earlyTolerance = 1.0
    /// …and one shown more than this after it.
    public var lateTolerance = 0.5

    public init() {}

    /// Checks `cues` against `samples` (16 kHz mono, from media time 0): `align` each (and a decoy's text in some of
    /// their windows), `judge` them together, then search again wider for the cues judged wrong text (`place`).
    public func check(_ cues: [CaptionedSpeech], samples: UnsafeBufferPointer<Float>, aligner: WordAligner) -> ProgrammeAccuracy {
        let rate = Double(WordAligner.sampleRate)
        func audio(_ window: (start: Double, end: Double)) -> (samples: UnsafeBufferPointer<Float>, time: Double) {
            let from = min(samples.count, max(0, Int((window.start * rate).rounded())))
            let to = min(samples.count, max(from, Int((window.end * rate).rounded())))
            return (UnsafeBufferPointer(rebasing: samples[from..<to]), Double(from) / rate)
        }
        let precision = firstPassPrecision(cueCount: cues.count)
        var aligned: [CueAccuracy] = []
        var decoys: [Double] = []
        for (index, cue) in cues.enumerated() {
            let (window, time) = audio(window(of: cue))
            aligned.append(align(cue, index: index, samples: window, at: time, aligner: aligner, precision: precision))
            if let decoy = decoy(for: index, in: cues),
                let fit = decoyFit(cues[decoy].text, samples: window, in: aligned[index], aligner: aligner, precision: precision)
            {
                decoys.append(fit)
            }
        }
        var shift: ScreeningShift?
        if precision == .screening {
            var exact: [Int: CueAccuracy] = [:]
            for index in rechecks(aligned, decoys: decoys, cues: cues) {
                let (window, time) = audio(window(of: cues[index]))
                exact[index] = align(cues[index], index: index, samples: window, at: time, aligner: aligner)
            }
            (aligned, shift) = rescored(aligned, exact: exact, cues: cues)
        }
        let judged = judge(aligned, decoys: decoys)
        var relocated: [Int: [CueAccuracy]] = [:]
        for (index, stretch) in relocationWindows(judged, cues: cues) {
            let (window, time) = audio(stretch)
            let found = align(cues[index], index: index, samples: window, at: time, aligner: aligner)
            relocated[index, default: []].append(shift.map { found.onScreeningScale($0) } ?? found)
        }
        let placed = place(judged, cues: cues, relocated: relocated)
        var looked: [Int: CueAccuracy?] = [:]
        for index in wordLooks(placed, phones: aligner.phoneCount) {
            let (window, time) = audio(window(of: cues[index]))
            looked[index] = lookWordByWord(cues[index], judged: placed.cues[index], samples: window, at: time, aligner: aligner, shift: shift)
        }
        return withWordLooks(placed, looked: looked)
    }

    /// The cues matched (where `place` left them), of `fewestToSplit` words or more, with a word squeezed: far below
    /// the programme's words (more than `wordSpreads`), and of three phones or more (`phones`: a word's count) fitted
    /// in at most four frames a phone (three is the least) — the audio an added word took from it. Each to be looked
    /// at word by word (`lookWordByWord`), last. (Short words — "a", "the" — fit far below in right captions too.)
    public func wordLooks(_ judged: ProgrammeAccuracy, phones: (String) -> Int?) -> [Int] {
        guard !judged.mismatched,
            let words = Calibration(judged.cues.filter { $0.status == .matched }.flatMap { $0.words.map(\.scorePerFrame) })
        else { return [] }
        func squeezed(_ word: AlignedWord) -> Bool {
            guard words.deviation(of: word.scorePerFrame) < -wordSpreads, let count = phones(word.word), count >= 3 else { return false }
            return ((word.end - word.start) * WordAligner.framesPerSecond).rounded() <= Double(4 * count)
        }
        return judged.cues.filter { cue in
            cue.status == .matched && cue.words.count >= Self.fewestToSplit && cue.words.contains(where: squeezed)
        }.map(\.cue)
    }

    /// A cue of `wordLooks` (`judged`: as judged) searched again on `samples`, its window (from media time `time`),
    /// without each word in turn: `wordsUnmatched` with the word left out when the rest fits `leastWordGain` better per
    /// frame without it (an added word takes its neighbour's audio and squeezes it), else nil. `shift`: the screening
    /// scale, when the programme was screened.
    public func lookWordByWord(
        _ cue: CaptionedSpeech, judged: CueAccuracy, samples: UnsafeBufferPointer<Float>, at time: Double, aligner: WordAligner,
        shift: ScreeningShift?
    ) -> CueAccuracy? {
        let words = SpokenWords.of(cue.text)
        guard let overall = judged.overallScore, let (missing, partial) = Self.withoutOneWord(words, samples: samples, aligner: aligner, precision: .exact)
        else { return nil }
        let exactOverall = overall + (shift?.overall ?? 0)
        guard exactOverall < 0, partial.scorePerFrame > exactOverall * (1 - leastWordGain) else { return nil }
        var found = judged
        found.status = .wordsUnmatched
        found.unmatched = [words[missing]]
        found.score = Self.worstThird(partial.words)
        found.overallScore = partial.scorePerFrame
        found.words = Self.shifted(partial.words, by: time)
        return shift.map { found.onScreeningScale($0) } ?? found
    }

    /// `judged` with the cues `looked` at word by word that have a word not said put in their place (their words'
    /// confidence against the programme's).
    public func withWordLooks(_ judged: ProgrammeAccuracy, looked: [Int: CueAccuracy?]) -> ProgrammeAccuracy {
        var result = judged
        let ranked = Self.rankedWordScores(judged.cues)
        for (index, found) in looked {
            guard let found, index < result.cues.count else { continue }
            result.cues[index] = found
            result.cues[index].words = Self.withConfidence(found.words, ranked: ranked)
        }
        return result
    }

    /// How closely the first pass searches a programme of `cueCount` cues.
    public func firstPassPrecision(cueCount: Int) -> SearchPrecision {
        cueCount >= leastCuesToScreen ? .screening : .exact
    }

    /// After a screening first pass (`first`, and the `decoys` fitted in it): the cues to search again exactly. Those
    /// not clearly right (not matched, or matched with the worst words more than `recheckSpreads` below the
    /// programme's) and, to measure how exact scores stand to screening ones, the matched cues that had a decoy (spread
    /// through the programme). None when the captions as a whole are not what is said: the decoys decide that.
    public func rechecks(_ first: [CueAccuracy], decoys: [Double], cues: [CaptionedSpeech]) -> [Int] {
        let judged = judge(first, decoys: decoys)
        guard !judged.mismatched else { return [] }
        return judged.cues.filter { cue in
            guard cue.status != .unverifiable else { return false }
            let doubtful = cue.status != .matched || (cue.deviation ?? 0) < -recheckSpreads
            return doubtful || (first[cue.cue].status == .matched && decoy(for: cue.cue, in: cues) != nil)
        }.map(\.cue)
    }

    /// The first pass's results with the cues searched again (`exact`, by cue) put in their place, their scores on the
    /// screening search's scale: less the median difference between the two searches' scores of the cues that had a
    /// decoy and matched both ways (nil when fewer than eight did: then every screened score is left as it was).
    public func rescored(_ first: [CueAccuracy], exact: [Int: CueAccuracy], cues: [CaptionedSpeech]) -> ([CueAccuracy], ScreeningShift?) {
        let pairs = exact.compactMap { index, found -> (worst: Double, overall: Double)? in
            guard decoy(for: index, in: cues) != nil, first[index].status == .matched, found.status == .matched,
                let screenedWorst = first[index].score, let screenedOverall = first[index].overallScore, let worst = found.score,
                let overall = found.overallScore
            else { return nil }
            return (worst - screenedWorst, overall - screenedOverall)
        }
        guard pairs.count >= 8 else { return (first, nil) }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let shift = ScreeningShift(worst: median(pairs.map(\.worst)), overall: median(pairs.map(\.overall)))
        var results = first
        for (index, found) in exact { results[index] = found.onScreeningScale(shift) }
        return (results, shift)
    }

    /// The stretch of audio (media seconds) searched for a cue's words: its time and the margin either side.
    public func window(of cue: CaptionedSpeech) -> (start: Double, end: Double) {
        (max(0, cue.start - margin), cue.end + margin)
    }

    /// The first pass, for one cue (`index` in the cues checked): its words forced onto `samples`, the audio of its
    /// `window` (which starts at media time `time`). Its fit is scored; whether that fit is good enough is `judge`'s.
    public func align(
        _ cue: CaptionedSpeech, index: Int, samples: UnsafeBufferPointer<Float>, at time: Double, aligner: WordAligner,
        precision: SearchPrecision = .exact
    ) -> CueAccuracy {
        let words = SpokenWords.of(cue.text)
        if cue.text.contains("♪") { return .unverifiable(index, .sung) }
        if words.isEmpty { return .unverifiable(index, .describesSound) }
        let unknown = words.filter { !aligner.knows($0) }
        if !unknown.isEmpty { return .unverifiable(index, .unknownWords(unknown)) }
        let seconds = cue.end - cue.start
        if seconds > longestCue { return .unverifiable(index, .tooLong(longestCue)) }
        // Speech runs at about three words a second; more than eight (at least twenty words) cannot be what is said in
        // the cue's time: wrong text, not searched (the reason says why).
        if Double(words.count) > max(20, 8 * seconds) {
            var wrong = CueAccuracy.unverifiable(index, .tooManyWords(words.count, seconds: seconds))
            wrong.status = .wrongText
            return wrong
        }
        guard samples.count >= WordAligner.sampleRate / 10, let alignment = aligner.align(samples, words: words, precision: precision) else {
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
        } else if words.count >= Self.fewestToSplit,
            let (missing, partial) = Self.withoutOneWord(words, samples: samples, aligner: aligner, precision: precision)
        {
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
    /// the searches that could not end are wrong. `decoys` are the fits of other cues' text in some cues' windows
    /// (`decoyFit`): when the cues' own text fits no better than that, the captions as a whole are not what is said.
    public func judge(_ aligned: [CueAccuracy], decoys: [Double] = []) -> ProgrammeAccuracy {
        let separation = Self.separation(own: aligned.filter { ($0.contrast ?? .infinity) >= leastContrast }, decoys: decoys)
        var judged = ProgrammeAccuracy(cues: judgeEach(aligned), separation: separation)
        // Captions whose text fits its speech no better than other cues' text does are another programme's, or a
        // translation of speech in another language: every cue checked is wrong.
        if let separation, separation < leastSeparation {
            judged.mismatched = true
            for i in judged.cues.indices where judged.cues[i].status != .unverifiable {
                judged.cues[i].status = .wrongText
                judged.cues[i].words = []
                judged.cues[i].unmatched = []
            }
        }
        return judged
    }

    /// Each cue's fit against the programme's.
    func judgeEach(_ aligned: [CueAccuracy]) -> [CueAccuracy] {
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
            // Or its words fit far worse as a whole (a spread past wrong text's), the worst of them below the programme's
            // too: on a recorded voice, a short or common wrong text fits its worst words nearly as well as right
            // text, but leaves the rest of the speech to the silence model.
            let wholeFitsFarWorse = overall.deviation(of: whole) < -(spreads + 1) && deviation < -1
            if unmatchedRestFitsBadly || wholeFitsFarWorse || (deviation < -spreads && overall.deviation(of: whole) < -spreads) {
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
                || (results[i].status == .matched && (results[i].deviation ?? 0) < -spreads)
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
        let ranked = Self.rankedWordScores(results)
        for i in results.indices { results[i].words = Self.withConfidence(results[i].words, ranked: ranked) }
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

    /// The cue whose text is fitted to cue `index`'s window as a decoy (nil for most cues): for `decoys` cues spread
    /// through the programme, the cue half the programme away.
    public func decoy(for index: Int, in cues: [CaptionedSpeech]) -> Int? {
        guard cues.count >= 2, decoys > 0, index % max(1, cues.count / decoys) == 0 else { return nil }
        let other = (index + cues.count / 2) % cues.count
        return other == index || SpokenWords.of(cues[other].text) == SpokenWords.of(cues[index].text) ? nil : other
    }

    /// How well another cue's `text` fits `samples` (the window of `cue`, as `align` found it), as `align` scores a
    /// cue: its worst third's score, minus infinity when it cannot be fitted at all. Nil when it is not to be counted:
    /// no words the aligner knows, or audio under music or noise too loud (the window's contrast, as `cue` measured it
    /// when it was aligned).
    public func decoyFit(
        _ text: String, samples: UnsafeBufferPointer<Float>, in cue: CueAccuracy, aligner: WordAligner, precision: SearchPrecision = .exact
    ) -> Double? {
        let words = SpokenWords.of(text)
        guard !words.isEmpty, !text.contains("♪"), words.allSatisfy({ aligner.knows($0) }), samples.count >= WordAligner.sampleRate / 10,
            (cue.contrast ?? Self.contrast(samples) ?? .infinity) >= leastContrast,
            let alignment = aligner.align(samples, words: words, precision: precision)
        else { return nil }
        return alignment.completed ? Self.worstThird(alignment.words) ?? -.infinity : -.infinity
    }

    /// The chance that a cue's own fit (`align`'s: its worst third's score, minus infinity when its words could not all
    /// be fitted) is better than a decoy's, ties counting half. Nil for fewer than eight of either.
    static func separation(own aligned: [CueAccuracy], decoys: [Double]) -> Double? {
        let own = aligned.compactMap { cue -> Double? in
            switch cue.status {
            case .matched, .offTime: cue.score
            case .wrongText, .wordsUnmatched: -.infinity
            case .unverifiable: nil
            }
        }
        guard own.count >= 8, decoys.count >= 8 else { return nil }
        let sorted = decoys.sorted()
        var wins = 0.0
        for fit in own {
            let below = countBelow(fit, in: sorted)
            let equal = countBelow(fit.nextUp, in: sorted) - below
            wins += Double(below) + Double(equal) / 2
        }
        return wins / Double(own.count * sorted.count)
    }

    /// Where to look again for the words of the cues judged wrong text, with a word not said, or fitting doubtfully (a
    /// match whose worst words lie more than `spreads` below the programme's: words forced onto a neighbour's speech
    /// fit about that well) — at most `mostRelocated`, none when the captions as a whole are not what is said: the
    /// stretches within `relocationMargin` of each that no other matched cue's words fill — its own words, if said
    /// nearby, are in one of them — nearest first, at most three a cue. (Pauses under 0.3 s are left out: those are
    /// between one speaker's words.)
    public func relocationWindows(_ judged: ProgrammeAccuracy, cues: [CaptionedSpeech]) -> [(cue: Int, window: (start: Double, end: Double))] {
        guard !judged.mismatched else { return [] }
        let claimed = judged.cues.compactMap { cue in
            cue.status == .matched ? cue.words.first.map { (cue: cue.cue, start: $0.start, end: cue.words.last!.end) } : nil
        }.sorted { $0.start < $1.start }
        var windows: [(cue: Int, window: (start: Double, end: Double))] = []
        let searched = judged.cues.filter { $0.status == .wrongText || $0.status == .wordsUnmatched || isDoubtful($0) }
        for index in searched.map(\.cue).prefix(mostRelocated) where index < cues.count {
            let cue = cues[index]
            let range = (start: max(0, cue.start - relocationMargin), end: cue.end + relocationMargin)
            var free: [(start: Double, end: Double)] = []
            var from = range.start
            for (other, start, end) in claimed where other != index && end > range.start && start < range.end {
                if start - from >= 0.3 { free.append((from, start)) }
                from = max(from, end)
            }
            if range.end - from >= 0.3 { free.append((from, range.end)) }
            let nearest = free.sorted { Self.distance($0, cue) < Self.distance($1, cue) }.prefix(3)
            windows += nearest.map { (index, ($0.start, $0.end)) }
        }
        return windows
    }

    /// Whether a cue matched fits doubtfully: its worst words more than `spreads` below the programme's (`judge`'s
    /// deviation).
    func isDoubtful(_ cue: CueAccuracy) -> Bool { cue.status == .matched && (cue.deviation ?? 0) < -spreads }

    /// Seconds between a stretch and a cue's time (0 when they overlap).
    static func distance(_ stretch: (start: Double, end: Double), _ cue: CaptionedSpeech) -> Double {
        max(0, stretch.start - cue.end, cue.start - stretch.end)
    }

    /// The third pass. A cue judged wrong text (or doubtful: one that fits better there) whose words were fitted in one
    /// of its `relocationWindows` (`relocated`: what `align` found in each) as well as the programme's cues fit theirs is
    /// right text off its time; one whose
    /// words are a matched cue's near it says whose (`wordsOf`). Then every cue whose words start further from its
    /// start than the tolerances is `offTime`. (Cues that open with a description of sound are not called early: their
    /// words follow it.)
    public func place(_ judged: ProgrammeAccuracy, cues: [CaptionedSpeech], relocated: [Int: [CueAccuracy]]) -> ProgrammeAccuracy {
        var result = judged
        let fitted = judged.cues.filter { $0.status == .matched }
        if let worst = Calibration(fitted.compactMap(\.score)), let overall = Calibration(fitted.compactMap(\.overallScore)) {
            let ranked = Self.rankedWordScores(judged.cues)
            for (index, found) in relocated {
                // Words found away from the cue need a spread's less, of their worst and of the whole: the neighbours'
                // speech at the edges of a stretch costs the first and last words a little.
                let fits = found.filter { found in
                    guard found.status == .matched, let score = found.score, let whole = found.overallScore, let first = found.words.first,
                        index < cues.count
                    else { return false }
                    let away = isOffTime(first.start - cues[index].start, text: cues[index].text)
                    let allowed = away ? spreads + 1 : spreads
                    return (found.contrast ?? .infinity) >= leastContrast && worst.deviation(of: score) >= -allowed
                        && overall.deviation(of: whole) >= -allowed
                }
                // A doubtful match moves only to words that fit better than where it is.
                guard var best = fits.max(by: { $0.score! < $1.score! }),
                    !isDoubtful(judged.cues[index]) || best.score! > (judged.cues[index].score ?? -.infinity)
                else { continue }
                best.deviation = worst.deviation(of: best.score!)
                best.words = Self.withConfidence(best.words, ranked: ranked)
                result.cues[index] = best
            }
        }
        // Wrong text that is the text of a cue nearby whose words were found.
        for i in result.cues.indices where result.cues[i].status == .wrongText && i < cues.count {
            let words = SpokenWords.of(cues[i].text)
            let near = max(0, i - 3)...min(cues.count - 1, i + 3)
            result.cues[i].wordsOf = near.first { j in
                j != i && j < result.cues.count && result.cues[j].status == .matched && SpokenWords.of(cues[j].text) == words
            }
        }
        for i in result.cues.indices where result.cues[i].status == .matched {
            guard let first = result.cues[i].words.first, i < cues.count else { continue }
            let offset = first.start - cues[i].start
            if isOffTime(offset, text: cues[i].text) {
                result.cues[i].status = .offTime
                result.cues[i].offset = offset
            }
        }
        return result
    }

    /// Whether a cue with `text` whose first word starts `offset` seconds after it is off time.
    func isOffTime(_ offset: Double, text: String) -> Bool {
        let opensWithSound = text.drop { " -–\n".contains($0) }.first.map { "[(♪".contains($0) } ?? false
        return offset < -lateTolerance || (offset > earlyTolerance && !opensWithSound)
    }

    /// The scores of every word of the cues matched, in order.
    static func rankedWordScores(_ cues: [CueAccuracy]) -> [Double] {
        cues.filter { $0.status == .matched }.flatMap { $0.words.map(\.scorePerFrame) }.sorted()
    }

    /// `words` with their confidence: the share of the `ranked` word scores below each one's.
    static func withConfidence(_ words: [AlignedWord], ranked: [Double]) -> [AlignedWord] {
        guard !ranked.isEmpty else { return words }
        return words.map { word in
            var word = word
            word.confidence = Double(countBelow(word.scorePerFrame, in: ranked)) / Double(ranked.count)
            return word
        }
    }

    /// A programme's fit: the median of its cues' scores and their spread (the mean of the middle half of the absolute
    /// deviations from the median, scaled as the median absolute deviation is to a standard deviation; at least 2% of
    /// the median). Nil for fewer than five scores. (The median absolute deviation alone is one cue's distance, and moved
    /// by a sixth when noise 80 dB down nudged a few cues' fits; the middle half's mean moves with all of them.)
    struct Calibration {
        let median: Double
        let spread: Double

        init?(_ scores: [Double]) {
            guard scores.count >= 5 else { return nil }
            let sorted = scores.sorted()
            let middle = sorted[sorted.count / 2]
            median = middle
            let deviations = sorted.map { abs($0 - middle) }.sorted()
            let half = deviations[(deviations.count / 4)...(deviations.count * 3 / 4)]
            spread = max(1.4826 * half.reduce(0, +) / Double(half.count), 0.02 * abs(middle), 1e-12)
        }

        func deviation(of score: Double) -> Double { (score - median) / spread }
    }

    /// The word of `words` (from the middle out, at most a dozen looked at) without which the rest fits `samples` best,
    /// and that fit: every reading with one of them left out searched at once (one search, not one a word), nil when
    /// none can be fitted whole.
    static func withoutOneWord(
        _ words: [String], samples: UnsafeBufferPointer<Float>, aligner: WordAligner, precision: SearchPrecision
    ) -> (Int, WordAlignment)? {
        let middle = words.count / 2
        let order = (0..<words.count).sorted { abs($0 - middle) < abs($1 - middle) }.prefix(12)
        let readings = order.map { missing in
            var rest = words
            rest.remove(at: missing)
            return rest
        }
        guard let found = aligner.align(samples, anyOf: readings, precision: precision), let choice = found.choice, found.alignment.completed
        else { return nil }
        return (order[choice], found.alignment)
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
