import Foundation

/// Reads WebVTT by the W3C WebVTT parser algorithm: only a bad signature is fatal; every other problem
/// drops or ignores just the part concerned, and is reported as a diagnostic.
public struct WebVTTReader: Sendable {
    /// How much the reader reports.
    public enum Mode: Sendable {
        /// Like a browser: report what was dropped or ignored.
        case lenient
        /// A validator: also report every deviation from the WebVTT syntax (including inside cue text).
        case strict
    }

    public var mode: Mode

    public init(mode: Mode = .lenient) { self.mode = mode }

    /// UTF-8 text (without NUL characters) parsed in `parts` parts at once, as long files are (nil when no place
    /// to cut was found): for the fuzzer, which checks that it is the one-pass document.
    @_spi(Fuzzing)
    public func read(utf8 bytes: [UInt8], inParts parts: Int) -> CaptionDocument? {
        bytes.withUnsafeBufferPointer { Self.parseInParts(ByteText(bytes: $0), parts: parts) }
    }

    /// Reads UTF-8 text (one leading BOM is skipped).
    public func read(utf8 bytes: [UInt8]) throws(CaptionError) -> CaptionDocument {
        try read(bytes, encoding: "utf-8")
    }

    /// Reads a WebVTT file's bytes. WebVTT is UTF-8 by definition; `encoding` overrides that for files
    /// that are not (and UTF-16 with a byte-order mark is recognised).
    public func read(_ bytes: [UInt8], encoding: String? = nil) throws(CaptionError) -> CaptionDocument {
        try bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(CaptionError) in try read(buffer: buffer, encoding: encoding, mapping: nil) }
        }.get()
    }

    /// Reads bytes in place (pages of `mapping` are given back as they are read).
    func read(buffer: UnsafeBufferPointer<UInt8>, encoding: String?, mapping: MappedFile?) throws(CaptionError) -> CaptionDocument {
        switch try TextDecoding.detect(buffer, encoding: encoding, fallback: nil) {
        case let .utf8(bomLength, valid):
            var document = try parse(UnsafeBufferPointer(rebasing: buffer[bomLength...]), mapping: mapping, encoding: "utf-8")
            if !valid {
                document.diagnostics.insert(
                    CaptionDiagnostic(
                        line: 0, rule: "webvtt.encoding", severity: .warning,
                        message: "the file is not valid UTF-8: invalid bytes read as U+FFFD (use --encoding to name its encoding)"), at: 0)
            }
            return document
        case .converted(let decoded):
            var document = try decoded.utf8.withUnsafeBufferPointer { converted in
                Result { () throws(CaptionError) in try parse(converted, mapping: nil, encoding: decoded.encoding) }
            }.get()
            if let problem = decoded.utf16Problem {
                document.diagnostics.insert(CaptionDiagnostic(line: 0, rule: "webvtt.encoding", severity: .warning, message: problem), at: 0)
            }
            return document
        }
    }

    /// Parses decoded text (its BOM already removed: a second one makes the signature invalid).
    private func parse(_ buffer: UnsafeBufferPointer<UInt8>, mapping: MappedFile?, encoding: String) throws(CaptionError) -> CaptionDocument {
        if let base = buffer.baseAddress, memchr(base, 0, buffer.count) != nil, let copy = replacingNulls(in: Array(buffer)) {
            // NUL characters read as U+FFFD: parse a copy with them replaced.
            var document = try copy.withUnsafeBufferPointer { replaced in
                Result { () throws(CaptionError) in try parse(replaced, mapping: nil, encoding: encoding) }
            }.get()
            document.diagnostics.insert(CaptionDiagnostic(line: 0, rule: "webvtt.null", message: "NUL characters read as U+FFFD"), at: 0)
            return document
        }
        let text = ByteText(bytes: buffer, mapping: mapping)
        var document: CaptionDocument
        if mode == .lenient, let parallel = Self.parseInParts(text) {
            document = parallel
        } else {
            var parser = WebVTTParser(text: text, strict: mode == .strict, cues: CueOutput(reserving: text.arrowCount()))
            document = try parser.parse().get()
            CaptionDiagnostic.cap(&document.diagnostics, dropped: parser.droppedDiagnostics)
        }
        document.encoding = encoding
        return document
    }

    /// A long text parsed in parts on all cores: the header and first cue are read first (for the regions the
    /// cues may name); the rest is cut where a block starts whatever came before (a line after an empty line),
    /// and each part parsed at once. The same document as one pass, its lines and notes put right across the
    /// parts. Nil for a short text (or one without such places, or a bad signature: one pass says why).
    static func parseInParts(_ text: ByteText, parts: Int? = nil) -> CaptionDocument? {
        let parts = parts ?? ParallelParsing.partCount(for: text)
        guard parts > 1 else { return nil }
        var probe = WebVTTParser(text: text, strict: false, cues: CueOutput(reserving: 1))
        probe.stopsAfterFirstCue = true
        guard case .success = probe.parse(), probe.seenCue else { return nil }
        let regions = probe.regions
        var starts = [0]
        for k in 1..<parts {
            guard let start = probe.blockStart(after: max(starts.last! + 1, probe.position, text.count * k / parts)) else { continue }
            starts.append(start)
        }
        guard starts.count > 1,
            let (cues, results) = ParallelParsing.parse(
                text, starts: starts,
                { k, part, output in
                    var parser = WebVTTParser(text: part, strict: false, cues: output)
                    var document: CaptionDocument?
                    if k == 0 {
                        document = try? parser.parse().get()
                    } else {
                        parser.regions = regions
                        parser.seenCue = true
                        parser.parseBlocks()
                    }
                    output = parser.cues
                    return (
                        document: document, diagnostics: parser.diagnostics, dropped: parser.droppedDiagnostics, notes: parser.document.notes,
                        lines: parser.lineNumber - 1,
                        cues: parser.cues.count
                    )
                }), var document = results[0].document
        else { return nil }
        document.cues = cues
        var lineOffset = results[0].lines, cueOffset = results[0].cues
        for result in results.dropFirst() {
            document.diagnostics += result.diagnostics.map {
                var diagnostic = $0
                diagnostic.line += lineOffset
                return diagnostic
            }
            document.notes += result.notes.map { CaptionNote(cuesBefore: $0.cuesBefore + cueOffset, text: $0.text) }
            for index in cueOffset..<(cueOffset + result.cues) { document.cues[index].line += Int32(clamping: lineOffset) }
            lineOffset += result.lines
            cueOffset += result.cues
        }
        CaptionDiagnostic.cap(&document.diagnostics, dropped: results.reduce(0) { $0 + $1.dropped })
        return document
    }
}

