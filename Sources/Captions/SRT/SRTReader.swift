import Basics
import Foundation

/// Reads SubRip (SRT) leniently, the way real files need: the index line may be missing or out of order,
/// times may use `.` or loose digits, text may hold blank lines or lone numbers. Every deviation is
/// reported as a diagnostic; only unreadable text throws.
public struct SRTReader: Sendable {
    public init() {}

    /// Reads an SRT file's bytes, detecting the encoding (BOM, UTF-8, else Windows-1252) unless `encoding` names it.
    /// Text that holds no cue at all (prose, an image, binary data) is not an SRT file: it throws `srt.no-cues`.
    /// An empty or whitespace-only file is a valid file without cues.
    public func read(_ bytes: [UInt8], encoding: String? = nil) throws(CaptionError) -> CaptionDocument {
        try bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(CaptionError) in try read(buffer: buffer, encoding: encoding, mapping: nil) }
        }.get()
    }

    /// UTF-8 text parsed in `parts` parts at once, as long files are (nil when no place to cut was found):
    /// for the fuzzer, which checks that it is the one-pass document.
    @_spi(Fuzzing)
    public func read(utf8 bytes: [UInt8], inParts parts: Int) -> CaptionDocument? {
        bytes.withUnsafeBufferPointer { Self.parseInParts(ByteText(bytes: $0, collapsesCarriageReturnRuns: true), parts: parts)?.0 }
    }

    /// Reads UTF-8 text (one leading BOM is skipped).
    public func read(utf8 bytes: [UInt8]) throws(CaptionError) -> CaptionDocument {
        try bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(CaptionError) in
                try parse(
                    UnsafeBufferPointer(rebasing: buffer[(buffer.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)...]), mapping: nil,
                    encoding: "utf-8")
            }
        }.get()
    }

    /// Reads bytes in place (pages of `mapping` are given back as they are read).
    func read(buffer: UnsafeBufferPointer<UInt8>, encoding: String?, mapping: MappedFile?) throws(CaptionError) -> CaptionDocument {
        switch try TextDecoding.detect(buffer, encoding: encoding, fallback: "windows-1252") {
        case let .utf8(bomLength, valid):
            var document = try parse(UnsafeBufferPointer(rebasing: buffer[bomLength...]), mapping: mapping, encoding: "utf-8")
            if !valid {
                document.diagnostics.insert(
                    CaptionDiagnostic(
                        line: 0, rule: "srt.encoding", severity: .warning,
                        message: "invalid UTF-8 bytes read as U+FFFD"), at: 0)
            }
            return document
        case .converted(let decoded):
            var document = try decoded.utf8.withUnsafeBufferPointer { converted in
                Result { () throws(CaptionError) in try parse(converted, mapping: nil, encoding: decoded.encoding) }
            }.get()
            if let problem = decoded.utf16Problem {
                document.diagnostics.insert(CaptionDiagnostic(line: 0, rule: "srt.encoding", severity: .warning, message: problem), at: 0)
            }
            if decoded.guessed {
                document.diagnostics.insert(
                    CaptionDiagnostic(
                        line: 0, rule: "srt.encoding", severity: .warning,
                        message: "the text is not UTF-8; read as \(decoded.encoding) (use --encoding to name the right one)"), at: 0)
            }
            var recovered = decoded.recoveredLines.prefix(CaptionDiagnostic.limitPerFile).map {
                CaptionDiagnostic(
                    line: $0, rule: "srt.encoding", severity: .warning,
                    message: "bytes that are not UTF-8 on this line read as windows-1252 (the rest of the file is UTF-8)")
            }
            CaptionDiagnostic.cap(&recovered, dropped: max(0, decoded.recoveredLines.count - CaptionDiagnostic.limitPerFile))
            document.diagnostics.insert(contentsOf: recovered, at: 0)
            return document
        }
    }

    private func parse(_ buffer: UnsafeBufferPointer<UInt8>, mapping: MappedFile?, encoding: String) throws(CaptionError) -> CaptionDocument {
        let text = ByteText(bytes: buffer, mapping: mapping, collapsesCarriageReturnRuns: true)
        var document: CaptionDocument
        var noCueMessage: String
        if let parallel = Self.parseInParts(text) {
            (document, noCueMessage) = parallel
        } else {
            var parser = SRTParser(text: text, cues: CueOutput(reserving: text.arrowCount()))
            parser.parse()
            document = CaptionDocument(format: .srt, cues: parser.cues.array, diagnostics: parser.diagnostics)
            CaptionDiagnostic.cap(&document.diagnostics, dropped: parser.droppedDiagnostics)
            noCueMessage = parser.noCueMessage
        }
        if document.cues.isEmpty, !text.isBlank(0, buffer.count) {
            throw CaptionError(rule: "srt.no-cues", message: noCueMessage)
        }
        document.encoding = encoding
        return document
    }

    /// A long text parsed in parts on all cores, each part starting at a block the one-pass parser would start
    /// there too (a blank line, an index line, a readable timing line): the same document as one pass, its
    /// lines and index order put right across the parts. Nil for a short text (or one without such places).
    static func parseInParts(_ text: ByteText, parts: Int? = nil) -> (CaptionDocument, noCueMessage: String)? {
        let parts = parts ?? ParallelParsing.partCount(for: text)
        guard parts > 1 else { return nil }
        var starts = [0]
        var probe = SRTParser(text: text, cues: CueOutput(reserving: 0))
        for k in 1..<parts {
            guard let start = probe.blockStart(after: max(starts.last! + 1, text.count * k / parts)) else { continue }
            starts.append(start)
        }
        guard starts.count > 1,
            let (cues, results) = ParallelParsing.parse(
                text, starts: starts,
                { k, part, output in
                    var parser = SRTParser(text: part, cues: output)
                    if k > 0, let first = parser.firstIndex() { parser.expectedIndex = first }
                    let firstIndex = parser.expectedIndex
                    parser.parse()
                    output = parser.cues
                    return (
                        diagnostics: parser.diagnostics, dropped: parser.droppedDiagnostics, lines: parser.linesScanned, cues: parser.cues.count,
                        firstIndex: firstIndex,
                        lastExpected: parser.expectedIndex, noCue: parser.firstUnreadableTiming
                    )
                })
        else { return nil }
        var document = CaptionDocument(format: .srt, cues: cues)
        var lineOffset = 0, cueOffset = 0
        var noCue: (line: Int, text: Substring)?
        for (k, result) in results.enumerated() {
            if k > 0, results[k - 1].lastExpected != result.firstIndex {
                document.diagnostics.append(
                    CaptionDiagnostic(
                        line: lineOffset + 1, rule: "srt.index-order", severity: .info,
                        message: "cue index \(result.firstIndex) where \(results[k - 1].lastExpected) was expected"))
            }
            document.diagnostics += result.diagnostics.map {
                var diagnostic = $0
                diagnostic.line += lineOffset
                return diagnostic
            }
            if noCue == nil, let first = result.noCue { noCue = (first.line + lineOffset, first.text) }
            // Each part numbered its lines from 1.
            if lineOffset > 0 {
                for index in cueOffset..<(cueOffset + result.cues) { document.cues[index].line += Int32(clamping: lineOffset) }
            }
            lineOffset += result.lines
            cueOffset += result.cues
        }
        CaptionDiagnostic.cap(&document.diagnostics, dropped: results.reduce(0) { $0 + $1.dropped })
        return (document, SRTParser.noCueMessage(noCue))
    }
}

