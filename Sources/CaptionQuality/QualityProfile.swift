/// The numbers caption quality is judged by. Each named profile follows one house style guide; every number
/// can be changed (nil: the rule is off).
public struct QualityProfile: Sendable, Equatable {
    public var name: String
    /// The style guide the numbers come from, named in every finding they cause.
    public var guideline: String
    /// Most characters on one line.
    public var maxCharactersPerLine: Int?
    /// Most lines in one cue.
    public var maxLines: Int?
    /// Shortest and longest time a cue may stay on screen, in seconds.
    public var minDuration: Double?
    public var maxDuration: Double?
    /// Reading speed: most characters a second (spaces and punctuation included, line breaks not).
    public var maxCharactersPerSecond: Double?
    /// Reading speed in words a minute: above `maxWordsPerMinute` a warning, above `hardMaxWordsPerMinute` an error.
    public var maxWordsPerMinute: Double?
    public var hardMaxWordsPerMinute: Double?
    /// Shortest gap between consecutive cues, in frames (0 = touching is fine, so is no rule).
    public var minGapFrames: Double?

    public init(
        name: String, guideline: String, maxCharactersPerLine: Int? = nil, maxLines: Int? = nil,
        minDuration: Double? = nil, maxDuration: Double? = nil, maxCharactersPerSecond: Double? = nil,
        maxWordsPerMinute: Double? = nil, hardMaxWordsPerMinute: Double? = nil, minGapFrames: Double? = nil
    ) {
        self.name = name
        self.guideline = guideline
        self.maxCharactersPerLine = maxCharactersPerLine
        self.maxLines = maxLines
        self.minDuration = minDuration
        self.maxDuration = maxDuration
        self.maxCharactersPerSecond = maxCharactersPerSecond
        self.maxWordsPerMinute = maxWordsPerMinute
        self.hardMaxWordsPerMinute = hardMaxWordsPerMinute
        self.minGapFrames = minGapFrames
    }

    /// Netflix Timed Text Style Guide (English): 42 characters a line, 2 lines, 5/6 s to 7 s, 20 characters a
    /// second for adult programmes, 2 frames between cues.
    public static let netflix = QualityProfile(
        name: "netflix", guideline: "Netflix TTSG", maxCharactersPerLine: 42, maxLines: 2,
        minDuration: 5.0 / 6, maxDuration: 7, maxCharactersPerSecond: 20, minGapFrames: 2)
    /// BBC Subtitle Guidelines: 37 characters a line (68% of a 16:9 picture), 2 lines, 160–180 words a minute.
    public static let bbc = QualityProfile(
        name: "bbc", guideline: "BBC Subtitle Guidelines", maxCharactersPerLine: 37, maxLines: 2,
        maxWordsPerMinute: 180)
    /// DCMP Captioning Key: 32 characters a line, 2 lines, at least 2 s, 120–160 words a minute (225 at most).
    public static let dcmp = QualityProfile(
        name: "dcmp", guideline: "DCMP Captioning Key", maxCharactersPerLine: 32, maxLines: 2,
        minDuration: 2, maxWordsPerMinute: 160, hardMaxWordsPerMinute: 225)

    public static let all = [netflix, bbc, dcmp]
    public static var names: [String] { all.map(\.name) }

    /// The profile called `name`, if any.
    public static func named(_ name: String) -> QualityProfile? { all.first { $0.name == name.lowercased() } }
}
