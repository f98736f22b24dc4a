/// The metrics of an `autoplay` result for an HTML page.
public struct AutoplayPageMetrics: CheckMetrics, Equatable {
    public static let check = CheckKind.autoplay

    /// The media elements that ask to play by themselves.
    public var elements: Int
    /// The profile judged by (`wcag`, `kwcag`).
    public var profile: String

    public init(elements: Int, profile: String) {
        self.elements = elements
        self.profile = profile
    }
}