/// One pass over the text: each line is scanned once (its end and its kind). Where SRT's layout is
/// ambiguous the parser reads a line or two ahead and pushes them back.
private struct SRTParser {
    let text: ByteText
    var cues: CueOutput
    var diagnostics: [CaptionDiagnostic] = []
    /// Diagnostics counted but not kept (beyond `CaptionDiagnostic.limitPerFile`).
    var droppedDiagnostics = 0
    /// The index the next cue should have.
    var expectedIndex = 1
    private var releasedUpTo = 0
    private var scanPosition = 0
    private var scanLineNumber = 1
    /// Lines read ahead and pushed back, oldest first.
    private var pushedBack: (Line?, Line?) = (nil, nil)
    private var timingCache: (start: Int, timing: Timing?) = (-1, nil)
    private var lineEnds = LineEndFinder()
    /// The first unreadable timing line, for the message when no cue could be read.
    private(set) var firstUnreadableTiming: (line: Int, text: Substring)?

    init(text: ByteText, cues: CueOutput) {
        self.text = text
        self.cues = cues
    }

    /// How many lines were read.
    var linesScanned: Int { scanLineNumber - 1 }

    /// What a line can be: blank, a number alone, a line with "-->", or other text.
    private enum Kind { case blank, number, arrow, text }

