import Basics

/// The metrics of a `flash` result.
public struct FlashMetrics: CheckMetrics, Equatable {
    public static let check = CheckKind.flash

    public var framesAnalysed: Int
    /// Frames a second, to the millisecond.
    public var fps: Double
    /// The most flashes in any second, general or red.
    public var maxFlashesPerSecond: Double
    public var maxGeneralFlashesPerSecond: Double
    public var maxRedFlashesPerSecond: Double
    /// The profile judged by (`wcag`, `itu`, `kwcag` …).
    public var standard: String
    /// The most flashes allowed in any second (the profile's, or the settings').
    public var flashLimit: Double?
    /// The most flashes a second the frame rate can show (half of it), to the millisecond.
    public var samplingLimit: Double
    /// What area a flash must cover (`viewport`, `screen` …).
    public var areaBasis: String
    public var hdr: Bool
    /// Luminance and flashes a second over time, for charts.
    public var series: Series?

    public init(
        framesAnalysed: Int, fps: Double, maxGeneralFlashesPerSecond: Double, maxRedFlashesPerSecond: Double, standard: String,
        areaBasis: String, hdr: Bool, flashLimit: Double? = nil, series: Series? = nil
    ) {
        self.framesAnalysed = framesAnalysed
        self.fps = NumberText.rounded(fps)
        maxFlashesPerSecond = max(maxGeneralFlashesPerSecond, maxRedFlashesPerSecond)
        self.maxGeneralFlashesPerSecond = maxGeneralFlashesPerSecond
        self.maxRedFlashesPerSecond = maxRedFlashesPerSecond
        self.standard = standard
        self.flashLimit = flashLimit.map { NumberText.rounded($0) }
        samplingLimit = NumberText.rounded(fps / 2)
        self.areaBasis = areaBasis
        self.hdr = hdr
        self.series = series
    }

    /// Per time bin of `bin` seconds: the mean relative luminance (to the millisecond), the darkest and brightest
    /// frame's (the range flashing swings through, which a mean hides), and the most flashes a second (to a tenth).
    /// Results stored before the range was kept have none.
    public struct Series: Codable, Sendable, Equatable {
        public var bin: Double
        public var luminance: [Double]
        public var luminanceMin: [Double]?
        public var luminanceMax: [Double]?
        public var flashesPerSecond: [Double]

        public init(bin: Double, luminance: [Double], flashesPerSecond: [Double], luminanceMin: [Double]? = nil, luminanceMax: [Double]? = nil) {
            self.bin = bin
            self.luminance = luminance.map(NumberText.rounded)
            self.luminanceMin = luminanceMin?.map(NumberText.rounded)
            self.luminanceMax = luminanceMax?.map(NumberText.rounded)
            self.flashesPerSecond = flashesPerSecond.map { NumberText.rounded($0, places: 1) }
        }
    }
}
