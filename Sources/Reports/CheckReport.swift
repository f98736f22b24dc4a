import Findings

/// The envelope of JSON reports: `{"tool", "version", "results"}`.
public struct CheckReport: Sendable, Encodable {
    public var tool = ToolInfo.name
    public var version = ToolInfo.version
    public var results: [CheckResult]

    public init(results: [CheckResult]) { self.results = results }
}

extension CheckReport {
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("tool"); writer.string(tool)
        writer.key("version"); writer.string(version)
        writer.key("results")
        writer.beginArray()
        for result in results { result.write(to: &writer) }
        writer.endArray()
        writer.endObject()
    }
}
