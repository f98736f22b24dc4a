import Basics

/// Converts a document between WebVTT and SRT: markup and positions are mapped where both formats can
/// express them; what the target cannot hold is reported as a diagnostic (rule `captions.convert`).
public enum CaptionConverter {
    /// WebVTT's default colour classes and the colours they stand for.
    static let colorClasses: [String: String] = [
        "white": "#ffffff", "lime": "#00ff00", "cyan": "#00ffff", "red": "#ff0000",
        "yellow": "#ffff00", "magenta": "#ff00ff", "blue": "#0000ff", "black": "#000000",
    ]

    /// The class an SRT `<s>` becomes in WebVTT, styled with `text-decoration: line-through`.
    static let strikeClass = "strike"

    public static func convert(_ document: CaptionDocument, to format: CaptionFormat) -> (document: CaptionDocument, diagnostics: [CaptionDiagnostic]) {
        guard document.format != format else { return (document, []) }
        if format.markup != format || document.format.markup != document.format {
            // SCC and TTML documents hold WebVTT cue text: converted as WebVTT, then (to SCC or TTML) relabelled; what
            // the target cannot carry is reported when it is written.
            var source = document
            source.format = source.format.markup
            var (converted, diagnostics) = convert(source, to: format.markup)
            if format == .scc {
                converted = CaptionDocument(format: .scc, cues: converted.cues, encoding: "ascii")
                let cues = converted.cues
                diagnostics += SCCWriter().write(count: cues.count, start: { cues[$0].start }, cue: { cues[$0] }) { $0.removeAll(keepingCapacity: true) }
            } else if format == .ttml {
                converted = CaptionDocument(format: .ttml, headerBlocks: converted.headerBlocks, cues: converted.cues, encoding: "utf-8")
                let cues = converted.cues
                diagnostics += TTMLWriter().write(count: cues.count, cue: { cues[$0] }) { $0.removeAll(keepingCapacity: true) }
            }
            return (converted, diagnostics)
        }
        var conversion = CueConversion(document, to: format, numbersCues: true)
        var converted = CaptionDocument(
            format: format, header: conversion.header, headerBlocks: conversion.headerBlocks,
            notes: conversion.notes, encoding: "utf-8")
        converted.cues.reserveCapacity(document.cues.count)
        for index in 0..<conversion.count { converted.cues.append(conversion.cue(at: index)) }
        return (converted, conversion.diagnostics)
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

    /// A WebVTT class for an SRT font colour: a default colour class when it is one, else a class made from
    /// the colour (its CSS rule goes in the STYLE block).
    static func colorClassName(_ color: String) -> (name: String, custom: Bool)? {
        let value = color.lowercased()
        guard !value.isEmpty else { return nil }
        if colorClasses[value] != nil { return (value, false) }
        if let named = colorClasses.first(where: { $0.value == value })?.key { return (named, false) }
        return ("color-" + value.filter { $0.isLetter || $0.isNumber }, true)
    }

    /// Collects what a conversion loses, once per kind.
    struct LossReport {
        private var seen: [String] = []
        mutating func note(_ what: String) { if !seen.contains(what) { seen.append(what) } }
        mutating func absorb(_ other: LossReport) { for what in other.seen { note(what) } }
        func diagnostics(to format: CaptionFormat) -> [CaptionDiagnostic] {
            let name = format.displayName
            return seen.map { CaptionDiagnostic(line: 0, rule: "captions.convert", severity: .warning, message: "\(name) cannot hold \($0)") }
        }
    }
}

/// What a caption writer writes: the parts before the cues, then each cue as it is asked for.
protocol CaptionWriterInput {
    var header: String { get }
    var headerBlocks: [HeaderBlock] { get }
    var notes: [CaptionNote] { get }
    var count: Int { get }
    mutating func cue(at index: Int) -> Cue
    /// Takes in what a copy of this input noticed while a slice of the cues was written from it.
    mutating func absorb(_ copy: Self)
    /// True when a cue's text is a megabyte or more (written on one thread, in pieces).
    var hasLongCue: Bool { get }
}

extension CaptionDocument: CaptionWriterInput {
    var count: Int { cues.count }
    var hasLongCue: Bool { cues.contains { $0.text.utf8.count >= 1 << 20 } }
    func cue(at index: Int) -> Cue { cues[index] }
    func absorb(_ copy: CaptionDocument) {}
}

/// A document converted to the other format one cue at a time, so that converting holds one copy of the cues,
/// not two: the header parts are made first (a pass over the cues finds the colours a STYLE block must define),
/// then each cue is converted when a writer asks for it.
struct CueConversion: CaptionWriterInput {
    let source: CaptionDocument
    let target: CaptionFormat
    /// SRT cues get their numbers as identifiers (a writer numbers them itself, and needs none).
    let numbersCues: Bool
    private(set) var header = ""
    private(set) var headerBlocks: [HeaderBlock] = []
    private(set) var notes: [CaptionNote] = []
    private var lost = CaptionConverter.LossReport()

