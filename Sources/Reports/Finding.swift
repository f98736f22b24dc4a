/// How serious a finding is.
public enum Severity: String, Sendable, Codable, Comparable {
    case error, warning, info

    private var rank: Int { self == .error ? 2 : self == .warning ? 1 : 0 }
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

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
    /// The line in the checked file (a caption file's cue), when the finding is about one; 1-based.
    public var line: Int?
    /// e.g. `WCAG 2.3.1`, `KWCAG 3.3`.
    public var guidelines: [String]
    public var data: JSONValue

    public init(rule: String, severity: Severity, message: String, start: Double? = nil, end: Double? = nil,
                line: Int? = nil, guidelines: [String] = [], data: JSONValue = .object([])) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.start = start
        self.end = end
        self.line = line
        self.guidelines = guidelines
        self.data = data
    }
}

/// The outcome of a check.
public enum Verdict: String, Sendable, Encodable {
    /// Nothing at error or warning severity.
    case pass
    /// Only warnings.
    case warn
    /// At least one finding at error severity.
    case fail
    /// Could not be judged without something out of reach.
    case unverified
    /// The input could not be read.
    case error

    /// The verdict findings lead to.
    public init(findings: [Finding]) {
        if findings.contains(where: { $0.severity == .error }) {
            self = .fail
        } else if findings.contains(where: { $0.severity == .warning }) {
            self = .warn
        } else {
            self = .pass
        }
    }
}

/// One check of one file: what `check`, `flash`, `sync`, `lint` and `autoplay` print per file (cli.md).
public struct CheckResult: Sendable, Encodable {
    /// The path as given.
    public var file: String
    /// `flash`, `sync`, `lint`, `autoplay`, `captions`, `media`.
    public var check: String
    public var verdict: Verdict
    /// The findings held in memory (empty when they are `streamedFindings`).
    public var findings: [Finding]
    public var metrics: JSONValue
    /// Findings made again each time they are written, instead of held (a result with millions of them); the
    /// report writers read findings through `forEachFinding` and the counts below, which see either kind.
    public var streamedFindings: StreamedFindings?

    private enum CodingKeys: String, CodingKey { case file, check, verdict, findings, metrics }

    public init(file: String, check: String, verdict: Verdict? = nil, findings: [Finding], metrics: JSONValue = .object([])) {
        self.file = file
        self.check = check
        self.verdict = verdict ?? Verdict(findings: findings)
        self.findings = findings
        self.metrics = metrics
    }

    /// A result whose findings are streamed: its verdict comes from their counts.
    public init(file: String, check: String, streaming findings: StreamedFindings, metrics: JSONValue = .object([])) {
        self.file = file
        self.check = check
        verdict = findings.errorCount > 0 ? .fail : findings.warningCount > 0 ? .warn : .pass
        self.findings = []
        self.metrics = metrics
        streamedFindings = findings
    }

    /// The findings come in windows (one for held findings): `findings(inWindow:)` for each of `findingWindows`, in
    /// order, gives them all.
    public var findingWindows: Int { streamedFindings?.windows ?? 1 }

    public func findings(inWindow window: Int) -> [Finding] {
        streamedFindings?.window(window) ?? findings
    }

    public var findingCount: Int { streamedFindings?.count ?? findings.count }
    public var errorCount: Int { streamedFindings?.errorCount ?? findings.reduce(0) { $0 + ($1.severity == .error ? 1 : 0) } }
    public var warningCount: Int { streamedFindings?.warningCount ?? findings.reduce(0) { $0 + ($1.severity == .warning ? 1 : 0) } }
    public var firstFinding: Finding? { streamedFindings.map(\.first) ?? findings.first }
    public var firstError: Finding? { streamedFindings.map(\.firstError) ?? findings.first { $0.severity == .error } }

    /// The rules of the findings, each once, in the order they first appear.
    public var findingRules: [String] {
        if let streamedFindings { return streamedFindings.rules }
        var seen = Set<String>()
        return findings.compactMap { seen.insert($0.rule).inserted ? $0.rule : nil }
    }
}

/// Every finding of a result, held or streamed, fetched a window at a time as the iteration goes.
public struct FindingSequence: Sequence {
    let result: CheckResult

    public struct Iterator: IteratorProtocol {
        let result: CheckResult
        var window = 0
        var current: [Finding] = []
        var index = 0

        public mutating func next() -> Finding? {
            while index >= current.count {
                guard window < result.findingWindows else { return nil }
                current = result.findings(inWindow: window)
                window += 1
                index = 0
            }
            defer { index += 1 }
            return current[index]
        }
    }

    public func makeIterator() -> Iterator { Iterator(result: result) }
}

extension CheckResult {
    /// Every finding, held or streamed (what report writers iterate).
    public var allFindings: FindingSequence { FindingSequence(result: self) }
}

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
    public init(count: Int, errorCount: Int, warningCount: Int, first: Finding?, firstError: Finding?, rules: [String],
                windows: Int, produce: @escaping @Sendable (Int) -> [Finding]) {
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

/// The envelope of JSON reports: `{"tool", "version", "results"}`.
public struct CheckReport: Sendable, Encodable {
    public var tool = ToolInfo.name
    public var version = ToolInfo.version
    public var results: [CheckResult]

    public init(results: [CheckResult]) { self.results = results }
}

// MARK: - JSON

// Results are written straight into a `JSONWriter`: the same bytes their `Encodable` conformances give through
// `JSONValueEncoder` (keys in declaration order, nil left out), without building the document first.

extension Finding {
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("rule"); writer.string(rule)
        writer.key("severity"); writer.string(severity.rawValue)
        writer.key("message"); writer.string(message)
        if let start { writer.key("start"); writer.number(start) }
        if let end { writer.key("end"); writer.number(end) }
        if let line { writer.key("line"); writer.integer(line) }
        writer.key("guidelines")
        writer.beginArray()
        for guideline in guidelines { writer.string(guideline) }
        writer.endArray()
        writer.key("data"); writer.value(data)
        writer.endObject()
    }
}

extension CheckResult {
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("file"); writer.string(file)
        writer.key("check"); writer.string(check)
        writer.key("verdict"); writer.string(verdict.rawValue)
        writer.key("findings")
        writer.beginArray()
        for finding in allFindings { finding.write(to: &writer) }
        writer.endArray()
        writer.key("metrics"); writer.value(metrics)
        writer.endObject()
    }

    /// Results as a JSON array (what the results store keeps).
    public static func json(_ results: [CheckResult]) -> String {
        var writer = JSONWriter()
        writer.beginArray()
        for result in results { result.write(to: &writer) }
        writer.endArray()
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }
}

extension CheckReport {
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("tool"); writer.string(tool)
        writer.key("version"); writer.string(version)
        writer.key("results")
        writer.beginArray()
        for result in results { result.write(to: &writer) }
        writer.endArray()
        writer.endObject()
    }
}
