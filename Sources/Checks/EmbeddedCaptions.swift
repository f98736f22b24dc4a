import Captions
import MediaIO

/// An embedded text subtitle track as a caption document: WebVTT tracks become WebVTT (identifiers, settings
/// and markup kept), the others SRT (SubRip markup kept; ASS override blocks mapped to `<i>`, `<b>`, `<u>` or
/// dropped, `\N` made a line break). Cues without an end last until the next cue, at most 5 s.
public enum EmbeddedCaptions {
    /// Reads track `streamIndex` (nil: the first text subtitle track) of the media at `path`. A CEA-608 track
    /// (`eia_608`, QuickTime `c608`) or a video stream carrying 608 data is decoded by `CEA608Decoder` (cue text in
    /// WebVTT's syntax).
    public static func read(path: String, streamIndex: Int?) throws(MediaError) -> CaptionDocument {
        if let streamIndex, let info = try? MediaProbe.probe(path, scan: .never),
            let stream = info.streams.first(where: { $0.index == streamIndex }), stream.codec == "eia_608" || stream.kind == .video
        {
            if stream.kind == .video, !ClosedCaptionReader.videoCarriesCaptions(path: path, streamIndex: streamIndex) {
                throw MediaError(
                    .noSuchStream, path: path,
                    reason: "stream #\(streamIndex) is video without CEA-608 captions in its first second; give a subtitle track")
            }
            let (carriage, chunks) = try ClosedCaptionReader.read(path: path, streamIndex: streamIndex)
            return closedCaptions(chunks, carriage: carriage, mediaEnd: info.duration)
        }
        return document(from: try SubtitleTrackReader.cues(path: path, streamIndex: streamIndex))
    }

    /// 608 data decoded to cues: CC1, or the first channel with captions when CC1 has none (the others that have
    /// some are named in an info diagnostic). A track's pairs are sent a frame apart from their packet's time (as an
    /// SCC line's are); a video frame's pairs take effect at the frame's time. What is on screen when the data ends
    /// stays to `mediaEnd` (the media's duration), if that is later.
    public static func closedCaptions(_ chunks: [ClosedCaptionChunk], carriage: ClosedCaptionCarriage, mediaEnd: Double? = nil) -> CaptionDocument {
        var decoders = CEA608Decoder.Channel.allCases.map { CEA608Decoder(channel: $0) }
        let frame = SMPTETimecode(frame: 1, dropFrame: false).seconds
        var next = [-Double.infinity, -Double.infinity]  // per field: when its next pair can be sent
        var end = 0.0
        for chunk in chunks {
            for (field, first, second) in chunk.pairs608 {
                var time = chunk.time
                if carriage == .track {
                    time = max(chunk.time, next[field - 1])
                    next[field - 1] = time + frame
                }
                end = max(end, time + frame)
                for k in decoders.indices { decoders[k].feed(first, second, time: time, field: field) }
            }
        }
        for k in decoders.indices { decoders[k].finish(at: max(end, mediaEnd ?? 0)) }
        let withCaptions = decoders.filter { !$0.cues.isEmpty }.map(\.channel)
        let chosen = withCaptions.first ?? .cc1
        let decoder = decoders[chosen.rawValue - 1]
        var diagnostics = decoder.diagnostics
        if withCaptions.count > 1 {
            let others = withCaptions.dropFirst().map(\.description).joined(separator: ", ")
            diagnostics.append(CaptionDiagnostic(line: 0, rule: "cea608.channel", severity: .info, message: "read \(chosen); \(others) also has captions"))
        }
        return CaptionDocument(format: .webvtt, cues: decoder.cues, diagnostics: diagnostics)
    }

    /// The cues as a document, written out and read back by the caption readers so that settings and markup
    /// mean exactly what they mean in a file.
    public static func document(from cues: [EmbeddedCue]) -> CaptionDocument {
        let webVTT = cues.contains { $0.markup == .webvtt }
        var text = webVTT ? "WEBVTT\n" : ""
        for (index, cue) in cues.enumerated() {
            let next = index + 1 < cues.count ? cues[index + 1].start : cue.start + 5
            let end = cue.end ?? max(cue.start, min(next, cue.start + 5))
            let body = blockSafe(cue.markup == .ass ? fromASS(cue.text) : cue.text)
            let start = CaptionTime(seconds: max(0, cue.start)), stop = CaptionTime(seconds: max(0, end))
            if webVTT {
                let identifier = cue.identifier.map { blockSafe($0).replacingOccurrences(of: "\n", with: " ") } ?? ""
                text += "\n" + (identifier.isEmpty ? "" : identifier + "\n")
                text += "\(start.webVTTString) --> \(stop.webVTTString)" + (cue.settings.map { " " + blockSafe($0) } ?? "") + "\n"
                text += body + "\n"
            } else {
                text += "\(index + 1)\n\(start.srtString) --> \(stop.srtString)\n\(body)\n\n"
            }
        }
        let bytes = Array(text.utf8)
        var document =
            webVTT
            ? (try? WebVTTReader(mode: .lenient).read(utf8: bytes)) ?? CaptionDocument(format: .webvtt)
            : (try? SRTReader().read(utf8: bytes)) ?? CaptionDocument(format: .srt)
        // Lines of the text written here mean nothing in the media file.
        for index in document.cues.indices { document.cues[index].line = 0 }
        document.diagnostics = document.diagnostics.map {
            var diagnostic = $0; diagnostic.line = 0; diagnostic.column = 0; return diagnostic
        }
        return document
    }

    /// Text that cannot end its block early or be read as a timing line: no blank lines, no `-->`.
    static func blockSafe(_ text: String) -> String {
        text.replacingOccurrences(of: "\r", with: "").split(separator: "\n", omittingEmptySubsequences: true)
            .joined(separator: "\n").replacingOccurrences(of: "-->", with: "->")
    }

    /// ASS dialogue text as SRT text.
    static func fromASS(_ text: String) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            // An override block ends before the next "{" (searching no further keeps this linear).
            if character == "{", let close = text[text.index(after: index)...].prefix(while: { $0 != "{" }).firstIndex(of: "}") {
                for tag in text[text.index(after: index)..<close].split(separator: "\\") {
                    switch tag {
                    case "i1": result += "<i>"
                    case "i0": result += "</i>"
                    case "b1": result += "<b>"
                    case "b0": result += "</b>"
                    case "u1": result += "<u>"
                    case "u0": result += "</u>"
                    default: break
                    }
                }
                index = text.index(after: close)
                continue
            }
            if character == "\\", let next = text.index(index, offsetBy: 1, limitedBy: text.endIndex), next < text.endIndex {
                switch text[next] {
                case "N", "n": result += "\n"; index = text.index(after: next); continue
                case "h": result += "\u{00A0}"; index = text.index(after: next); continue
                default: break
                }
            }
            result.append(character)
            index = text.index(after: index)
        }
        return result
    }
}
