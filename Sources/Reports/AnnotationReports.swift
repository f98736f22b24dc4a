import Basics
import Findings
import Foundation

extension CheckResult {
    /// The file a result's findings are in, and the media beside it: a sync or accuracy result's findings are about
    /// the caption file it checked (at its cues' lines), with the media it was checked against; the others', the file
    /// checked.
    var findingsLocation: (file: String, media: String?) {
        let captions: String? =
            switch check {
            case .sync: metrics(as: SyncMetrics.self)?.captions
            case .accuracy: metrics(as: AccuracyMetrics.self)?.captions
            default: nil
            }
        if let captions, !captions.hasPrefix("track "), !captions.isEmpty {
            return (captions, captions == file ? nil : file)
        }
        return (file, nil)
    }
}

/// The path a report names a file by: relative to `base` (the working directory) when it is inside it, else as given.
public func reportPath(_ path: String, base: String?) -> String {
    guard let base, path.hasPrefix("/") else { return path }
    let prefix = base.hasSuffix("/") ? base : base + "/"
    return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
}

/// A finding's time on the media, `2.000–4.000 s ` (empty when not timed): what says where a finding without a line is.
func timeText(_ finding: Finding) -> String {
    guard let start = finding.start else { return "" }
    return finding.end.map { String(format: "%.3f–%.3f s ", start, $0) } ?? String(format: "%.3f s ", start)
}

/// One line a finding, as compilers and linters print them (and editors jump to): `file:line: severity: message
/// [rule]`; a finding with no line names the file alone and says its time. Clean results print nothing. Streams.
public struct CompactReport: CheckReporter {
    /// The folder paths are relative to (the working directory); nil: as given.
    public var baseDirectory: String?

    public init(baseDirectory: String? = nil) { self.baseDirectory = baseDirectory }

    public var streams: Bool { true }

    public func write(_ results: [CheckResult], to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        var out = ByteWriter(chunkHandler: output)
        for result in results {
            let path = reportPath(result.findingsLocation.file, base: baseDirectory)
            for finding in result.allFindings {
                out.append(path)
                if let line = finding.line {
                    out.append(":" as StaticString)
                    out.append(integer: line)
                }
                out.append(": " as StaticString)
                out.append(finding.severity.rawValue)
                out.append(": " as StaticString)
                out.append(timeText(finding))
                out.append(Self.oneLine(finding.message))
                out.append(" [" as StaticString)
                out.append(finding.rule)
                out.append("]\n" as StaticString)
                out.handOnIfFull()
            }
        }
        out.finish()
    }

    public func parts(to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> (any ReportParts)? {
        StreamedReportParts(write: { write($0, to: output) }, end: { _ in })
    }

    static func oneLine(_ text: String) -> String {
        text.contains(where: \.isNewline) ? text.split(whereSeparator: \.isNewline).joined(separator: " ") : text
    }
}

/// GitHub Actions workflow commands: one annotation a finding (`::error file=…,line=…,title=…::message`, warnings as
/// `::warning`, notes as `::notice`), shown on the pull request's files and in the run's summary, then a notice with
/// the run's counts. Files relative to the working directory (the workspace). Streams.
public struct GitHubAnnotationsReport: CheckReporter {
    public var baseDirectory: String?

    public init(baseDirectory: String? = nil) { self.baseDirectory = baseDirectory }

    public var streams: Bool { true }

    public func write(_ results: [CheckResult], to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        var out = ByteWriter(chunkHandler: output)
        for result in results {
            let path = Self.property(reportPath(result.findingsLocation.file, base: baseDirectory))
            for finding in result.allFindings {
                switch finding.severity {
                case .error: out.append("::error file=" as StaticString)
                case .warning: out.append("::warning file=" as StaticString)
                case .info: out.append("::notice file=" as StaticString)
                }
                out.append(path)
                if let line = finding.line {
                    out.append(",line=" as StaticString)
                    out.append(integer: line)
                }
                out.append(",title=" as StaticString)
                out.append(Self.property("medialint " + finding.rule))
                out.append("::" as StaticString)
                out.append(Self.data(timeText(finding) + finding.message))
                out.append("\n" as StaticString)
                out.handOnIfFull()
            }
        }
        out.finish()
    }

