import Basics

/// Writes pop-on SCC (CEA-608 on field 1) from cues whose text is in WebVTT cue syntax.
///
/// Each cue is loaded into the hidden memory (RCL, ENM, a preamble address per row, the characters) in the frames
/// before its start and shown by an End Of Caption on its start frame; an Erase Displayed Memory on its end frame
/// takes it off, unless the next cue's End Of Caption replaces it there. Pairs go one a frame (29.97 fps); commands,
/// special and extended characters are sent twice. Rows hold 32 characters: longer lines are wrapped at spaces, and
/// a caption has at most 15 rows. Styles: italics, underline and 608's seven colours, by mid-row codes (each shows
/// as a space: placed on a space of the text where there is one). What 608 cannot carry — bold, other colours,
/// speaker names, characters outside its sets, overlapping cues, cues shorter than a frame, repeats of the caption
/// on screen (merged), positions between its rows and columns, cues that start after 24 hours (its timecodes count a
/// day; a cue shown past that is erased on 23:59:59;29) — is named
/// in the diagnostics (rule `captions.convert`), once per kind, with the first cue it happened to.
public struct SCCWriter: Sendable {
    /// CC1 or CC2.
    public var channel: CEA608Decoder.Channel
    /// Drop-frame timecodes (`;`), the usual; else non-drop.
    public var dropFrame: Bool

    public init(channel: CEA608Decoder.Channel = .cc1, dropFrame: Bool = true) {
        self.channel = channel.field == 1 ? channel : .cc1
        self.dropFrame = dropFrame
    }

    /// One styled character of a row, or the code that starts a style.
    private struct Glyph {
        var character: Character
        var style: CEA608Decoder.Style
    }

    public func write(_ cues: [Cue]) -> (bytes: [UInt8], diagnostics: [CaptionDiagnostic]) {
        var bytes: [UInt8] = []
        let diagnostics = write(count: cues.count, start: { cues[$0].start }, cue: { cues[$0] }) { chunk in
            bytes += chunk
            chunk.removeAll(keepingCapacity: true)
        }
        return (bytes, diagnostics)
    }

    /// A caption in time order, merged with the repeats that follow it: what one pop-on load shows.
    private struct Entry {
        var index: Int
        var cue: Cue
        var rows: [UInt16]
    }

