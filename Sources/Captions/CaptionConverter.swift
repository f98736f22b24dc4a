/// Converts a document between WebVTT and SRT: markup and positions are mapped where both formats can
/// express them; what the target cannot hold is reported as a diagnostic (rule `captions.convert`).
public enum CaptionConverter {
    /// WebVTT's default colour classes and the colours they stand for.
    static let colorClasses: [String: String] = [
        "white": "#ffffff", "lime": "#00ff00", "cyan": "#00ffff", "red": "#ff0000",
        "yellow": "#ffff00", "magenta": "#ff00ff", "blue": "#0000ff", "black": "#000000",
    ]

    public static func convert(_ document: CaptionDocument, to format: CaptionFormat) -> (document: CaptionDocument, diagnostics: [CaptionDiagnostic]) {
        guard document.format != format else { return (document, []) }
        return format == .srt ? toSRT(document) : toWebVTT(document)
    }

    // MARK: - WebVTT → SRT

    private static func toSRT(_ source: CaptionDocument) -> (CaptionDocument, [CaptionDiagnostic]) {
        var lost = LossReport()
        if !source.styleSheets.isEmpty { lost.note("STYLE blocks (SRT has no style sheets)") }
        if !source.regions.isEmpty { lost.note("REGION blocks (SRT has no regions)") }
        if !source.notes.isEmpty || source.headerBlocks.contains(where: { if case .note = $0 { true } else { false } }) {
            lost.note("NOTE comments (SRT has no comments)")
        }
        if source.header.contains(where: { !$0.isWhitespace }) { lost.note("the WebVTT header text") }
        var document = CaptionDocument(format: .srt, encoding: "utf-8")
        document.cues.reserveCapacity(source.cues.count)
        for (index, cue) in source.cues.enumerated() {
            if !cue.identifier.isEmpty, cue.identifier != String(index + 1) { lost.note("cue identifiers (SRT numbers its cues)") }
            var text = ""
            render(srt: cue.nodes, into: &text, &lost)
            var alignment = ""
            if !cue.hasDefaultSettings {
                let settings = cue.settings
                if let keypad = keypadPosition(of: settings), keypad != 2 { alignment = "{\\an\(keypad)}" }
                if settings.vertical != .horizontal { lost.note("vertical text") }
                if settings.size != 100 { lost.note("cue sizes") }
                if settings.region != nil { lost.note("region placement") }
                if settings.position != nil || (settings.line.map { $0 != 0 && $0 != 50 && $0 != -1 } ?? false) {
                    lost.note("exact cue positions (mapped to the nearest {\\anN} position)")
                }
            }
            document.cues.append(Cue(identifier: String(index + 1), start: cue.start, end: cue.end, text: alignment + text))
        }
        return (document, lost.diagnostics(to: "SRT"))
    }

    /// The numeric-keypad position (1–9) nearest to WebVTT settings.
    static func keypadPosition(of settings: CueSettings) -> Int? {
        var row = 0  // 0 bottom, 1 middle, 2 top
        if let line = settings.line {
            if settings.snapToLines {
                row = line >= 0 && line < 4 ? 2 : 0
            } else {
                row = line < 33.4 ? 2 : line <= 66.7 ? 1 : 0
            }
        }
        let column: Int
        switch settings.align {
        case .left, .start: column = 0
        case .right, .end: column = 2
        case .center: column = 1
        }
        return 1 + row * 3 + column
    }

    private static func render(srt nodes: [CueNode], into text: inout String, _ lost: inout LossReport) {
        for node in nodes {
            switch node {
            case .text(let value):
                text += value
            case .timestamp:
                lost.note("karaoke timestamps inside cues")
            case .element(let element):
                switch element.kind {
                case .italic, .bold, .underline:
                    text += "<\(element.kind.rawValue)>"
                    render(srt: element.children, into: &text, &lost)
                    text += "</\(element.kind.rawValue)>"
                case .class, .font:
                    let color = element.kind == .font ? element.annotation : element.classes.last(where: { colorClasses[$0] != nil })
                    if element.kind == .class, element.classes.contains(where: { colorClasses[$0] == nil }) {
                        lost.note("class names other than the default colours")
                    }
                    if let color, !color.isEmpty {
                        text += "<font color=\"\(color)\">"
                        render(srt: element.children, into: &text, &lost)
                        text += "</font>"
                    } else {
                        render(srt: element.children, into: &text, &lost)
                    }
                case .voice:
                    if !element.annotation.isEmpty {
                        text += element.annotation + ": "
                        lost.note("voice spans (written as \"Name: \" before the words)")
                    }
                    render(srt: element.children, into: &text, &lost)
                case .language:
                    lost.note("language spans")
                    render(srt: element.children, into: &text, &lost)
                case .ruby:
                    render(srt: element.children, into: &text, &lost)
                case .rubyText:
                    lost.note("ruby annotations (written in parentheses)")
                    text += "("
                    render(srt: element.children, into: &text, &lost)
                    text += ")"
                }
            }
        }
    }

