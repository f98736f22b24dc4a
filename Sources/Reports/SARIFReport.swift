/// Check results as a SARIF 2.1.0 log (OASIS), the format GitHub code scanning and IDEs read: one run for
/// medialint, its rules, and one result per finding located in the checked file (line 1 when the finding
/// has no line: media files).
public struct SARIFReport {
    /// What each rule checks, by id (rules without one are described by their id).
    public var ruleDescriptions: [String: String]
    /// Where the tool is documented (an absolute URI), if anywhere.
    public var informationURI: String?

    public init(ruleDescriptions: [String: String] = [:], informationURI: String? = nil) {
        self.ruleDescriptions = ruleDescriptions
        self.informationURI = informationURI
    }

    public func render(_ results: [CheckResult]) -> JSONValue {
        var ruleIDs: [String] = []
        var ruleIndex: [String: Int] = [:]
        for finding in results.flatMap(\.findings) where ruleIndex[finding.rule] == nil {
            ruleIndex[finding.rule] = ruleIDs.count
            ruleIDs.append(finding.rule)
        }
        let rules = ruleIDs.map { id -> JSONValue in
            .object([("id", .string(id)),
                     ("shortDescription", .object([("text", .string(ruleDescriptions[id] ?? id))])),
                     ("properties", .object([("tags", .array([.string("accessibility"), .string(String(id.prefix { $0 != "." }))]))]))])
        }
        var sarifResults: [JSONValue] = []
        for result in results {
            for finding in result.findings {
                var region: [(String, JSONValue)] = [("startLine", .integer(Int64(max(1, finding.line ?? 1))))]
                if finding.line == nil, let start = finding.start { region.append(("snippet", .object([("text", .string(Self.time(start)))]))) }
                var properties: [(String, JSONValue)] = [("check", .string(result.check))]
                if let start = finding.start { properties.append(("start", .number(start))) }
                if let end = finding.end { properties.append(("end", .number(end))) }
                if !finding.guidelines.isEmpty { properties.append(("guidelines", .array(finding.guidelines.map { .string($0) }))) }
                if case .object(let members) = finding.data, !members.isEmpty { properties.append(("data", finding.data)) }
                sarifResults.append(.object([
                    ("ruleId", .string(finding.rule)),
                    ("ruleIndex", .integer(Int64(ruleIndex[finding.rule] ?? 0))),
                    ("level", .string(Self.level(finding.severity))),
                    ("message", .object([("text", .string(finding.message))])),
                    ("locations", .array([.object([("physicalLocation", .object([
                        ("artifactLocation", .object([("uri", .string(Self.uri(result.file)))])),
                        ("region", .object(region)),
                    ]))])])),
                    ("properties", .object(properties)),
                ]))
            }
        }
        let unreadable = results.filter { $0.verdict == .error }.map { result -> JSONValue in
            .object([("level", .string("error")),
                     ("message", .object([("text", .string("\(result.file): \(result.findings.first?.message ?? "could not be read")"))]))])
        }
        var invocation: [(String, JSONValue)] = [("executionSuccessful", .bool(unreadable.isEmpty))]
        if !unreadable.isEmpty { invocation.append(("toolExecutionNotifications", .array(unreadable))) }
        return .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([.object([
                ("tool", .object([("driver", .object(
                    [("name", .string(ToolInfo.name)), ("version", .string(ToolInfo.version))]
                        + (informationURI.map { [("informationUri", JSONValue.string($0))] } ?? [])
                        + [("rules", .array(rules))]
                ))])),
                ("invocations", .array([.object(invocation)])),
                ("results", .array(sarifResults)),
            ])])),
        ])
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    /// A file path as a relative URI reference: `/`-separated, everything outside the unreserved characters
    /// percent-encoded.
    static func uri(_ path: String) -> String {
        var output = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                output += "%"
                output.unicodeScalars.append(digits[Int(byte >> 4)])
                output.unicodeScalars.append(digits[Int(byte & 15)])
            }
        }
        return output
    }

    static func time(_ seconds: Double) -> String { TextReport.seconds(seconds) }
}
