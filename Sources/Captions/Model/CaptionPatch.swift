/// Edits to a caption file made in its own bytes: the timestamps of each cue whose times changed and the text of each
/// cue whose text changed are rewritten where they stand, and every other byte — comments, styles, blocks the reader
/// skipped, blank lines, the byte order mark, the line breaks — comes back as it was. SRT and WebVTT (a split cue a new
/// block after it), ASS/SSA events (times to the centisecond; a plain text broken again with `\N`), SAMI
/// (`SAMIRetiming`), TTML (`TTMLRetiming`) and SCC (`SCCRetiming`). A patch is checked by reading it back, which must
/// give the edited cues; what a format cannot carry in place is refused, with the reason.
public enum CaptionPatch {
    /// Why an edit could not be made in place (one line, without the file's name).
    public struct Refusal: Error, Sendable, Equatable {
        public let reason: String
        public init(_ reason: String) { self.reason = reason }
    }

    /// Whether `format`'s files can be patched.
    public static func patches(_ format: CaptionFormat) -> Bool { [.srt, .webvtt, .ass, .sami, .ttml, .scc].contains(format) }

    /// `bytes` (the file as UTF-8; a byte order mark first is kept) with `edited`'s changes to `original` made in
    /// place. `original` is the document read from `bytes`; `edited` is it with times and texts changed, cue for cue
    /// (the same cues, identifiers and settings, in the same order). In SRT and WebVTT a cue may be split: the cues after
    /// it in `edited` with its `line` are new blocks after it (SRT's numbers, when they count 1, 2, 3 …, are counted
    /// again).
    public static func apply(to bytes: [UInt8], original: CaptionDocument, edited: CaptionDocument) -> Result<[UInt8], Refusal> {
        guard patches(original.format), edited.format == original.format else {
            return .failure(Refusal("\(original.format.displayName) files are not edited in place"))
        }
        // Each original cue's edited cue, and the cues split from it.
        var heads: [Cue] = []
        var added: [[Cue]] = []
        for cue in edited.cues {
            if [.srt, .webvtt].contains(original.format), cue.line != 0, let last = heads.last, last.line == cue.line {
                added[added.count - 1].append(cue)
            } else {
                heads.append(cue)
                added.append([])
            }
        }
        guard original.cues.count == heads.count, zip(original.cues, heads).allSatisfy({ $0.line == $1.line || $1.line == 0 }) else {
            return .failure(Refusal("the edit adds or removes cues (\(original.cues.count) → \(edited.cues.count))"))
        }
        let inFileOrder = original.cues.indices.sorted { original.cues[$0].line < original.cues[$1].line }
        // SRT numbers counted again after a split: when they count 1, 2, 3 … in the file.
        var numbers: [Int: Int] = [:]
        if original.format == .srt, added.contains(where: { !$0.isEmpty }) {
            guard inFileOrder.enumerated().allSatisfy({ original.cues[$1].identifier == String($0 + 1) }) else {
                return .failure(Refusal("a split cue needs a number, and the cues are not numbered 1, 2, 3 …"))
            }
            var next = 1
            for index in inFileOrder {
                numbers[index] = next
                next += 1 + added[index].count
            }
        }
        if original.format == .sami { return SAMIRetiming.apply(to: bytes, original: original, edited: edited) }
        if original.format == .scc { return SCCRetiming.apply(to: bytes, original: original, edited: edited) }
        if original.format == .ttml { return TTMLRetiming.apply(to: bytes, original: original, edited: edited) }
        let byteOrderMark = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let patched = bytes.withUnsafeBufferPointer { all -> Result<[UInt8], Refusal> in
            var patch = Patcher(
                text: ByteText(bytes: UnsafeBufferPointer(rebasing: all[byteOrderMark...]), collapsesCarriageReturnRuns: original.format == .srt),
                format: original.format)
            patch.output.append(contentsOf: all[..<byteOrderMark])
            // ASS: when every event moved (a shift, a sync), the `Comment:` lines move with them.
            if original.format == .ass, !original.cues.isEmpty, zip(original.cues, edited.cues).allSatisfy({ $0.0.start != $0.1.start }),
                case .success(let moves) = TimeMoves.of(original.cues, edited.cues)
            {
                patch.commentMoves = moves
            }
            // In the file's order (a reader may give cues in time order).
            for index in inFileOrder {
                if let refusal = patch.edit(original.cues[index], into: heads[index], adding: added[index], number: numbers[index]) {
                    return .failure(refusal)
                }
            }
            if patch.commentMoves != nil { patch.walkToEnd() }
            patch.copy(upTo: patch.text.count)
            return .success(patch.output)
        }
        guard case .success(let output) = patched else { return patched }
        // Read back: the patch must be the edited cues (at the format's resolution) and nothing else.
        // (In the file's order; SRT numbered again after a split.)
        var expected = inFileOrder.flatMap { index in
            ([heads[index]] + added[index]).enumerated().map { offset, cue in
                var cue = cue
                if let number = numbers[index] { cue.identifier = String(number + offset) }
                return cue
            }
        }
        if original.format == .ass {
            for index in expected.indices {
                expected[index].start = expected[index].start.centiseconds
                expected[index].end = expected[index].end.centiseconds
            }
        }
        guard let reread = try? CaptionFile.read(output, format: original.format),
            reread.cues.enumerated().sorted(by: { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }).map(\.element) == expected
        else {
            return .failure(Refusal("the edited file would not read back as edited"))
        }
        return .success(output)
    }
}