    public func writeSummary(_ summary: RunSummary, to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        var out = ByteWriter(chunkHandler: output)
        out.append("::notice title=medialint::" as StaticString)
        out.append(Self.data(summary.text + (summary.isComplete ? "" : " · stopped before every file was checked")))
        out.append("\n" as StaticString)
        out.finish()
    }

    public func parts(to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> (any ReportParts)? {
        StreamedReportParts(write: { write($0, to: output) }, end: { writeSummary($0, to: output) })
    }

    /// A message, escaped as workflow commands want (`%`, CR, LF).
    static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A property value, escaped as workflow commands want (`%`, CR, LF, `:` and `,`).
    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}

/// GitLab's Code Quality report (a JSON array, CodeClimate's issue format): one issue a finding with its
/// description, rule as `check_name`, a fingerprint that survives edits around it (`Finding.fingerprint`; the nth
/// finding alike in a file gets `-n`), severity (`critical` for errors, `minor` for warnings, `info` for notes) and
/// its file and line (1 when none). What merge requests show as new and fixed code-quality findings.
public struct GitLabCodeQualityReport: CheckReporter {
    public var baseDirectory: String?

    public init(baseDirectory: String? = nil) { self.baseDirectory = baseDirectory }

    public func write(_ results: [CheckResult], to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        let parts = GitLabReportParts(self, output: output)
        parts.add(results)
        parts.finish()
    }

    public func parts(to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> (any ReportParts)? {
        GitLabReportParts(self, output: output)
    }

    /// Writes the issues of `result`'s findings, an object each.
    func writeIssues(of result: CheckResult, to writer: inout JSONWriter) {
        let path = reportPath(result.findingsLocation.file, base: baseDirectory)
        var seen: [String: Int] = [:]
        for finding in result.allFindings {
            var fingerprint = finding.fingerprint(file: path)
            seen[fingerprint, default: 0] += 1
            if let count = seen[fingerprint], count > 1 { fingerprint += "-\(count)" }
            writer.beginObject()
            writer.key("description"); writer.string(timeText(finding) + finding.message)
            writer.key("check_name"); writer.string(finding.rule)
            writer.key("fingerprint"); writer.string(fingerprint)
            writer.key("severity")
            switch finding.severity {
            case .error: writer.string("critical")
            case .warning: writer.string("minor")
            case .info: writer.string("info")
            }
            writer.key("location")
            writer.beginObject()
            writer.key("path"); writer.string(path)
            writer.key("lines"); writer.beginObject(); writer.key("begin"); writer.integer(max(1, finding.line ?? 1)); writer.endObject()
            writer.endObject()
            writer.endObject()
        }
    }
}

/// The GitLab report's array, opened at once, an issue a line as results come, closed at the end.
final class GitLabReportParts: ReportParts {
    let report: GitLabCodeQualityReport
    private var writer: JSONWriter

    init(_ report: GitLabCodeQualityReport, output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.report = report
        writer = JSONWriter(pretty: true, chunkHandler: output)
        writer.beginArray()
        writer.lineBreakDepth = writer.openContainers  // an issue a line
    }

    func add(_ results: [CheckResult]) {
        for result in results { report.writeIssues(of: result, to: &writer) }
    }

    func end(_ summary: RunSummary) { finish() }

    /// Closes the array.
    func finish() {
        writer.endArray()
        writer.endLine()
        writer.finish()
    }
}

/// A streamed report's parts from its two writers.
final class StreamedReportParts: ReportParts {
    let writeResults: ([CheckResult]) -> Void
    let writeEnd: (RunSummary) -> Void

    init(write: @escaping ([CheckResult]) -> Void, end: @escaping (RunSummary) -> Void) {
        writeResults = write
        writeEnd = end
    }

    func add(_ results: [CheckResult]) { writeResults(results) }
    func end(_ summary: RunSummary) { writeEnd(summary) }
}