    /// A scanned line: its bounds (without the line break), kind and 1-based number.
    private struct Line {
        var start: Int
        var end: Int
        var kind: Kind
        var number: Int
    }

    // MARK: - Lines

    private mutating func nextLine() -> Line? {
        if let first = pushedBack.0 {
            pushedBack = (pushedBack.1, nil)
            return first
        }
        guard scanPosition < text.count else { return nil }
        return scan()
    }

    /// Puts `line` back in front of the lines still to read (at most two are ever pushed back).
    private mutating func pushBack(_ line: Line) {
        pushedBack = (line, pushedBack.0)
    }

    /// Finds the line's end and classifies it. Most lines are text: once a character other than a digit
    /// or whitespace shows, only a "-->" can change the answer, and that is searched for with memchr.
    private mutating func scan() -> Line {
        let start = scanPosition
        let base = text.bytes.baseAddress!
        let end = lineEnds.lineEnd(in: text, from: start)
        scanPosition = text.nextLineStart(after: end)
        var kind = Kind.blank
        var i = start
        while i < end {
            let b = base[i]
            if b &- 0x30 < 10 {
                kind = .number
            } else if !b.isASCIIWhitespace {
                kind = .text
                var from = i
                while from < end, let found = memchr(base + from, 0x3E, end - from) {
                    let gt = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if gt >= start + 2, base[gt - 1] == 0x2D, base[gt - 2] == 0x2D {
                        kind = .arrow
                        break
                    }
                    from = gt + 1
                }
                break
            }
            i += 1
        }
        defer { scanLineNumber += 1 }
        return Line(start: start, end: end, kind: kind, number: scanLineNumber)
    }

    /// The timing of an arrow line, parsed once even when a block is looked at ahead and then read.
    private mutating func timing(of line: Line) -> Timing? {
        guard line.kind == .arrow else { return nil }
        if timingCache.start == line.start { return timingCache.timing }
        let parsed = timing(line.start, line.end)
        timingCache = (line.start, parsed)
        return parsed
    }

    /// True when `line` starts a cue: a timing line, or an index line followed by one. After a blank line
    /// (`afterBlankLine`) a line with "-->" counts even when its times cannot be read, and so does a number
    /// alone: they begin a broken block to skip, not more text. A line read to decide is pushed back; `line`
    /// itself is not.
    private mutating func startsBlock(_ line: Line, afterBlankLine: Bool = false) -> Bool {
        switch line.kind {
        case .arrow: return afterBlankLine || timing(of: line) != nil
        case .number:
            // After a blank line a number is the next block's index, even when its timing line is missing.
            if afterBlankLine { return true }
            guard let next = nextLine() else { return false }
            pushBack(next)
            return timing(of: next) != nil
        case .text:
            // After a blank line, an index that is not a number ("Subtitle 2") followed by a readable timing line.
            guard afterBlankLine, let next = nextLine() else { return false }
            pushBack(next)
            return timing(of: next) != nil
        case .blank: return false
        }
    }

    // MARK: - Blocks

