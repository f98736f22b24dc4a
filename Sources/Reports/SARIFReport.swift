import Basics
import Findings

/// Check results as a SARIF 2.1.0 log (OASIS), the format GitHub code scanning and IDEs read: one run for
/// medialint, its rules, and one result per finding located in the checked file (line 1 when the finding
/// has no line: media files). A sync finding is located in the caption file that was timed (at its cue's line),
/// the media as a related location.
public struct SARIFReport: CheckReporter {
    /// The rules findings may name, by id (the rule catalogue): each described by its title, description, help
    /// link and default level; a rule not in it is described by its id alone.
    public var rules: [String: Rule]
    /// Where the tool is documented (an absolute URI), if anywhere.
    public var informationURI: String?
    /// The folder paths are relative to (the working directory, absolute): files inside it are named by a URI
    /// relative to it with `uriBaseId` `%SRCROOT%` (what code-scanning services resolve against the repository),
    /// others by an absolute `file://` URI. Nil: paths as given.
    public var baseDirectory: String?
    /// The exit status the command ends with (`invocations[0].exitCode`), when known.
    public var exitStatus: Int32?
    /// Each rule's help (why it matters, how to fix it) as Markdown, by id: SARIF's `help`, which code scanning shows
    /// with the alert.
    public var help: [String: String] = [:]
    /// The files a stopped run (Ctrl-C) did not check: the invocation did not succeed, and a notification names them
    /// (code scanning must not take the missing files' alerts as fixed). Nil: the run was not stopped.
    public var unchecked: [String]?

    public static let baseID = "%SRCROOT%"

    public init(
        rules: [String: Rule] = [:], informationURI: String? = nil, baseDirectory: String? = nil, exitStatus: Int32? = nil, unchecked: [String]? = nil
    ) {
        self.rules = rules
        self.informationURI = informationURI
        self.baseDirectory = baseDirectory.map { Self.tidy($0) }
        self.exitStatus = exitStatus
        self.unchecked = unchecked
    }

    /// The log as a JSON value (what `write` writes, read back).
    public func render(_ results: [CheckResult]) -> JSONValue {
        var writer = JSONWriter()
        write(results, to: &writer)
        return (try? writer.withBytes { try JSONValue.parse(String(decoding: $0, as: UTF8.self)) }) ?? .null
    }

    /// Writes the log, result by result.
    public func write(_ results: [CheckResult], to writer: inout JSONWriter) {
        write(from: ResultArray(results), to: &writer)
    }

