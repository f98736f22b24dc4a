/// Check results for people: one header line per file with its verdict, one line per finding, metrics last.
public struct TextReport {
    /// Colours, when the output is a terminal that allows them.
    public struct Style: Sendable {
        public var enabled: Bool
        public init(enabled: Bool) { self.enabled = enabled }

        func paint(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    }

    public var style: Style

    public init(style: Style = Style(enabled: false)) { self.style = style }

    public func render(_ result: CheckResult, metricsLine: String? = nil) -> String {
        let verdict: String = switch result.verdict {
        case .pass: style.paint("PASS", "32")
        case .warn: style.paint("WARN", "33")
        case .fail: style.paint("FAIL", "31;1")
        case .unverified: style.paint("UNVERIFIED", "36")
        case .error: style.paint("ERROR", "31")
        }
        var lines = ["\(style.paint(result.file, "1"))  \(verdict)  \(result.check)"]
        for finding in result.findings {
            let mark: String = switch finding.severity {
            case .error: style.paint("✗", "31")
            case .warning: style.paint("!", "33")
            case .info: style.paint("·", "2")
            }
            var line = "  \(mark) "
            if let start = finding.start {
                let span = finding.end.map { Self.seconds(start, unit: false) + "–" + Self.seconds($0) } ?? Self.seconds(start)
                line += style.paint(span, "36") + "  "
            } else if let number = finding.line {
                line += style.paint("line \(number)", "36") + "  "
            }
            line += finding.message
            if !finding.guidelines.isEmpty { line += style.paint(" (\(finding.guidelines.joined(separator: ", ")))", "2") }
            line += style.paint("  [\(finding.rule)]", "2")
            lines.append(line)
        }
        if let metricsLine { lines.append("  " + style.paint(metricsLine, "2")) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `12.345 s` (or `12.345` without the unit).
    public static func seconds(_ value: Double, unit: Bool = true) -> String {
        let milliseconds = Int64((value * 1000).rounded())
        let fraction = String(abs(milliseconds) % 1000)
        return "\(milliseconds < 0 ? "-" : "")\(abs(milliseconds) / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
            + (unit ? " s" : "")
    }
}
