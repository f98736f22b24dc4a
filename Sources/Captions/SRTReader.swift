/// Reads SubRip (SRT) leniently, the way real files need: the index line may be missing or out of order,
/// times may use `.` or loose digits, text may hold blank lines or lone numbers. Every deviation is
/// reported as a diagnostic; only unreadable text throws.
public struct SRTReader: Sendable {
    public init() {}

    /// Reads an SRT file's bytes, detecting the encoding (BOM, UTF-8, else Windows-1252) unless `encoding` names it.
    public func read(_ bytes: [UInt8], encoding: String? = nil) throws(CaptionError) -> CaptionDocument {
        let decoded = try TextDecoding.decode(bytes, encoding: encoding)
        var document = parse(decoded.utf8, encoding: decoded.encoding)
        if decoded.guessed {
            document.diagnostics.insert(CaptionDiagnostic(line: 0, rule: "srt.encoding", severity: .warning,
                                                          message: "the text is not UTF-8; read as \(decoded.encoding) (use --encoding to name the right one)"), at: 0)
        } else if decoded.hadInvalidUTF8 {
            document.diagnostics.insert(CaptionDiagnostic(line: 0, rule: "srt.encoding", severity: .warning,
                                                          message: "invalid UTF-8 bytes read as U+FFFD"), at: 0)
        }
        return document
    }

    /// Reads UTF-8 text (one leading BOM is skipped).
    public func read(utf8 bytes: [UInt8]) -> CaptionDocument {
        parse(bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes, encoding: "utf-8")
    }

    private func parse(_ input: [UInt8], encoding: String) -> CaptionDocument {
        input.withUnsafeBufferPointer { buffer in
            var parser = SRTParser(text: ByteText(bytes: buffer))
            var document = parser.parse()
            document.encoding = encoding
            return document
        }
    }
}

/// One pass over the text, line by line, looking ahead where SRT's layout is ambiguous.
private struct SRTParser {
    let text: ByteText
    var cues: [Cue] = []
    var diagnostics: [CaptionDiagnostic] = []

    init(text: ByteText) { self.text = text }

    /// A line: its bounds (without the line break) and where the next line starts.
    private struct Line {
        var start: Int
        var end: Int
        var next: Int
    }

    private func line(at position: Int) -> Line {
        let end = text.lineEnd(from: position)
        return Line(start: position, end: end, next: text.nextLineStart(after: end))
    }

    mutating func parse() -> CaptionDocument {
        var position = 0
        var lineNumber = 1
        var expectedIndex = 1
        let count = text.count
        while position < count {
            let first = line(at: position)
            if isBlank(first) {
                position = first.next
                lineNumber += 1
                continue
            }
            // A block: [index line] timing line, then text.
            var identifier = ""
            var timingLine = first
            var timingLineNumber = lineNumber
            let parsed: Timing
            if let index = indexValue(first), first.next < count, let found = timing(line(at: first.next)) {
                identifier = trimmed(first)
                if index != expectedIndex {
                    report(lineNumber, "srt.index-order", .info, "cue index \(index) where \(expectedIndex) was expected")
                }
                timingLine = line(at: first.next)
                timingLineNumber += 1
                parsed = found
            } else if let found = timing(first) {
                report(lineNumber, "srt.index", .info, "cue without an index line")
                parsed = found
            } else {
                // Neither an index nor a timing: skip to the next blank line.
                var containsArrow = false
                let blockLine = lineNumber
                var skipped = first
                while true {
                    containsArrow = containsArrow || text.containsArrow(skipped.start, skipped.end)
                    position = skipped.next
                    lineNumber += 1
                    guard position < count else { break }
                    skipped = line(at: position)
                    if isBlank(skipped) { break }
                }
                let shown = trimmed(first).prefix(60)
                report(blockLine, containsArrow ? "srt.timing" : "srt.garbage", .error,
                       containsArrow ? "unreadable timing line \"\(shown)\": block skipped" : "text outside any cue skipped: \"\(shown)\"")
                continue
            }
            for note in parsed.notes { report(timingLineNumber, "srt.timing-format", .info, note) }
            if parsed.end < parsed.start {
                report(timingLineNumber, "srt.timing-order", .warning,
                       "the cue ends (\(parsed.end.srtString)) before it starts (\(parsed.start.srtString))")
            }

            // Text: up to a blank line followed by a new block or the end. A blank line followed by more text
            // stays in the cue; a timing line (or index + timing) without a blank line before it ends the cue.
            position = timingLine.next
            lineNumber = timingLineNumber + 1
            var textStart = -1, textEnd = -1
            while position < count {
                let current = line(at: position)
                if isBlank(current) {
                    var ahead = current.next
                    var blanks = 1
                    while ahead < count, isBlank(line(at: ahead)) {
                        ahead = line(at: ahead).next
                        blanks += 1
                    }
                    if ahead >= count || startsBlock(line(at: ahead)) { break }
                    if textStart >= 0 {
                        report(lineNumber, "srt.blank-line", .warning, "blank line inside a cue's text (kept in the cue)")
                    }
                    position = ahead
                    lineNumber += blanks
                    continue
                }
                if startsBlock(current) {
                    report(lineNumber, "srt.missing-blank-line", .warning, "no blank line before the next cue")
                    break
                }
                if textStart < 0 { textStart = current.start }
                textEnd = current.end
                position = current.next
                lineNumber += 1
            }
            var cue = Cue(identifier: identifier, start: parsed.start, end: parsed.end,
                          text: textStart < 0 ? "" : text.string(textStart, textEnd))
            if let coordinates = parsed.coordinates {
                var settings = CueSettings()
                settings.srtCoordinates = coordinates
                cue.settings = settings
            }
            cues.append(cue)
            expectedIndex = (Int(identifier) ?? expectedIndex) + 1
        }
        return CaptionDocument(format: .srt, cues: cues, diagnostics: diagnostics)
    }