/// One run of the WebVTT parser algorithm over a text.
private struct WebVTTParser {
    let text: ByteText
    let strict: Bool
    var position = 0
    /// 1-based number of the line starting at `position`.
    var lineNumber = 1
    var seenCue = false
    /// True for the first part of a long text parsed in parts: stop once the first cue is read.
    var stopsAfterFirstCue = false
    var document = CaptionDocument(format: .webvtt)
    /// The cues read (put in `document` at the end of `parse`).
    var cues: CueOutput
    var regions: [CueRegion] = []
    /// Cues with the same settings share them.
    var settingsPool = CueSettingsPool()
    var diagnostics: [CaptionDiagnostic] = []
    /// Diagnostics counted but not kept (beyond `CaptionDiagnostic.limitPerFile`).
    var droppedDiagnostics = 0
    var lineEnds = LineEndFinder()
    var releasedUpTo = 0

    init(text: ByteText, strict: Bool, cues: CueOutput) {
        self.text = text
        self.strict = strict
        self.cues = cues
    }

    mutating func parse() -> Result<CaptionDocument, CaptionError> {
        guard signatureIsValid() else {
            return .failure(
                CaptionError(
                    rule: "webvtt.signature",
                    message: "not a WebVTT file: it must start with \"WEBVTT\" followed by a space, a tab or a line break"))
        }
        // The rest of the signature line.
        let signatureEnd = text.lineEnd(from: 6)
        var header = text.string(6, signatureEnd)
        position = signatureEnd
        if position < text.count {
            advanceLine(to: text.nextLineStart(after: position))
            if position < text.count {
                if !isLineBreak(position) {
                    let block = collectBlock(inHeader: true)
                    if !block.text.isEmpty { header += "\n" + block.text }
                } else {
                    advanceLine(to: text.nextLineStart(after: position))
                }
                parseBlocks()
            }
        }
        document.header = header
        document.diagnostics = diagnostics
        document.cues = cues.array
        return .success(document)
    }

    /// The blocks from `position` on (after the header; a part of a long text starts here).
    mutating func parseBlocks() {
        skipBlankLines()
        while position < text.count {
            text.consumed(upTo: position, releasedUpTo: &releasedUpTo)
            let block = collectBlock(inHeader: false)
            add(block)
            if stopsAfterFirstCue, seenCue { return }
            skipBlankLines()
        }
    }

