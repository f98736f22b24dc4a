import Basics
import Captions
import Findings
import Reports

/// The JSON of `medialint cues` (docs/cli.md): `{"tool", "version", "file", "format", "encoding", "cues": [{"id",
/// "start", "end", "text", "voice"?, "settings", "markup"}], "diagnostics"}`, written cue by cue.
enum CuesReport {
    static func write(_ document: CaptionDocument, file: String, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("tool"); writer.string(ToolInfo.name)
        writer.key("version"); writer.string(ToolInfo.version)
        writer.key("file"); writer.string(file)
        writer.key("format"); writer.string(document.format.rawValue)
        writer.key("encoding"); writer.string(document.encoding)
        writer.key("cues")
        writer.beginArray()
        // A very long cue (one line of 100 MB) is written by the streaming writer itself, which hands a long string
        // on in pieces; otherwise long files go in slices on all cores, each slice by its own writer, added in order.
        if document.cues.contains(where: { $0.text.utf8.count >= 1 << 20 }) {
            for cue in document.cues { writeCue(cue, format: document.format, to: &writer) }
            writer.endArray()
            writeDiagnostics(document.diagnostics, to: &writer)
            return
        }
        let pretty = writer.pretty
        // Each slice keeps its writer (and its buffer) from window to window.
        OrderedParallelRendering.render(count: document.cues.count, state: SliceWriter?.none) { range, slice in
            let cues = slice.state ?? SliceWriter(pretty: pretty)
            slice.state = cues
            cues.writer.restartElements(atDepth: 2, afterFirst: range.lowerBound > 0)
            for index in range { writeCue(document.cues[index], format: document.format, to: &cues.writer) }
            cues.count = range.count
        } windowDone: { slices in
            for slice in slices {
                guard let cues = slice.state else { continue }
                writer.appendElements(of: cues.writer, count: cues.count)
                cues.count = 0
            }
        }
        writer.endArray()
        writeDiagnostics(document.diagnostics, to: &writer)
    }

    /// The writer of one slice of the cues array, and how many cues it holds.
    private final class SliceWriter {
        var writer: JSONWriter
        var count = 0
        init(pretty: Bool) { writer = JSONWriter(pretty: pretty, elementsOfArrayAtDepth: 2, afterFirst: false, capacity: 1 << 20) }
    }

    /// The diagnostics member, and the end of the report.
    private static func writeDiagnostics(_ diagnostics: [CaptionDiagnostic], to writer: inout JSONWriter) {
        writer.key("diagnostics")
        writer.beginArray()
        for diagnostic in diagnostics {
            writer.beginObject()
            writer.key("line"); writer.integer(diagnostic.line)
            writer.key("column"); writer.integer(diagnostic.column)
            writer.key("rule"); writer.string(diagnostic.rule)
            writer.key("severity"); writer.string(diagnostic.severity.rawValue)
            writer.key("message"); writer.string(diagnostic.message)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    private static func writeCue(_ cue: Cue, format: CaptionFormat, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id"); writer.string(cue.identifier)
        writer.key("start"); writer.number(thousandths: cue.start.milliseconds)
        writer.key("end"); writer.number(thousandths: cue.end.milliseconds)
        let text = cue.plainText(in: format)
        writer.key("text")
        // Text without markup is its own markup: escaped once, copied for the second.
        let written = writer.stringMarkingBytes(text)
        if format.markup == .webvtt, let voice = cue.firstVoice { writer.key("voice"); writer.string(voice) }
        writer.key("settings")
        writeSettings(cue, format: format, to: &writer)
        writer.key("markup")
        if let written, text.utf8.count == cue.text.utf8.count, text == cue.text {
            writer.string(copying: written)
        } else {
            writer.string(cue.text)
        }
        writer.endObject()
    }

    /// The settings that differ from the defaults, by their WebVTT names (SRT: its coordinates and `{\anN}`).
    private static func writeSettings(_ cue: Cue, format: CaptionFormat, to writer: inout JSONWriter) {
        writer.beginObject()
        let alignment = format.markup == .srt ? SRTMarkup.alignment(of: cue.text) : nil
        if !cue.hasDefaultSettings {
            let s = cue.settings
            if s.vertical != .horizontal { writer.key("vertical"); writer.string(s.vertical.rawValue) }
            if let line = s.line {
                writer.key("line"); writer.number(line)
                writer.key("snapToLines"); writer.bool(s.snapToLines)
                writer.key("lineAlign"); writer.string(s.lineAlign.rawValue)
            }
            if let position = s.position {
                writer.key("position"); writer.number(position)
                writer.key("positionAlign"); writer.string(s.positionAlign.rawValue)
            }
            if s.size != 100 { writer.key("size"); writer.number(s.size) }
            if s.align != .center { writer.key("align"); writer.string(s.align.rawValue) }
            if let region = s.region { writer.key("region"); writer.string(region) }
            if let coordinates = s.srtCoordinates { writer.key("srtCoordinates"); writer.string(coordinates) }
        }
        if let alignment { writer.key("srtAlignment"); writer.integer(alignment) }
        writer.endObject()
    }
}
