import Basics
import Findings

// A result's JSON form: what the JSON reports write and the results store keeps. Results are written straight into
// a `JSONWriter`: the same bytes their `Encodable` conformances give through `JSONValueEncoder` (keys in declaration
// order, nil left out), without building the document first.

extension Finding {
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("rule"); writer.string(rule)
        writer.key("severity"); writer.string(severity.rawValue)
        writer.key("message"); writer.string(message)
        if let start { writer.key("start"); writer.number(start) }
        if let end { writer.key("end"); writer.number(end) }
        if let line { writer.key("line"); writer.integer(line) }
        writer.key("guidelines")
        writer.beginArray()
        for guideline in guidelines { writer.string(guideline) }
        writer.endArray()
        writer.key("data"); writer.value(data)
        writer.endObject()
    }
}

extension CheckResult {
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("file"); writer.string(file)
        writer.key("check"); writer.string(check.rawValue)
        writer.key("verdict"); writer.string(verdict.rawValue)
        writer.key("findings")
        writer.beginArray()
        for finding in allFindings { finding.write(to: &writer) }
        writer.endArray()
        writer.key("metrics"); writer.value(metrics)
        writer.endObject()
    }

    /// Results as a JSON array (what the results store keeps).
    public static func json(_ results: [CheckResult]) -> String {
        var writer = JSONWriter()
        writer.beginArray()
        for result in results { result.write(to: &writer) }
        writer.endArray()
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }
}

extension CheckResult {
    /// A result from its JSON form (what `JSONValueEncoder` writes).
    public init(json: JSONValue) throws(JSONValue.ParseError) {
        guard case .string(let file)? = json["file"], case .string(let checkName)? = json["check"], let check = CheckKind(rawValue: checkName),
            case .string(let verdictName)? = json["verdict"], let verdict = Verdict(rawValue: verdictName),
            case .array(let findings)? = json["findings"]
        else { throw JSONValue.ParseError(offset: 0) }
        self.init(
            file: file, check: check, verdict: verdict, findings: try findings.map { (item) throws(JSONValue.ParseError) in try Finding(json: item) },
            metrics: json["metrics"] ?? .object([]))
    }
}

extension Finding {
    public init(json: JSONValue) throws(JSONValue.ParseError) {
        guard case .string(let rule)? = json["rule"], case .string(let severityName)? = json["severity"],
            let severity = Severity(rawValue: severityName), case .string(let message)? = json["message"]
        else {
            throw JSONValue.ParseError(offset: 0)
        }
        func number(_ key: String) -> Double? {
            switch json[key] {
            case .number(let value)?: value
            case .integer(let value)?: Double(value)
            default: nil
            }
        }
        var guidelines: [String] = []
        if case .array(let items)? = json["guidelines"] { guidelines = items.compactMap { if case .string(let text) = $0 { text } else { nil } } }
        self.init(
            ruleID: rule, severity: severity, message: message, start: number("start"), end: number("end"),
            line: number("line").map { Int($0) }, guidelines: guidelines, data: json["data"] ?? .object([]))
    }
}