    // MARK: - Lines

    private func isBlank(_ line: Line) -> Bool { text.isBlank(line.start, line.end) }

    /// The line's bounds without surrounding whitespace.
    private func trimmedBounds(_ line: Line) -> (Int, Int) {
        var start = line.start, end = line.end
        while start < end, text[start].isASCIIWhitespace { start += 1 }
        while end > start, text[end - 1].isASCIIWhitespace { end -= 1 }
        return (start, end)
    }

    private func trimmed(_ line: Line) -> String {
        let (start, end) = trimmedBounds(line)
        return text.string(start, end)
    }

    /// A line that is a number alone (an index), surrounding whitespace allowed.
    private func indexValue(_ line: Line) -> Int? {
        let (start, end) = trimmedBounds(line)
        guard start < end, end - start <= 18 else { return nil }
        var value = 0
        for p in start..<end {
            guard text[p].isASCIIDigit else { return nil }
            value = value * 10 + Int(text[p] - 0x30)
        }
        return value
    }

    /// True when `line` starts a cue: a timing line, or an index line followed by one.
    private func startsBlock(_ line: Line) -> Bool {
        if timing(line) != nil { return true }
        return indexValue(line) != nil && line.next < text.count && timing(self.line(at: line.next)) != nil
    }

    private mutating func report(_ line: Int, _ rule: String, _ severity: CaptionDiagnostic.Severity, _ message: String) {
        diagnostics.append(CaptionDiagnostic(line: line, rule: rule, severity: severity, message: message))
    }

    // MARK: - Timing lines

    private struct Timing {
        var start: CaptionTime
        var end: CaptionTime
        var coordinates: String?
        var notes: [String]
    }

    /// `H:MM:SS,mmm --> H:MM:SS,mmm [X1:… X2:… Y1:… Y2:…]`, leniently.
    private func timing(_ line: Line) -> Timing? {
        let start = line.start, end = line.end
        // Cheap rejection first: most lines are text.
        guard end - start >= 10, text.containsArrow(start, end) else { return nil }
        var p = start
        var notes: [String] = []
        WebVTTSyntax.skipWhitespace(text, &p, end)
        guard let from = time(&p, end, &notes) else { return nil }
        WebVTTSyntax.skipWhitespace(text, &p, end)
        guard p + 2 < end, text[p] == 0x2D, text[p + 1] == 0x2D, text[p + 2] == 0x3E else { return nil }
        p += 3
        WebVTTSyntax.skipWhitespace(text, &p, end)
        guard let to = time(&p, end, &notes) else { return nil }
        var coordinates: String?
        if !text.isBlank(p, end) {
            guard text[p].isASCIIWhitespace else { return nil }
            coordinates = trimmed(Line(start: p, end: end, next: end))
        }
        return Timing(start: from, end: to, coordinates: coordinates, notes: notes)
    }

    /// `H+:M{1,2}:S{1,2}[,.]F{1,3}` (fraction optional), reading a short fraction as a decimal (",5" is 500 ms).
    private func time(_ p: inout Int, _ end: Int, _ notes: inout [String]) -> CaptionTime? {
        let hours = WebVTTSyntax.digits(text, &p, end)
        guard hours.count >= 1, !hours.overflowed, hours.value < 1_000_000, p < end, text[p] == 0x3A else { return nil }
        p += 1
        let minutes = WebVTTSyntax.digits(text, &p, end)
        guard (1...2).contains(minutes.count), p < end, text[p] == 0x3A else { return nil }
        p += 1
        let seconds = WebVTTSyntax.digits(text, &p, end)
        guard (1...2).contains(seconds.count) else { return nil }
        if minutes.count != 2 || seconds.count != 2 || hours.count > 2 && hours.value < 100 {
            notes.append("loose digits in a time (expected HH:MM:SS,mmm)")
        }
        var milliseconds: Int64 = 0
        if p < end, text[p] == 0x2C || text[p] == 0x2E {
            if text[p] == 0x2E { notes.append("\".\" instead of \",\" before the milliseconds") }
            p += 1
            let fractionStart = p
            let fraction = WebVTTSyntax.digits(text, &p, end)
            guard fraction.count >= 1 else { return nil }
            if fraction.count != 3 { notes.append("\(fraction.count) digits of milliseconds (read as a decimal fraction of a second)") }
            // The first three digits as a decimal fraction; a fourth rounds.
            var value: Int64 = 0
            for k in 0..<3 { value = value * 10 + (k < fraction.count ? Int64(text[fractionStart + k] - 0x30) : 0) }
            if fraction.count > 3, text[fractionStart + 3] >= 0x35 { value += 1 }
            milliseconds = value
        } else {
            notes.append("a time without milliseconds")
        }
        if minutes.value > 59 || seconds.value > 59 { notes.append("minutes or seconds above 59") }
        return CaptionTime(milliseconds: hours.value * 3_600_000 + minutes.value * 60_000 + seconds.value * 1000 + milliseconds)
    }
}