    mutating func parse() {
        while let first = nextLine() {
            if first.kind == .blank { continue }
            text.consumed(upTo: first.start, releasedUpTo: &releasedUpTo)
            // A block: [index line] timing line, then text. The index line is usually a number; anything else
            // ("Subtitle 1", "-1", "1.1") followed by a timing line is kept as the cue's identifier.
            var identifier = ""
            var index = expectedIndex
            var found: (timing: Timing, line: Int)?
            if first.kind == .arrow {
                if let timing = timing(of: first) {
                    report(first.number, "srt.index", .info, "cue without an index line")
                    found = (timing, first.number)
                }
            } else if let second = nextLine() {
                if let timing = timing(of: second) {
                    (identifier, index) = indexLine(first, expected: expectedIndex)
                    found = (timing, second.number)
                } else {
                    pushBack(second)
                }
            }
            guard let (parsed, timingLine) = found else {
                // A skipped block that had an index still counts: the next cue is expected after it.
                let (indexStart, indexEnd) = trimmedBounds(first.start, first.end)
                if first.kind == .number, let skipped = number(indexStart, indexEnd) { expectedIndex = skipped + 1 }
                skipBlock(startingWith: first)
                continue
            }
            reportTimingNotes(parsed, line: timingLine)

            // Text: up to a blank line followed by a new block or the end. A blank line followed by more text
            // stays in the cue; a timing line (or index + timing) without a blank line before it ends the cue.
            var textStart = -1, textEnd = -1
            var pending = nextLine()
            while let current = pending {
                pending = nil
                if current.kind == .blank {
                    var after: Line?
                    while let line = nextLine() {
                        if line.kind != .blank {
                            after = line
                            break
                        }
                    }
                    guard let after else { break }
                    if startsBlock(after, afterBlankLine: true) {
                        pushBack(after)
                        break
                    }
                    if textStart >= 0 {
                        report(current.number, "srt.blank-line", .warning, "blank line inside a cue's text (kept in the cue)")
                    }
                    pending = after
                    continue
                }
                if current.kind != .text, startsBlock(current) {
                    report(current.number, "srt.missing-blank-line", .warning, "no blank line before the next cue")
                    pushBack(current)
                    break
                }
                if textStart < 0 { textStart = current.start }
                textEnd = current.end
                pending = nextLine()
            }
            var cue = Cue(
                identifier: identifier, start: parsed.start, end: parsed.end,
                text: textStart < 0 ? "" : text.string(textStart, textEnd))
            cue.line = Int32(clamping: timingLine)
            if let coordinates = parsed.coordinates {
                var settings = CueSettings()
                let (from, to) = trimmedBounds(coordinates.lowerBound, coordinates.upperBound)
                settings.srtCoordinates = text.string(from, to)
                cue.settings = settings
            }
            cues.append(cue)
            expectedIndex = index + 1
        }
    }

    // MARK: - Parts

    /// The start of the first line at or after `position` where a block starts whatever came before: after a
    /// blank line, a number alone followed by a readable timing line. Nil when there is none within 1 MB.
    mutating func blockStart(after position: Int) -> Int? {
        var finder = LineEndFinder()
        // The first whole line after `position`.
        var start = text.nextLineStart(after: finder.lineEnd(in: text, from: min(position, text.count)))
        let limit = min(text.count, position + (1 << 20))
        var previousBlank = false
        while start < limit {
            let end = finder.lineEnd(in: text, from: start)
            let next = text.nextLineStart(after: end)
            if text.isBlank(start, end) {
                previousBlank = true
            } else {
                if previousBlank, number(trimmedBounds(start, end).0, trimmedBounds(start, end).1) != nil, next < text.count {
                    let timingEnd = finder.lineEnd(in: text, from: next)
                    if timing(next, timingEnd) != nil { return start }
                }
                previousBlank = false
            }
            start = next
        }
        return nil
    }

    /// The number on the first line (a part starts with an index line).
    func firstIndex() -> Int? {
        var finder = LineEndFinder()
        let (start, end) = trimmedBounds(0, finder.lineEnd(in: text, from: 0))
        return number(start, end)
    }

    /// The identifier and number an index line gives, reporting what is unusual about it: a stray byte-order
    /// mark before the number, a line that is not a number at all, or a number out of order.
    private mutating func indexLine(_ line: Line, expected: Int) -> (identifier: String, index: Int) {
        var (start, end) = trimmedBounds(line.start, line.end)
        var strayMarks = false
        while end - start >= 3, text[start] == 0xEF, text[start + 1] == 0xBB, text[start + 2] == 0xBF {
            start += 3
            strayMarks = true
        }
        if strayMarks { report(line.number, "srt.index", .info, "a byte-order mark (U+FEFF) before the index (ignored)") }
        let identifier = text.string(start, end)
        guard let index = number(start, end) else {
            report(line.number, "srt.index", .info, "index line \"\(identifier.prefix(60))\" is not a number (kept as the cue's identifier)")
            return (identifier, expected)
        }
        if index != expected {
            report(line.number, "srt.index-order", .info, "cue index \(index) where \(expected) was expected")
        }
        return (identifier, index)
    }

