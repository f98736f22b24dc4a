import CaptionQuality
import Dispatch
import Foundation
import Captions
import Reports

/// Caption quality of one caption file as a check result: the linter's issues as findings.
public struct LintCheck: Sendable {
    public var linter: CaptionLinter

    public init(linter: CaptionLinter) { self.linter = linter }

    /// Lints `document`, read from `path`.
    public func run(_ document: CaptionDocument, path: String) -> CheckResult {
        let issues = linter.lint(document)
        let findings = Self.findings(of: issues)
        var counts: [String: Int] = [:]
        for issue in issues { counts[issue.rule, default: 0] += 1 }
        let metrics = JSONValue.object([
            ("cues", .integer(Int64(document.cues.count))),
            ("format", .string(document.format.rawValue)),
            ("encoding", .string(document.encoding)),
            ("profile", .string(linter.profile.name)),
            ("fps", .number(linter.framesPerSecond)),
            ("findingsByRule", .object(counts.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) })),
        ])
        return CheckResult(file: path, check: "lint", findings: findings, metrics: metrics)
    }

    /// The issues as findings, in order (many issues: in slices on all cores).
    static func findings(of issues: [QualityIssue]) -> [Finding] {
        let slices = issues.count >= 20_000 ? max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8)) : 1
        guard slices > 1 else { return issues.map(finding) }
        return [Finding](unsafeUninitializedCapacity: issues.count) { buffer, initialized in
            let output = UnsafeSendable(buffer)
            DispatchQueue.concurrentPerform(iterations: slices) { slice in
                for index in (issues.count * slice / slices)..<(issues.count * (slice + 1) / slices) {
                    (output.value.baseAddress! + index).initialize(to: finding(issues[index]))
                }
            }
            initialized = issues.count
        }
    }

    static func finding(_ issue: QualityIssue) -> Finding {
        var data: [(String, JSONValue)] = []
            if issue.cue > 0 {
                data.append(("cue", .integer(Int64(issue.cue))))
                if !issue.cueIdentifier.isEmpty { data.append(("id", .string(issue.cueIdentifier))) }
            }
            if let measured = issue.measured { data.append(("measured", .number(CheckNumbers.rounded(measured)))) }
            if let limit = issue.limit { data.append(("limit", .number(CheckNumbers.rounded(limit)))) }
            let severity: Severity = switch issue.severity {
            case .error: .error
            case .warning: .warning
            case .info: .info
            }
            let place = issue.cue > 0 ? "cue \(issue.cue)" + (issue.cueIdentifier.isEmpty || issue.cueIdentifier == String(issue.cue) ? "" : " (\(issue.cueIdentifier))") + ": " : ""
            return Finding(rule: issue.rule, severity: severity, message: place + issue.message, start: issue.start, end: issue.end,
                           line: issue.line > 0 ? issue.line : nil, guidelines: issue.guideline.isEmpty ? [] : [issue.guideline],
                           data: .object(data))
    }
}