    /// The start of the first line after an empty line at or after `position`: every block starts there,
    /// whatever came before. Nil when there is none within 1 MB.
    mutating func blockStart(after position: Int) -> Int? {
        var finder = LineEndFinder()
        var start = text.nextLineStart(after: finder.lineEnd(in: text, from: min(position, text.count)))
        let limit = min(text.count, position + (1 << 20))
        var previousEmpty = false
        while start < limit {
            let end = finder.lineEnd(in: text, from: start)
            if end == start {
                previousEmpty = true
            } else {
                if previousEmpty { return start }
                previousEmpty = false
            }
            start = text.nextLineStart(after: end)
        }
        return nil
    }

    // MARK: - Signature and lines

    private func signatureIsValid() -> Bool {
        guard text.count >= 6, text.hasPrefix("WEBVTT", 0, text.count) else { return false }
        guard text.count > 6 else { return true }
        let seventh = text[6]
        return seventh == 0x20 || seventh == 0x09 || seventh == 0x0A || seventh == 0x0D
    }

    private func isLineBreak(_ i: Int) -> Bool { text[i] == 0x0A || text[i] == 0x0D }

    private mutating func advanceLine(to next: Int) {
        position = next
        lineNumber += 1
    }

    private mutating func skipBlankLines() {
        while position < text.count, isLineBreak(position) { advanceLine(to: text.nextLineStart(after: position)) }
    }

    // MARK: - Blocks

    private enum BlockKind {
        case cue(Cue)
        case style
        case region
        case other
    }

    private struct Block {
        var kind: BlockKind
        /// The collected text (the cue text for a cue).
        var text: String
        var firstLine: Int
    }

    /// "Collect a WebVTT block".
    private mutating func collectBlock(inHeader: Bool) -> Block {
        var lineCount = 0
        var previousPosition = position
        var previousLineNumber = lineNumber
        var bufferStart = -1, bufferEnd = -1
        var seenArrow = false
        var cue: Cue?
        var cueFailed = false
        var isStyle = false, isRegion = false
        let firstLine = lineNumber

        loop: while true {
            let lineStart = position
            let (lineEnd, hasArrow) = text.scanLine(from: position, &lineEnds)
            let currentLine = lineNumber
            lineCount += 1
            let seenEOF = lineEnd >= text.count
            if !seenEOF { advanceLine(to: text.nextLineStart(after: lineEnd)) } else { position = lineEnd }

            if hasArrow {
                if !inHeader && (lineCount == 1 || (lineCount == 2 && !seenArrow)) {
                    seenArrow = true
                    previousPosition = position
                    previousLineNumber = lineNumber
                    let identifier = bufferStart >= 0 ? text.string(bufferStart, bufferEnd) : ""
                    if let parsed = parseTimingLine(lineStart, lineEnd, line: currentLine, identifier: identifier) {
                        cue = parsed
                        cueFailed = false
                        bufferStart = -1
                        seenCue = true
                    } else {
                        cue = nil
                        cueFailed = true
                    }
                } else {
                    position = previousPosition
                    lineNumber = previousLineNumber
                    break loop
                }
            } else if lineStart == lineEnd {
                break loop
            } else {
                if !inHeader && lineCount == 2 && bufferStart >= 0 && !seenCue {
                    if text.hasPrefix("STYLE", bufferStart, bufferEnd), text.isBlank(bufferStart + 5, bufferEnd) {
                        isStyle = true
                        bufferStart = -1
                    } else if text.hasPrefix("REGION", bufferStart, bufferEnd), text.isBlank(bufferStart + 6, bufferEnd) {
                        isRegion = true
                        bufferStart = -1
                    }
                }
                if bufferStart < 0 { bufferStart = lineStart }
                bufferEnd = lineEnd
                previousPosition = position
                previousLineNumber = lineNumber
            }
            if seenEOF { break loop }
        }

        let buffer = bufferStart >= 0 ? text.string(bufferStart, bufferEnd) : ""
        if var cue {
            cue.text = buffer
            return Block(kind: .cue(cue), text: buffer, firstLine: firstLine)
        }
        if cueFailed {
            return Block(kind: .other, text: "", firstLine: -1)  // already reported
        }
        if isStyle { return Block(kind: .style, text: buffer, firstLine: firstLine) }
        if isRegion { return Block(kind: .region, text: buffer, firstLine: firstLine) }
        return Block(kind: .other, text: buffer, firstLine: firstLine)
    }

