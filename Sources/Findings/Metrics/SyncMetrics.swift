import Basics

/// The metrics of a `sync` result: the caption source, then what the alignment found (each part present once the
/// check got that far: media read, audio found, cues fitted).
public struct SyncMetrics: CheckMetrics, Equatable {
    public static let check = CheckKind.sync

    /// The caption source: its file, or `track N` of the media.
    public var captions: String
    /// Seconds, to the millisecond.
    public var mediaDuration: Double?
    public var audioStream: Int?
    /// How sure the fit is, 0–1 to a hundredth.
    public var confidence: Double?
    public var matchedCues: Int?
    /// The speech detector's noise floor, dB to a tenth.
    public var noiseFloorDecibels: Double?
    /// How late the captions are (negative: early), seconds to the millisecond.
    public var offsetSeconds: Double?
    /// Caption time over media time, to a millionth.
    public var driftRatio: Double?
    /// The share of speech under a caption, to a thousandth.
    public var speechCoverage: Double?
    /// The share of caption time over speech, to a thousandth.
    public var captionCoverage: Double?
    public var dialogueCues: Int?
    /// The share of dialogue cues starting on time once fitted, to a thousandth.
    public var onTimeFraction: Double?
    /// Each dialogue cue against the speech.
    public var cues: [Cue]?
    /// Speech and caption cover over the media, for charts.
    public var timeline: Timeline?
    /// The timing edit `--fix` applies.
    public var fix: Fix?

    public init(captions: String, mediaDuration: Double? = nil) {
        self.captions = captions
        self.mediaDuration = mediaDuration.map(NumberText.rounded)
    }

    /// What the best fit found: how sure it is, how many cues it paired with speech, the detector's noise floor.
    public mutating func setFit(confidence: Double, matchedCues: Int, noiseFloorDecibels: Double) {
        self.confidence = NumberText.rounded(confidence, places: 2)
        self.matchedCues = matchedCues
        self.noiseFloorDecibels = NumberText.rounded(noiseFloorDecibels, places: 1)
    }

    /// The timing the fit measured.
    public mutating func setTiming(offset: Double, drift: Double, speechCoverage: Double, captionCoverage: Double, onTimeFraction: Double) {
        offsetSeconds = NumberText.rounded(offset)
        driftRatio = NumberText.rounded(drift, places: 6)
        self.speechCoverage = NumberText.rounded(speechCoverage)
        self.captionCoverage = NumberText.rounded(captionCoverage)
        self.onTimeFraction = NumberText.rounded(onTimeFraction)
    }

    /// One dialogue cue: its number and start, how far its start is from the speech onset it was paired with once
    /// fitted (null: none within reach), and how much of its fitted time has speech.
    public struct Cue: Codable, Sendable, Equatable {
        public var cue: Int
        public var start: Double
        public var residual: Double?
        public var speech: Double

        public init(cue: Int, start: Double, residual: Double?, speech: Double) {
            self.cue = cue
            self.start = NumberText.rounded(start)
            self.residual = residual.map(NumberText.rounded)
            self.speech = NumberText.rounded(speech, places: 2)
        }

        /// `residual` is written as null when there is none (a cue paired with no onset), not left out.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(cue, forKey: .cue)
            try container.encode(start, forKey: .start)
            try container.encode(residual, forKey: .residual)
            try container.encode(speech, forKey: .speech)
        }
    }

    /// Per time bin of `bin` seconds: the share of it with speech and with a caption (0–1, to a hundredth).
    public struct Timeline: Codable, Sendable, Equatable {
        public var bin: Double
        public var speech: [Double]
        public var captions: [Double]

        public init(bin: Double, speech: [Double], captions: [Double]) {
            self.bin = bin
            self.speech = speech.map { min(1, NumberText.rounded($0, places: 2)) }
            self.captions = captions.map { min(1, NumberText.rounded($0, places: 2)) }
        }
    }

    /// Media time = caption time × `scale` + `offset`; where the offset changes part-way, `parts` gives each
    /// part's offset from the caption time it starts at (the first part's is `offset`).
    public struct Fix: Codable, Sendable, Equatable {
        public var offset: Double
        public var scale: Double
        public var parts: [Part]?

        public init(offset: Double, scale: Double, parts: [Part]? = nil) {
            self.offset = NumberText.rounded(offset)
            self.scale = NumberText.rounded(scale, places: 6)
            self.parts = parts
        }

        /// A part of the captions: from caption time `from` (seconds), media time = caption time × scale + `offset`.
        public struct Part: Codable, Sendable, Equatable {
            public var from: Double
            public var offset: Double

            public init(from: Double, offset: Double) {
                self.from = NumberText.rounded(from)
                self.offset = NumberText.rounded(offset)
            }
        }
    }
}