    /// Writes the `count` cues `cue(i)` gives (each starting at `start(i)`), handing the SCC text to `sink` a chunk at a
    /// time (the sink may keep the chunk's bytes, leaving it empty). Memory holds the cues' order and the frames around
    /// the caption being placed, never every cue's pairs or the whole output.
    func write(
        count: Int, start: (Int) -> CaptionTime, cue: (Int) -> Cue, to sink: (inout [UInt8]) -> Void
    ) -> [CaptionDiagnostic] {
        var losses = LossNotes(format: "SCC")
        // What placing the captions in time loses, said after what laying them out does (the order of one pass each).
        var timingLosses = LossNotes(format: "SCC")
        var schedule = Schedule()
        var out = Array("Scenarist_SCC V1.0\n\n".utf8)
        out.reserveCapacity(captionWriterChunkSize + 4096)
        // A line is the pairs of consecutive frames; the one being written stays open while the next frame may follow.
        var lineNext: Int?
        func writeLines(before boundary: Int) {
            for (frame, word) in schedule.take(before: boundary) {
                if frame == lineNext {
                    out.append(0x20)
                } else {
                    if lineNext != nil { out += [0x0A, 0x0A] }
                    out += Array(SMPTETimecode(frame: frame, dropFrame: dropFrame).description.utf8)
                    out.append(0x09)
                }
                out += Self.hex(word)
                lineNext = frame + 1
            }
            if out.count >= captionWriterChunkSize { sink(&out) }
        }
        var previousEOC = -1
        var pendingErase: Int?
        // Places `entry`, which the caption starting at frame `next` (if any) follows.
        func place(_ entry: Entry, before next: Int?) {
            let load =
                [command(.resumeCaptionLoading), command(.resumeCaptionLoading), command(.eraseNonDisplayedMemory), command(.eraseNonDisplayedMemory)]
                + entry.rows
            var start = frame(entry.cue.start)
            var end = max(start + 1, frame(entry.cue.end))
            if let next, next < end {
                timingLosses.note("overlapping cues (608 shows one pop-on caption at a time: a cue ends where the next begins)", cue: entry.index + 1)
                end = max(start + 1, next)
            }
            // The erase of the cue before goes on its end frame unless this cue's swap comes first.
            if let erase = pendingErase, erase < start { schedule.fix(erase, [command(.eraseDisplayedMemory), command(.eraseDisplayedMemory)]) }
            pendingErase = nil
            // The load fills free frames after the previous End Of Caption, as late as they allow; when they are too
            // few, the cue shows late.
            let placed = schedule.place(load, after: previousEOC + 1, before: start)
            if placed > start {
                timingLosses.note("cues that start too soon after the one before to be loaded in time (shown late)", cue: entry.index + 1)
                start = placed
                end = max(end, start + 1)
            }
            schedule.fix(start, [command(.endOfCaption), command(.endOfCaption)])
            previousEOC = start + 1
            // A cue shown past the day SCC's timecodes count (untimed TTML: the whole presentation) is erased on its
            // last frame.
            pendingErase = max(start + 1, min(end, lastFrame))
            // Nothing goes before the End Of Caption's second pair from now on: the lines before it are final.
            writeLines(before: previousEOC)
        }
        // Cues with something to show for at least a frame, in time order; one that shows the same as the cue before
        // it, back to back or overlapping, is the same caption on screen (608 cannot show the difference): it
        // extends that cue.
        let order = (0..<count).sorted { (start($0), $0) < (start($1), $1) }
        var current: Entry?
        for index in order {
            let cue = cue(index)
            let rows = layout(cue, number: index + 1, losses: &losses)
            guard !rows.isEmpty else { continue }
            guard frame(cue.end) > frame(cue.start) else {
                losses.note("cues shorter than a frame (left out)", cue: index + 1)
                continue
            }
            guard frame(cue.start) < lastFrame else {
                losses.note("cues that start after 24 hours, where its timecodes end (left out)", cue: index + 1)
                continue
            }
            if var last = current, last.rows == rows, frame(last.cue.end) >= frame(cue.start) {
                losses.note("identical cues back to back (shown as one)", cue: index + 1)
                last.cue.end = max(last.cue.end, cue.end)
                current = last
                continue
            }
            if let last = current { place(last, before: frame(cue.start)) }
            current = Entry(index: index, cue: cue, rows: rows)
        }
        if let last = current { place(last, before: nil) }
        if let erase = pendingErase { schedule.fix(max(erase, previousEOC + 1), [command(.eraseDisplayedMemory), command(.eraseDisplayedMemory)]) }
        writeLines(before: .max)
        if lineNext != nil { out += [0x0A, 0x0A] }
        if !out.isEmpty { sink(&out) }
        return losses.diagnostics + timingLosses.diagnostics
    }

    private func frame(_ time: CaptionTime) -> Int { SMPTETimecode(seconds: time.seconds, dropFrame: false).frame }

    /// The frame of timecode 23:59:59;29 (23:59:59:29 non-drop): SCC's timecodes count one day.
    private var lastFrame: Int { (dropFrame ? 2_589_408 : 2_592_000) - 1 }

    private func command(_ command: CEA608.Command) -> UInt16 {
        pair(0x14 | (channel.isSecondDataChannel ? 0x08 : 0), command.rawValue)
    }

    private func pair(_ first: UInt8, _ second: UInt8) -> UInt16 {
        UInt16(CEA608.withParity(first)) << 8 | UInt16(CEA608.withParity(second))
    }

