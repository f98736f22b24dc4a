import Basics

/// The metrics of an `autoplay` result for a media file on its own (`autoplay --media`): seconds to the millisecond.
public struct AutoplayMediaMetrics: CheckMetrics, Equatable {
    public static let check = CheckKind.autoplay

    public var duration: Double
    public var hasAudio: Bool
    /// Seconds of audible sound in all.
    public var audibleSeconds: Double
    /// When sound is first heard (none: never).
    public var firstAudible: Double?
    /// When the last sound ends.
    public var lastAudible: Double?

    public init(duration: Double, hasAudio: Bool, audibleSeconds: Double, firstAudible: Double? = nil, lastAudible: Double? = nil) {
        self.duration = NumberText.rounded(duration)
        self.hasAudio = hasAudio
        self.audibleSeconds = NumberText.rounded(audibleSeconds)
        self.firstAudible = firstAudible.map(NumberText.rounded)
        self.lastAudible = lastAudible.map(NumberText.rounded)
    }
}
