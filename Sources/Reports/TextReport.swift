import Basics
import Findings

/// Check results for people: one header line per file with its verdict, one line per finding, metrics last.
public struct TextReport: CheckReporter {
    /// Colours, when the output is a terminal that allows them.
    public var style: TextStyle
    /// The line under a result that sums up its metrics (the check's own, e.g. `CheckSummary.line(for:)`).
    public var summaryLine: @Sendable (CheckResult) -> String?

    public init(style: TextStyle = .plain, summaryLine: @escaping @Sendable (CheckResult) -> String? = { _ in nil }) {
        self.style = style
        self.summaryLine = summaryLine
    }

    /// Writes one result: its header line, a line per finding, the metrics line.
    public func write(_ result: CheckResult, metricsLine: String? = nil, to out: inout ByteWriter) {
        let (verdict, verdictCode): (StaticString, StaticString) =
            switch result.verdict {
            case .pass: ("PASS", "32")
            case .warn: ("WARN", "33")
            case .fail: ("FAIL", "31;1")
            case .unverified: ("UNVERIFIED", "36")
            case .error: ("ERROR", "31")
            }
        open("1", &out)
        out.append(result.file)
        close(&out)
        out.append("  " as StaticString)
        open(verdictCode, &out)
        out.append(verdict)
        close(&out)
        out.append("  " as StaticString)
        out.append(result.check.rawValue)
        out.append(0x0A)
        for finding in result.allFindings {
            let (mark, markCode): (StaticString, StaticString) =
                switch finding.severity {
                case .error: ("✗", "31")
                case .warning: ("!", "33")
                case .info: ("·", "2")
                }
            out.append("  " as StaticString)
            open(markCode, &out)
            out.append(mark)
            close(&out)
            out.append(0x20)
            if let start = finding.start {
                open("36", &out)
                out.append(seconds: start)
                if let end = finding.end {
                    out.append("–" as StaticString)
                    out.append(seconds: end)
                }
                out.append(" s" as StaticString)
                close(&out)
                out.append("  " as StaticString)
            } else if let number = finding.line {
                open("36", &out)
                out.append("line " as StaticString)
                out.append(integer: number)
                close(&out)
                out.append("  " as StaticString)
            }
            out.append(finding.message)
            if !finding.guidelines.isEmpty {
                open("2", &out)
                out.append(" (" as StaticString)
                for (index, guideline) in finding.guidelines.enumerated() {
                    if index > 0 { out.append(", " as StaticString) }
                    out.append(guideline)
                }
                out.append(")" as StaticString)
                close(&out)
            }
            open("2", &out)
            out.append("  [" as StaticString)
            out.append(finding.rule)
            out.append("]" as StaticString)
            close(&out)
            out.append(0x0A)
            out.handOnIfFull()
        }
        if let metricsLine {
            out.append("  " as StaticString)
            open("2", &out)
            out.append(metricsLine)
            close(&out)
            out.append(0x0A)
        }
    }

    /// The colour code's escape sequence, when colours are on.
    private func open(_ code: StaticString, _ out: inout ByteWriter) {
        guard style.enabled else { return }
        out.append("\u{1B}[" as StaticString)
        out.append(code)
        out.append("m" as StaticString)
    }

    private func close(_ out: inout ByteWriter) {
        if style.enabled { out.append("\u{1B}[0m" as StaticString) }
    }

}

extension TextReport {
    /// A block per result (header, findings, summary line), a blank line between blocks.
    public func write(_ results: [CheckResult], to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        TextReportParts(self, output: output).add(results)
    }

    public func parts(to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> (any ReportParts)? {
        TextReportParts(self, output: output)
    }
}
