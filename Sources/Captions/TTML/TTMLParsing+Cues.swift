import Basics
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The cues of a `p` as it closes, and the document finished: the second stage of `TTMLParsing`.
extension TTMLParsing {
    // MARK: Cues

    /// The most stretches × pieces a paragraph is split into cues with (see `makeCues`).
    static let splitBudget = 4_000_000

    func makeCues(from p: Open, _ parser: XMLParser) {
        // A paragraph whose text is never shown is no cue (one with no text at all is an empty one, for lint).
        if hiddenText, !pieces.contains(where: { !$0.isBreak && !$0.text.allSatisfy(\.isWhitespace) }) { return }
        let pEnd = p.end
        // The instants where the content changes.
        var points = Set<Int64>([p.begin])
        if let pEnd { points.insert(pEnd) }
        for piece in pieces {
            if let begin = piece.begin, begin > p.begin { points.insert(begin) }
            if let end = piece.end, end > p.begin { points.insert(end) }
        }
        let instants = points.sorted()
        var intervals: [(Int64, Int64?)] = []
        for (k, start) in instants.enumerated() {
            if let pEnd, start >= pEnd { break }
            intervals.append((start, k + 1 < instants.count ? instants[k + 1] : nil))
        }
        let settings = cueSettings(region: p.region, style: p.specified, parser)
        if strict, p.region == nil, !regions.isEmpty {
            note(parser, "ttml.region", .warning, "a `p` not in any region is not presented when the document defines regions")
        }
        if intervals.isEmpty { intervals = [(p.begin, pEnd)] }  // no duration: one cue at its instant
        // A region with its own times shows its content only then.
        if let region = p.region, let active = regionTimes[region] {
            intervals = intervals.compactMap { start, end in
                let from = max(start, active.begin)
                let to = [end, active.end].compactMap { $0 }.min()
                if let to, to <= from { return nil }
                return (from, to)
            }
            if intervals.isEmpty { return }
        }
        // Each stretch's cue is made from the pieces showing then: thousands of timed spans in one paragraph would cost
        // stretches × pieces (and, overlapping, as much text). Past a budget the paragraph is one cue, and said.
        if intervals.count > 1, intervals.count * max(1, pieces.count) > Self.splitBudget {
            note(
                parser, "ttml.timing", .warning,
                "a `p` with \(pieces.count) timed pieces changing \(intervals.count) times: shown as one cue, not split (splitting it would cost \(intervals.count) × \(pieces.count))"
            )
            intervals = [(p.begin, pEnd)]
            pieces = pieces.map { piece in
                var piece = piece
                piece.begin = nil
                piece.end = nil
                return piece
            }
        }
        var made = 0
        for (start, end) in intervals {
            let active = pieces.filter { piece in
                guard (piece.begin ?? p.begin) <= start, let pieceEnd = piece.end else { return (piece.begin ?? p.begin) <= start }
                return end.map { pieceEnd >= $0 } ?? (pieceEnd > start)
            }
            let regionStyle = p.region.flatMap { regions[$0]?.style }
            let text = Self.cueText(active, agents: agents, regionStyle: regionStyle, rootLanguage: rootLanguage)
            if !usesStrike, active.contains(where: { ($0.style.lineThrough ?? regionStyle?.lineThrough) == true }) { usesStrike = true }
            // A paragraph with nothing to show is one empty cue (lint names it); a stretch of one with nothing, none.
            let last = made == 0 && start == intervals[intervals.count - 1].0
            guard !text.isEmpty || last else { continue }
            made += 1
            let cueEnd = end ?? pEnd
            var cue = Cue(start: CaptionTime(milliseconds: start), end: CaptionTime(milliseconds: cueEnd ?? start), text: text)
            settingsPool.give(settings, to: &cue)
            cue.line = Int32(clamping: p.line)
            if made == 1, let identifier = p.identifier { cue.identifier = identifier }
            if cueEnd == nil { openEnded.append(cues.count) }
            cues.append(cue)
            if strict { cueRegions.append(p.region) }  // for the regions presented at once, a strict check
        }
    }

