import Basics

/// The metrics of an `accuracy` result: how many cues were checked and what each one's words were found to be.
public struct AccuracyMetrics: CheckMetrics, Equatable {
    public static let check = CheckKind.accuracy

    /// One word of a cue, where it was found (media seconds), and how well it fits: the share of the programme's words
    /// that fit worse (0–1).
    public struct Word: Codable, Sendable, Equatable {
        public var word: String
        public var start: Double
        public var end: Double
        public var confidence: Double?

        public init(word: String, start: Double, end: Double, confidence: Double?) {
            self.word = word
            self.start = NumberText.rounded(start)
            self.end = NumberText.rounded(end)
            self.confidence = confidence.map { NumberText.rounded($0) }
        }
    }

    /// One cue: its number in the file (1-based), its times in the media (after the sync fit), what was found, how far
    /// its fit is from the programme's (in robust spreads; nil when not scored) and its words.
    public struct CueWords: Codable, Sendable, Equatable {
        public var cue: Int
        public var start: Double
        public var end: Double
        /// `matched`, `wrong-text`, `words-unmatched`, `off-time` or `unverifiable`.
        public var status: String
        public var deviation: Double?
        /// Seconds from the cue's start to its first word's (`off-time`).
        public var offset: Double?
        public var words: [Word]

        public init(cue: Int, start: Double, end: Double, status: String, deviation: Double?, offset: Double? = nil, words: [Word]) {
            self.cue = cue
            self.start = NumberText.rounded(start)
            self.end = NumberText.rounded(end)
            self.status = status
            self.deviation = deviation.map { ($0 * 100).rounded() / 100 }
            self.offset = offset.map { NumberText.rounded($0) }
            self.words = words
        }
    }

    /// The caption source checked (a file, or a track: `#2`).
    public var captions: String
    /// The language of the acoustic model (BCP 47).
    public var language: String
    /// The cues of the file; those checked (their words scored); those whose words are wrong; those that could not be.
    public var cues: Int
    public var checked: Int
    public var wrongText: Int
    /// Cues most of whose words were found, some not.
    public var wordsUnmatched: Int
    /// Cues whose words were found far from their time.
    public var offTime: Int
    public var unverifiable: Int
    /// How much better the cues' own text fits their speech than other cues' text fits it: the chance a cue's fit is
    /// the better (1: always; 0.5: no better than chance; nil: too few fitted to tell).
    public var separation: Double?
    /// The seconds added to the cues' times to put them on the speech before their words were looked for (the sync fit
    /// at the first cue; 0 when the timing was not verified).
    public var timingShift: Double
    /// Per cue, its words.
    public var cueWords: [CueWords]

    public init(
        captions: String, language: String, cues: Int, checked: Int, wrongText: Int, wordsUnmatched: Int, offTime: Int = 0, unverifiable: Int,
        separation: Double? = nil, timingShift: Double, cueWords: [CueWords]
    ) {
        self.captions = captions
        self.language = language
        self.cues = cues
        self.checked = checked
        self.wrongText = wrongText
        self.wordsUnmatched = wordsUnmatched
        self.offTime = offTime
        self.unverifiable = unverifiable
        self.separation = separation.map { ($0 * 1000).rounded() / 1000 }
        self.timingShift = NumberText.rounded(timingShift)
        self.cueWords = cueWords
    }
}
