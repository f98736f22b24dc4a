import Basics

/// One thing a check found, the same for every check: a stable rule id, a severity, a message a person can
/// act on, where in the media it is, the guidelines behind it, and data for tools.
public struct Finding: Sendable, Encodable {
    /// Namespaced and stable, e.g. `flash.general`, `sync.offset`, `lint.reading-speed`.
    public var rule: String
    public var severity: Severity
    public var message: String
    /// Seconds on the media (or caption) timeline; nil when not timed.
    public var start: Double?
    public var end: Double?
    /// The line in the checked file (a caption file's cue), when the finding is about one; 1-based. For `sync`, the
    /// line of the cue in the caption source the result names (its metrics' `captions`).
    public var line: Int?
    /// e.g. `WCAG 2.3.1`, `KWCAG 3.3`.
    public var guidelines: [String]
    public var data: JSONValue

    /// A finding under the rule with id `ruleID`. Checks make findings from their `Rule`s (`rule.finding(…)`);
    /// this is for findings read back from JSON, and for tests.
    public init(
        ruleID: String, severity: Severity, message: String, start: Double? = nil, end: Double? = nil,
        line: Int? = nil, guidelines: [String] = [], data: JSONValue = .object([])
    ) {
        self.rule = ruleID
        self.severity = severity
        self.message = message
        self.start = start
        self.end = end
        self.line = line
        self.guidelines = guidelines
        self.data = data
    }
}
