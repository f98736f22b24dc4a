import Basics

/// Decodes one channel of CEA-608 (line-21) caption data — byte pairs with their times — into timed cues: pop-on
/// captions shown from their End Of Caption to the next erase or swap, roll-up captions as the window after each
/// completed line (from the line's first character to the next line's), paint-on captions as the picture after each
/// burst of painting (changes less than `paintPause` apart), from the burst's first change. Cue text is in WebVTT's cue-text syntax: italics `<i>`, underline `<u>`, colours as WebVTT's
/// colour classes (`<c.yellow>`); positions as WebVTT settings (see `layout`).
///
/// Problems (parity errors, codes that mean nothing) become diagnostics; decoding never stops on them.
public struct CEA608Decoder: Sendable {
    /// The four caption channels: CC1 and CC2 in field 1, CC3 and CC4 in field 2.
    public enum Channel: Int, Sendable, CaseIterable, CustomStringConvertible {
        case cc1 = 1, cc2, cc3, cc4
        public var field: Int { rawValue <= 2 ? 1 : 2 }
        var isSecondDataChannel: Bool { rawValue % 2 == 0 }
        public var description: String { "CC\(rawValue)" }
    }

    /// How captions reach the screen.
    public enum Mode: Sendable, Equatable {
        case popOn
        case rollUp(rows: Int)
        case paintOn
        /// Text service (T1–T4): not captions.
        case text
    }

    public let channel: Channel
    /// The cues decoded so far (complete: each has its end).
    public private(set) var cues: [Cue] = []
    public private(set) var diagnostics: [CaptionDiagnostic] = []
    /// The caption modes met, in order of first use.
    public private(set) var modesUsed: [Mode] = []

    struct Style: Equatable, Sendable {
        var color = 0
        var italic = false
        var underline = false
    }

    struct Cell: Equatable, Sendable {
        var character: Character
        var style: Style
    }

    /// 15 rows of 32 cells.
    struct Memory: Equatable, Sendable {
        var rows = [[Cell?]](repeating: [Cell?](repeating: nil, count: 32), count: 15)
        mutating func clear() { self = Memory() }
        mutating func clear(row: Int) { rows[row] = [Cell?](repeating: nil, count: 32) }
        var isEmpty: Bool { rows.allSatisfy { $0.allSatisfy { $0 == nil } } }
    }

    private var displayed = Memory()
    private var loading = Memory()
    private var mode: Mode?
    private var row = 14
    private var column = 0
    /// Whether the last character went into the last column (where the cursor stays).
    private var atLastColumn = false
    /// Whether text on screen has been written over since the cursor last moved (its picture before is a cue).
    private var overwriting = false
    private var style = Style()
    /// The last command pair (commands are sent twice; the repeat is ignored).
    private var lastCommand: (UInt8, UInt8)?
    /// Whether the latest command was for this channel (characters follow the latest command's channel).
    private var selected = false
    /// Inside an XDS packet (field 2): its characters are not captions.
    private var inXDS = false
    /// The cue on screen: its text and settings, since when.
    private var shown: (text: String, settings: CueSettings, start: Double)?
    /// Roll-up and paint-on: when the screen first changed since the last cue was taken from it, and last changed.
    private var changedSince: Double?
    private var lastChange = -Double.infinity
    /// Paint-on: a change this long after the one before starts a new picture (the one before becomes a cue).
    static let paintPause = 0.5

    public init(channel: Channel = .cc1) {
        self.channel = channel
    }

