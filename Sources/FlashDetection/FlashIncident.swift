/// A span of the media in which a flash rule fails.
public struct FlashIncident: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// General (luminance) flashing.
        case general
        /// Red flashing.
        case red
        /// 4–6 transitions a second held for 4 of 5 seconds: a warning, not a failure.
        case extended
        /// A regular pattern (stripes, checkerboard, rings, rays) over enough area for at least half a second.
        case pattern
    }

    public var kind: Kind
    /// First and last transition of the failing windows, in seconds.
    public var start: Double
    public var end: Double
    /// The most flashes counted in one second of the span.
    public var peakFlashesPerSecond: Double
    /// The largest flashing area at once: fraction of the frame and of the worst 10° field (0–1).
    public var peakFrameArea: Double
    public var peakFieldArea: Double
    /// Transitions counted in the span.
    public var transitions: Int
    /// For a pattern: its light–dark pairs, shape, and whether it moved, oscillated, flashed or reversed.
    public var pattern: PatternDetails? = nil
}

/// What a regular pattern was like.
public struct PatternDetails: Sendable, Equatable {
    /// The most light–dark pairs counted along one line.
    public var pairs: Int
    public var kind: PatternKind
    /// True when the pattern moved, oscillated, flashed or reversed (more harmful than a still one).
    public var changing: Bool

    public init(pairs: Int, kind: PatternKind, changing: Bool) {
        self.pairs = pairs
        self.kind = kind
        self.changing = changing
    }
}

/// What one frame showed, for people who plot or cross-check (`--frames-csv`).
public struct FrameMeasurement: Sendable, Equatable {
    public var time: Double
    /// Mean relative luminance of the frame (0–1).
    public var meanLuminance: Double
    /// The largest area transitioning in this frame — one way, or both ways at once (a reversal) — as a
    /// fraction of the frame and of the worst 10° field.
    public var flashingFrameArea: Double
    public var flashingFieldArea: Double
    /// General and red transitions counted in the second up to this frame.
    public var transitionsInLastSecond: Int
    public var redTransitionsInLastSecond: Int
}

/// The outcome of analysing a whole video.
public struct FlashReport: Sendable, Equatable {
    public var configuration: FlashConfiguration
    public var framesAnalysed: Int
    /// First and last frame time, in seconds.
    public var firstFrameTime: Double
    public var lastFrameTime: Double
    /// The frame rate measured from the timestamps (mean frame interval over the first few thousand frames).
    public var measuredFPS: Double
    public var incidents: [FlashIncident]
    /// The most general and red flashes counted in any one second.
    public var maxFlashesPerSecond: Double
    public var maxRedFlashesPerSecond: Double

    /// The most flashes per second the video can show (one flash takes two frames).
    public var samplingLimit: Double { measuredFPS / 2 }

    /// True when some incident fails (extended-risk incidents only warn; still patterns unless the profile fails
    /// them, `stillPatternsFail`).
    public var fails: Bool {
        incidents.contains {
            $0.kind == .general || $0.kind == .red || $0.pattern?.changing == true || ($0.kind == .pattern && configuration.stillPatternsFail)
        }
    }
}