    private mutating func add(_ block: Block) {
        switch block.kind {
        case .cue(let cue):
            if strict { validate(cue, line: block.firstLine) }
            cues.append(cue)
        case .style:
            document.headerBlocks.append(.style(block.text))
        case .region:
            let region = WebVTTSyntax.region(Substring(block.text)) { setting in
                report(block.firstLine + 1, "webvtt.region-setting", "region setting \"\(setting)\" ignored")
            }
            regions.append(region)
            document.headerBlocks.append(.region(region))
        case .other:
            guard block.firstLine > 0 else { return }
            if isNote(block.text) {
                let note = String(block.text.dropFirst(4))
                if cues.isEmpty, !seenCue {
                    document.headerBlocks.append(.note(note))
                } else {
                    document.notes.append(CaptionNote(cuesBefore: cues.count, text: note))
                }
            } else if block.text.hasPrefix("STYLE") || block.text.hasPrefix("REGION") {
                report(
                    block.firstLine, "webvtt.block-order",
                    "\(block.text.hasPrefix("STYLE") ? "STYLE" : "REGION") block after the first cue ignored (they must come before any cue)")
            } else {
                report(block.firstLine, "webvtt.block", "block without a timing line ignored: \"\(block.text.prefix(40))\"")
            }
        }
    }

    private func isNote(_ text: String) -> Bool {
        guard text.hasPrefix("NOTE") else { return false }
        let rest = text.utf8.dropFirst(4)
        return rest.isEmpty || rest.first == 0x20 || rest.first == 0x09 || rest.first == 0x0A
    }

    // MARK: - Timing lines

    /// "Collect WebVTT cue timings and settings" for a new cue.
    private mutating func parseTimingLine(_ start: Int, _ end: Int, line: Int, identifier: String) -> Cue? {
        var p = start
        WebVTTSyntax.skipWhitespace(text, &p, end)
        guard let cueStart = WebVTTSyntax.timestamp(text, &p, end) else {
            report(line, p - start + 1, "webvtt.timing", .error, "invalid start time: cue dropped")
            return nil
        }
        WebVTTSyntax.skipWhitespace(text, &p, end)
        guard p + 2 < end, text[p] == 0x2D, text[p + 1] == 0x2D, text[p + 2] == 0x3E else {
            report(line, p - start + 1, "webvtt.timing", .error, "expected \"-->\" after the start time: cue dropped")
            return nil
        }
        p += 3
        WebVTTSyntax.skipWhitespace(text, &p, end)
        guard let cueEnd = WebVTTSyntax.timestamp(text, &p, end) else {
            report(line, p - start + 1, "webvtt.timing", .error, "invalid end time: cue dropped")
            return nil
        }
        var cue = Cue(identifier: identifier, start: cueStart, end: cueEnd, text: "")
        cue.line = Int32(clamping: line)
        if !text.isBlank(p, end) {
            let settingsText = Substring(text.string(p, end))
            let column = p - start + 1
            var ignoredSettings: [Substring] = []
            settingsPool.give(WebVTTSyntax.cueSettings(settingsText, regions: regions) { ignoredSettings.append($0) }, to: &cue)
            for setting in ignoredSettings {
                report(line, column, "webvtt.setting", .warning, "cue setting \"\(setting)\" ignored")
            }
        }
        if cueEnd < cueStart {
            report(line, "webvtt.timing-order", "the cue ends (\(cueEnd)) before it starts (\(cueStart))")
        }
        return cue
    }

    // MARK: - Strict checks

    private mutating func validate(_ cue: Cue, line: Int) {
        if let previous = cues.last, cue.start < previous.start {
            report(line, "webvtt.cue-order", "cue starts (\(cue.start)) before the previous cue (\(previous.start))")
        }
        var problems: [CueTextProblem] = []
        _ = CueTextParser.parse(cue.text, problems: &problems)
        for problem in problems {
            report(line + (cue.identifier.isEmpty ? 1 : 2), "webvtt.cue-text", problem.message)
        }
    }

    private mutating func report(_ line: Int, _ rule: String, _ message: String) {
        report(line, 1, rule, .warning, message)
    }

    private mutating func report(_ line: Int, _ column: Int, _ rule: String, _ severity: CaptionDiagnostic.Severity, _ message: String) {
        guard diagnostics.count < CaptionDiagnostic.limitPerFile else {
            droppedDiagnostics += 1
            return
        }
        diagnostics.append(CaptionDiagnostic(line: line, column: column, rule: rule, severity: severity, message: message))
    }
}