    /// The cue's text in WebVTT syntax: white space collapsed as XML's default space handling and TTML's line
    /// rules ask (each line trimmed), then tags opened and closed as the look changes (voice, language, colour,
    /// strike-through, italic, bold, underline, outermost first).
    static func cueText(_ pieces: [Piece], agents: [String: String], regionStyle: TTMLTextStyle?, rootLanguage: String) -> String {
        // Runs of text (UTF-8) with the same tags; a line break goes with the tags the text before and after it share
        // (one break for several: WebVTT cue text has no empty lines).
        var runs: [(text: [UInt8], tags: [String])] = []
        var pendingSpace: [String]? = nil
        var pendingBreak = false
        var atLineStart = true
        func emit(_ text: ArraySlice<UInt8>, _ tags: [String]) {
            guard !text.isEmpty else { return }
            if pendingBreak, let last = runs.last {
                var shared = 0
                while shared < last.tags.count, shared < tags.count, last.tags[shared] == tags[shared] { shared += 1 }
                pendingBreak = false
                emit([0x0A], Array(tags[..<shared]))
            }
            pendingBreak = false
            if let last = runs.last, last.tags == tags {
                runs[runs.count - 1].text += text
            } else {
                runs.append((Array(text), tags))
            }
        }
        func lineBreak() {
            pendingSpace = nil
            atLineStart = true
            pendingBreak = true
        }
        for piece in pieces {
            if piece.isBreak {
                lineBreak()
                continue
            }
            let tags = Self.tags(of: piece, agents: agents, regionStyle: regionStyle, rootLanguage: rootLanguage)
            var bytes = Array(piece.text.utf8)
            var visibleStart = 0  // the start of visible bytes not yet emitted
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let isNewline = byte == 0x0A || byte == 0x0D
                if piece.preserve {
                    if isNewline {
                        emit(bytes[visibleStart..<index], tags)
                        if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                        lineBreak()
                        visibleStart = index + 1
                    } else {
                        atLineStart = false
                    }
                    index += 1
                    continue
                }
                if byte == 0x20 || byte == 0x09 || isNewline {
                    emit(bytes[visibleStart..<index], tags)
                    if !atLineStart, pendingSpace == nil { pendingSpace = tags }
                    index += 1
                    visibleStart = index
                    continue
                }
                if let spaceTags = pendingSpace {
                    pendingSpace = nil
                    emit([0x20], spaceTags)
                }
                atLineStart = false
                index += 1
            }
            emit(bytes[visibleStart..<index], tags)
            bytes.removeAll()
        }
        var text: [UInt8] = []
        text.reserveCapacity(runs.reduce(0) { $0 + $1.text.count + 16 })
        var open: [String] = []
        for run in runs {
            var shared = 0
            while shared < open.count, shared < run.tags.count, open[shared] == run.tags[shared] { shared += 1 }
            while open.count > shared { appendEndTag(open.removeLast(), to: &text) }
            for tag in run.tags[shared...] {
                text.append(UInt8(ascii: "<"))
                text += tag.utf8
                text.append(UInt8(ascii: ">"))
                open.append(tag)
            }
            WebVTTText.append(run.text, to: &text)
        }
        while let tag = open.popLast() { appendEndTag(tag, to: &text) }
        return String(decoding: text, as: UTF8.self)
    }

    /// `</i>` for `i`, `</c>` for `c.yellow`, `</v>` for `v Name`.
    static func appendEndTag(_ tag: String, to text: inout [UInt8]) {
        text += "</".utf8
        text += tag.utf8.prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: ".") }
        text.append(UInt8(ascii: ">"))
    }

    /// The WebVTT tags a piece of text is shown with, outermost first.
    static func tags(of piece: Piece, agents: [String: String], regionStyle: TTMLTextStyle?, rootLanguage: String) -> [String] {
        let style = (regionStyle ?? TTMLTextStyle()).overlaid(with: piece.style)
        var tags: [String] = []
        if let agent = piece.agent {
            let name = agents[agent].flatMap { $0.isEmpty ? nil : $0 } ?? agent
            tags.append("v " + name.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: ">", with: "&gt;"))
        }
        if let language = piece.language, !language.isEmpty, language != rootLanguage { tags.append("lang " + language) }
        if let color = style.color, color != "white" { tags.append("c." + color) }
        if style.lineThrough == true { tags.append("c." + CaptionConverter.strikeClass) }
        if style.italic == true { tags.append("i") }
        if style.bold == true { tags.append("b") }
        if style.underline == true { tags.append("u") }
        return tags
    }

    /// WebVTT settings for a region and text alignment. The standard bottom region (10% in from each side, text
    /// after, centred) is WebVTT's default placement.
    func cueSettings(region: String?, style: TTMLTextStyle, _ parser: XMLParser) -> CueSettings {
        var settings = CueSettings()
        let regionEntry = region.flatMap { regions[$0] }
        let align = style.textAlign ?? regionEntry?.style.textAlign ?? "start"
        switch align {
        case "left": settings.align = .left
        case "right": settings.align = .right
        case "center": settings.align = .center
        case "end": settings.align = .end
        default: settings.align = .start
        }
        guard let box = regionEntry?.box else {
            return settings
        }
        if box.isBottomBand {
            return settings
        }
        settings.snapToLines = false
        switch box.displayAlign {
        case "after":
            settings.line = TTMLRegionBox.rounded(box.y + box.height)
            settings.lineAlign = .end
        case "center":
            settings.line = TTMLRegionBox.rounded(box.y + box.height / 2)
            settings.lineAlign = .center
        default:
            settings.line = TTMLRegionBox.rounded(box.y)
            settings.lineAlign = .start
        }
        settings.position = TTMLRegionBox.rounded(box.x)
        settings.positionAlign = .lineLeft
        settings.size = TTMLRegionBox.rounded(box.width)
        return settings
    }

    func textStyle(_ styling: [String: String], _ parser: XMLParser) -> TTMLTextStyle {
        var style = TTMLTextStyle()
        if let value = styling["fontStyle"] { style.italic = value == "italic" || value == "oblique" }
        if let value = styling["fontWeight"] { style.bold = value == "bold" }
        if let value = styling["textDecoration"] {
            for word in value.split(separator: " ") {
                switch word {
                case "underline": style.underline = true
                case "noUnderline": style.underline = false
                case "lineThrough": style.lineThrough = true
                case "noLineThrough": style.lineThrough = false
                case "none":
                    style.underline = false
                    style.lineThrough = false
                default: break
                }
            }
        }
        if let value = styling["color"] {
            if let rgb = TTMLColor.rgb(value) {
                style.color = TTMLColor.className(rgb)
                if style.color!.hasPrefix("color-") { customColors[style.color!] = TTMLColor.hex(rgb) }
            } else {
                note(parser, "ttml.style", .warning, "`tts:color=\"\(value)\"` is not a colour; ignored")
            }
        }
        if let value = styling["textAlign"] { style.textAlign = value }
        return style
    }

    /// A region's box in percentages, when its origin (or position) and extent can be placed.
    func regionBox(_ props: [String: String], region: String, _ parser: XMLParser) -> TTMLRegionBox? {
        guard let extent = props["extent"].flatMap({ pair($0) }) else { return nil }
        var origin = props["origin"].flatMap { pair($0) } ?? (0, 0)
        if props["origin"] == nil, let value = props["position"] {
            if let position = TTMLPosition(value, length: { percentage($0, horizontal: $1) }) {
                origin = position.origin(width: extent.0, height: extent.1)
            } else if !value.contains("px") || rootExtent != nil {
                if strict {
                    violation(parser, "`tts:position=\"\(value.prefix(60))\"` is not a position")
                } else {
                    note(parser, "ttml.style", .warning, "`tts:position=\"\(value.prefix(60))\"` is not a position; region `\(region)` placed at its default")
                }
            }
        }
        let box = TTMLRegionBox(x: origin.0, y: origin.1, width: extent.0, height: extent.1, displayAlign: props["displayAlign"] ?? "before")
        if strict, box.x < -0.001 || box.y < -0.001 || box.x + box.width > 100.001 || box.y + box.height > 100.001 {
            violation(parser, "region `\(region)` extends beyond the root container")
        }
        return box
    }

    func pair(_ value: String) -> (Double, Double)? {
        let parts = value.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 2, let x = percentage(parts[0], horizontal: true), let y = percentage(parts[1], horizontal: false) else { return nil }
        return (x, y)
    }

    /// A length as a percentage of the root container's width or height.
    func percentage(_ text: Substring, horizontal: Bool) -> Double? {
        func number(_ suffix: Int) -> Double? { Double(text.dropLast(suffix)) }
        if text.hasSuffix("%") { return number(1) }
        if text.hasSuffix("px") {
            usedPixels = true
            guard let extent = rootExtent, let value = number(2) else { return nil }
            return value * 100 / (horizontal ? extent.width : extent.height)
        }
        if text.hasSuffix("rw") { return number(2) }
        if text.hasSuffix("rh") { return number(2) }
        if text.hasSuffix("c"), let value = number(1) { return value * 100 / (horizontal ? cellResolution.columns : cellResolution.rows) }
        return nil
    }

    func checkLengths(_ attributes: Attributes, _ parser: XMLParser) {
        for (name, value) in attributes.styling {
            if value.contains("px") { usedPixels = true }
            if name != "linePadding", name != "fontSize", name != "lineHeight",
                value.split(separator: " ").contains(where: { $0.hasSuffix("c") && Double($0.dropLast()) != nil })
            {
                violation(parser, "cell lengths (`c`) are only permitted in `ebutts:linePadding` (`tts:\(name)`)")
            }
            if name == "fontSize", value.split(separator: " ").count == 2 {
                violation(parser, "`tts:fontSize` with two values (only isomorphic sizes are permitted)")
            }
            if name == "textShadow", value.split(separator: ",").count > 4 { violation(parser, "`tts:textShadow` with more than 4 shadows") }
        }
    }

    // MARK: Finishing

    func finish() -> CaptionDocument {
        // Content no time ends is shown for the whole presentation (TTML1 §10.4: its implicit duration is
        // indefinite): to the media's end, which the file alone does not give.
        for index in openEnded {
            cues[index].end = max(cues[index].start, .presentationEnd)
        }
        if !openEnded.isEmpty {
            note(
                nil, "ttml.timing", .warning,
                "\(openEnded.count) paragraph\(openEnded.count == 1 ? " has" : "s have") no end: shown for the whole presentation (until the media ends; \(CaptionTime.presentationEnd) when read alone)"
            )
        }
        if strict {
            if usedPixels, rootExtent == nil { violation(nil, "pixel lengths without `tts:extent` on `tt`") }
            checkPresentedRegions()
        }
        var headerBlocks: [HeaderBlock] = []
        if !customColors.isEmpty {
            let css = customColors.sorted { $0.key < $1.key }.map { "::cue(.\($0.key)) { color: \($0.value); }" }
            headerBlocks.append(.style(css.joined(separator: "\n")))
        }
        if usesStrike {
            headerBlocks.append(.style("::cue(.\(CaptionConverter.strikeClass)) { text-decoration: line-through; }"))
        }
        CaptionDiagnostic.cap(&diagnostics)
        var document = CaptionDocument(format: .ttml, headerBlocks: headerBlocks, cues: cues, diagnostics: diagnostics, encoding: "utf-8")
        // Times in frames or ticks are on their grid (the coarser, when a document uses both).
        let steps = [timeUses.contains(.frames) ? 1 / timing.effectiveFrameRate : nil, timeUses.contains(.ticks) ? 1 / timing.effectiveTickRate : nil]
        document.timeStep = steps.compactMap { $0 }.filter { $0 > 0.001 }.max()
        return document
    }

    /// IMSC 1.1 §7.12.1: at most 4 regions presented at once, none overlapping.
    func checkPresentedRegions() {
        var events: [(time: CaptionTime, opens: Bool, region: String)] = []
        for (cue, region) in zip(cues, cueRegions) {
            guard let region, cue.end > cue.start else { continue }
            events.append((cue.start, true, region))
            events.append((cue.end, false, region))
        }
        events.sort { ($0.time, $0.opens ? 1 : 0) < ($1.time, $1.opens ? 1 : 0) }
        var active: [String: Int] = [:]
        for event in events {
            if event.opens {
                active[event.region, default: 0] += 1
                if active.count > 4 { violation(nil, "more than 4 regions presented at once (at \(event.time))") }
                if let box = regions[event.region]?.box {
                    for other in active.keys where other != event.region {
                        if let otherBox = regions[other]?.box, box.overlaps(otherBox) {
                            violation(nil, "regions `\(min(other, event.region))` and `\(max(other, event.region))` overlap while both are presented")
                        }
                    }
                }
            } else {
                active[event.region]! -= 1
                if active[event.region] == 0 { active[event.region] = nil }
            }
        }
    }
}