    /// Skips a block that is neither an index nor a timing, up to the next blank line, and reports it. A readable
    /// timing line inside the block ends the skipping (as FFmpeg reads it): the cue starts there, with the number
    /// before it as its index.
    private mutating func skipBlock(startingWith first: Line) {
        var firstArrow: Line? = first.kind == .arrow ? first : nil
        var previous = first
        var resumesAt: Line?
        while let line = nextLine() {
            if line.kind == .blank { break }
            if line.kind == .arrow {
                if timing(of: line) != nil {
                    pushBack(line)
                    if previous.kind == .number, previous.start != first.start { pushBack(previous) }
                    resumesAt = line
                    break
                }
                firstArrow = firstArrow ?? line
            }
            previous = line
        }
        let culprit = firstArrow ?? first
        let (start, end) = trimmedBounds(culprit.start, culprit.end)
        let shown = text.string(start, end).prefix(60)
        // Relative, so that the message is the same whichever part of a long file it was read in.
        let skipped =
            resumesAt.map { "skipped up to the readable timing line \($0.number - culprit.number) line\($0.number - culprit.number == 1 ? "" : "s") below" }
            ?? "block skipped"
        if firstArrow != nil {
            firstUnreadableTiming = firstUnreadableTiming ?? (culprit.number, shown)
            report(culprit.number, "srt.timing", .error, "unreadable timing line \"\(shown)\": \(skipped)")
        } else if first.kind == .number {
            report(culprit.number, "srt.garbage", .error, "block \"\(shown)\" has no timing line: \(skipped)")
        } else {
            report(
                culprit.number, "srt.garbage", .error,
                resumesAt == nil
                    ? "text outside any cue skipped: \"\(shown)\""
                    : "text outside any cue skipped: \"\(shown)\" (\(skipped))")
        }
    }

    /// Why no cue could be read: no timing line at all, or only unreadable ones.
    var noCueMessage: String { Self.noCueMessage(firstUnreadableTiming) }

    static func noCueMessage(_ firstUnreadableTiming: (line: Int, text: Substring)?) -> String {
        guard let (line, shown) = firstUnreadableTiming else { return "not an SRT file (no cue found)" }
        return "no cue could be read: line \(line): unreadable timing line \"\(shown)\""
    }

    /// Bounds without surrounding whitespace.
    private func trimmedBounds(_ start: Int, _ end: Int) -> (Int, Int) {
        var start = start, end = end
        while start < end, text[start].isASCIIWhitespace { start += 1 }
        while end > start, text[end - 1].isASCIIWhitespace { end -= 1 }
        return (start, end)
    }

    /// The value of a run of digits (an index line).
    private func number(_ start: Int, _ end: Int) -> Int? {
        guard start < end, end - start <= 18 else { return nil }
        var value = 0
        for p in start..<end {
            guard text[p].isASCIIDigit else { return nil }
            value = value * 10 + Int(text[p] - 0x30)
        }
        return value
    }

    private mutating func report(_ line: Int, _ rule: String, _ severity: CaptionDiagnostic.Severity, _ message: String) {
        guard diagnostics.count < CaptionDiagnostic.limitPerFile else {
            droppedDiagnostics += 1
            return
        }
        diagnostics.append(CaptionDiagnostic(line: line, rule: rule, severity: severity, message: message))
    }

    // MARK: - Timing lines

    /// What was loose about a timing line (a bit set, to keep `Timing` a plain value).
    private struct TimingNotes: OptionSet {
        let rawValue: UInt8
        static let looseDigits = TimingNotes(rawValue: 1)
        static let dotSeparator = TimingNotes(rawValue: 2)
        static let shortOrLongFraction = TimingNotes(rawValue: 4)
        static let noFraction = TimingNotes(rawValue: 8)
        static let above59 = TimingNotes(rawValue: 16)
    }

    private struct Timing {
        var start: CaptionTime
        var end: CaptionTime
        /// Where the `X1:… Y2:…` coordinates after the times are, if any.
        var coordinates: Range<Int>?
        var notes: TimingNotes
    }

    private mutating func reportTimingNotes(_ timing: Timing, line: Int) {
        let notes = timing.notes
        if !notes.isEmpty {
            if notes.contains(.looseDigits) { report(line, "srt.timing-format", .info, "loose digits in a time (expected HH:MM:SS,mmm)") }
            if notes.contains(.dotSeparator) { report(line, "srt.timing-format", .info, "\".\" instead of \",\" before the milliseconds") }
            if notes.contains(.shortOrLongFraction) {
                report(line, "srt.timing-format", .info, "milliseconds not written with 3 digits (read as a decimal fraction of a second: \",5\" is 500 ms)")
            }
            if notes.contains(.noFraction) { report(line, "srt.timing-format", .info, "a time without milliseconds") }
            if notes.contains(.above59) { report(line, "srt.timing-format", .info, "minutes or seconds above 59") }
        }
        if timing.end < timing.start {
            report(line, "srt.timing-order", .warning, "the cue ends (\(timing.end.srtString)) before it starts (\(timing.start.srtString))")
        }
    }

