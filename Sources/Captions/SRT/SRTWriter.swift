/// Writes SubRip in canonical form: cues numbered from 1, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, the text, a blank
/// line after each cue (the last one too, as most tools write it); LF line breaks (or CRLF). Reading the output gives back the same cues.
public struct SRTWriter: Sendable {
    public enum LineEnding: Sendable { case lf, crlf }

    public var lineEnding: LineEnding

    public init(lineEnding: LineEnding = .lf) { self.lineEnding = lineEnding }

    public func write(_ document: CaptionDocument) -> (bytes: [UInt8], diagnostics: [CaptionDiagnostic]) {
        var document = document
        var out: [UInt8] = []
        out.reserveCapacity(document.estimatedWrittenSize)
        let diagnostics = CaptionWriting.write(&document, with: self, into: &out, flushing: nil)
        return (out, diagnostics)
    }

    /// One cue: its number, timing line and text, and the blank line after it. With `spill`, a long text is
    /// written in pieces, `spill` getting `out` after each.
    func appendCue(
        _ cue: Cue, index: Int, to out: inout [UInt8], _ diagnostics: inout [CaptionDiagnostic],
        spill: ((inout [UInt8]) -> Void)? = nil
    ) {
        let crlf = lineEnding == .crlf
        appendNumber(index + 1, to: &out)
        if crlf { out.append(0x0D) }
        out.append(0x0A)
        cue.start.appendFormatted(to: &out, separator: UInt8(ascii: ","))
        out.append(contentsOf: " --> ".utf8)
        cue.end.appendFormatted(to: &out, separator: UInt8(ascii: ","))
        if !cue.hasDefaultSettings, let coordinates = cue.settings.srtCoordinates, !coordinates.isEmpty {
            out.append(0x20)
            out.append(contentsOf: coordinates.utf8)
        }
        if crlf { out.append(0x0D) }
        out.append(0x0A)
        appendText(cue.text, index: index, crlf: crlf, to: &out, &diagnostics, spill: spill)
        if crlf { out.append(0x0D) }
        out.append(0x0A)
    }

    private func appendNumber(_ number: Int, to out: inout [UInt8]) {
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var value = number
            var i = buffer.count
            repeat {
                i -= 1
                buffer[i] = 0x30 + UInt8(value % 10)
                value /= 10
            } while value > 0
            out.append(contentsOf: buffer[i...])
        }
    }

    /// The text's lines; blank lines (they would end the cue) are dropped, and so is a line that would read
    /// as a timing line or as an index followed by one.
    private func appendText(
        _ text: String, index: Int, crlf: Bool, to out: inout [UInt8], _ diagnostics: inout [CaptionDiagnostic],
        spill: ((inout [UInt8]) -> Void)?
    ) {
        guard !text.isEmpty else { return }
        let shape = TextShape(text)
        if !crlf, !shape.hasCarriageReturn, !shape.hasArrow, !shape.hasBlankLine {
            out.appendUTF8(of: text, spill: spill)
            out.append(0x0A)
            return
        }
        let safe = SafeLines.append(text, to: &out, dropping: SafeLines.isBlank, arrow: .shortened, crlf: crlf, spill: spill)
        if safe.droppedLines {
            diagnostics.append(
                CaptionDiagnostic(
                    line: 0, rule: "srt.write", severity: .info,
                    message: "cue \(index + 1): blank lines removed from its text (a blank line ends an SRT cue)"))
        }
        if safe.replacedArrows {
            diagnostics.append(
                CaptionDiagnostic(
                    line: 0, rule: "srt.write", severity: .info,
                    message: "cue \(index + 1): \"-->\" in its text written as \"->\""))
        }
    }
}
