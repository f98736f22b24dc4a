/// Findings made on demand, a window at a time, in the same order every time, with what reports need before them
/// known up front.
public final class StreamedFindings: Sendable {
    public let count: Int
    public let errorCount: Int
    public let warningCount: Int
    public let first: Finding?
    public let firstError: Finding?
    /// Each rule once, in the order it first appears.
    public let rules: [String]
    /// How many windows the findings come in.
    public let windows: Int
    private let produce: @Sendable (Int) -> [Finding]

    /// `produce(k)` gives the findings of window `k` (of `windows`); the figures must describe what they hold.
    public init(
        count: Int, errorCount: Int, warningCount: Int, first: Finding?, firstError: Finding?, rules: [String],
        windows: Int, produce: @escaping @Sendable (Int) -> [Finding]
    ) {
        self.count = count
        self.errorCount = errorCount
        self.warningCount = warningCount
        self.first = first
        self.firstError = firstError
        self.rules = rules
        self.windows = windows
        self.produce = produce
    }

    public func window(_ index: Int) -> [Finding] { produce(index) }
}
