/// Reads Scenarist SCC files: after the `Scenarist_SCC V1.0` line, lines of a timecode (29.97 fps, drop-frame with
/// `;`) and CEA-608 byte pairs as four hex digits each. The pairs are sent one a frame from the line's timecode, so
/// the nth pair of a line takes effect n frames after it (a pop-on caption shows at its End Of Caption, not at its
/// line's timecode); a line whose timecode comes before the previous line's pairs are all sent follows them.
///
/// SCC carries field 1: channels CC1 and CC2. Lenient: bad words, bad timecodes and parity errors become
/// diagnostics; only a file with no SCC line at all is refused (the header alone is an SCC file without captions).
public struct SCCReader: Sendable {
    /// The channel to read; nil: CC1, or CC2 when only CC2 has captions.
    public var channel: CEA608Decoder.Channel?

    public init(channel: CEA608Decoder.Channel? = nil) {
        self.channel = channel
    }

    /// What an SCC file holds.
    public struct Content: Sendable {
        public var cues: [Cue]
        public var diagnostics: [CaptionDiagnostic]
        /// The channel read.
        public var channel: CEA608Decoder.Channel
        /// The channels with captions (of CC1 and CC2).
        public var channelsWithCaptions: [CEA608Decoder.Channel]
        /// The caption modes met on the channel read.
        public var modes: [CEA608Decoder.Mode]
        /// Whether the timecodes are drop-frame (the first timecode says).
        public var dropFrame: Bool

        /// The cues as a caption document (the reader's notes, and which channel was read, in its diagnostics).
        public var document: CaptionDocument {
            var notes = diagnostics
            if channelsWithCaptions.count > 1 {
                let others = channelsWithCaptions.filter { $0 != channel }.map(\.description).joined(separator: ", ")
                notes.append(CaptionDiagnostic(line: 0, rule: "scc.channel", severity: .info, message: "read \(channel); \(others) also has captions"))
            }
            var document = CaptionDocument(format: .scc, cues: cues, diagnostics: notes, encoding: "ascii")
            document.timeStep = Double(SMPTETimecode.rate.per) / Double(SMPTETimecode.rate.frames)
            return document
        }
    }

    public func read(_ bytes: [UInt8]) throws(CaptionError) -> Content {
        let result: Result<Content, CaptionError> = bytes.withUnsafeBytes { buffer in
            do throws(CaptionError) { return .success(try read(buffer: buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    func read(buffer: UnsafeRawBufferPointer) throws(CaptionError) -> Content {
        var decoders = [CEA608Decoder(channel: .cc1), CEA608Decoder(channel: .cc2)]
        var diagnostics: [CaptionDiagnostic] = []
        func note(_ line: Int, _ severity: CaptionDiagnostic.Severity, _ message: String) {
            if diagnostics.count < 1000 { diagnostics.append(CaptionDiagnostic(line: line, rule: "scc.read", severity: severity, message: message)) }
        }
        if let requested = channel, requested.field != 1 {
            throw CaptionError(rule: "scc.channel", message: "SCC files carry CC1 and CC2 only (field 1), not \(requested)")
        }
        var lineNumber = 0
        var sawHeader = false
        var dataLines = 0
        var nextFrame = 0
        var lastFrame = 0
        var dropFrame: Bool?
        var start = 0
        let count = buffer.count
        while start < count {
            var end = start
            while end < count && buffer[end] != 0x0A && buffer[end] != 0x0D { end += 1 }
            lineNumber += 1
            let line = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
            // Next line: after \n, \r or \r\n.
            start = end < count && buffer[end] == 0x0D && end + 1 < count && buffer[end + 1] == 0x0A ? end + 2 : end + 1
            let fields = line.split { $0 == 0x20 || $0 == 0x09 }
            guard let first = fields.first else { continue }
            if !sawHeader && dataLines == 0 {
                if Array(first) == Array("Scenarist_SCC".utf8) {
                    sawHeader = true
                    continue
                }
                note(lineNumber, .warning, "the file does not begin with `Scenarist_SCC V1.0`")
                sawHeader = true
            }
            guard let timecode = SMPTETimecode(parsing: first) else {
                note(lineNumber, .warning, "a line that does not begin with a timecode is ignored")
                continue
            }
            dataLines += 1
            if dropFrame == nil { dropFrame = timecode.dropFrame }
            var frame = timecode.frame
            if frame < nextFrame {
                if frame < lastFrame - 1 { note(lineNumber, .warning, "timecode \(timecode) is earlier than the line before's") }
                note(
                    lineNumber, .info,
                    "the pairs of timecode \(timecode) follow the previous line's (sent until \(SMPTETimecode(frame: nextFrame - 1, dropFrame: timecode.dropFrame)))"
                )
                frame = nextFrame
            }
            lastFrame = timecode.frame
            for word in fields.dropFirst() {
                guard word.count == 4, let value = Self.hexWord(word) else {
                    note(lineNumber, .warning, "`\(String(decoding: word.prefix(16), as: UTF8.self))` is not a pair of bytes in hex (four digits): left out")
                    frame += 1
                    continue
                }
                let time = SMPTETimecode(frame: frame, dropFrame: false).seconds
                for k in decoders.indices { decoders[k].feed(UInt8(value >> 8), UInt8(value & 0xFF), time: time, field: 1, line: lineNumber) }
                frame += 1
            }
            nextFrame = frame
        }
        guard dataLines > 0 || sawHeader && diagnostics.isEmpty else {
            throw CaptionError(rule: "scc.no-captions", message: "no SCC data: lines of a timecode and hex byte pairs were expected")
        }
        let endTime = SMPTETimecode(frame: nextFrame, dropFrame: false).seconds
        for k in decoders.indices { decoders[k].finish(at: endTime) }
        let withCaptions = decoders.filter { !$0.cues.isEmpty }.map(\.channel)
        let chosen = channel ?? (withCaptions.first ?? .cc1)
        let decoder = decoders[chosen.rawValue - 1]
        return Content(
            cues: decoder.cues, diagnostics: diagnostics + decoder.diagnostics, channel: chosen,
            channelsWithCaptions: withCaptions, modes: decoder.modesUsed, dropFrame: dropFrame ?? true)
    }

    private static func hexWord(_ bytes: some Collection<UInt8>) -> UInt16? {
        var value: UInt16 = 0
        for byte in bytes {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }
}
