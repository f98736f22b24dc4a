/// Writes Advanced SubStation Alpha (`.ass`, v4.00+): a script on a 384×288 canvas with one `Default` style (white
/// Arial, outlined, bottom centre), and a `Dialogue` line per cue. Italics, bold and underline become `\i`, `\b`, `\u`
/// overrides, line breaks `\N`, a speaker's `<v>` the event's Name, alignment and position `\an` and `\pos`. Times are
/// in hundredths of a second (finer ones are rounded, and said); classes, ruby and karaoke timestamps are said lost.
public struct ASSWriter: Sendable {
    public init() {}

    static let header = """
        [Script Info]
        ; Written by MediaLint
        ScriptType: v4.00+
        PlayResX: 384
        PlayResY: 288
        WrapStyle: 0
        ScaledBorderAndShadow: yes

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,2,1,2,10,10,10,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

        """

    /// Writes `count` cues (`cue(i)`: its text in WebVTT's syntax), handing the output to `sink` a chunk at a time.
    func write(count: Int, cue: (Int) -> Cue, to sink: (inout [UInt8]) -> Void) -> [CaptionDiagnostic] {
        var out: [UInt8] = []
        out.reserveCapacity(captionWriterChunkSize + 4096)
        out += Array(Self.header.utf8)
        var losses = LossNotes(format: "ASS")
        for index in 0..<count {
            let cue = cue(index)
            if cue.start.milliseconds % 10 != 0 || cue.end.milliseconds % 10 != 0 {
                losses.note("times finer than a hundredth of a second (rounded)", cue: index + 1)
            }
            out += Array("Dialogue: 0,".utf8)
            Self.appendTime(cue.start, to: &out)
            out.append(0x2C)
            Self.appendTime(cue.end, to: &out)
            let (text, name) = Self.text(cue, number: index + 1, losses: &losses)
            out += Array(",Default,\(name),0,0,0,,".utf8)
            out += text
            out.append(0x0A)
            if out.count >= captionWriterChunkSize { sink(&out) }
        }
        sink(&out)
        return losses.diagnostics
    }

    /// A voice's name as an event's Name holds it and the reader reads it back: no commas (the field separator), no
    /// `<`, `>`, `&` or control characters, runs of spaces as one, none at either end.
    static func speakerName(_ annotation: String) -> String {
        String(String.UnicodeScalarView(annotation.unicodeScalars.filter(ASSText.isKeptInName))).split(whereSeparator: { $0 == "," || $0 == " " }).joined(
            separator: " ")
    }

    /// `H:MM:SS.cc`, rounded to the nearest hundredth.
    static func appendTime(_ time: CaptionTime, to out: inout [UInt8]) {
        let centis = (min(max(0, time.milliseconds), Int64.max - 5) + 5) / 10
        out += Array(String(centis / 360_000).utf8)
        out.append(0x3A)
        SBVWriter.appendTwo(Int(centis / 6000 % 60), to: &out)
        out.append(0x3A)
        SBVWriter.appendTwo(Int(centis / 100 % 60), to: &out)
        out.append(0x2E)
        SBVWriter.appendTwo(Int(centis % 100), to: &out)
    }