/// Copies a file's bytes to `output`, rewriting the timing lines and texts of the cues edited on the way.
private struct Patcher {
    let text: ByteText
    let format: CaptionFormat
    var output: [UInt8] = []
    /// Bytes of `text` before this are in `output`.
    private var copied = 0
    /// The start of line `lineNumber` (1-based): where looking for the next cue's timing line starts.
    private var lineStart = 0
    private var lineNumber = 1
    /// ASS: the section the lines passed are in, and the columns of Start and End its `[Events]` `Format` line names.
    private var section = ""
    private var startColumn = 1
    private var endColumn = 2
    /// ASS: the number of columns (`Text`, the last, holds the rest of the line).
    private var columnCount = 10
    /// ASS: how the `Comment:` lines' times move (nil: they stay).
    var commentMoves: TimeMoves?

    init(text: ByteText, format: CaptionFormat) {
        self.text = text
        self.format = format
        output.reserveCapacity(text.count + 4096)
    }

    mutating func copy(upTo position: Int) {
        guard position > copied else { return }
        output.append(contentsOf: text.bytes[copied..<position])
        copied = position
    }

    /// Rewrites cue `before` as `after`, followed by the blocks of `adding` (SRT, WebVTT) and numbered `number` (SRT,
    /// when the numbers are counted again); a refusal when the file does not hold it where it was read.
    mutating func edit(_ before: Cue, into after: Cue, adding: [Cue] = [], number: Int? = nil) -> CaptionPatch.Refusal? {
        guard before.identifier == after.identifier, before.settings == after.settings else {
            return CaptionPatch.Refusal("the edit changes a cue's identifier or settings (line \(before.line))")
        }
        let timesChanged = before.start != after.start || before.end != after.end
        let renumbered = number.map { String($0) != before.identifier } ?? false
        guard timesChanged || before.text != after.text || !adding.isEmpty || renumbered else { return nil }
        let target = Int(before.line)
        guard target >= lineNumber else { return CaptionPatch.Refusal("the cues are not in file order (line \(target))") }
        var previousLine: Range<Int>?
        while lineNumber < target, lineStart < text.count {
            let end = text.lineEnd(from: lineStart)
            if format == .ass { observe(lineStart..<end) }
            previousLine = lineStart..<end
            lineStart = text.nextLineStart(after: end)
            lineNumber += 1
        }
        if renumbered, let number {
            // SRT's number line is the one before the timing line.
            guard let previousLine, text.bytes[trimmed(previousLine)].elementsEqual(before.identifier.utf8) else {
                return CaptionPatch.Refusal("the number of the cue at line \(target) is not on the line before it")
            }
            copy(upTo: trimmed(previousLine).lowerBound)
            output.append(contentsOf: String(number).utf8)
            copied = trimmed(previousLine).upperBound
        }
        let lineEnd = text.lineEnd(from: lineStart)
        if format == .ass {
            guard lineNumber == target, let fields = eventFields(lineStart..<lineEnd) else {
                return CaptionPatch.Refusal("line \(target) is not the event read there")
            }
            if before.start != after.start { replace(fields[startColumn], with: after.start) }
            if before.end != after.end { replace(fields[endColumn], with: after.end) }
            guard before.text != after.text else { return nil }
            // Plain text (no override tags, escapes or markup but `\N`) is broken again; any other is more than the
            // cue holds.
            guard let text = self.fields(after: "dialogue:", in: trimmed(lineStart..<lineEnd), limit: columnCount)?.last,
                let lines = Self.plainASSLines(text.map { self.text[$0] }),
                lines == before.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
                after.text.allSatisfy({ !"{}\\<>&".contains($0) })
            else {
                return CaptionPatch.Refusal(
                    "the text of the ASS event at line \(target) is not rewritten: its override tags or escapes are more than MediaLint reads")
            }
            copy(upTo: text.lowerBound)
            output.append(contentsOf: after.text.replacingOccurrences(of: "\n", with: "\\N").utf8)
            copied = text.upperBound
            return nil
        }
        guard lineNumber == target, let arrow = arrow(in: lineStart..<lineEnd) else {
            return CaptionPatch.Refusal("line \(target) is not the timing line read there")
        }
        let startToken = trimmed(lineStart..<arrow)
        var endFrom = arrow + 3
        while endFrom < lineEnd, text[endFrom] == 0x20 || text[endFrom] == 0x09 { endFrom += 1 }
        var endTo = endFrom
        while endTo < lineEnd, text[endTo] != 0x20, text[endTo] != 0x09 { endTo += 1 }
        if before.start != after.start { replace(startToken, with: after.start) }
        if before.end != after.end { replace(endFrom..<endTo, with: after.end) }
        guard before.text != after.text || !adding.isEmpty else { return nil }
        // The text follows the timing line: matched as read ("\n" is any line break), then replaced with the edited
        // text in the timing line's own line break.
        let textStart = text.nextLineStart(after: lineEnd)
        guard let textEnd = match(before.text, from: textStart) else {
            return CaptionPatch.Refusal("the text of the cue at line \(target) is not in the file as read")
        }
        let lineBreak: [UInt8] = lineEnd < textStart ? Array(text.bytes[lineEnd..<textStart]) : [0x0A]
        func write(_ text: String) {
            for byte in text.utf8 {
                if byte == 0x0A { output.append(contentsOf: lineBreak) } else { output.append(byte) }
            }
        }
        if before.text != after.text {
            copy(upTo: textStart)
            write(after.text)
            copied = textEnd
        }
        // Split halves: a block each after the cue's text, its timing line written as the cue's (with its settings).
        copy(upTo: textEnd)
        for (offset, cue) in adding.enumerated() {
            output.append(contentsOf: lineBreak + lineBreak)
            if let number {
                output.append(contentsOf: String(number + 1 + offset).utf8 + lineBreak)
            } else if !cue.identifier.isEmpty {
                output.append(contentsOf: cue.identifier.utf8 + lineBreak)
            }
            replace(startToken, with: cue.start, moving: false)
            output.append(contentsOf: text.bytes[startToken.upperBound..<endFrom])
            replace(endFrom..<endTo, with: cue.end, moving: false)
            output.append(contentsOf: text.bytes[endTo..<lineEnd])
            output.append(contentsOf: lineBreak)
            write(cue.text)
        }
        return nil
    }

