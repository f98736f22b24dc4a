import Basics

/// One rule a check applies: what every finding names in its `rule` field, described once, in the catalogue
/// `medialint rules` prints (its JSON is this type's, members in declaration order).
public struct Rule: Sendable, Hashable, Identifiable, Encodable {
    /// Namespaced and stable: `flash.general`, `sync.offset`, `lint.reading-speed`.
    public let id: String
    /// A few words: what is wrong when the rule finds something.
    public let title: String
    /// What the rule checks and how, in a sentence or two.
    public let description: String
    /// The severity of its findings unless a finding says otherwise (thresholds and profiles can raise or lower it).
    public let defaultSeverity: Severity
    /// The guidelines behind the rule (`WCAG 2.3.1`, `KWCAG 3.3`, `Netflix TTSG` …); a finding cites those that
    /// apply to it.
    public let guidelines: [String]
    /// The public source of the rule: the W3C "Understanding" page of a success criterion, a standard, a style guide.
    public let helpURL: String

    public init(
        _ id: String, title: String, description: String, guidelines: [String] = [], helpURL: String,
        defaultSeverity: Severity
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.guidelines = guidelines
        self.helpURL = helpURL
        self.defaultSeverity = defaultSeverity
    }

    public static func == (lhs: Rule, rhs: Rule) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension Rule {
    /// A finding of this rule. `severity` defaults to the rule's, `guidelines` to all of the rule's.
    public func finding(
        severity: Severity? = nil, message: String, start: Double? = nil, end: Double? = nil,
        line: Int? = nil, guidelines: [String]? = nil, data: JSONValue = .object([])
    ) -> Finding {
        Finding(
            ruleID: id, severity: severity ?? defaultSeverity, message: message, start: start, end: end, line: line,
            guidelines: guidelines ?? self.guidelines, data: data)
    }
}

/// The rule every check shares.
extension Rule {
    /// The input could not be read: missing, not a regular file, empty, truncated or corrupt, or with no stream
    /// this FFmpeg can decode.
    public static let mediaUnreadable = Rule(
        "media.unreadable", title: "input that cannot be read",
        description:
            "The file is missing, not a regular file, empty, truncated or corrupt, or has nothing this FFmpeg can decode: it could not be checked, so it neither passes nor fails (its result is an error: exit status 1; a path named on the command line that does not exist, 2).",
        helpURL: RuleSource.ffmpegFormats, defaultSeverity: .error)
}
