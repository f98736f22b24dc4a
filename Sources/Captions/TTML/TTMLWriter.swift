import Basics
import Foundation

/// Writes cues (text in WebVTT syntax) as an IMSC 1.1 Text Profile document: one `p` per cue with clock times to the
/// millisecond, `br` for line breaks, spans with inline styles for `<i>`, `<b>`, `<u>`, colour classes and strike-through,
/// `ttm:agent` for `<v>` speakers (each agent named once in the head), `xml:lang` for `<lang>`. Each cue goes in a
/// region made from its WebVTT settings (default placement: the bottom region, 10% in from the sides and the bottom,
/// text centred); what IMSC cannot carry is reported once each with the first cue (rule `captions.convert`).
public struct TTMLWriter: Sendable {
    /// `xml:lang` of the document (empty: not known).
    public var language: String

    public init(language: String = "") {
        self.language = language
    }

    /// One row of text's height in percent of the root container (IMSC's 15 rows of cells, line height 125%).
    static let rowHeight = 100.0 / 15 * 1.25
    /// The region cues with WebVTT's default placement go in.
    static let bottomRegion = Region(box: .bottom, textAlign: "center")

    /// A region: its box and the alignment of its text.
    struct Region: Hashable {
        var box: TTMLRegionBox
        var textAlign: String
    }

    public func write(_ cues: [Cue]) -> (bytes: [UInt8], diagnostics: [CaptionDiagnostic]) {
        var bytes: [UInt8] = []
        let diagnostics = write(count: cues.count, cue: { cues[$0] }) { chunk in
            bytes += chunk
            chunk.removeAll(keepingCapacity: true)
        }
        return (bytes, diagnostics)
    }

