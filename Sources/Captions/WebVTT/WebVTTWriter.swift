/// Writes WebVTT in canonical form: `WEBVTT` and the header, then header blocks, cues and notes, each
/// followed by one blank line; hours always written; settings in a fixed order with defaults left out;
/// LF line breaks. Reading the output gives back the same document.
public struct WebVTTWriter: Sendable {
    public init() {}

    /// The document as UTF-8 bytes. Text that would break the file's structure is made safe and reported.
    public func write(_ document: CaptionDocument) -> (bytes: [UInt8], diagnostics: [CaptionDiagnostic]) {
        var document = document
        var out: [UInt8] = []
        out.reserveCapacity(document.estimatedWrittenSize)
        let diagnostics = CaptionWriting.write(&document, with: self, into: &out, flushing: nil)
        return (out, diagnostics)
    }

    /// `WEBVTT`, the header text and the header blocks.
    func appendHeader(_ header: String, blocks: [HeaderBlock], to out: inout [UInt8], _ diagnostics: inout [CaptionDiagnostic]) {
        out.append(contentsOf: "WEBVTT".utf8)
        out.append(contentsOf: safeHeader(header).utf8)
        out.append(0x0A)
        for block in blocks {
            out.append(0x0A)
            switch block {
            case .style(let css):
                out.append(contentsOf: "STYLE\n".utf8)
                out.append(contentsOf: safeBlockText(css, what: "STYLE block", &diagnostics).utf8)
            case .region(let region):
                out.append(contentsOf: "REGION\n".utf8)
                // A REGION block needs a settings line to be one: a region of defaults says its width.
                let settings = Self.settingsText(of: region)
                out.append(contentsOf: (settings.isEmpty ? "width:100%" : settings).utf8)
            case .note(let text):
                out.append(contentsOf: "NOTE".utf8)
                out.append(contentsOf: safeBlockText(text, what: "NOTE", &diagnostics).utf8)
            }
            out.append(0x0A)
        }
    }

    /// One cue, after a blank line: identifier, timing line with settings, text. With `spill`, a long text is
    /// written in pieces, `spill` getting `out` after each.
    func appendCue(
        _ cue: Cue, index: Int, to out: inout [UInt8], _ diagnostics: inout [CaptionDiagnostic],
        spill: ((inout [UInt8]) -> Void)? = nil
    ) {
        out.append(0x0A)
        if !cue.identifier.isEmpty {
            out.appendUTF8(of: safeIdentifier(cue.identifier, index: index, &diagnostics))
            out.append(0x0A)
        }
        cue.start.appendFormatted(to: &out, separator: UInt8(ascii: "."))
        out.append(contentsOf: " --> ".utf8)
        cue.end.appendFormatted(to: &out, separator: UInt8(ascii: "."))
        if !cue.hasDefaultSettings {
            let settings = Self.settingsText(of: cue.settings)
            if !settings.isEmpty {
                out.append(0x20)
                out.append(contentsOf: settings.utf8)
            }
        }
        out.append(0x0A)
        appendCueText(cue.text, index: index, to: &out, &diagnostics, spill: spill)
    }

    /// A NOTE block between cues, after a blank line.
    func appendNote(_ note: CaptionNote, to out: inout [UInt8], _ diagnostics: inout [CaptionDiagnostic]) {
        out.append(0x0A)
        out.append(contentsOf: "NOTE".utf8)
        out.append(contentsOf: safeBlockText(note.text, what: "NOTE", &diagnostics).utf8)
        out.append(0x0A)
    }

    /// Cue text, with the two things WebVTT cannot hold inside a cue made safe: empty lines (they would end
    /// the cue) and "-->" (it would start a new one).
    private func appendCueText(
        _ text: String, index: Int, to out: inout [UInt8], _ diagnostics: inout [CaptionDiagnostic],
        spill: ((inout [UInt8]) -> Void)?
    ) {
        guard !text.isEmpty else { return }
        let shape = TextShape(text)
        if !(shape.hasCarriageReturn || shape.hasEmptyLine || shape.hasArrow) {
            out.appendUTF8(of: text, spill: spill)
            out.append(0x0A)
            return
        }
        let safe = SafeLines.append(text, to: &out, dropping: SafeLines.isEmpty, arrow: .escaped, spill: spill)
        if safe.droppedLines {
            diagnostics.append(
                CaptionDiagnostic(
                    line: 0, rule: "webvtt.write", severity: .info,
                    message: "cue \(index + 1): empty lines removed from its text (an empty line ends a WebVTT cue)"))
        }
        if safe.replacedArrows {
            diagnostics.append(
                CaptionDiagnostic(
                    line: 0, rule: "webvtt.write", severity: .info,
                    message: "cue \(index + 1): \"-->\" in its text written as \"--&gt;\""))
        }
    }