    private static func hex(_ word: UInt16) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        return [12, 8, 4, 0].map { digits[Int((word >> UInt16($0)) & 0xF)] }
    }

    // MARK: - Layout

    /// The preamble addresses and characters of a cue's rows.
    /// The most of a cue's text laid out: far more than 15 rows of 32 characters show, whatever its markup; the rest
    /// of a longer text could only fall past the 15th row (and a text of 100 MB would cost gigabytes laid out).
    static let laidOutLimit = 64 * 1024

    private func layout(_ cue: Cue, number: Int, losses: inout LossNotes) -> [UInt16] {
        var lines: [[Glyph]] = [[]]
        var style = CEA608Decoder.Style()
        var stack: [(CueElement.Kind, CEA608Decoder.Style)] = []
        var text = cue.text
        if text.utf8.count > Self.laidOutLimit {
            let cut = text.utf8.index(text.utf8.startIndex, offsetBy: Self.laidOutLimit)
            text = String(text[..<cut])  // down to the character the cut falls in
            losses.note("more than 15 rows (the rows after the 15th are left out)", cue: number)
        }
        CueTextParser.walk(text) { event in
            switch event {
            case .text(let text):
                for character in text {
                    if character == "\n" {
                        lines.append([])
                    } else {
                        lines[lines.count - 1].append(Glyph(character: character, style: style))
                    }
                }
            case .start(let element):
                stack.append((element.kind, style))
                switch element.kind {
                case .italic: style.italic = true
                case .underline: style.underline = true
                case .class, .font:
                    let names = element.kind == .font ? [element.annotation] : element.classes
                    for name in names {
                        if let color = Self.color(named: name) {
                            style.color = color
                        } else {
                            losses.note("colours and classes other than 608's seven colours (`\(name)`)", cue: number)
                        }
                    }
                case .bold: losses.note("bold text", cue: number)
                case .voice: losses.note("speaker names of voice spans (`<v>`)", cue: number)
                case .ruby, .rubyText, .language, .strike: losses.note("`<\(element.kind.rawValue)>` markup", cue: number)
                }
            case .end(let kind):
                if let k = stack.lastIndex(where: { $0.0 == kind }) {
                    style = stack[k].1
                    stack.removeSubrange(k...)
                }
            case .timestamp:
                losses.note("karaoke timestamps inside cues", cue: number)
            }
        }
        // Characters 608 has, each as the codes that write it.
        var rows: [[Glyph]] = []
        for line in lines {
            var mapped: [Glyph] = []
            for glyph in line {
                if Self.code(for: glyph.character) != nil {
                    mapped.append(glyph)
                } else if let replacement = Self.replacements[glyph.character] {
                    mapped += replacement.map { Glyph(character: $0, style: glyph.style) }
                } else {
                    losses.note("characters outside 608's sets (`\(glyph.character)` written as `?`)", cue: number)
                    mapped.append(Glyph(character: "?", style: glyph.style))
                }
            }
            rows += Self.wrap(mapped, number: number, losses: &losses)
        }
        // Spaces at the ends of a row, and rows with nothing to show, are not seen on screen.
        rows = rows.map { row in
            guard let first = row.firstIndex(where: { $0.character != " " }), let last = row.lastIndex(where: { $0.character != " " }) else { return [] }
            return Array(row[first...last])
        }.filter { !$0.isEmpty }
        if rows.count > 15 {
            losses.note("more than 15 rows (the rows after the 15th are left out)", cue: number)
            rows.removeLast(rows.count - 15)
        }
        // Rows: from the cue's line (10% + 80%/15 a row), else ending on row 15.
        let settings = cue.settings
        var top = 16 - rows.count
        if let line = settings.line, !settings.snapToLines {
            top = min(16 - rows.count, max(1, Int(saturating: ((line - 10) * 15 / 80).rounded()) + 1))
        } else if let line = settings.line {
            losses.note("line numbers (`line:\(Int(saturating: line))`: placed at the bottom)", cue: number)
        }
        var words: [UInt16] = []
        for (k, row) in rows.enumerated() where !row.isEmpty {
            let width = min(32, Self.cells(row))
            var column = (32 - width) / 2
            if settings.align != .center || settings.position != nil {
                if let position = settings.position {
                    column = Int(saturating: ((position - 10) / 2.5).rounded())
                } else if settings.align == .right || settings.align == .end {
                    column = 32 - width
                } else {
                    column = 0
                }
                column = min(max(0, column), 32 - width)
            }
            let encoded = encode(row, row: top + k, column: column)
            words += encoded.words
            if encoded.splitsAWord { losses.note("style changes inside a word (608 shows a space there)", cue: number) }
        }
        return words
    }

    /// The cells a row takes on screen: its characters, and a space for each style change inside a word (a mid-row
    /// code shows as one; at a space it is that space).
    private static func cells(_ row: [Glyph]) -> Int {
        var count = row.count
        var current = row.first?.style
        for (k, glyph) in row.enumerated() where glyph.character != " " {
            if glyph.style != current {
                if k > 0 && row[k - 1].character != " " { count += 1 }
                current = glyph.style
            }
        }
        return count
    }

    /// Splits a line into rows of at most 32 characters, at spaces where it can.
    private static func wrap(_ line: [Glyph], number: Int, losses: inout LossNotes) -> [[Glyph]] {
        var rows: [[Glyph]] = []
        var rest = line[...]
        while rest.count > 32 {
            let window = rest.prefix(33)
            if let space = window.lastIndex(where: { $0.character == " " }), space > rest.startIndex {
                rows.append(Array(rest[rest.startIndex..<space]))
                rest = rest[(space + 1)...]
            } else {
                losses.note("words longer than a row's 32 characters (split)", cue: number)
                rows.append(Array(rest.prefix(32)))
                rest = rest.dropFirst(32)
            }
        }
        rows.append(Array(rest))
        return rows
    }

    /// A row's pairs: its preamble address (indent and tab offset to the column; a style at column 0 in the address
    /// itself), then the characters, two basic ones a pair, with mid-row codes where the style changes.
    private func encode(_ row: [Glyph], row number: Int, column: Int) -> (words: [UInt16], splitsAWord: Bool) {
        var splitsAWord = false
        let channel2 = channel.isSecondDataChannel
        let base: UInt8 = channel2 ? 0x08 : 0
        var words: [UInt16] = []
        var pending: UInt8?
        func flush() {
            if let byte = pending { words.append(UInt16(CEA608.withParity(byte)) << 8 | 0x80) }
            pending = nil
        }
        func basic(_ byte: UInt8) {
            if let first = pending {
                words.append(pair(first, byte))
                pending = nil
            } else {
                pending = byte
            }
        }
        func twice(_ first: UInt8, _ second: UInt8) {
            flush()
            words += [pair(first | base, second), pair(first | base, second)]
        }
        func midRow(_ style: CEA608Decoder.Style) {
            let index: UInt8 = style.italic && style.color == 0 ? 7 : UInt8(style.color)
            twice(0x11, 0x20 | index << 1 | (style.underline ? 1 : 0))
            if style.italic && style.color != 0 { twice(0x11, 0x2E | (style.underline ? 1 : 0)) }
        }
        var current = CEA608Decoder.Style()
        var glyphs = row[...]
        let first = row.first?.style ?? current
        if column == 0 && (first.color == 0 || !first.italic) && first != current {
            // The address carries the first style.
            let index = first.italic ? 7 : first.color
            let (a, b) = CEA608.preambleAddress(row: number, indent: nil, color: index, underline: first.underline, channel2: channel2)
            words += [pair(a, b), pair(a, b)]
            current = first
        } else {
            let start = first != current ? max(0, column - 1) : column
            let (a, b) = CEA608.preambleAddress(row: number, indent: start / 4 * 4, underline: false, channel2: channel2)
            words += [pair(a, b), pair(a, b)]
            if start % 4 > 0 { twice(0x17, 0x20 | UInt8(start % 4)) }
        }
        var wroteAny = false
        while let glyph = glyphs.first {
            glyphs = glyphs.dropFirst()
            defer { wroteAny = true }
            if glyph.character == " " {
                // Where the style changes at a space, the mid-row code is that space.
                let upcoming = glyphs.first { $0.character != " " }?.style ?? current
                if upcoming != current {
                    midRow(upcoming)
                    current = upcoming
                } else {
                    basic(0x20)
                }
                continue
            }
            if glyph.style != current {
                // Inside the row a mid-row code shows as a space where the text has none.
                if wroteAny { splitsAWord = true }
                midRow(glyph.style)
                current = glyph.style
            }
            guard let code = Self.code(for: glyph.character) else { continue }
            switch code {
            case .basic(let byte): basic(byte)
            case .special(let second): twice(0x11, second)
            case .extended(let fallback, let first, let second):
                basic(fallback)
                twice(first, second)
            }
        }
        flush()
        return (words, splitsAWord)
    }

    // MARK: - Characters

    enum Code {
        case basic(UInt8)
        case special(UInt8)
        case extended(fallback: UInt8, first: UInt8, second: UInt8)
    }

    /// How 608 writes a character, if it can.
    static func code(for character: Character) -> Code? { codes[character] }

    private static let codes: [Character: Code] = {
        var table: [Character: Code] = [:]
        for (k, character) in CEA608.extended12.enumerated() {
            table[character] = .extended(fallback: fallbackByte(character), first: 0x12, second: UInt8(0x20 + k))
        }
        for (k, character) in CEA608.extended13.enumerated() {
            table[character] = .extended(fallback: fallbackByte(character), first: 0x13, second: UInt8(0x20 + k))
        }
        for (k, character) in CEA608.special.enumerated() where k != 9 { table[character] = .special(UInt8(0x30 + k)) }
        for byte in UInt8(0x20)...0x7F { if let character = CEA608.basic(byte) { table[character] = .basic(byte) } }
        return table
    }()

    /// The basic character shown by decoders that do not know an extended one: the letter without its accent,
    /// else a near sign.
    private static func fallbackByte(_ character: Character) -> UInt8 {
        let plain = String(character).decomposedStringWithCanonicalMapping.unicodeScalars.first!
        if plain.isASCII, plain.value >= 0x20 { return UInt8(plain.value) }
        switch character {
        case "‘", "’": return 0x27
        case "“", "”", "«", "»": return 0x22
        case "—": return 0x2D
        case "ß": return 0x73
        default: return 0x2A
        }
    }

    /// Characters 608 lacks, written as ones it has.
    static let replacements: [Character: String] = [
        "…": "...", "–": "-", "\u{00A0}": " ", "\t": " ", "„": "\"", "‚": "'", "′": "'", "″": "\"", "€": "EUR",
    ]

    /// 608's colour index for a WebVTT colour class (or an SRT font colour).
    static func color(named name: String) -> Int? {
        switch name.lowercased() {
        case "white", "#ffffff", "#fff": 0
        case "lime", "green", "#00ff00", "#0f0": 1
        case "blue", "#0000ff", "#00f": 2
        case "cyan", "#00ffff", "#0ff": 3
        case "red", "#ff0000", "#f00": 4
        case "yellow", "#ffff00", "#ff0": 5
        case "magenta", "#ff00ff", "#f0f": 6
        default: nil
        }
    }
}