    /// One byte pair (as transmitted, with parity) of `field` at `time` seconds; `line` locates it in a file for
    /// diagnostics.
    public mutating func feed(_ first: UInt8, _ second: UInt8, time: Double, field: Int = 1, line: Int = 0) {
        guard field == channel.field else { return }
        let b1 = first & 0x7F, b2 = second & 0x7F
        if b1 == 0 && b2 == 0 { return }  // padding
        let parityOK = (CEA608.hasOddParity(first), CEA608.hasOddParity(second))
        if (0x10...0x1F).contains(b1) {
            inXDS = false
            guard parityOK.0 && parityOK.1 else {
                note(line, "a command with a parity error (\(hex(first, second))) is ignored")
                lastCommand = nil
                return
            }
            if let last = lastCommand, last == (b1, b2) {
                lastCommand = nil
                return
            }
            lastCommand = (b1, b2)
            selected = (b1 & 0x08 != 0) == channel.isSecondDataChannel
            guard selected else { return }
            command(b1 & 0xF7, b2, time: time, line: line)
            return
        }
        lastCommand = nil
        if b1 < 0x10 {
            // XDS (extended data service) in field 2: 0x01–0x0E start or continue a packet, 0x0F ends it.
            inXDS = b1 != 0x0F && b1 != 0
            return
        }
        guard selected, !inXDS, let mode, mode != .text else { return }
        for (byte, ok) in [(b1, parityOK.0), (b2, parityOK.1)] where byte >= 0x20 {
            guard ok else {
                note(line, "a character with a parity error (\(hex(first, second))) is left out")
                continue
            }
            if let character = CEA608.basic(byte) { put(character, time: time) }
        }
    }

    /// Ends decoding at `time` (the end of the media or data): what is on screen ends there.
    public mutating func finish(at time: Double) {
        commit()
        show("", CueSettings(), at: time)
    }

    // MARK: - Commands

    private mutating func command(_ code: UInt8, _ second: UInt8, time: Double, line: Int) {
        switch (code, second) {
        case (0x10...0x17, 0x40...0x7F):
            preambleAddress(code, second, time: time)
        case (0x11, 0x20...0x2F):
            // Mid-row code: a space, then the new style (a colour ends italics; italics keep the colour).
            let index = Int((second & 0x0E) >> 1)
            put(" ", time: time)
            if index == 7 {
                style.italic = true
            } else {
                style = Style(color: index, italic: false, underline: false)
            }
            style.underline = second & 1 != 0
        case (0x11, 0x30...0x3F):
            let index = Int(second - 0x30)
            put(index == 9 ? " " : CEA608.special[index], time: time)
        case (0x12, 0x20...0x3F), (0x13, 0x20...0x3F):
            // Replaces the basic character sent before it as a fallback.
            backspace(time: time)
            put((code == 0x12 ? CEA608.extended12 : CEA608.extended13)[Int(second - 0x20)], time: time)
        case (0x14...0x15, 0x20...0x2F):
            if let command = CEA608.Command(rawValue: second) { perform(command, time: time) }
        case (0x17, 0x21...0x23):
            column = min(31, column + Int(second - 0x20))
            atLastColumn = false
            overwriting = false
        case (0x10, 0x20...0x2F), (0x17, 0x2D...0x2F):
            break  // background and foreground-black attributes: not carried
        default:
            note(line, "the code \(hex(code, second)) means nothing in CEA-608 and is ignored")
        }
    }

    private mutating func preambleAddress(_ code: UInt8, _ second: UInt8, time: Double) {
        let rows = CEA608.pacRows[Int(code & 0x07)]
        var newRow = (second & 0x20 != 0 ? rows.1 : rows.0) - 1
        // A roll-up window keeps its depth: a base row too near the top for it is taken as the highest that fits
        // (CEA-608-E §7.4), rather than dropping the rows above.
        if case .rollUp(let count) = mode { newRow = max(newRow, count - 1) }
        let attribute = second & 0x1F
        atLastColumn = false
        overwriting = false
        if attribute >= 0x10 {
            column = Int((attribute & 0x0E) >> 1) * 4
            style = Style()
        } else {
            column = 0
            let index = Int(attribute >> 1)
            style = Style(color: index == 7 ? 0 : index, italic: index == 7, underline: false)
        }
        style.underline = attribute & 1 != 0
        switch mode {
        case .rollUp(let count) where newRow != row:
            // The window moves to the new base row, its lines with it.
            var moved = Memory()
            for k in 0..<count where row - k >= 0 && newRow - k >= 0 { moved.rows[newRow - k] = displayed.rows[row - k] }
            displayed = moved
        default:
            break
        }
        row = newRow
    }