    /// The event's Text (its alignment first, as an override block) and Name (the first speaker's).
    static func text(_ cue: Cue, number: Int, losses: inout LossNotes) -> (text: [UInt8], name: String) {
        var out: [UInt8] = []
        if let overrides = placement(cue.settings) { out += Array("{\(overrides)}".utf8) }
        var name = ""
        var rubyText = 0
        // Spaces are written as the reader reads them: none at a line's start or end (they show nothing), the others
        // where they were, before any tags that follow them.
        var pendingSpaces = 0, pendingAt = 0, lineHasText = false
        var pendingBreaks = 0, wroteVisible = false
        // Tags opened with nothing shown inside them yet: written before the next character shown, or never.
        var pendingOpen: [CueElement.Kind] = []
        // How deep each style is open: ASS switches a style on and off, it does not nest.
        var depth: [CueElement.Kind: Int] = [:]
        let overrides: [CueElement.Kind: (on: String, off: String)] = [
            .italic: ("{\\i1}", "{\\i0}"), .bold: ("{\\b1}", "{\\b0}"), .underline: ("{\\u1}", "{\\u0}"),
        ]
        CueTextParser.walk(cue.text) { event in
            switch event {
            case .text(let value):
                guard rubyText == 0 else { return }
                for byte in value.utf8 {
                    switch byte {
                    case 0x0A:
                        // A line break is written before the next character shown (none before the first or after the
                        // last: the reader shows none there).
                        if wroteVisible { pendingBreaks += 1 }
                        (pendingSpaces, lineHasText) = (0, false)
                    case 0x0D: break
                    case 0x20, 0x09:
                        guard lineHasText else { continue }
                        if pendingSpaces == 0 { pendingAt = out.count }
                        pendingSpaces += 1
                    default:
                        for _ in 0..<pendingBreaks { out += [0x5C, 0x4E] }  // \N
                        pendingBreaks = 0
                        wroteVisible = true
                        if pendingSpaces > 0 { out.insert(contentsOf: repeatElement(0x20, count: pendingSpaces), at: pendingAt) }
                        pendingSpaces = 0
                        for kind in pendingOpen { out += Array(overrides[kind]!.on.utf8) }
                        pendingOpen = []
                        lineHasText = true
                        if byte == 0x7B || byte == 0x7D {  // braces would open an override block: written as parentheses
                            losses.note("braces in text (written as parentheses)", cue: number)
                            out.append(byte == 0x7B ? 0x28 : 0x29)
                        } else if byte < 0x20 || byte == 0x7F {
                            out += [0xEF, 0xBF, 0xBD]  // a control character: U+FFFD, as it is read
                        } else if byte == 0x5C {
                            // `\N`, `\n` and `\h` are line breaks and spaces in ASS, and it has no escape: a backslash
                            // is written as a fullwidth one (＼).
                            losses.note("backslashes (written as ＼: ASS reads \\N, \\n and \\h as breaks and spaces)", cue: number)
                            out += [0xEF, 0xBC, 0xBC]
                        } else {
                            out.append(byte)
                        }
                    }
                }
            case .timestamp: losses.note("timestamps inside captions (karaoke)", cue: number)
            case .start(let element):
                switch element.kind {
                case .italic, .bold, .underline:
                    depth[element.kind, default: 0] += 1
                    guard depth[element.kind] == 1 else { break }
                    // Closed and opened again with nothing shown between: one run, as the reader reads it.
                    let off = Array(overrides[element.kind]!.off.utf8)
                    if out.count >= off.count, out.suffix(off.count).elementsEqual(off) {
                        out.removeLast(off.count)
                        pendingAt = min(pendingAt, out.count)
                    } else {
                        pendingOpen.append(element.kind)
                    }
                case .voice:
                    if name.isEmpty {
                        name = Self.speakerName(element.annotation)
                    } else if name != Self.speakerName(element.annotation) {
                        losses.note("more than one speaker in a caption (the first is its Name)", cue: number)
                    }
                case .rubyText:
                    rubyText += 1
                    losses.note("ruby text", cue: number)
                default: losses.note("classes and languages of text (<c>, <lang>)", cue: number)
                }
            case .end(let kind):
                switch kind {
                case .italic, .bold, .underline:
                    depth[kind, default: 0] -= 1
                    guard depth[kind] == 0 else { break }
                    if let pending = pendingOpen.firstIndex(of: kind) {
                        pendingOpen.remove(at: pending)
                    } else {
                        out += Array(overrides[kind]!.off.utf8)
                    }
                case .rubyText: rubyText -= 1
                default: break
                }
            }
        }
        return (out, name)
    }

    /// `\anN` (and `\pos(x,y)` on the 384×288 canvas) for a cue's settings; nil for the default (bottom centre).
    static func placement(_ settings: CueSettings) -> String? {
        let horizontal: Int
        switch settings.align {
        case .left, .start: horizontal = 0
        case .right, .end: horizontal = 2
        case .center: horizontal = 1
        }
        var vertical = 0  // bottom
        if let line = settings.line {
            if settings.snapToLines {
                vertical = line >= 0 ? 2 : 0
            } else {
                vertical = settings.lineAlign == .center ? 1 : line < 34 ? 2 : line > 66 ? 0 : 1
                if settings.lineAlign == .start { vertical = 2 } else if settings.lineAlign == .end { vertical = 0 }
            }
        }
        let numpad = vertical * 3 + horizontal + 1
        if let position = settings.position, let line = settings.line, !settings.snapToLines {
            return "\\an\(numpad)\\pos(\(Self.number(position * 3.84)),\(Self.number(line * 2.88)))"
        }
        return numpad == 2 ? nil : "\\an\(numpad)"
    }

    /// A coordinate with at most two decimals, no trailing zeros.
    static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
