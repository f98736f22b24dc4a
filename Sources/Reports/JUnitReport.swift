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
        write(from: ResultArray(results), to: &out)
    }

    /// A suite's counts: its results by verdict, and the seconds they took.
    struct Counts {
        var results = ResultTally()
        var seconds = 0.0

        mutating func add(_ result: CheckResult) {
            results.add(result)
            seconds += result.seconds ?? 0
        }
    }

    /// Writes the XML of the results `source` holds: one pass for the counts, then the test cases, a suite at a time
    /// (a suite reads only the units holding its check's results).
    public func write<Source: ResultSource>(from source: Source, to out: inout ByteWriter) throws(Source.Failure) {
        var checks: [CheckKind] = []
        var suites: [CheckKind: (counts: Counts, units: [Int])] = [:]
        var all = Counts()
        try source.read(nil) { position, results in
            for result in results {
                if suites[result.check] == nil {
                    checks.append(result.check)
                    suites[result.check] = (Counts(), [])
                }
                suites[result.check]!.counts.add(result)
                if suites[result.check]!.units.last != position { suites[result.check]!.units.append(position) }
                all.add(result)
            }
        }
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" as StaticString)
        out.append("<testsuites name=\"" as StaticString)
        out.append(ToolInfo.name)
        out.append("\" tests=\"" as StaticString)
        out.append(integer: all.results.results)
        out.append("\" failures=\"" as StaticString)
        out.append(integer: all.results.count(.fail))
        out.append("\" errors=\"" as StaticString)
        out.append(integer: all.results.count(.error) + (unchecked == nil ? 0 : 1))
        out.append("\" time=\"" as StaticString)
        out.append(Self.seconds(all.seconds))
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
            let suite = suites[check]!
            out.append("  <testsuite name=\"" as StaticString)
            out.append(xmlEscaped: ToolInfo.name + " " + check.rawValue)
            out.append("\" tests=\"" as StaticString)
            out.append(integer: suite.counts.results.results)
            out.append("\" failures=\"" as StaticString)
            out.append(integer: suite.counts.results.count(.fail))
            out.append("\" errors=\"" as StaticString)
            out.append(integer: suite.counts.results.count(.error))
            out.append("\" skipped=\"" as StaticString)
            out.append(integer: suite.counts.results.count(.unverified))
            out.append("\" time=\"" as StaticString)
            out.append(Self.seconds(suite.counts.seconds))
            out.append("\">\n" as StaticString)
            var names = TestCaseNames()
            try source.read(suite.units) { _, results in
                for result in results where result.check == check {
                    writeTestCase(result, name: names.next(for: result), check: check.rawValue, to: &out)
                }
            }
            out.append("  </testsuite>\n" as StaticString)
        }
        out.append("</testsuites>\n" as StaticString)
    }

    /// The names of a suite's test cases, one result after another: its file, with the caption source for sync; a
    /// name met again gets ` (2)`, ` (3)` ….
    struct TestCaseNames {
        private var seen: [String: Int] = [:]

        mutating func next(for result: CheckResult) -> String {
            var name = result.file
            if result.check == .sync, let captions = result.metrics(as: SyncMetrics.self)?.captions, !captions.isEmpty, captions != result.file {
                name += " [\(captions)]"
            }
            seen[name, default: 0] += 1
            return seen[name]! == 1 ? name : "\(name) (\(seen[name]!))"
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
        write(from: ResultArray(results), to: output)
    }

    public func write<Source: ResultSource>(from source: Source, to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) throws(Source.Failure) {
        var out = ByteWriter(chunkHandler: output)
        try write(from: source, to: &out)
        out.finish()
    }
}