    private mutating func perform(_ command: CEA608.Command, time: Double) {
        switch command {
        case .resumeCaptionLoading:
            enter(.popOn, time: time)
        case .resumeDirectCaptioning:
            enter(.paintOn, time: time)
        case .rollUp2, .rollUp3, .rollUp4:
            let rows = Int(command.rawValue - 0x23)
            if case .rollUp = mode {
                mode = .rollUp(rows: rows)
            } else {
                // From another mode: both memories are erased and the window starts on row 15.
                commit()
                displayed.clear()
                loading.clear()
                show("", CueSettings(), at: time)
                enter(.rollUp(rows: rows), time: time)
                row = 14
            }
            column = 0
        case .textRestart, .resumeTextDisplay:
            enter(.text, time: time)
        case .backspace:
            backspace(time: time)
        case .deleteToEndOfRow:
            edit(time: time) { memory, row, column in
                for k in column..<32 { memory.rows[row][k] = nil }
            }
        case .eraseDisplayedMemory:
            commit()
            displayed.clear()
            show("", CueSettings(), at: time)
        case .eraseNonDisplayedMemory:
            loading.clear()
        case .endOfCaption:
            commit()
            swap(&displayed, &loading)
            enter(.popOn, time: time)
            show(time: time)
        case .carriageReturn:
            guard case .rollUp(let rows) = mode else { break }
            commit()
            for r in 0..<15 where r < row - rows + 1 || r > row { displayed.clear(row: r) }
            let top = max(0, row - rows + 1)
            if top < row {
                for r in top..<row { displayed.rows[r] = displayed.rows[r + 1] }
            }
            displayed.clear(row: row)
            column = 0
            atLastColumn = false
        case .alarmOff, .alarmOn, .flashOn:
            break
        }
    }

    private mutating func enter(_ newMode: Mode, time: Double) {
        if mode != newMode, mode != nil, case .paintOn = mode { commit() }
        mode = newMode
        if newMode != .text, !modesUsed.contains(where: { Self.sameKind($0, newMode) }) { modesUsed.append(newMode) }
    }

    private static func sameKind(_ a: Mode, _ b: Mode) -> Bool {
        switch (a, b) {
        case (.popOn, .popOn), (.paintOn, .paintOn), (.rollUp, .rollUp), (.text, .text): true
        default: false
        }
    }

    // MARK: - Characters

    private mutating func put(_ character: Character, time: Double) {
        let cell = Cell(character: character, style: style)
        // Text on screen written over in place (a PAC back to a row, then new characters) was shown: the picture
        // before the first change after the move is a cue of its own, however soon the change comes.
        if !overwriting, let mode, mode != .popOn, mode != .text, changedSince != nil, let old = displayed.rows[row][column], old.character != " ",
            old != cell
        {
            commit()
            overwriting = true
        }
        edit(time: time) { memory, row, column in memory.rows[row][column] = cell }
        // In the last column the cursor stays: the next character overwrites it.
        atLastColumn = column == 31
        column = min(31, column + 1)
    }

    private mutating func backspace(time: Double) {
        if atLastColumn {
            atLastColumn = false
        } else {
            guard column > 0 else { return }
            column -= 1
        }
        edit(time: time) { memory, row, column in memory.rows[row][column] = nil }
    }

    /// Changes the memory being written: the loading one for pop-on, the screen otherwise.
    private mutating func edit(time: Double, _ change: (inout Memory, Int, Int) -> Void) {
        guard let mode, mode != .text else { return }
        if mode == .popOn {
            change(&loading, row, column)
        } else {
            if mode == .paintOn, changedSince != nil, time - lastChange >= Self.paintPause { commit() }
            change(&displayed, row, column)
            if changedSince == nil { changedSince = time }
            lastChange = time
        }
    }

    // MARK: - Cues

