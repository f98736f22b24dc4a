/// Writes SAMI (`.smi`) in UTF-8: a style sheet with one language class, then per cue a `<SYNC Start=ms>` with its
/// paragraph and, where the next cue does not follow at once, a `<SYNC>` whose paragraph is `&nbsp;` (which clears).
/// Italics, bold and underline are written as tags and line breaks as `<br>`; SAMI shows one caption at a time, so a
/// cue that overlaps the next ends where it starts (said), as do voices, classes, positions (said, not written).
public struct SAMIWriter: Sendable {
    /// The language class written: `.KRCC { Name: Korean; lang: ko-KR; SAMIType: CC; }` (nil: a document read from
    /// SAMI keeps its own, else `.CC { Name: Captions; SAMIType: CC; }`).
    public var classDefinition: String?

    public init(classDefinition: String? = nil) { self.classDefinition = classDefinition }

    /// Writes `count` cues (`cue(i)`: its text in WebVTT's syntax), handing the output to `sink` a chunk at a time.
    /// `header` is the document's (a SAMI document's class definition).
    func write(count: Int, header: String, cue: (Int) -> Cue, to sink: (inout [UInt8]) -> Void) -> [CaptionDiagnostic] {
        let definition = classDefinition ?? (header.hasPrefix(".") && header.hasSuffix("}") ? header : ".CC { Name: Captions; SAMIType: CC; }")
        let className = String(definition.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
        var out: [UInt8] = []
        out.reserveCapacity(captionWriterChunkSize + 4096)
        out += Array(
            """
            <SAMI>
            <HEAD>
            <STYLE TYPE="text/css">
            <!--
            P { margin-left: 8pt; margin-right: 8pt; margin-bottom: 2pt; margin-top: 2pt; text-align: center; font-size: 14pt; font-family: Arial, sans-serif; color: white; }
            \(definition)
            -->
            </STYLE>
            </HEAD>
            <BODY>

            """.utf8)
        var losses = LossNotes(format: "SAMI")
        // The cues SAMI can show: with text, and time to show it in.
        var shown: [(start: CaptionTime, end: CaptionTime, paragraph: [UInt8], number: Int)] = []
        for index in 0..<count {
            let cue = cue(index)
            if !cue.hasDefaultSettings { losses.note("positions or alignment", cue: index + 1) }
            guard let paragraph = Self.paragraph(cue.text, number: index + 1, losses: &losses) else {
                losses.note("captions with no text (a paragraph of nothing clears)", cue: index + 1)
                continue
            }
            guard cue.end > cue.start else {
                losses.note("captions with no duration", cue: index + 1)
                continue
            }
            shown.append((cue.start, cue.end, paragraph, index + 1))
        }
        // A SAMI file is a timeline: its SYNCs in order of time (a player reads them so).
        if zip(shown, shown.dropFirst()).contains(where: { $0.start > $1.start }) {
            losses.note("captions out of order of time (written in order)", cue: zip(shown, shown.dropFirst()).first { $0.start > $1.start }!.1.number)
            shown = shown.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        }
        for (k, this) in shown.enumerated() {
            let next = k + 1 < shown.count ? shown[k + 1] : nil
            var end = this.end
            if let next, next.start <= this.start {
                // Another caption at the same time replaces it at once: it never shows.
                losses.note("captions shown at once (SAMI shows one at a time: a caption ends where the next begins)", cue: this.number)
                continue
            }
            if let next, next.start < this.end {
                losses.note("captions shown at once (SAMI shows one at a time: a caption ends where the next begins)", cue: this.number)
                end = max(this.start, next.start)
            }
            Self.appendSync(this.start, to: &out)
            out += Array("<P Class=\(className)>".utf8)
            out += this.paragraph
            out.append(0x0A)
            if next.map({ $0.start > end }) ?? true {
                Self.appendSync(end, to: &out)
                out += Array("<P Class=\(className)>&nbsp;\n".utf8)
            }
            if out.count >= captionWriterChunkSize { sink(&out) }
        }
        out += Array("</BODY>\n</SAMI>\n".utf8)
        sink(&out)
        return losses.diagnostics
    }

    static func appendSync(_ time: CaptionTime, to out: inout [UInt8]) {
        out += Array("<SYNC Start=\(max(0, time.milliseconds))>".utf8)
    }

    /// WebVTT cue text as a SAMI paragraph's: text escaped, `<i>`, `<b>`, `<u>` kept, line breaks as `<br>`. Spaces
    /// are written as SAMI's reader (HTML's rule) will read them — runs as one, none at a line's start or end, no
    /// blank lines at the start or end — so that what is written reads back the same. Nil when nothing would show.
    static func paragraph(_ text: String, number: Int, losses: inout LossNotes) -> [UInt8]? {
        var out: [UInt8] = []
        var rubyText = 0
        var pendingSpace = false
        var visible = false
        var lineStart: Bool { out.isEmpty || out.last == 0x0A }
        // Tags opened with nothing shown inside them yet: written before the next character shown, or never (SAMI's
        // reader drops a tag with nothing inside it).
        var pendingOpen: [CueElement.Kind] = []
        CueTextParser.walk(text) { event in
            switch event {
            case .text(let value):
                guard rubyText == 0 else { return }
                for byte in value.utf8 {
                    switch byte {
                    case 0x0A:
                        out.append(0x0A)
                        pendingSpace = false
                    case 0x20, 0x09, 0x0D, 0x0C:
                        if !lineStart { pendingSpace = true }
                    default:
                        if pendingSpace { out.append(0x20) }
                        pendingSpace = false
                        for kind in pendingOpen { out += Array("<\(kind.rawValue)>".utf8) }
                        pendingOpen = []
                        visible = true
                        WebVTTEscaping.append(byte, to: &out)
                    }
                }
            case .timestamp: losses.note("timestamps inside captions (karaoke)", cue: number)
            case .start(let element):
                switch element.kind {
                case .italic, .bold, .underline: pendingOpen.append(element.kind)
                case .voice: losses.note("speakers' tags (<v>)", cue: number)
                case .rubyText:
                    rubyText += 1
                    losses.note("ruby text", cue: number)
                default: losses.note("classes and languages of text (<c>, <lang>)", cue: number)
                }
            case .end(let kind):
                switch kind {
                case .italic, .bold, .underline:
                    if let pending = pendingOpen.lastIndex(of: kind) {
                        pendingOpen.remove(at: pending)
                        break
                    }
                    if pendingSpace { out.append(0x20) }
                    pendingSpace = false
                    out += Array("</\(kind.rawValue)>".utf8)
                case .rubyText: rubyText -= 1
                default: break
                }
            }
        }
        guard visible else { return nil }
        // Line breaks at the very start or end are not read back.
        var lower = 0, upper = out.count
        while lower < upper, out[lower] == 0x0A { lower += 1 }
        while upper > lower, out[upper - 1] == 0x0A { upper -= 1 }
        var result: [UInt8] = []
        result.reserveCapacity(upper - lower + 16)
        for byte in out[lower..<upper] {
            if byte == 0x0A { result += Array("<br>".utf8) } else { result.append(byte) }
        }
        return result
    }
}