    // MARK: - SRT → WebVTT

    private static func toWebVTT(_ source: CaptionDocument) -> (CaptionDocument, [CaptionDiagnostic]) {
        var lost = LossReport()
        var customColors: [String: String] = [:]  // class name → CSS colour
        var document = CaptionDocument(format: .webvtt, encoding: "utf-8")
        document.cues.reserveCapacity(source.cues.count)
        for cue in source.cues {
            var text = ""
            render(webVTT: SRTMarkup.nodes(of: cue.text), into: &text, customColors: &customColors)
            var converted = Cue(identifier: cue.identifier, start: cue.start, end: cue.end, text: text)
            var settings = CueSettings()
            if let keypad = SRTMarkup.alignment(of: cue.text) {
                let row = (keypad - 1) / 3, column = (keypad - 1) % 3
                if row == 2 { settings.line = 0 }
                if row == 1 {
                    settings.line = 50
                    settings.snapToLines = false
                    settings.lineAlign = .center
                }
                settings.align = column == 0 ? .left : column == 2 ? .right : .center
            }
            if !cue.hasDefaultSettings, cue.settings.srtCoordinates != nil { lost.note("SRT pixel coordinates (X1 X2 Y1 Y2)") }
            converted.settings = settings
            document.cues.append(converted)
        }
        if !customColors.isEmpty {
            let rules = customColors.sorted { $0.key < $1.key }.map { "::cue(.\($0.key)) { color: \($0.value); }" }
            document.headerBlocks.append(.style(rules.joined(separator: "\n")))
        }
        return (document, lost.diagnostics(to: "WebVTT"))
    }

    private static func render(webVTT nodes: [CueNode], into text: inout String, customColors: inout [String: String]) {
        for node in nodes {
            switch node {
            case .text(let value):
                text += escapeWebVTT(value)
            case .timestamp(let time):
                text += "<\(time.webVTTString)>"
            case .element(let element):
                switch element.kind {
                case .font:
                    let name = colorClassName(element.annotation, customColors: &customColors)
                    text += name.map { "<c.\($0)>" } ?? "<c>"
                    render(webVTT: element.children, into: &text, customColors: &customColors)
                    text += "</c>"
                default:
                    let tag = element.kind.rawValue
                    text += "<\(tag)>"
                    render(webVTT: element.children, into: &text, customColors: &customColors)
                    text += "</\(tag)>"
                }
            }
        }
    }

    /// A WebVTT class for an SRT font colour: a default colour class when it is one, else a class made
    /// from the colour with a STYLE rule to go with it.
    private static func colorClassName(_ color: String, customColors: inout [String: String]) -> String? {
        let value = color.lowercased()
        guard !value.isEmpty else { return nil }
        if colorClasses[value] != nil { return value }
        if let named = colorClasses.first(where: { $0.value == value })?.key { return named }
        let name = "color-" + value.filter { $0.isLetter || $0.isNumber }
        customColors[name] = value
        return name
    }

    private static func escapeWebVTT(_ text: String) -> String {
        guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" }) else { return text }
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(c)
            }
        }
        return out
    }

    /// Collects what a conversion loses, once per kind.
    private struct LossReport {
        private var seen: [String] = []
        mutating func note(_ what: String) { if !seen.contains(what) { seen.append(what) } }
        func diagnostics(to format: String) -> [CaptionDiagnostic] {
            seen.map { CaptionDiagnostic(line: 0, rule: "captions.convert", severity: .warning, message: "\(format) cannot hold \($0)") }
        }
    }
}