    /// `H:MM:SS,mmm --> H:MM:SS,mmm [X1:… X2:… Y1:… Y2:…]`, leniently.
    private func timing(_ start: Int, _ end: Int) -> Timing? {
        guard end - start >= 10 else { return nil }
        var p = start
        var timing = Timing(start: .zero, end: .zero, coordinates: nil, notes: [])
        WebVTTSyntax.skipWhitespace(text, &p, end)
        guard let from = time(&p, end, &timing) else { return nil }
        WebVTTSyntax.skipWhitespace(text, &p, end)
        guard p + 2 < end, text[p] == 0x2D, text[p + 1] == 0x2D, text[p + 2] == 0x3E else { return nil }
        p += 3
        WebVTTSyntax.skipWhitespace(text, &p, end)
        guard let to = time(&p, end, &timing) else { return nil }
        if p < end, !text.isBlank(p, end) {
            guard text[p].isASCIIWhitespace else { return nil }
            timing.coordinates = p..<end
        }
        timing.start = from
        timing.end = to
        return timing
    }

    /// Up to `limit` ASCII digits: their count and value.
    @inline(__always)
    private func digits(_ p: inout Int, _ end: Int, limit: Int) -> (count: Int, value: Int64) {
        var count = 0
        var value: Int64 = 0
        while p < end, count < limit {
            let d = text[p] &- 0x30
            guard d < 10 else { break }
            value = value * 10 + Int64(d)
            count += 1
            p += 1
        }
        return (count, value)
    }

    /// `H+:M+:S+[,.]F+` (fraction optional), reading a short fraction as a decimal (",5" is 500 ms).
    private func time(_ p: inout Int, _ end: Int, _ timing: inout Timing) -> CaptionTime? {
        let hours = digits(&p, end, limit: 18)
        guard hours.count >= 1, p < end, text[p] == 0x3A else { return nil }
        p += 1
        // Minutes and seconds of any width (FFmpeg and ExoPlayer read "00:00:013,567" as 13.567 s), within reason.
        let minutes = digits(&p, end, limit: 10)
        guard (1...9).contains(minutes.count), p < end, text[p] == 0x3A else { return nil }
        p += 1
        let seconds = digits(&p, end, limit: 10)
        guard (1...9).contains(seconds.count) else { return nil }
        if minutes.count != 2 || seconds.count != 2 || (hours.count > 2 && hours.value < 100) { timing.notes.insert(.looseDigits) }
        var milliseconds: Int64 = 0
        if p < end, text[p] == 0x2C || text[p] == 0x2E {
            if text[p] == 0x2E { timing.notes.insert(.dotSeparator) }
            p += 1
            let fractionStart = p
            let fraction = digits(&p, end, limit: 4)
            guard fraction.count >= 1 else { return nil }
            while p < end, text[p].isASCIIDigit { p += 1 }  // digits past the fourth are dropped
            let count = p - fractionStart
            if count == 3 {
                milliseconds = fraction.value
            } else {
                timing.notes.insert(.shortOrLongFraction)
                // The first three digits as a decimal fraction; a fourth rounds.
                var value: Int64 = 0
                for k in 0..<3 { value = value * 10 + (k < count ? Int64(text[fractionStart + k] - 0x30) : 0) }
                if count > 3, text[fractionStart + 3] >= 0x35 { value += 1 }
                milliseconds = value
            }
        } else {
            timing.notes.insert(.noFraction)
        }
        if minutes.value > 59 || seconds.value > 59 { timing.notes.insert(.above59) }
        // Any hours a writer can write (up to Int64 milliseconds) read back; more is not a time.
        let (hoursMilliseconds, overflow) = hours.value.multipliedReportingOverflow(by: 3_600_000)
        let (total, overflowTotal) = hoursMilliseconds.addingReportingOverflow(minutes.value * 60_000 + seconds.value * 1000 + milliseconds)
        guard !overflow, !overflowTotal else { return nil }
        return CaptionTime(milliseconds: total)
    }
}
