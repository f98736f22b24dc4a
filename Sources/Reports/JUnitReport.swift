import Basics
import Findings

/// Check results as JUnit XML, which CI systems (Jenkins, GitLab, GitHub test reporters) read: one test suite
/// per check, one test case per result, named by its file — and, for sync, the caption source it timed (`talk.mp4
/// [talk.en.srt]`), so that no two test cases of a suite share a name; `time` is the seconds the check took (0
/// when not measured: results from the store). A `fail` verdict is a `<failure>` listing the errors; an unreadable
/// file is an `<error>`; `unverified` is `<skipped>`; warnings and notes go to `<system-out>`. A run stopped by Ctrl-C
/// adds a suite `medialint run` whose one test case is an `<error>` naming the files not checked.
public struct JUnitReport: CheckReporter {
    /// The files a stopped run did not check (nil: the run was not stopped).
    public var unchecked: [String]?

    public init(unchecked: [String]? = nil) { self.unchecked = unchecked }

    /// Writes the XML, finding by finding.
    public func write(_ results: [CheckResult], to out: inout ByteWriter) {
        var checks: [CheckKind] = []
        var groups: [CheckKind: [Int]] = [:]
        for (index, result) in results.enumerated() {
            if groups[result.check] == nil { checks.append(result.check) }
            groups[result.check, default: []].append(index)
        }
        func count(_ indices: [Int], _ verdict: Verdict) -> Int { indices.reduce(0) { $0 + (results[$1].verdict == verdict ? 1 : 0) } }
        func time(_ indices: [Int]) -> Double { indices.reduce(0) { $0 + (results[$1].seconds ?? 0) } }
        let all = Array(results.indices)
        let names = Self.testCaseNames(results)
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" as StaticString)
        out.append("<testsuites name=\"" as StaticString)
        out.append(ToolInfo.name)
        out.append("\" tests=\"" as StaticString)
        out.append(integer: results.count)
        out.append("\" failures=\"" as StaticString)
        out.append(integer: count(all, .fail))
        out.append("\" errors=\"" as StaticString)
        out.append(integer: count(all, .error) + (unchecked == nil ? 0 : 1))
        out.append("\" time=\"" as StaticString)
        out.append(Self.seconds(time(all)))
        out.append("\">\n" as StaticString)
        if let unchecked {
            let message = SARIFReport.stoppedMessage(unchecked)
            out.append("  <testsuite name=\"" as StaticString)
            out.append(xmlEscaped: ToolInfo.name + " run")
            out.append("\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\">\n" as StaticString)
            out.append("    <testcase classname=\"" as StaticString)
            out.append(xmlEscaped: ToolInfo.name + " run")
            out.append("\" name=\"every file checked\" time=\"0\">\n      <error message=\"" as StaticString)
            out.append(xmlEscaped: message)
            out.append("\" type=\"stopped\">" as StaticString)
            for path in unchecked {
                out.append(xmlEscaped: path)
                out.append("\n" as StaticString)
            }
            out.append("</error>\n    </testcase>\n  </testsuite>\n" as StaticString)
        }
        for check in checks {
            let group = groups[check]!
            out.append("  <testsuite name=\"" as StaticString)
            out.append(xmlEscaped: ToolInfo.name + " " + check.rawValue)
            out.append("\" tests=\"" as StaticString)
            out.append(integer: group.count)
            out.append("\" failures=\"" as StaticString)
            out.append(integer: count(group, .fail))
            out.append("\" errors=\"" as StaticString)
            out.append(integer: count(group, .error))
            out.append("\" skipped=\"" as StaticString)
            out.append(integer: count(group, .unverified))
            out.append("\" time=\"" as StaticString)
            out.append(Self.seconds(time(group)))
            out.append("\">\n" as StaticString)
            for index in group { writeTestCase(results[index], name: names[index], check: check.rawValue, to: &out) }
            out.append("  </testsuite>\n" as StaticString)
        }
        out.append("</testsuites>\n" as StaticString)
    }