/// Placed pairs of an SCC file by frame: fixed commands at their frames, loads in the free frames before them.
private struct Schedule {
    private var words: [Int: UInt16] = [:]

    /// Puts `pairs` on `frame` and the frames after it.
    mutating func fix(_ frame: Int, _ pairs: [UInt16]) {
        for (k, word) in pairs.enumerated() { words[frame + k] = word }
    }

    /// Puts `pairs` on consecutive free frames (a command's two pairs must not be split by another), the latest run
    /// at or after `earliest` that ends before `deadline`; when there is none, the first run after `earliest`.
    /// Returns the first frame after them (the deadline when they fit).
    mutating func place(_ pairs: [UInt16], after earliest: Int, before deadline: Int) -> Int {
        let earliest = max(0, earliest)
        func isFree(_ start: Int) -> Bool { (start..<(start + pairs.count)).allSatisfy { words[$0] == nil } }
        var start = deadline - pairs.count
        while start >= earliest && !isFree(start) { start -= 1 }
        let fits = start >= earliest
        if !fits {
            start = earliest
            while !isFree(start) { start += 1 }
        }
        for (k, word) in pairs.enumerated() { words[start + k] = word }
        var after = start + pairs.count
        while words[after] != nil { after += 1 }
        return fits ? deadline : max(after, deadline)
    }

    /// The pairs on frames before `boundary`, in frame order, taken out of the schedule. Frames before `boundary`
    /// must be final.
    mutating func take(before boundary: Int) -> [(Int, UInt16)] {
        let frames = words.keys.filter { $0 < boundary }.sorted()
        return frames.map { frame in (frame, words.removeValue(forKey: frame)!) }
    }
}

/// What a conversion loses, once per kind, with the first cue it happened to.
struct LossNotes {
    /// The target format's name as the messages give it.
    let format: String
    private var seen: [String: Int] = [:]
    private var order: [String] = []

    init(format: String) { self.format = format }

    mutating func note(_ what: String, cue: Int) {
        guard seen[what] == nil else { return }
        seen[what] = cue
        order.append(what)
    }

    /// Notes what `other` noted, in its order.
    mutating func note(_ other: LossNotes) {
        for what in other.order { note(what, cue: other.seen[what]!) }
    }

    var diagnostics: [CaptionDiagnostic] {
        order.map {
            CaptionDiagnostic(line: 0, rule: "captions.convert", severity: .warning, message: "\(format) cannot hold \($0); first in cue \(seen[$0]!)")
        }
    }
}