    /// Passes the lines left (ASS: their comments moved).
    mutating func walkToEnd() {
        while lineStart < text.count {
            let end = text.lineEnd(from: lineStart)
            observe(lineStart..<end)
            lineStart = text.nextLineStart(after: end)
            lineNumber += 1
        }
    }

    /// ASS: notes a section header, and the columns of `Start` and `End` in the `[Events]` section's `Format` line;
    /// moves a `Comment:` line's times with the events' when they all moved.
    private mutating func observe(_ line: Range<Int>) {
        let trimmed = self.trimmed(line)
        guard let first = trimmed.first.map({ text[$0] }) else { return }
        if first == UInt8(ascii: "[") {
            section = String(decoding: text.bytes[trimmed], as: UTF8.self).lowercased()
        } else if section == "[events]", let moves = commentMoves,
            let fields = fields(after: "comment:", in: trimmed, limit: max(startColumn, endColumn) + 2), fields.count > max(startColumn, endColumn)
        {
            for column in [startColumn, endColumn].sorted() {
                if let time = Self.assTime(text.bytes[fields[column]]) {
                    replace(fields[column], with: CaptionTime(milliseconds: moves.moved(time)))
                }
            }
        } else if section == "[events]", let fields = fields(after: "format:", in: trimmed, limit: .max) {
            let names = fields.map { String(decoding: text.bytes[$0], as: UTF8.self).lowercased() }
            if let start = names.firstIndex(of: "start"), let end = names.firstIndex(of: "end") {
                (startColumn, endColumn, columnCount) = (start, end, names.count)
            }
        }
    }