    /// The name of each result's test case: its file, with the caption source for sync; a name met again in the
    /// same check gets ` (2)`, ` (3)` ….
    static func testCaseNames(_ results: [CheckResult]) -> [String] {
        var seen: [String: Int] = [:]
        return results.map { result in
            var name = result.file
            if result.check == .sync, let captions = result.metrics(as: SyncMetrics.self)?.captions, !captions.isEmpty, captions != result.file {
                name += " [\(captions)]"
            }
            let key = result.check.rawValue + "\u{0}" + name
            seen[key, default: 0] += 1
            return seen[key]! == 1 ? name : "\(name) (\(seen[key]!))"
        }
    }

    /// Seconds with three decimals, as JUnit's `time` is written.
    static func seconds(_ value: Double) -> String {
        let milliseconds = Int64(saturating: (max(0, value) * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    private func writeTestCase(_ result: CheckResult, name: String, check: String, to out: inout ByteWriter) {
        let errors = result.errorCount
        let others = result.findingCount - errors
        let hasBody = result.verdict == .fail || result.verdict == .error || result.verdict == .unverified || others > 0
        out.append("    <testcase classname=\"" as StaticString)
        out.append(xmlEscaped: ToolInfo.name + "." + check)
        out.append("\" name=\"" as StaticString)
        out.append(xmlEscaped: name)
        out.append("\" time=\"" as StaticString)
        out.append(Self.seconds(result.seconds ?? 0))
        guard hasBody else {
            out.append("\"/>\n" as StaticString)
            return
        }
        out.append("\">\n" as StaticString)
        /// The findings of one kind, a line each, escaped.
        func lines(errors wanted: Bool) {
            var first = true
            for finding in result.allFindings where (finding.severity == .error) == wanted {
                if !first { out.append(0x0A) }
                first = false
                Self.writeLine(finding, to: &out)
                out.handOnIfFull()
            }
        }
        switch result.verdict {
        case .fail:
            let serious = result.firstError
            out.append("      <failure message=\"" as StaticString)
            out.append(xmlEscaped: serious.map { errors == 1 ? $0.message : "\($0.message) (and \(errors - 1) more)" } ?? "failed")
            out.append("\" type=\"" as StaticString)
            out.append(xmlEscaped: serious?.rule ?? check)
            out.append("\">" as StaticString)
            lines(errors: true)
            out.append("</failure>\n" as StaticString)
        case .error:
            out.append("      <error message=\"" as StaticString)
            out.append(xmlEscaped: result.firstFinding?.message ?? "could not be read")
            out.append("\" type=\"" as StaticString)
            out.append(xmlEscaped: result.firstFinding?.rule ?? "error")
            out.append("\"/>\n" as StaticString)
        case .unverified:
            out.append("      <skipped message=\"" as StaticString)
            out.append(xmlEscaped: result.firstFinding?.message ?? "not verified")
            out.append("\"/>\n" as StaticString)
        case .pass, .warn:
            break
        }
        if others > 0 {
            out.append("      <system-out>" as StaticString)
            lines(errors: false)
            out.append("</system-out>\n" as StaticString)
        }
        out.append("    </testcase>\n" as StaticString)
    }

    /// A finding as a line of a `<failure>` or `<system-out>`, escaped: `severity: line N 1.500 s — message [rule]`.
    static func writeLine(_ finding: Finding, to out: inout ByteWriter) {
        out.append(finding.severity.rawValue)
        out.append(": " as StaticString)
        if finding.line != nil || finding.start != nil {
            if let line = finding.line {
                out.append("line " as StaticString)
                out.append(integer: line)
                out.append(0x20)
            }
            if let start = finding.start {
                out.append(seconds: start)
                out.append(" s " as StaticString)
            }
            out.append("— " as StaticString)
        }
        out.append(xmlEscaped: finding.message)
        out.append(" [" as StaticString)
        out.append(xmlEscaped: finding.rule)
        out.append("]" as StaticString)
    }
}

extension JUnitReport {
    public func write(_ results: [CheckResult], to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        var out = ByteWriter(chunkHandler: output)
        write(results, to: &out)
        out.finish()
    }
}
