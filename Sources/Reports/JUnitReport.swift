/// Check results as JUnit XML, which CI systems (Jenkins, GitLab, GitHub test reporters) read: one test suite
/// per check, one test case per file. A `fail` verdict is a `<failure>` listing the errors; an unreadable file
/// is an `<error>`; `unverified` is `<skipped>`; warnings and notes go to `<system-out>`.
public struct JUnitReport {
    public init() {}

    public func render(_ results: [CheckResult]) -> String {
        var checks: [String] = []
        for result in results where !checks.contains(result.check) { checks.append(result.check) }
        let failures = results.filter { $0.verdict == .fail }.count, errors = results.filter { $0.verdict == .error }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(ToolInfo.name)\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        for check in checks {
            let group = results.filter { $0.check == check }
            xml += "  <testsuite name=\"\(XMLText.escape(ToolInfo.name + " " + check))\" tests=\"\(group.count)\""
                + " failures=\"\(group.filter { $0.verdict == .fail }.count)\" errors=\"\(group.filter { $0.verdict == .error }.count)\""
                + " skipped=\"\(group.filter { $0.verdict == .unverified }.count)\">\n"
            for result in group {
                var body = ""
                let serious = result.findings.filter { $0.severity == .error }
                switch result.verdict {
                case .fail:
                    body += "      <failure message=\"\(XMLText.escape(Self.summary(serious)))\" type=\"\(XMLText.escape(serious.first?.rule ?? check))\">"
                    body += XMLText.escape(serious.map(Self.line).joined(separator: "\n")) + "</failure>\n"
                case .error:
                    body += "      <error message=\"\(XMLText.escape(result.findings.first?.message ?? "could not be read"))\" type=\"\(XMLText.escape(result.findings.first?.rule ?? "error"))\"/>\n"
                case .unverified:
                    body += "      <skipped message=\"\(XMLText.escape(result.findings.first?.message ?? "not verified"))\"/>\n"
                case .pass, .warn:
                    break
                }
                let rest = result.findings.filter { $0.severity != .error }
                if !rest.isEmpty {
                    body += "      <system-out>" + XMLText.escape(rest.map(Self.line).joined(separator: "\n")) + "</system-out>\n"
                }
                let testcase = "    <testcase classname=\"\(XMLText.escape(ToolInfo.name + "." + check))\" name=\"\(XMLText.escape(result.file))\""
                xml += body.isEmpty ? testcase + "/>\n" : testcase + ">\n" + body + "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    static func summary(_ findings: [Finding]) -> String {
        guard let first = findings.first else { return "failed" }
        return findings.count == 1 ? first.message : "\(first.message) (and \(findings.count - 1) more)"
    }

    static func line(_ finding: Finding) -> String {
        var place = ""
        if let line = finding.line { place += "line \(line) " }
        if let start = finding.start { place += TextReport.seconds(start) + " " }
        return "\(finding.severity.rawValue): \(place.isEmpty ? "" : place + "— ")\(finding.message) [\(finding.rule)]"
    }
}
