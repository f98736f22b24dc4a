import CFFmpeg

/// How an embedded cue's text is marked up.
public enum SubtitleMarkup: String, Sendable, Codable {
    /// SubRip: `<i>`, `<b>`, `<font>` tags as written in an SRT file.
    case srt
    /// WebVTT cue text (`<v Name>`, `<c.class>`, entities …).
    case webvtt
    /// ASS/SSA dialogue text: `{\i1}` override blocks, `\N` line breaks (also what mov_text decodes to).
    case ass
    /// Plain text.
    case plain
}

/// One cue of an embedded text subtitle track.
public struct EmbeddedCue: Sendable, Equatable {
    /// Start and end in seconds on the media's timeline; `end` is nil when the track does not say.
    public var start: Double
    public var end: Double?
    /// The cue's text as the track carries it (see `markup`).
    public var text: String
    public var markup: SubtitleMarkup
    /// WebVTT tracks: the cue identifier and settings line, when present.
    public var identifier: String?
    public var settings: String?

    public init(
        start: Double, end: Double?, text: String, markup: SubtitleMarkup, identifier: String? = nil,
        settings: String? = nil
    ) {
        self.start = start
        self.end = end
        self.text = text
        self.markup = markup
        self.identifier = identifier
        self.settings = settings
    }
}

/// Reads the cues of embedded text subtitle tracks (subrip, webvtt, mov_text, ass/ssa, text).
public enum SubtitleTrackReader {
    /// All cues of the text subtitle track `streamIndex` (nil: the first text subtitle track), in file order.
    public static func cues(path: String, streamIndex: Int? = nil) throws(MediaError) -> [EmbeddedCue] {
        let input = try InputContainer(path: path)
        let stream = try textSubtitleStream(in: input, index: streamIndex)
        input.discardAll(except: [stream.pointee.index])
        let codecID = stream.pointee.codecpar.pointee.codec_id
        let raw: SubtitleMarkup? =
            switch codecID {
            case AV_CODEC_ID_SUBRIP: .srt
            case AV_CODEC_ID_WEBVTT: .webvtt
            case AV_CODEC_ID_TEXT: .plain
            default: nil
            }
        // Raw tracks keep their text as written; the others are decoded to ASS dialogue text.
        let codec = raw == nil ? try CodecContext(stream: stream, path: path) : nil
        let timeBase = stream.pointee.time_base
        let nopts = mlav_nopts_value()
        let packet = Packet()
        var cues: [EmbeddedCue] = []
        while try input.readPacket(into: packet) {
            let p = packet.pointer.pointee
            guard p.stream_index == stream.pointee.index else { continue }
            let timestamp = p.pts != nopts ? p.pts : p.dts
            guard timestamp != nopts else { continue }
            let start = seconds(timestamp, timeBase)
            var end = p.duration > 0 ? seconds(timestamp + p.duration, timeBase) : nil
            if let raw {
                var cue = EmbeddedCue(start: start, end: end, text: payloadText(packet), markup: raw)
                if raw == .webvtt {
                    cue.identifier = sideDataText(packet, AV_PKT_DATA_WEBVTT_IDENTIFIER)
                    cue.settings = sideDataText(packet, AV_PKT_DATA_WEBVTT_SETTINGS)
                }
                cues.append(cue)
            } else if let codec {
                guard let decoded = decode(packet, with: codec) else { continue }
                if end == nil, decoded.displayMilliseconds > 0 {
                    end = start + Double(decoded.displayMilliseconds) / 1000
                }
                cues.append(EmbeddedCue(start: start, end: end, text: decoded.text, markup: .ass))
            }
        }
        return cues
    }

    private static func textSubtitleStream(in input: InputContainer, index: Int?) throws(MediaError) -> UnsafeMutablePointer<AVStream> {
        let stream: UnsafeMutablePointer<AVStream>
        if let index {
            stream = try input.selectStream(index, kind: .subtitle)
        } else {
            guard let first = input.streams.first(where: isTextSubtitle) else {
                throw MediaError(.noSuchStream, path: input.path, reason: "the file has no text subtitle track")
            }
            stream = first
        }
        guard isTextSubtitle(stream) else {
            throw MediaError(
                .noSuchStream, path: input.path,
                reason:
                    "stream #\(stream.pointee.index) is a bitmap subtitle track (\(codecName(stream.pointee.codecpar.pointee.codec_id))); only text tracks can be read"
            )
        }
        return stream
    }

    private static func isTextSubtitle(_ stream: UnsafeMutablePointer<AVStream>) -> Bool {
        let parameters = stream.pointee.codecpar.pointee
        guard parameters.codec_type == AVMEDIA_TYPE_SUBTITLE else { return false }
        return (avcodec_descriptor_get(parameters.codec_id)?.pointee.props ?? 0) & AV_CODEC_PROP_TEXT_SUB != 0
    }

    /// The packet's payload as text (invalid UTF-8 repaired, trailing NULs and newlines dropped).
    private static func payloadText(_ packet: Packet) -> String {
        let p = packet.pointer.pointee
        guard let data = p.data, p.size > 0 else { return "" }
        let bytes = UnsafeBufferPointer(start: data, count: Int(p.size))
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0 || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        return String(decoding: bytes.prefix(end), as: UTF8.self)
    }

    private static func sideDataText(_ packet: Packet, _ type: AVPacketSideDataType) -> String? {
        var size: Int = 0
        guard let data = av_packet_get_side_data(packet.pointer, type, &size), size > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    }

    /// Decodes a packet to the dialogue text of its ASS events (joined by `\N`) and its display time.
    private static func decode(_ packet: Packet, with codec: CodecContext) -> (text: String, displayMilliseconds: UInt32)? {
        var subtitle = AVSubtitle()
        var gotSubtitle: Int32 = 0
        let status = avcodec_decode_subtitle2(codec.pointer, &subtitle, &gotSubtitle, packet.pointer)
        guard status >= 0, gotSubtitle != 0 else { return nil }
        defer { avsubtitle_free(&subtitle) }
        var lines: [String] = []
        for i in 0..<Int(subtitle.num_rects) {
            guard let rect = subtitle.rects[i]?.pointee else { continue }
            if let ass = cString(rect.ass) {
                lines.append(dialogueText(ofASSEvent: ass))
            } else if let text = cString(rect.text) {
                lines.append(text)
            }
        }
        guard !lines.isEmpty else { return nil }
        let display = subtitle.end_display_time > subtitle.start_display_time ? subtitle.end_display_time - subtitle.start_display_time : 0
        return (lines.joined(separator: "\\N"), display)
    }

    /// The Text field of an ASS event as libavcodec gives it:
    /// `ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text` (the text may contain commas).
    static func dialogueText(ofASSEvent event: String) -> String {
        let fields = event.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false)
        let text = fields.count == 9 ? String(fields[8]) : event
        return text.trimmingWhitespace()
    }
}
