import Basics
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
        Self.writeStart(tool: tool, version: version, to: &writer)
        for result in results { result.write(to: &writer) }
        Self.writeEnd(to: &writer)
    }

    /// The envelope up to the opening of its `results` array.
    static func writeStart(tool: String = ToolInfo.name, version: String = ToolInfo.version, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("tool"); writer.string(tool)
        writer.key("version"); writer.string(version)
        writer.key("results")
        writer.beginArray()
    }

    /// The envelope after its `results`; `unchecked`: the files a stopped run (Ctrl-C) did not check, listed after the
    /// results (absent when the run was not stopped).
    static func writeEnd(unchecked: [String]? = nil, to writer: inout JSONWriter) {
        writer.endArray()
        if let unchecked {
            writer.key("unchecked")
            writer.beginArray()
            for path in unchecked { writer.string(path) }
            writer.endArray()
        }
        writer.endObject()
    }
}