    /// The lines of an ASS event's text that is plain: no override block, no escape but the hard line break `\N`,
    /// nothing WebVTT would read as markup; nil for any other.
    static func plainASSLines(_ bytes: [UInt8]) -> [String]? {
        var lines: [String] = []
        var line: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "N") {
                lines.append(String(decoding: line, as: UTF8.self))
                line = []
                index += 2
                continue
            }
            guard !"{}\\<>&".utf8.contains(byte) else { return nil }
            line.append(byte)
            index += 1
        }
        lines.append(String(decoding: line, as: UTF8.self))
        return lines
    }

    /// An ASS time, `H:MM:SS.cc`, in milliseconds.
    static func assTime(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: ":")
        guard parts.count == 3, let hours = Int64(parts[0]), let minutes = Int64(parts[1]) else { return nil }
        let seconds = parts[2].split(separator: ".")
        guard seconds.count == 2, let whole = Int64(seconds[0]), let hundredths = Int64(seconds[1]), seconds[1].count == 2 else { return nil }
        return ((hours * 60 + minutes) * 60 + whole) * 1000 + hundredths * 10
    }

    /// The trimmed fields of a `Dialogue:` line (up to End, then the rest of the line as one), or nil when it is not one.
    private func eventFields(_ line: Range<Int>) -> [Range<Int>]? {
        guard let fields = fields(after: "dialogue:", in: trimmed(line), limit: max(startColumn, endColumn) + 2),
            fields.count > max(startColumn, endColumn)
        else { return nil }
        return fields
    }

    /// The comma-separated fields after `key` (lower case, matched in any case) at the start of `line`, trimmed; at
    /// most `limit` of them (the last holds the rest of the line).
    private func fields(after key: String, in line: Range<Int>, limit: Int) -> [Range<Int>]? {
        let key = Array(key.utf8)
        guard line.count >= key.count, zip(text.bytes[line.lowerBound...], key).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) else { return nil }
        var fields: [Range<Int>] = []
        var from = line.lowerBound + key.count
        var i = from
        while i < line.upperBound, fields.count < limit - 1 {
            if text[i] == UInt8(ascii: ",") {
                fields.append(trimmed(from..<i))
                from = i + 1
            }
            i += 1
        }
        fields.append(trimmed(from..<line.upperBound))
        return fields
    }

    /// Where `-->` starts in `range`, if it is there.
    private func arrow(in range: Range<Int>) -> Int? {
        var i = range.lowerBound
        while i + 2 < range.upperBound {
            if text[i] == 0x2D, text[i + 1] == 0x2D, text[i + 2] == 0x3E { return i }
            i += 1
        }
        return nil
    }

    private func trimmed(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, text[lower] == 0x20 || text[lower] == 0x09 { lower += 1 }
        while upper > lower, text[upper - 1] == 0x20 || text[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }

    /// Writes `time` in place of the timestamp at `token`, in its style: SRT's `,` or `.` before the milliseconds;
    /// WebVTT's `mm:ss.ttt` when it was written without hours and still has none.
    private mutating func replace(_ token: Range<Int>, with time: CaptionTime, moving: Bool = true) {
        if moving { copy(upTo: token.lowerBound) }
        let written = text.bytes[token]
        if format == .ass {
            // H:MM:SS.cc, to the nearest centisecond.
            let centiseconds = max(0, (time.milliseconds + 5) / 10)
            let hours = centiseconds / 360_000, minutes = centiseconds / 6000 % 60, seconds = centiseconds / 100 % 60
            let digits = { (value: Int64) in value < 10 ? "0\(value)" : "\(value)" }
            output.append(contentsOf: "\(hours):\(digits(minutes)):\(digits(seconds)).\(digits(centiseconds % 100))".utf8)
        } else if format == .webvtt, written.count(where: { $0 == 0x3A }) == 1, time.milliseconds < 3_600_000 {
            var full: [UInt8] = []
            time.appendFormatted(to: &full, separator: 0x2E)
            output.append(contentsOf: full.dropFirst(3))  // "00:"
        } else {
            let separator: UInt8 = format == .srt && !written.contains(0x2C) && written.contains(0x2E) ? 0x2E : (format == .srt ? 0x2C : 0x2E)
            time.appendFormatted(to: &output, separator: separator)
        }
        if moving { copied = token.upperBound }
    }

    /// The end of `expected` read from `start`, its `\n`s matching any line break; nil when the bytes differ.
    private func match(_ expected: String, from start: Int) -> Int? {
        var position = start
        for byte in expected.utf8 {
            if byte == 0x0A {
                guard position < text.count, text[position] == 0x0A || text[position] == 0x0D else { return nil }
                position = text.nextLineStart(after: position)
            } else {
                guard position < text.count, text[position] == byte else { return nil }
                position += 1
            }
        }
        return position
    }
}