    /// Writes the log of the results `source` holds: one pass for the rules and the files that could not be read,
    /// one to write the results.
    public func write<Source: ResultSource>(from source: Source, to writer: inout JSONWriter) throws(Source.Failure) {
        var ruleIDs: [String] = []
        var ruleIndex: [String: Int] = [:]
        var unreadable: [(file: String, message: String)] = []
        try source.forEachResult { result in
            for rule in result.findingRules where ruleIndex[rule] == nil {
                ruleIndex[rule] = ruleIDs.count
                ruleIDs.append(rule)
            }
            if result.verdict == .error { unreadable.append((result.file, result.firstFinding?.message ?? "could not be read")) }
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
                if let help = help[id] {
                    writer.key("help")
                    writer.beginObject()
                    writer.key("text"); writer.string(help.replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "`", with: ""))
                    writer.key("markdown"); writer.string(help)
                    writer.endObject()
                }
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
        if let baseDirectory {
            writer.key("originalUriBaseIds")
            writer.beginObject()
            writer.key(named: Self.baseID)
            writer.beginObject()
            writer.key("uri"); writer.string(Self.fileURI(baseDirectory == "/" ? "/" : baseDirectory + "/"))
            writer.endObject()
            writer.endObject()
        }
        writer.key("invocations")
        writer.beginArray()
        writer.beginObject()
        writer.key("executionSuccessful"); writer.bool(unreadable.isEmpty && unchecked == nil)
        if let exitStatus { writer.key("exitCode"); writer.integer(Int(exitStatus)) }
        if unchecked != nil {
            writer.key("exitSignalName"); writer.string("SIGINT")
            writer.key("exitSignalNumber"); writer.integer(2)
        }
        if !unreadable.isEmpty || unchecked != nil {
            writer.key("toolExecutionNotifications")
            writer.beginArray()
            if let unchecked {
                writer.beginObject()
                writer.key("level"); writer.string("error")
                writer.key("message"); writer.beginObject()
                writer.key("text"); writer.string(Self.stoppedMessage(unchecked))
                writer.endObject()
                writer.endObject()
            }
            for file in unreadable {
                writer.beginObject()
                writer.key("level"); writer.string("error")
                writer.key("message"); writer.beginObject()
                writer.key("text"); writer.string("\(file.file): \(file.message)")
                writer.endObject()
                writer.endObject()
            }
            writer.endArray()
        }
        writer.endObject()
        writer.endArray()
        writer.key("results")
        writer.beginArray()
        // A result a line: a large report stays readable, and half the size of one indented throughout.
        let lineBreakDepth = writer.lineBreakDepth
        writer.lineBreakDepth = writer.openContainers
        defer { writer.lineBreakDepth = lineBreakDepth }
        try source.forEachResult { result in
            // Sync findings are about a caption file: there, with the media they were timed against beside.
            let (primary, related) = result.findingsLocation
            // Said once for all the result's findings (a file may have hundreds of thousands).
            let primaryLocation = artifactLocation(primary)
            let relatedLocation = related.map(artifactLocation)
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
                writer.key("artifactLocation"); writeArtifactLocation(primaryLocation, to: &writer)
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
                if let relatedLocation {
                    writer.key("relatedLocations")
                    writer.beginArray()
                    writer.beginObject()
                    writer.key("id"); writer.integer(0)
                    writer.key("physicalLocation")
                    writer.beginObject()
                    writer.key("artifactLocation"); writeArtifactLocation(relatedLocation, to: &writer)
                    writer.endObject()
                    writer.key("message"); writer.beginObject(); writer.key("text"); writer.string("the media the captions were timed against");
                    writer.endObject()
                    writer.endObject()
                    writer.endArray()
                }
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

    /// "the run was stopped (Ctrl-C) before 3 files were checked: a.mp4, b.mp4, c.vtt; this report covers the
    /// others only" (at most 20 named).
    static func stoppedMessage(_ unchecked: [String]) -> String {
        let named = unchecked.prefix(20).joined(separator: ", ")
        let more = unchecked.count > 20 ? " and \(unchecked.count - 20) more" : ""
        let files = "\(unchecked.count) file\(unchecked.count == 1 ? " was" : "s were")"
        return "the run was stopped (Ctrl-C) before \(files) checked" + (unchecked.isEmpty ? "" : ": \(named)\(more)")
            + "; this report covers the others only"
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    /// Where an artifact is, as SARIF says it: a URI, relative to `uriBaseId` when there is one.
    struct ArtifactLocation {
        var uri: String
        var baseID: String?
    }

    /// The location of the file at `path`: relative to `baseDirectory` when inside it.
    func artifactLocation(_ path: String) -> ArtifactLocation {
        guard let baseDirectory else { return ArtifactLocation(uri: Self.uri(path)) }
        let absolute = Self.tidy(path.hasPrefix("/") ? path : baseDirectory + "/" + path)
        let prefix = baseDirectory == "/" ? "/" : baseDirectory + "/"
        guard absolute.hasPrefix(prefix) else { return ArtifactLocation(uri: Self.fileURI(absolute)) }
        return ArtifactLocation(uri: Self.uri(String(absolute.dropFirst(prefix.count))), baseID: Self.baseID)
    }

    func writeArtifactLocation(_ location: ArtifactLocation, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("uri"); writer.string(location.uri)
        if let baseID = location.baseID { writer.key("uriBaseId"); writer.string(baseID) }
        writer.endObject()
    }

    /// An absolute path as a `file://` URI.
    static func fileURI(_ absolute: String) -> String { "file://" + uri(absolute) }

    /// An absolute path without `.`, `..` or doubled slashes (links left as they are).
    static func tidy(_ path: String) -> String {
        var names: [Substring] = []
        for name in path.split(separator: "/") {
            switch name {
            case ".": continue
            case "..": _ = names.popLast()
            default: names.append(name)
            }
        }
        return "/" + names.joined(separator: "/")
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
        write(from: ResultArray(results), to: output)
    }

    public func write<Source: ResultSource>(from source: Source, to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) throws(Source.Failure) {
        var writer = JSONWriter(pretty: true, chunkHandler: output)
        try write(from: source, to: &writer)
        writer.endLine()
        writer.finish()
    }
}
