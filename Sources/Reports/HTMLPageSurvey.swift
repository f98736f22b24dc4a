import Findings

/// What the HTML page says before its files' sections, found in one pass over the results, a file at a time: each
/// file's row (verdicts, finding count, rules) and the page's counts (by verdict, by rule, by folder). Nothing else of a
/// result is kept, so a catalogue's page is written holding one batch of results at a time.
struct HTMLPageSurvey {
    /// A file's row in the files' table.
    struct File {
        var path: String
        /// Its most serious check's verdict.
        var verdict: Verdict
        var checks: [(check: CheckKind, verdict: Verdict)]
        var findings: Int
        /// The rules of its findings, sorted, once each.
        var rules: [String]

        /// Whether it has something to say below the table: findings, or a verdict other than pass.
        var remarkable: Bool { findings > 0 || checks.contains { $0.verdict != .pass } }
    }

    /// A rule's findings by severity, and in how many files.
    struct RuleCount {
        var errors = 0, warnings = 0, notes = 0, files = 0
    }

    /// The files, in the order of the source's units.
    private(set) var files: [File] = []
    /// The results (a file has one per check) by verdict.
    private(set) var results = ResultTally()
    private(set) var rules: [String: RuleCount] = [:]

    /// The survey of `source`, whose units are files.
    init<Source: ResultSource>(_ source: Source) throws(Source.Failure) {
        try source.read(nil) { _, results in add(results) }
    }

    /// Adds a file's results.
    mutating func add(_ results: [CheckResult]) {
        var findings = 0
        var fileRules = Set<String>(), found = Set<String>()
        for result in results {
            self.results.add(result)
            findings += result.findingCount
            fileRules.formUnion(result.findingRules)
            for rule in result.findingRules where rules[rule] == nil { rules[rule] = RuleCount() }
            for finding in result.allFindings {
                switch finding.severity {
                case .error: rules[finding.rule]!.errors += 1
                case .warning: rules[finding.rule]!.warnings += 1
                case .info: rules[finding.rule]!.notes += 1
                }
                found.insert(finding.rule)
            }
        }
        for rule in found { rules[rule]!.files += 1 }
        files.append(
            File(
                path: results.first?.file ?? "", verdict: HTMLReport.overall(results.map(\.verdict)), checks: results.map { ($0.check, $0.verdict) },
                findings: findings, rules: fileRules.sorted()))
    }

    /// The files' positions, the worst first (error, fail, warn, unverified, pass), in their order within each verdict.
    var worstFirst: [Int] {
        let rank = files.map { HTMLReport.verdictsWorstFirst.firstIndex(of: $0.verdict)! }
        return files.indices.sorted { (rank[$0], $0) < (rank[$1], $1) }
    }

    /// The rules found, most errors first.
    var rulesByErrors: [String] {
        rules.sorted { ($1.value.errors, $0.key) < ($0.value.errors, $1.key) }.map(\.key)
    }

    /// The rules found, most errors first, then most warnings, then most notes.
    var rulesBySeverity: [(id: String, count: RuleCount)] {
        rules.sorted {
            ($1.value.errors, $1.value.warnings, $1.value.notes, $0.key) < ($0.value.errors, $0.value.warnings, $0.value.notes, $1.key)
        }.map { ($0.key, $0.value) }
    }

    /// The verdicts files have, the worst first.
    var fileVerdicts: [Verdict] {
        HTMLReport.verdictsWorstFirst.filter { verdict in files.contains { $0.verdict == verdict } }
    }
}
