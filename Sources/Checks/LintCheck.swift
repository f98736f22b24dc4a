import Basics
import CaptionQuality
import Captions
import Findings
import Foundation

/// Caption quality of one caption file as a check result: the linter's issues as findings.
public struct LintCheck: Sendable {
    public var linter: CaptionLinter

    public init(linter: CaptionLinter = CaptionLinter()) { self.linter = linter }

    /// Lints `document`, read from `path`.
    public func run(_ document: CaptionDocument, path: String) -> CheckResult {
        let findings = linter.lint(document)
        var counts: [String: Int] = [:]
        for finding in findings { counts[finding.rule, default: 0] += 1 }
        return CheckResult(file: path, findings: findings, metrics: metrics(document, counts: counts))
    }

    /// Lints `document` keeping at most `limit` findings of each severity (the first ones; the verdict is the same as
    /// with them all, and the metrics count them all), then one saying how many more there were: what a library check
    /// stores and reports of a file with a million findings, in memory for the document and a window's findings.
    public func run(_ document: CaptionDocument, path: String, keepingAtMost limit: Int) -> CheckResult {
        let windows = linter.windows(of: document)
        var counts: [String: Int] = [:]
        var kept: [Finding] = []
        var keptBySeverity: [Severity: Int] = [:]
        var dropped: [Severity: Int] = [:]
        for index in 0..<windows.count {
            for finding in windows.findings(in: index) {
                counts[finding.rule, default: 0] += 1
                if keptBySeverity[finding.severity, default: 0] < limit {
                    keptBySeverity[finding.severity, default: 0] += 1
                    kept.append(finding)
                } else {
                    dropped[finding.severity, default: 0] += 1
                }
            }
        }
        let total = dropped.values.reduce(0, +)
        if total > 0 {
            // How many of each severity were left out, for the summary line's counts.
            let data = JSONValue.object(
                [Severity.error, .warning, .info].map { (key: $0.rawValue, value: JSONValue.integer(Int64(dropped[$0] ?? 0))) })
            kept.append(
                Rule.checkFindingsLimit.finding(
                    severity: .info,
                    message:
                        "\(total) more finding\(total == 1 ? "" : "s") not listed (the first \(limit) of each severity are kept; medialint lint lists them all)",
                    data: data))
        }
        return CheckResult(file: path, findings: kept, metrics: metrics(document, counts: counts))
    }

    /// Lints `document` into a result whose findings are made again, a window of cues at a time, each time they are
    /// written: the same report as `run`, with memory for the document and one window's findings, whatever their
    /// number. (A first pass counts them for the verdict and what reports state before them.)
    public func runStreaming(_ document: CaptionDocument, path: String) -> CheckResult {
        let windows = linter.windows(of: document)
        var counts: [String: Int] = [:]
        var rules: [String] = []
        var total = 0, errors = 0, warnings = 0
        var first: Finding?, firstError: Finding?
        for index in 0..<windows.count {
            for finding in windows.findings(in: index) {
                total += 1
                if counts[finding.rule] == nil { rules.append(finding.rule) }
                counts[finding.rule, default: 0] += 1
                if first == nil { first = finding }
                switch finding.severity {
                case .error:
                    errors += 1
                    if firstError == nil { firstError = finding }
                case .warning: warnings += 1
                case .info: break
                }
            }
        }
        let findings = StreamedFindings(
            count: total, errorCount: errors, warningCount: warnings, first: first, firstError: firstError,
            rules: rules, windows: windows.count
        ) { index in windows.findings(in: index) }
        return CheckResult(file: path, streaming: findings, metrics: metrics(document, counts: counts))
    }

    private func metrics(_ document: CaptionDocument, counts: [String: Int]) -> LintMetrics {
        LintMetrics(
            cues: document.cues.count, format: document.format.rawValue, encoding: document.encoding, profile: linter.profile.name,
            fps: linter.framesPerSecond, findingsByRule: counts)
    }
}
