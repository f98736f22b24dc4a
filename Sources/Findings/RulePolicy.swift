/// What a team's settings say of rules, applied to results after the checks: rules turned off, and severities
/// changed. A rule is named by its id (`lint.line-length`) or a prefix of ids (`lint`, `captions.`); of several
/// severities that name a rule, the longest name wins.
public struct RulePolicy: Sendable, Equatable {
    /// Ids or prefixes of the rules whose findings are left out.
    public var disabled: [String]
    /// Severities by rule id or prefix.
    public var severities: [String: Severity]

    public init(disabled: [String] = [], severities: [String: Severity] = [:]) {
        self.disabled = disabled
        self.severities = severities
    }

    public var isEmpty: Bool { disabled.isEmpty && severities.isEmpty }

    /// Whether `name` (an id, or a prefix with or without its final dot) names `rule`.
    public static func names(_ name: String, _ rule: String) -> Bool {
        if name == rule { return true }
        let prefix = name.hasSuffix(".") ? name : name + "."
        return rule.hasPrefix(prefix)
    }

    public func isDisabled(_ rule: String) -> Bool { disabled.contains { Self.names($0, rule) } }

    /// The severity the settings give `rule`, if they give one.
    public func severity(of rule: String) -> Severity? {
        severities.filter { Self.names($0.key, rule) }.max { $0.key.count < $1.key.count }?.value
    }

    /// `result` with the policy applied to its findings. Its verdict follows the findings left when the check took
    /// its verdict from its findings (pass, warn, fail by the worst severity); a verdict the check decided otherwise
    /// (a file it could not read, timing it could not verify) stays. Results of more than `CheckResult.heldLimit`
    /// findings (made on demand, a window at a time) are left as they are.
    public func apply(_ result: CheckResult) -> CheckResult {
        guard !isEmpty, result.verdict != .error else { return result }
        let result = result.held()
        guard result.streamedFindings == nil, !result.findings.isEmpty else { return result }
        return result.keeping(
            result.findings.compactMap { finding in
                guard !isDisabled(finding.rule) else { return nil }
                var finding = finding
                if let severity = severity(of: finding.rule) { finding.severity = severity }
                return finding
            })
    }
}

/// Known findings a team accepts for now (`--baseline FILE`): each found again — the same file, rule and fingerprint
/// (`Finding.fingerprint`, which a line moving does not change) — is left out of the results, as often as the
/// baseline holds it. New findings stay.
public struct Baseline: Sendable, Equatable {
    /// One known finding.
    public struct Entry: Hashable, Sendable, Codable {
        public var file: String
        public var rule: String
        public var fingerprint: String

        public init(file: String, rule: String, fingerprint: String) {
            self.file = file
            self.rule = rule
            self.fingerprint = fingerprint
        }
    }

    /// How many times each entry is known.
    public private(set) var counts: [Entry: Int] = [:]

    /// The files the baseline names.
    private let files: Set<String>

    public init(_ entries: [Entry] = []) {
        for entry in entries { counts[entry, default: 0] += 1 }
        files = Set(entries.map(\.file))
    }

    public var entries: [Entry] {
        counts.keys.sorted { ($0.file, $0.rule, $0.fingerprint) < ($1.file, $1.rule, $1.fingerprint) }.flatMap { Array(repeating: $0, count: counts[$0]!) }
    }

    /// The entries of `results`' findings, files named by `name` (as the baseline names them: relative paths).
    public static func entries(of results: [CheckResult], name: (String) -> String) -> [Entry] {
        results.flatMap { result -> [Entry] in
            guard result.verdict != .error else { return [] }
            let file = name(result.file)
            var entries: [Entry] = []
            for finding in result.allFindings { entries.append(Entry(file: file, rule: finding.rule, fingerprint: finding.fingerprint(file: file))) }
            return entries
        }
    }

    /// `result` without the findings the baseline knows (each known one used up once), its verdict following the
    /// findings left as `RulePolicy.apply` does; and how many were left out. `name` names the file as the baseline does.
    public mutating func filter(_ result: CheckResult, name: (String) -> String) -> (result: CheckResult, known: Int) {
        filter(result, names: { [name($0)] })
    }

    /// `filter(_:name:)` where the baseline may name the file in more than one way (`names`, the likeliest first): the
    /// first name under which the baseline knows the file is taken.
    public mutating func filter(_ result: CheckResult, names: (String) -> [String]) -> (result: CheckResult, known: Int) {
        guard !counts.isEmpty, result.verdict != .error else { return (result, 0) }
        let result = result.held()
        guard result.streamedFindings == nil, !result.findings.isEmpty else { return (result, 0) }
        let candidates = names(result.file)
        let file = candidates.first { files.contains($0) } ?? candidates.first ?? result.file
        var known = 0
        let left = result.findings.filter { finding in
            let entry = Entry(file: file, rule: finding.rule, fingerprint: finding.fingerprint(file: file))
            guard let count = counts[entry], count > 0 else { return true }
            counts[entry] = count - 1
            known += 1
            return false
        }
        return (known > 0 ? result.keeping(left) : result, known)
    }

}

extension CheckResult {
    /// The result with only `findings` (some of its own, perhaps changed): its verdict follows them when the check took
    /// its verdict from its findings (pass, warn, fail by the worst severity); a verdict decided otherwise stays.
    func keeping(_ findings: [Finding]) -> CheckResult {
        var changed = self
        changed.findings = findings
        if verdict == Verdict(findings: self.findings) { changed.verdict = Verdict(findings: findings) }
        return changed
    }

    /// The most findings a result made on demand is turned into held findings for (a policy or baseline to filter).
    public static let heldLimit = 200_000

    /// The result with its findings held in memory, when they are made on demand and number at most `heldLimit`.
    public func held() -> CheckResult {
        guard let streamed = streamedFindings, streamed.count <= Self.heldLimit else { return self }
        var held = self
        held.findings = (0..<streamed.windows).flatMap { streamed.window($0) }
        held.streamedFindings = nil
        return held
    }
}