    var count: Int { source.cues.count }
    var diagnostics: [CaptionDiagnostic] { lost.diagnostics(to: target) }

    init(_ source: CaptionDocument, to target: CaptionFormat, numbersCues: Bool = false) {
        self.source = source
        self.target = target
        self.numbersCues = numbersCues
        if target == .srt {
            if !source.styleSheets.isEmpty { lost.note("STYLE blocks (SRT has no style sheets)") }
            if !source.regions.isEmpty { lost.note("REGION blocks (SRT has no regions)") }
            if !source.notes.isEmpty || source.headerBlocks.contains(where: { if case .note = $0 { true } else { false } }) {
                lost.note("NOTE comments (SRT has no comments)")
            }
            if source.header.contains(where: { !$0.isWhitespace }) { lost.note("the WebVTT header text") }
        } else {
            // The colours and strike-through the cues use, for the STYLE block.
            var rules: [String: String] = [:]
            for cue in source.cues where cue.text.hasTag(startingWithAnyOf: "fs") {
                SRTMarkup.walk(cue.text) { event in
                    guard case .start(let element) = event else { return }
                    if element.kind == .font, let (name, custom) = CaptionConverter.colorClassName(element.annotation), custom {
                        rules[name] = "color: \(element.annotation.lowercased());"
                    } else if element.kind == .strike {
                        rules[CaptionConverter.strikeClass] = "text-decoration: line-through;"
                    }
                }
            }
            if !rules.isEmpty {
                let css = rules.sorted { $0.key < $1.key }.map { "::cue(.\($0.key)) { \($0.value) }" }
                headerBlocks.append(.style(css.joined(separator: "\n")))
            }
        }
    }

    mutating func cue(at index: Int) -> Cue {
        target == .srt ? srtCue(index) : webVTTCue(index)
    }

    mutating func absorb(_ copy: CueConversion) { lost.absorb(copy.lost) }

    var hasLongCue: Bool { source.hasLongCue }

    // MARK: - WebVTT → SRT

    private mutating func srtCue(_ index: Int) -> Cue {
        let cue = source.cues[index]
        if !cue.identifier.isEmpty, !Self.isNumber(cue.identifier, index + 1) {
            lost.note("cue identifiers (SRT numbers its cues)")
        }
        let simple = SimpleMarkup.shape(of: cue.text) != nil
        if simple, cue.hasDefaultSettings, !numbersCues { return cue }  // nothing to change: the writer numbers it
        var text: String
        if !simple, CueTextParser.hasMarkup(cue.text) {
            var renderer = SRTRenderer(lost: lost)
            renderer.text.reserveCapacity(cue.text.utf8.count)
            CueTextParser.walk(cue.text) { renderer.add($0) }
            text = renderer.text
            lost = renderer.lost
        } else {
            text = cue.text
        }
        if !cue.hasDefaultSettings {
            let settings = cue.settings
            if let keypad = CaptionConverter.keypadPosition(of: settings), keypad != 2 { text = "{\\an\(keypad)}" + text }
            if settings.vertical != .horizontal { lost.note("vertical text") }
            if settings.size != 100 { lost.note("cue sizes") }
            if settings.region != nil { lost.note("region placement") }
            if settings.position != nil || (settings.line.map { $0 != 0 && $0 != 50 && $0 != -1 } ?? false) {
                lost.note("exact cue positions (mapped to the nearest {\\anN} position)")
            }
        }
        return Cue(identifier: numbersCues ? String(index + 1) : "", start: cue.start, end: cue.end, text: text)
    }

    /// True when `identifier` is `number` written in decimal (what SRT would number the cue).
    private static func isNumber(_ identifier: String, _ number: Int) -> Bool {
        identifier.withUTF8Bytes { bytes in
            var rest = number
            var i = bytes.count
            while i > 0 {
                i -= 1
                guard bytes[i] == UInt8(ascii: "0") + UInt8(rest % 10) else { return false }
                rest /= 10
                if rest == 0 { return i == 0 }
            }
            return false
        }
    }

