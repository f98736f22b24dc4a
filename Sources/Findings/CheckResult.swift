import Basics

/// One check of one file: what `check`, `flash`, `sync`, `lint` and `autoplay` print per file (docs/cli.md).
public struct CheckResult: Sendable, Encodable {
    /// The path as given.
    public var file: String
    /// The check it comes from.
    public var check: CheckKind
    public var verdict: Verdict
    /// The findings held in memory (empty when they are `streamedFindings`).
    public var findings: [Finding]
    public var metrics: JSONValue
    /// Findings made again each time they are written, instead of held (a result with millions of them); the
    /// report writers read findings through `forEachFinding` and the counts below, which see either kind.
    public var streamedFindings: StreamedFindings?
    /// How long the check took, in seconds of wall-clock time, when it was measured (JUnit's `time`). Not part of
    /// the JSON report nor of stored results: it changes from run to run.
    public var seconds: Double?

    private enum CodingKeys: String, CodingKey { case file, check, verdict, findings, metrics }

    public init(file: String, check: CheckKind, verdict: Verdict? = nil, findings: [Finding], metrics: JSONValue = .object([])) {
        self.file = file
        self.check = check
        self.verdict = verdict ?? Verdict(findings: findings)
        self.findings = findings
        self.metrics = metrics
    }

    /// A result whose findings are streamed: its verdict comes from their counts.
    public init(file: String, check: CheckKind, streaming findings: StreamedFindings, metrics: JSONValue = .object([])) {
        self.file = file
        self.check = check
        verdict = findings.errorCount > 0 ? .fail : findings.warningCount > 0 ? .warn : .pass
        self.findings = []
        self.metrics = metrics
        streamedFindings = findings
    }

    /// `body`'s result, with the seconds it took.
    public static func timed(_ body: () throws -> CheckResult) rethrows -> CheckResult {
        let clock = ContinuousClock()
        let start = clock.now
        var result = try body()
        result.seconds = (clock.now - start).inSeconds
        return result
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

extension CheckResult {
    /// Adds `finding`, saying what was not seen, and makes a verdict that is not a failure `unverified` (a failure
    /// found in what was seen still fails).
    public mutating func markUnverified(_ finding: Finding) {
        findings.append(finding)
        if verdict != .fail { verdict = .unverified }
    }

    /// The result for a file `check` could not read: verdict `error`, one `media.unreadable` finding saying why.
    public static func unreadable(file: String, check: CheckKind, reason: String, rule: Rule = .mediaUnreadable) -> CheckResult {
        CheckResult(file: file, check: check, verdict: .error, findings: [rule.finding(severity: .error, message: reason)])
    }
}

extension Duration {
    /// The duration in seconds.
    public var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
