import Findings

/// Check results as a SARIF 2.1.0 log (OASIS), the format GitHub code scanning and IDEs read: one run for
/// medialint, its rules, and one result per finding located in the checked file (line 1 when the finding
/// has no line: media files).
public struct SARIFReport: CheckReporter {
    /// The rules findings may name, by id (the rule catalogue): each described by its title, description, help
    /// link and default level; a rule not in it is described by its id alone.
    public var rules: [String: Rule]
    /// Where the tool is documented (an absolute URI), if anywhere.
    public var informationURI: String?

    public init(rules: [String: Rule] = [:], informationURI: String? = nil) {
        self.rules = rules
        self.informationURI = informationURI
    }

    /// The log as a JSON value (what `write` writes, read back).
    public func render(_ results: [CheckResult]) -> JSONValue {
        var writer = JSONWriter()
        write(results, to: &writer)
        return (try? writer.withBytes { try JSONValue.parse(String(decoding: $0, as: UTF8.self)) }) ?? .null
    }

    /// Writes the log, result by result (one pass over the findings for the rules, one to write them).
    public func write(_ results: [CheckResult], to writer: inout JSONWriter) {
        var ruleIDs: [String] = []
        var ruleIndex: [String: Int] = [:]
        for result in results {
            for rule in result.findingRules where ruleIndex[rule] == nil {
                ruleIndex[rule] = ruleIDs.count
                ruleIDs.append(rule)
            }
        }
        writer.beginObject()
        writer.key("$schema"); writer.string("https://json.schemastore.org/sarif-2.1.0.json")
        writer.key("version"); writer.string("2.1.0")
        writer.key("runs")
        writer.beginArray()
        writer.beginObject()
        writer.key("tool")
        writer.beginObject()
        writer.key("driver")
        writer.beginObject()
        writer.key("name"); writer.string(ToolInfo.name)
        writer.key("version"); writer.string(ToolInfo.version)
        if let informationURI { writer.key("informationUri"); writer.string(informationURI) }
        writer.key("rules")
        writer.beginArray()
        for id in ruleIDs {
            writer.beginObject()
            writer.key("id"); writer.string(id)
            let rule = rules[id]
            writer.key("shortDescription"); writer.beginObject(); writer.key("text"); writer.string(rule?.title ?? id); writer.endObject()
            if let rule {
                writer.key("fullDescription"); writer.beginObject(); writer.key("text"); writer.string(rule.description); writer.endObject()
                writer.key("helpUri"); writer.string(rule.helpURL)
                writer.key("defaultConfiguration"); writer.beginObject(); writer.key("level"); writer.string(Self.level(rule.defaultSeverity));
                writer.endObject()
            }
            writer.key("properties")
            writer.beginObject()
            writer.key("tags"); writer.beginArray(); writer.string("accessibility"); writer.string(String(id.prefix { $0 != "." })); writer.endArray()
            writer.endObject()
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.endObject()
        writer.key("invocations")
        writer.beginArray()
        writer.beginObject()
        let unreadable = results.filter { $0.verdict == .error }
        writer.key("executionSuccessful"); writer.bool(unreadable.isEmpty)
        if !unreadable.isEmpty {
            writer.key("toolExecutionNotifications")
            writer.beginArray()
            for result in unreadable {
                writer.beginObject()
                writer.key("level"); writer.string("error")
                writer.key("message"); writer.beginObject()
                writer.key("text"); writer.string("\(result.file): \(result.firstFinding?.message ?? "could not be read")")
                writer.endObject()
                writer.endObject()
            }
            writer.endArray()
        }
        writer.endObject()
        writer.endArray()
        writer.key("results")
        writer.beginArray()
        for result in results {
            let uri = Self.uri(result.file)
            for finding in result.allFindings {
                writer.beginObject()
                writer.key("ruleId"); writer.string(finding.rule)
                writer.key("ruleIndex"); writer.integer(ruleIndex[finding.rule] ?? 0)
                writer.key("level"); writer.string(Self.level(finding.severity))
                writer.key("message"); writer.beginObject(); writer.key("text"); writer.string(finding.message); writer.endObject()
                writer.key("locations")
                writer.beginArray()
                writer.beginObject()
                writer.key("physicalLocation")
                writer.beginObject()
                writer.key("artifactLocation"); writer.beginObject(); writer.key("uri"); writer.string(uri); writer.endObject()
                writer.key("region")
                writer.beginObject()
                writer.key("startLine"); writer.integer(max(1, finding.line ?? 1))
                if finding.line == nil, let start = finding.start {
                    writer.key("snippet"); writer.beginObject(); writer.key("text"); writer.string(Self.time(start)); writer.endObject()
                }
                writer.endObject()
                writer.endObject()
                writer.endObject()
                writer.endArray()
                writer.key("properties")
                writer.beginObject()
                writer.key("check"); writer.string(result.check.rawValue)
                if let start = finding.start { writer.key("start"); writer.number(start) }
                if let end = finding.end { writer.key("end"); writer.number(end) }
                if !finding.guidelines.isEmpty {
                    writer.key("guidelines")
                    writer.beginArray()
                    for guideline in finding.guidelines { writer.string(guideline) }
                    writer.endArray()
                }
                if case .object(let members) = finding.data, !members.isEmpty { writer.key("data"); writer.value(finding.data) }
                writer.endObject()
                writer.endObject()
            }
        }
        writer.endArray()
        writer.endObject()
        writer.endArray()
        writer.endObject()
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

    static func time(_ seconds: Double) -> String { NumberText.seconds(seconds) }
}

extension SARIFReport {
    public func write(_ results: [CheckResult], to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        var writer = JSONWriter(pretty: true, chunkHandler: output)
        write(results, to: &writer)
        writer.endLine()
        writer.finish()
    }
}