    /// A WebVTT cue's walk as SRT markup.
    private struct SRTRenderer {
        var text = ""
        var lost: CaptionConverter.LossReport
        /// For each open class or font element, whether it was written as a `<font>` tag.
        private var wroteFont: [Bool] = []

        init(lost: CaptionConverter.LossReport) { self.lost = lost }

        mutating func add(_ event: CueMarkupEvent) {
            switch event {
            case .text(let value):
                text += value
            case .timestamp:
                lost.note("karaoke timestamps inside cues")
            case .start(let element):
                switch element.kind {
                case .italic, .bold, .underline, .strike:
                    text += "<\(element.kind.rawValue)>"
                case .class, .font:
                    let color = element.kind == .font ? element.annotation : element.classes.last(where: { CaptionConverter.colorClasses[$0] != nil })
                    if element.kind == .class, element.classes.contains(where: { CaptionConverter.colorClasses[$0] == nil }) {
                        lost.note("class names other than the default colours")
                    }
                    if let color, !color.isEmpty { text += "<font color=\"\(color)\">" }
                    wroteFont.append(color.map { !$0.isEmpty } ?? false)
                case .voice:
                    if !element.annotation.isEmpty {
                        text += element.annotation + ": "
                        lost.note("voice spans (written as \"Name: \" before the words)")
                    }
                case .language:
                    lost.note("language spans")
                case .ruby:
                    break
                case .rubyText:
                    lost.note("ruby annotations (written in parentheses)")
                    text += "("
                }
            case .end(let kind):
                switch kind {
                case .italic, .bold, .underline, .strike: text += "</\(kind.rawValue)>"
                case .class, .font: if wroteFont.popLast() == true { text += "</font>" }
                case .rubyText: text += ")"
                case .voice, .language, .ruby: break
                }
            }
        }
    }

    // MARK: - SRT → WebVTT

    private mutating func webVTTCue(_ index: Int) -> Cue {
        let cue = source.cues[index]
        var text: String
        if SimpleMarkup.shape(of: cue.text) != nil {
            // Written the same way in both formats, and without "{" it has no position: nothing to change.
            if cue.hasDefaultSettings { return cue }
            text = cue.text
        } else if SRTMarkup.hasMarkup(cue.text) {
            text = ""
            text.reserveCapacity(cue.text.utf8.count + 8)
            var problems: [CueTextProblem] = []
            SRTMarkup.walk(cue.text, problems: &problems) { Self.renderWebVTT($0, into: &text) }
            if problems.contains(where: { $0.message.hasPrefix("unknown tag") }) {
                lost.note("tags SubRip players do not know (such as <sub>): left out, their text kept")
            }
        } else {
            text = WebVTTText.escape(cue.text)
        }
        var converted = Cue(identifier: cue.identifier, start: cue.start, end: cue.end, text: text)
        if let keypad = SRTMarkup.alignment(of: cue.text) {
            var settings = CueSettings()
            let row = (keypad - 1) / 3, column = (keypad - 1) % 3
            if row == 2 { settings.line = 0 }
            if row == 1 {
                settings.line = 50
                settings.snapToLines = false
                settings.lineAlign = .center
            }
            settings.align = column == 0 ? .left : column == 2 ? .right : .center
            converted.settings = settings
        }
        if !cue.hasDefaultSettings, cue.settings.srtCoordinates != nil { lost.note("SRT pixel coordinates (X1 X2 Y1 Y2)") }
        return converted
    }

    /// One event of an SRT cue's walk as WebVTT markup.
    private static func renderWebVTT(_ event: CueMarkupEvent, into text: inout String) {
        switch event {
        case .text(let value):
            text += WebVTTText.escape(value)
        case .timestamp(let time):
            text += "<\(time.webVTTString)>"
        case .start(let element):
            switch element.kind {
            case .font:
                text += CaptionConverter.colorClassName(element.annotation).map { "<c.\($0.name)>" } ?? "<c>"
            case .strike:
                text += "<c.\(CaptionConverter.strikeClass)>"
            default:
                text += "<\(element.kind.rawValue)>"
            }
        case .end(let kind):
            text += kind == .font || kind == .strike ? "</c>" : "</\(kind.rawValue)>"
        }
    }
}
