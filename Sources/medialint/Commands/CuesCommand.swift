import ArgumentParser
import Captions
import Reports

/// `medialint cues CAPTIONS`: the parsed cues, as a table or JSON.
struct CuesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cues",
        abstract: "Show the cues of a WebVTT or SRT file, or of a media file's embedded track, as MediaLint reads them.",
        discussion: """
            The text column is the cue text with markup removed and character references decoded. What the \
            reader had to recover from (a dropped cue, an ignored setting, a guessed encoding) is listed on \
            standard error. --strict also reports every deviation from the WebVTT syntax. For a video with \
            embedded captions, give its text subtitle track: medialint cues film.mkv --track 2
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Argument(help: ArgumentHelp("The caption file (.vtt or .srt; other names are sniffed), or a media file with --track.", valueName: "captions"))
    var captions: String

    @Option(help: "Output format.")
    var format: Format = .text

    @Flag(help: "Validate: report every deviation from the WebVTT syntax, including inside cue text.")
    var strict = false

    @OptionGroup var input: CaptionInputOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let document = try input.read(captions, mode: strict ? .strict : .lenient)
        switch format {
        case .text:
            try output.emit(CueTable(style: output.textStyle).render(document))
            Diagnostics.print(document.diagnostics, file: captions)
        case .json:
            try output.emit(try JSONValueEncoder().encode(CuesReport(document)).serialized(pretty: true) + "\n")
        }
    }
}

/// The JSON of `medialint cues` (cli.md).
struct CuesReport: Encodable {
    struct Entry: Encodable {
        var id: String
        var start: Double
        var end: Double
        var text: String
        var voice: String?
        var settings: JSONValue
        var markup: String
    }

    var format: String
    var encoding: String
    var cues: [Entry]
    var diagnostics: [CaptionDiagnostic]

    init(_ document: CaptionDocument) {
        format = document.format.rawValue
        encoding = document.encoding
        diagnostics = document.diagnostics
        cues = document.cues.map { cue in
            let nodes = document.format == .webvtt ? cue.nodes : SRTMarkup.nodes(of: cue.text)
            return Entry(id: cue.identifier, start: cue.start.seconds, end: cue.end.seconds, text: CueNode.plainText(of: nodes),
                         voice: Self.firstVoice(in: nodes), settings: Self.settings(cue.settings, srtAlignment: document.format == .srt ? SRTMarkup.alignment(of: cue.text) : nil),
                         markup: cue.text)
        }
    }

    private static func firstVoice(in nodes: [CueNode]) -> String? {
        for node in nodes {
            guard case .element(let element) = node else { continue }
            if element.kind == .voice, !element.annotation.isEmpty { return element.annotation }
            if let voice = firstVoice(in: element.children) { return voice }
        }
        return nil
    }

    /// The settings that differ from the defaults, by their WebVTT names.
    private static func settings(_ s: CueSettings, srtAlignment: Int?) -> JSONValue {
        var out = OrderedMembers()
        if s.vertical != .horizontal { out["vertical"] = .string(s.vertical.rawValue) }
        if let line = s.line {
            out["line"] = .number(line)
            out["snapToLines"] = .bool(s.snapToLines)
            out["lineAlign"] = .string(s.lineAlign.rawValue)
        }
        if let position = s.position {
            out["position"] = .number(position)
            out["positionAlign"] = .string(s.positionAlign.rawValue)
        }
        if s.size != 100 { out["size"] = .number(s.size) }
        if s.align != .center { out["align"] = .string(s.align.rawValue) }
        if let region = s.region { out["region"] = .string(region) }
        if let coordinates = s.srtCoordinates { out["srtCoordinates"] = .string(coordinates) }
        if let srtAlignment { out["srtAlignment"] = .integer(Int64(srtAlignment)) }
        return .object(out.members)
    }

    /// Object members in the order they are set.
    private struct OrderedMembers {
        var members: [(key: String, value: JSONValue)] = []
        subscript(key: String) -> JSONValue? {
            get { members.first { $0.key == key }?.value }
            set { if let newValue { members.append((key, newValue)) } }
        }
    }
}

/// The text form: one line per cue.
struct CueTable {
    let style: TextStyle

    func render(_ document: CaptionDocument) -> String {
        var lines = [style.bold("\(document.cues.count) cue\(document.cues.count == 1 ? "" : "s")") + style.dim(" · \(document.format.rawValue) · \(document.encoding)")]
        let width = String(document.cues.count).count
        for (index, cue) in document.cues.enumerated() {
            let number = String(index + 1)
            let nodes = document.format == .webvtt ? cue.nodes : SRTMarkup.nodes(of: cue.text)
            let text = CueNode.plainText(of: nodes).replacingOccurrences(of: "\n", with: style.dim(" ⏎ "))
            lines.append(String(repeating: " ", count: width - number.count) + number + "  "
                         + style.cyan("\(cue.start) → \(cue.end)") + "  " + text)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