    /// Roll-up and paint-on: the screen as it is becomes the cue, from when it started changing.
    private mutating func commit() {
        guard let since = changedSince else { return }
        changedSince = nil
        let (text, settings) = Self.layout(displayed)
        show(text, settings, at: since)
    }

    /// Pop-on: the screen after a swap.
    private mutating func show(time: Double) {
        let (text, settings) = Self.layout(displayed)
        show(text, settings, at: time)
    }

    private mutating func show(_ text: String, _ settings: CueSettings, at time: Double) {
        if let current = shown {
            if current.text == text && current.settings == settings { return }
            if time > current.start {
                cues.append(Cue(start: CaptionTime(seconds: current.start), end: CaptionTime(seconds: time), text: current.text, settings: current.settings))
            }
        }
        shown = text.isEmpty ? nil : (text, settings, time)
    }

    /// A memory as cue text and settings. Rows with text become lines (top to bottom); styles become WebVTT tags.
    /// Captions whose rows are each centred (within a column) are centred; others are placed at their first
    /// column (`position` = 10% + 2.5% a column: 32 columns over the 80% safe area), left-aligned. Captions ending
    /// on row 15 keep WebVTT's default line (the bottom); others are placed at their top row (`line` = 10% +
    /// 80%/15 a row).
    static func layout(_ memory: Memory) -> (String, CueSettings) {
        var lines: [String] = []
        var spans: [(row: Int, first: Int, length: Int)] = []
        for (r, cells) in memory.rows.enumerated() {
            guard let first = cells.firstIndex(where: { $0 != nil && $0!.character != " " }),
                let last = cells.lastIndex(where: { $0 != nil && $0!.character != " " })
            else { continue }
            var text = ""
            var open = Style()
            var previous = Style()
            for k in first...last {
                var cell = cells[k] ?? Cell(character: " ", style: open)
                if cell.character == " " {
                    // A space between two styles takes what they share (a mid-row code shows as a space: it belongs
                    // to neither word).
                    let next = cells[(k + 1)...last].first { $0 != nil && $0!.character != " " }!!.style
                    cell.style = Style(
                        color: previous.color == next.color ? next.color : 0, italic: previous.italic && next.italic,
                        underline: previous.underline && next.underline)
                } else {
                    previous = cell.style
                }
                if cell.style != open {
                    text += closing(open) + opening(cell.style)
                    open = cell.style
                }
                WebVTTText.append(cell.character, to: &text)
            }
            text += closing(open)
            lines.append(text)
            spans.append((r + 1, first, last - first + 1))
        }
        var settings = CueSettings()
        guard let top = spans.first, let bottom = spans.last else { return ("", settings) }
        if bottom.row != 15 {
            settings.snapToLines = false
            settings.line = 10 + Double(top.row - 1) * 80 / 15
        }
        let centred = spans.allSatisfy { abs($0.first - (32 - $0.length) / 2) <= 1 }
        if !centred {
            settings.align = .left
            settings.position = 10 + Double(spans.map(\.first).min()!) * 2.5
            settings.positionAlign = .lineLeft
        }
        return (lines.joined(separator: "\n"), settings)
    }

    private static func opening(_ style: Style) -> String {
        (style.color != 0 ? "<c.\(CEA608.colorNames[style.color])>" : "") + (style.italic ? "<i>" : "") + (style.underline ? "<u>" : "")
    }

    private static func closing(_ style: Style) -> String {
        (style.underline ? "</u>" : "") + (style.italic ? "</i>" : "") + (style.color != 0 ? "</c>" : "")
    }

    private mutating func note(_ line: Int, _ message: String) {
        guard diagnostics.count < 1000 else { return }
        diagnostics.append(CaptionDiagnostic(line: line, rule: "captions.cea608", severity: .warning, message: message))
    }

    private func hex(_ a: UInt8, _ b: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(a >> 4)], digits[Int(a & 15)], digits[Int(b >> 4)], digits[Int(b & 15)]])
    }
}
