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
        var issues = linter.lint(document)
        var counts: [String: Int] = [:]
        for issue in issues { counts[issue.rule, default: 0] += 1 }
        let findings = Self.findings(consuming: &issues)
        return CheckResult(file: path, check: "lint", findings: findings, metrics: metrics(document, counts: counts))
    }

    /// Lints `document` into a result whose findings are made again, a window of cues at a time, each time they are
    /// written: the same report as `run`, with memory for the document and one window's findings, whatever their
    /// number. (A first pass counts them for the verdict and what reports state before them.)
    public func runStreaming(_ document: CaptionDocument, path: String) -> CheckResult {
        let windows = linter.windows(of: document)
        var counts: [String: Int] = [:]
        var rules: [String] = []
        var total = 0, errors = 0, warnings = 0
        var first: QualityIssue?, firstError: QualityIssue?
        for index in 0..<windows.count {
            for issue in windows.issues(in: index) {
                total += 1
                if counts[issue.rule] == nil { rules.append(issue.rule) }
                counts[issue.rule, default: 0] += 1
                if first == nil { first = issue }
                switch issue.severity {
                case .error:
                    errors += 1
                    if firstError == nil { firstError = issue }
                case .warning: warnings += 1
                case .info: break
                }
            }
        }
        let findings = StreamedFindings(count: total, errorCount: errors, warningCount: warnings, first: first.map { Self.finding($0) },
                                        firstError: firstError.map { Self.finding($0) }, rules: rules, windows: windows.count) { index in
            var issues = windows.issues(in: index)
            return Self.findings(consuming: &issues)
        }
        return CheckResult(file: path, check: "lint", streaming: findings, metrics: metrics(document, counts: counts))
    }

    private func metrics(_ document: CaptionDocument, counts: [String: Int]) -> JSONValue {
        .object([
            ("cues", .integer(Int64(document.cues.count))),
            ("format", .string(document.format.rawValue)),
            ("encoding", .string(document.encoding)),
            ("profile", .string(linter.profile.name)),
            ("fps", .number(linter.framesPerSecond)),
            ("findingsByRule", .object(counts.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) })),
        ])
    }

    /// The issues as findings, in order (many issues: in slices on all cores). Each issue's text is let go as its
    /// finding is made, and `issues` is left empty: a million issues and their findings are never all held twice.
    static func findings(consuming issues: inout [QualityIssue]) -> [Finding] {
        let count = issues.count
        let slices = count >= 20_000 ? max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8)) : 1
        // One guideline array per guideline, shared by every finding that cites it.
        var guidelines: [String: [String]] = [:]
        for issue in issues where !issue.guideline.isEmpty && guidelines[issue.guideline] == nil { guidelines[issue.guideline] = [issue.guideline] }
        let shared = guidelines
        let findings = issues.withUnsafeMutableBufferPointer { source in
            let input = UnsafeSendable(source)
            return [Finding](unsafeUninitializedCapacity: count) { buffer, initialized in
                let output = UnsafeSendable(buffer)
                DispatchQueue.concurrentPerform(iterations: slices) { slice in
                    for index in (count * slice / slices)..<(count * (slice + 1) / slices) {
                        let issue = input.value.baseAddress! + index
                        (output.value.baseAddress! + index).initialize(to: finding(issue.pointee, guidelines: shared))
                        issue.pointee.message = ""
                        issue.pointee.cueIdentifier = ""
                    }
                }
                initialized = count
            }
        }
        issues = []
        return findings
    }

    static func finding(_ issue: QualityIssue, guidelines: [String: [String]] = [:]) -> Finding {
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
                           line: issue.line > 0 ? issue.line : nil,
                           guidelines: issue.guideline.isEmpty ? [] : guidelines[issue.guideline] ?? [issue.guideline],
                           data: .object(data))
    }
}