    /// Writes the `count` cues `cue(i)` gives, handing the document to `sink` a chunk at a time (the sink may keep the
    /// chunk's bytes, leaving it empty). The head names every region and agent the cues use, so the cues are gone
    /// through before it is written — their places, then their regions and speakers — and a third time for the body,
    /// written as it goes: memory holds a cue's place in time and a chunk, never the whole body.
    func write(count: Int, cue: (Int) -> Cue, to sink: (inout [UInt8]) -> Void) -> [CaptionDiagnostic] {
        var losses = LossNotes(format: "IMSC 1.1 Text")
        var regions: [Region: String] = [:]
        var regionOrder: [Region] = []
        var regionNumbers: [Region: Int32] = [:]
        var agents: [String: String] = [:]
        var agentOrder: [String] = []
        // With cues placed elsewhere, cues at the default place get a region of their own rows, so that regions
        // overlap only where cues do (IMSC forbids regions presented at once to overlap).
        let compact = (0..<count).contains { !Self.hasDefaultPlace(cue($0).settings) }
        // Where and when each cue shows (its region by number in `regionOrder`).
        var placed: [(start: CaptionTime, end: CaptionTime, region: Int32)] = []
        placed.reserveCapacity(count)
        var seenIdentifiers = Set<String>()
        for index in 0..<count {
            let cue = cue(index)
            // The region holds the lines as written (empty ones are not: the reader drops them); what the text loses
            // is said after what the placement and the identifier do.
            var textLosses = LossNotes(format: losses.format)
            let lines = text(of: cue, number: index + 1, agents: &agents, agentOrder: &agentOrder, losses: &textLosses).lines
            let region = Self.region(for: cue, lines: lines, number: index + 1, compact: compact, losses: &losses)
            if regions[region] == nil {
                regions[region] = region == Self.bottomRegion ? "bottom" : "r\(regionOrder.count + (regions[Self.bottomRegion] == nil ? 1 : 0))"
                regionNumbers[region] = Int32(regionOrder.count)
                regionOrder.append(region)
            }
            placed.append((cue.start, cue.end, regionNumbers[region]!))
            if !cue.identifier.isEmpty, !(Self.isName(cue.identifier) && seenIdentifiers.insert(cue.identifier).inserted),
                cue.identifier != String(index + 1)
            {
                losses.note("cue identifiers that are not unique XML names (`\(cue.identifier)`)", cue: index + 1)
            }
            losses.note(textLosses)
        }
        if let first = Self.firstOverlap(placed, regions: regionOrder) {
            losses.note("cues shown at once in places that overlap (IMSC forbids overlapping regions)", cue: first)
        }
        var out: [UInt8] = []
        out.reserveCapacity(captionWriterChunkSize + 64 * 1024)
        out += Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" \
            xmlns:tts="http://www.w3.org/ns/ttml#styling" xmlns:ttm="http://www.w3.org/ns/ttml#metadata" \
            xml:lang="
            """.utf8)
        XMLText.append(language, to: &out, apostrophes: false)
        out += Array("\" ttp:contentProfiles=\"\(TTMLNamespace.textProfile)\">\n  <head>\n".utf8)
        if !agentOrder.isEmpty {
            out += Array("    <metadata>\n".utf8)
            for name in agentOrder {
                out += Array("      <ttm:agent xml:id=\"\(agents[name]!)\" type=\"person\"><ttm:name type=\"full\">".utf8)
                XMLText.append(name, to: &out, apostrophes: false)
                out += Array("</ttm:name></ttm:agent>\n".utf8)
            }
            out += Array("    </metadata>\n".utf8)
        }
        out += Array("    <layout>\n".utf8)
        for region in regionOrder {
            out += Array(
                "      <region xml:id=\"\(regions[region]!)\" tts:origin=\"\(Self.percent(region.box.x)) \(Self.percent(region.box.y))\" tts:extent=\"\(Self.percent(region.box.width)) \(Self.percent(region.box.height))\" tts:displayAlign=\"\(region.box.displayAlign)\" tts:textAlign=\"\(region.textAlign)\"/>\n"
                    .utf8)
        }
        out += Array("    </layout>\n  </head>\n  <body>\n    <div>\n".utf8)
        var identifiers = Set<String>()
        for index in 0..<count {
            let cue = cue(index)
            let number = index + 1
            out += Array("      <p".utf8)
            if !cue.identifier.isEmpty {
                if Self.isName(cue.identifier), identifiers.insert(cue.identifier).inserted {
                    out += Array(" xml:id=\"".utf8)
                    XMLText.append(cue.identifier, to: &out, apostrophes: false)
                    out.append(UInt8(ascii: "\""))
                } else if cue.identifier != String(number) {  // SRT's numbers need no keeping
                    losses.note("cue identifiers that are not unique XML names (`\(cue.identifier)`)", cue: number)
                }
            }
            out += Array(" begin=\"".utf8)
            cue.start.appendFormatted(to: &out, separator: UInt8(ascii: "."))
            out += Array("\" end=\"".utf8)
            max(cue.end, cue.start).appendFormatted(to: &out, separator: UInt8(ascii: "."))
            let content = text(of: cue, number: number, agents: &agents, agentOrder: &agentOrder, losses: &losses)
            out += Array("\" region=\"\(regions[regionOrder[Int(placed[index].region)]]!)\"\(content.preserve ? " xml:space=\"preserve\"" : "")>".utf8)
            out += content.bytes
            out += Array("</p>\n".utf8)
            if out.count >= captionWriterChunkSize { sink(&out) }
        }
        out += Array("    </div>\n  </body>\n</tt>\n".utf8)
        sink(&out)
        return losses.diagnostics
    }

    // MARK: - Text

    /// The cue's text as runs of one look, then spans opened and closed as the look changes, in the order the
    /// reader gives its tags (voice, language, colour, strike-through, italic, bold, underline): what the reader reads
    /// from the written text, the writer writes again byte for byte.
    private func text(
        of cue: Cue, number: Int, agents: inout [String: String], agentOrder: inout [String], losses: inout LossNotes
    ) -> (bytes: [UInt8], preserve: Bool, lines: Int) {
        var runs: [(text: String, attributes: [String])] = []
        var look = Look()
        var stack: [Look] = []
        var rubyText = 0
        var pendingBreak = false
        func add(_ text: String, _ attributes: [String]) {
            if let last = runs.last, last.attributes == attributes {
                runs[runs.count - 1].text += text
            } else {
                runs.append((text, attributes))
            }
        }
        CueTextParser.walk(cue.text) { event in
            switch event {
            case .text(var text):
                // What XML cannot hold is dropped before lines are counted: a line of form feeds is an empty line.
                if !text.unicodeScalars.allSatisfy(XMLText.canHold) { text = String(String.UnicodeScalarView(text.unicodeScalars.filter(XMLText.canHold))) }
                guard rubyText == 0, !text.isEmpty else { return }
                if let name = look.agentName, agents[name] == nil {
                    agents[name] = "agent\(agents.count + 1)"
                    agentOrder.append(name)
                }
                let attributes = look.attributes(agents: agents)
                // Line breaks as the reader reads them back: none first or last, one for several, with the spans the
                // text before and after share.
                for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    if k > 0 { pendingBreak = true }
                    guard !line.isEmpty else { continue }
                    if pendingBreak, let last = runs.last {
                        var shared = 0
                        while shared < last.attributes.count, shared < attributes.count, last.attributes[shared] == attributes[shared] { shared += 1 }
                        add("\n", Array(attributes[..<shared]))
                    }
                    pendingBreak = false
                    add(String(line), attributes)
                }
            case .timestamp:
                losses.note("karaoke timestamps inside cues", cue: number)
            case .start(let element):
                stack.append(look)
                if element.kind == .rubyText || rubyText > 0 {
                    if rubyText == 0 { losses.note("ruby text (`<rt>`; the base text is kept)", cue: number) }
                    rubyText += 1
                    return
                }
                switch element.kind {
                case .italic: look.italic = true
                case .bold: look.bold = true
                case .underline: look.underline = true
                case .strike: look.lineThrough = true
                case .class, .font:
                    let names = element.kind == .font ? [element.annotation] : element.classes
                    for name in names {
                        if name == CaptionConverter.strikeClass {
                            look.lineThrough = true
                        } else if let color = Self.color(named: name) {
                            look.color = color
                        } else {
                            losses.note("classes other than colours (`\(name)`)", cue: number)
                        }
                    }
                case .voice:
                    // As XML's default space handling reads it back: runs of white space as one space.
                    let name = element.annotation.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
                    if !name.isEmpty { look.agentName = name }
                case .language: look.language = element.annotation
                case .ruby, .rubyText: break
                }
            case .end:
                if rubyText > 0 { rubyText -= 1 }
                if let previous = stack.popLast() { look = previous }
            }
        }
        // White space the reader would collapse is kept by `xml:space="preserve"` (the reader then keeps it as is).
        let text = runs.map(\.text).joined()
        let preserve =
            text.contains("  ") || text.contains("\t") || text.contains(" \n") || text.contains("\n ") || text.hasPrefix(" ")
            || text.hasSuffix(" ") || text.contains("\r")
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        var open: [String] = []
        for run in runs {
            var shared = 0
            while shared < open.count, shared < run.attributes.count, open[shared] == run.attributes[shared] { shared += 1 }
            for _ in shared..<open.count { out += Array("</span>".utf8) }
            open.removeSubrange(shared...)
            for attribute in run.attributes[shared...] {
                out += Array(("<span " + attribute + ">").utf8)
                open.append(attribute)
            }
            var first = true
            for line in run.text.split(separator: "\n", omittingEmptySubsequences: false) {
                if !first { out += Array("<br/>".utf8) }
                first = false
                XMLText.append(line, to: &out, apostrophes: false)
            }
        }
        for _ in open { out += Array("</span>".utf8) }
        return (out, preserve, text.utf8.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 })
    }

    /// The look of cue text in TTML attributes.
    private struct Look {
        /// The speaker's name (its agent is made when text is spoken).
        var agentName: String?
        var language: String?
        var color: String?
        var lineThrough = false
        var italic = false
        var bold = false
        var underline = false

        /// One span attribute per property, outermost first (the reader's order).
        func attributes(agents: [String: String]) -> [String] {
            var list: [String] = []
            if let agentName, let agent = agents[agentName] { list.append("ttm:agent=\"\(agent)\"") }
            if let language {
                var escaped: [UInt8] = []
                XMLText.append(language, to: &escaped, apostrophes: false)
                list.append("xml:lang=\"" + String(decoding: escaped, as: UTF8.self) + "\"")
            }
            if let color { list.append("tts:color=\"\(color)\"") }
            if lineThrough { list.append("tts:textDecoration=\"lineThrough\"") }
            if italic { list.append("tts:fontStyle=\"italic\"") }
            if bold { list.append("tts:fontWeight=\"bold\"") }
            if underline { list.append("tts:textDecoration=\"underline\"") }
            return list
        }
    }

    /// `tts:color` for a WebVTT colour class (a default class, or `color-rrggbb`).
    static func color(named name: String) -> String? {
        let lowered = name.lowercased()
        if let hex = CaptionConverter.colorClasses[lowered] { return hex }
        if lowered.hasPrefix("color-"), lowered.count == 12, UInt32(lowered.dropFirst(6), radix: 16) != nil { return "#" + lowered.dropFirst(6) }
        if lowered.hasPrefix("#"), TTMLColor.rgb(lowered) != nil { return lowered }
        return nil
    }

    // MARK: - Regions

    /// The region for a cue's settings: the bottom region for the default placement, else a box whose edges are the
    /// cue's line and position (so that reading it back gives the same settings).
    static func region(for cue: Cue, lines: Int, number: Int, compact: Bool, losses: inout LossNotes) -> Region {
        let settings = cue.settings
        let textAlign: String
        switch settings.align {
        case .left: textAlign = "left"
        case .right: textAlign = "right"
        case .start: textAlign = "start"
        case .end: textAlign = "end"
        case .center: textAlign = "center"
        }
        if settings.vertical != .horizontal { losses.note("vertical text (written horizontally)", cue: number) }
        if settings.region != nil { losses.note("WebVTT regions (cues placed by their own settings)", cue: number) }
        let defaultLine = settings.line == nil || (settings.snapToLines && settings.line == -1)
        if hasDefaultPlace(settings), !compact {
            var region = bottomRegion
            region.textAlign = textAlign
            return region
        }
        let width = settings.size == 100 && settings.position == nil ? 80 : max(1, settings.size)
        var x = (100 - width) / 2
        if let position = settings.position {
            var anchor = settings.positionAlign
            if anchor == .auto {
                switch settings.align {
                case .left, .start: anchor = .lineLeft
                case .right, .end: anchor = .lineRight
                case .center: anchor = .center
                }
            }
            switch anchor {
            case .lineLeft, .auto: x = position
            case .center: x = position - width / 2
            case .lineRight: x = position - width
            }
        }
        x = min(max(0, x), 100 - width)
        let rows = Double(lines)
        let height = min(100, rows * rowHeight)
        var y: Double
        var displayAlign: String
        if defaultLine {
            y = 90 - height
            displayAlign = "after"
        } else if let line = settings.line, settings.snapToLines {
            losses.note("line numbers (`line:\(Int(saturating: line))`: placed by rows of \(percent(rowHeight)))", cue: number)
            if line >= 0 {
                y = 10 + line * rowHeight
                displayAlign = "before"
            } else {
                y = 90 + (line + 1) * rowHeight - height
                displayAlign = "after"
            }
        } else {
            let line = settings.line!
            switch settings.lineAlign {
            case .start:
                y = line
                displayAlign = "before"
            case .center:
                y = line - height / 2
                displayAlign = "center"
            case .end:
                y = line - height
                displayAlign = "after"
            }
        }
        if y < 0 || y + height > 100 {
            losses.note("cue lines too near the edge for their rows (moved inside the picture)", cue: number)
            y = min(max(0, y), 100 - height)
        }
        let box = TTMLRegionBox(
            x: TTMLRegionBox.rounded(x), y: TTMLRegionBox.rounded(y), width: TTMLRegionBox.rounded(width), height: TTMLRegionBox.rounded(height),
            displayAlign: displayAlign)
        return Region(box: box, textAlign: textAlign)
    }

    /// WebVTT's default place: the bottom line, centred, the full width.
    static func hasDefaultPlace(_ settings: CueSettings) -> Bool {
        (settings.line == nil || (settings.snapToLines && settings.line == -1)) && settings.position == nil && settings.size == 100
    }

    /// The number of the first cue whose region overlaps another region presented at the same time.
    static func firstOverlap(_ placed: [(start: CaptionTime, end: CaptionTime, region: Int32)], regions: [Region]) -> Int? {
        let order = placed.indices.sorted { placed[$0].start < placed[$1].start }
        var active: [Int] = []
        for index in order {
            let cue = placed[index]
            active.removeAll { placed[$0].end <= cue.start }
            for other in active
            where placed[other].region != cue.region && regions[Int(placed[other].region)].box.overlaps(regions[Int(cue.region)].box) {
                return max(index, other) + 1
            }
            active.append(index)
        }
        return nil
    }

    static func percent(_ value: Double) -> String {
        let rounded = TTMLRegionBox.rounded(value)
        if rounded == rounded.rounded() { return "\(Int(saturating: rounded))%" }
        var text = String(format: "%.3f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text + "%"
    }

    // MARK: - XML

    /// An NCName (what `xml:id` takes): a letter or `_` first, then letters, digits, `.`, `-`, `_`.
    static func isName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "-" || $0 == "_" }
    }
}