    private func safeHeader(_ header: String) -> String {
        // The header ends at the first blank line and may not hold "-->" (that line would start a cue).
        let lines = header.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first else { return "" }
        var kept = [first]
        for line in lines.dropFirst() where !line.isEmpty && !line.contains("-->") { kept.append(line) }
        let firstLine = kept[0].isEmpty || kept[0].first == " " || kept[0].first == "\t" ? String(kept[0]) : " " + kept[0]
        return ([firstLine] + kept.dropFirst().map(String.init)).joined(separator: "\n")
    }

    private func safeBlockText(_ text: String, what: String, _ diagnostics: inout [CaptionDiagnostic]) -> String {
        guard text.contains("\n\n") || text.contains("-->") else { return text }
        diagnostics.append(
            CaptionDiagnostic(
                line: 0, rule: "webvtt.write", severity: .info,
                message: "\(what): blank lines and \"-->\" removed (they would end the block)"))
        return text.split(separator: "\n", omittingEmptySubsequences: true).map {
            $0.replacingOccurrences(of: "-->", with: "->")
        }.joined(separator: "\n")
    }

    private func safeIdentifier(_ identifier: String, index: Int, _ diagnostics: inout [CaptionDiagnostic]) -> String {
        // Most identifiers are numbers or words: no line break and no ">" at all.
        if !identifier.withUTF8Bytes({ $0.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0x3E } }) { return identifier }
        let shape = TextShape(identifier)
        guard shape.hasArrow || shape.hasCarriageReturn || identifier.utf8.contains(0x0A) else { return identifier }
        diagnostics.append(
            CaptionDiagnostic(
                line: 0, rule: "webvtt.write", severity: .info,
                message: "cue \(index + 1): identifier made safe (no line breaks or \"-->\")"))
        return identifier.replacingOccurrences(of: "-->", with: "->").replacingOccurrences(of: "\r", with: " ")
            .replacingOccurrences(of: "\n", with: " ")
    }

    /// Cue settings in canonical order (region last, so that reading them back gives the same cue).
    static func settingsText(of settings: CueSettings) -> String {
        var parts: [String] = []
        if settings.vertical != .horizontal { parts.append("vertical:\(settings.vertical.rawValue)") }
        if let line = settings.line {
            var text = "line:" + NumberFormatting.plainDecimal(line) + (settings.snapToLines ? "" : "%")
            if settings.lineAlign != .start { text += ",\(settings.lineAlign.rawValue)" }
            parts.append(text)
        }
        if let position = settings.position {
            var text = "position:" + NumberFormatting.plainDecimal(position) + "%"
            if settings.positionAlign != .auto { text += ",\(settings.positionAlign.rawValue)" }
            parts.append(text)
        }
        if settings.size != 100 { parts.append("size:" + NumberFormatting.plainDecimal(settings.size) + "%") }
        if settings.align != .center { parts.append("align:\(settings.align.rawValue)") }
        if let region = settings.region { parts.append("region:\(region)") }
        return parts.joined(separator: " ")
    }

    /// A region's settings line, defaults left out.
    static func settingsText(of region: CueRegion) -> String {
        var parts: [String] = []
        if !region.identifier.isEmpty { parts.append("id:\(region.identifier)") }
        if region.width != 100 { parts.append("width:" + NumberFormatting.plainDecimal(region.width) + "%") }
        if region.lines != 3 { parts.append("lines:" + NumberFormatting.plainDecimal(region.lines)) }
        if region.anchorX != 0 || region.anchorY != 100 {
            parts.append("regionanchor:\(NumberFormatting.plainDecimal(region.anchorX))%,\(NumberFormatting.plainDecimal(region.anchorY))%")
        }
        if region.viewportAnchorX != 0 || region.viewportAnchorY != 100 {
            parts.append("viewportanchor:\(NumberFormatting.plainDecimal(region.viewportAnchorX))%,\(NumberFormatting.plainDecimal(region.viewportAnchorY))%")
        }
        if region.scrollUp { parts.append("scroll:up") }
        return parts.joined(separator: " ")
    }
}
