import Foundation

/// Reads EBU STL (EBU Tech 3264), the binary subtitle exchange format of European broadcasters: the General Subtitle
/// Information block (its frame rate, character code table and start-of-programme time code) and the Text and Timing
/// Information blocks, 128 bytes each. A subtitle's blocks are joined (extension blocks), comments and user data
/// left out; times are counted from the programme's start (TCP) when every subtitle comes after it. Teletext control
/// codes become what they show: `8Ah` a line break, colours WebVTT's colour classes, `80h`–`83h` italics and
/// underline; the vertical position and justification become the cue's line and alignment. Text is ISO 6937 (code
/// table 00, its accents combined with the letter after them) or ISO 8859-5/6/7/8 (01–04).
public struct STLReader: Sendable {
    public init() {}

    public func read(_ bytes: [UInt8]) throws(CaptionError) -> CaptionDocument {
        try bytes.withUnsafeBufferPointer { (buffer) throws(CaptionError) in try read(buffer: buffer) }
    }

    static let gsiSize = 1024, ttiSize = 128

    public func read(buffer bytes: UnsafeBufferPointer<UInt8>) throws(CaptionError) -> CaptionDocument {
        guard bytes.count >= Self.gsiSize, let frameRate = Self.frameRate(bytes) else {
            throw CaptionError(
                rule: "stl.gsi", message: "not an EBU STL file: no General Subtitle Information block naming its frame rate (STL25.01, STL30.01)")
        }
        let table = String(decoding: bytes[12..<14], as: UTF8.self)
        let characters: STLCharacters
        switch table {
        case "00", "  ": characters = .latin
        case "01": characters = .iconv("ISO-8859-5")
        case "02": characters = .iconv("ISO-8859-6")
        case "03": characters = .iconv("ISO-8859-7")
        case "04": characters = .iconv("ISO-8859-8")
        default:
            throw CaptionError(rule: "stl.gsi", message: "unknown character code table \"\(table)\" (00 Latin, 01 Cyrillic, 02 Arabic, 03 Greek, 04 Hebrew)")
        }
        var document = CaptionDocument(format: .stl, encoding: characters.name)
        document.timeStep = 1 / frameRate
        let blocks = (bytes.count - Self.gsiSize) / Self.ttiSize
        if (bytes.count - Self.gsiSize) % Self.ttiSize != 0 {
            document.diagnostics.append(
                CaptionDiagnostic(
                    line: 0, rule: "stl.tti", message: "the file ends inside a TTI block (\((bytes.count - Self.gsiSize) % Self.ttiSize) bytes left over)"))
        }
        // Each subtitle (its blocks' text joined; its times and place from its first block) becomes a cue when its last
        // block is read, at its time code as written; the programme's start is taken off afterwards.
        var open: (number: Int, start: Int64, end: Int64, text: [UInt8], vertical: UInt8, justification: UInt8)?
        var badTimes = 0
        let teletext = bytes[11] == 0x31 || bytes[11] == 0x32
        document.cues.reserveCapacity(blocks)
        func finish(_ subtitle: (number: Int, start: Int64, end: Int64, text: [UInt8], vertical: UInt8, justification: UInt8)) {
            var cue = Cue(
                identifier: String(subtitle.number), start: CaptionTime(milliseconds: subtitle.start), end: CaptionTime(milliseconds: subtitle.end),
                text: STLText.convert(subtitle.text, characters: characters))
            cue.settings = Self.settings(vertical: subtitle.vertical, justification: subtitle.justification, teletext: teletext)
            document.cues.append(cue)
        }
        for index in 0..<blocks {
            let block = UnsafeBufferPointer(rebasing: bytes[(Self.gsiSize + index * Self.ttiSize)..<(Self.gsiSize + (index + 1) * Self.ttiSize)])
            let number = Int(block[1]) | Int(block[2]) << 8
            let extensionNumber = block[3], comment = block[15]
            guard extensionNumber != 0xFE, comment == 0 else { continue }  // user data, comments
            guard let start = Self.time(block, at: 5, frameRate: frameRate), let end = Self.time(block, at: 9, frameRate: frameRate) else {
                badTimes += 1
                continue
            }
            if var current = open, current.number == number {
                open = nil  // (its text grows in place)
                current.text += block[16..<128]
                open = current
            } else {
                if let current = open { finish(current) }
                open = (number, start, end, Array(block[16..<128]), block[13], block[14])
            }
            if extensionNumber == 0xFF, let current = open {
                finish(current)
                open = nil
            }
        }
        if let current = open { finish(current) }
        if badTimes > 0 {
            document.diagnostics.append(
                CaptionDiagnostic(
                    line: 0, rule: "stl.tti", message: "\(badTimes) TTI block\(badTimes == 1 ? "" : "s") with a time code that is not one: left out"))
        }
        // Times from the start of the programme, when every subtitle comes after it.
        if let programmeStart = Self.textTime(bytes, at: 256, frameRate: frameRate), programmeStart > 0 {
            if document.cues.allSatisfy({ $0.start.milliseconds >= programmeStart }) {
                for i in document.cues.indices {
                    document.cues[i].start = CaptionTime(milliseconds: document.cues[i].start.milliseconds - programmeStart)
                    document.cues[i].end = CaptionTime(milliseconds: document.cues[i].end.milliseconds - programmeStart)
                }
                let tcp = String(decoding: bytes[256..<264], as: UTF8.self)
                let shown = stride(from: 0, to: 8, by: 2).map { String(tcp.dropFirst($0).prefix(2)) }.joined(separator: ":")
                document.diagnostics.append(
                    CaptionDiagnostic(line: 0, rule: "stl.gsi", severity: .info, message: "times counted from the programme's start time code \(shown) (TCP)"))
            } else {
                document.diagnostics.append(
                    CaptionDiagnostic(
                        line: 0, rule: "stl.gsi", severity: .info,
                        message: "subtitles start before the programme's start time code (TCP): their time codes are read as they are"))
            }
        }
        return document
    }

    /// Frames a second of the Disk Format Code (`STL25.01` → 25; `STL30.01` → 30).
    static func frameRate(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let code = String(decoding: bytes[3..<11], as: UTF8.self)
        guard code.hasPrefix("STL"), code.hasSuffix(".01"), let rate = Int(code.dropFirst(3).prefix(2)), (20...60).contains(rate) else { return nil }
        return Double(rate)
    }

    /// A TTI time code (hours, minutes, seconds, frames as bytes) in milliseconds; nil when out of range.
    static func time(_ block: UnsafeBufferPointer<UInt8>, at offset: Int, frameRate: Double) -> Int64? {
        let (h, m, s, f) = (Int64(block[offset]), Int64(block[offset + 1]), Int64(block[offset + 2]), Double(block[offset + 3]))
        guard h < 24, m < 60, s < 60, f < frameRate else { return nil }
        return (h * 3600 + m * 60 + s) * 1000 + Int64((f * 1000 / frameRate).rounded())
    }

    /// A GSI time code (`HHMMSSFF` in ASCII digits) in milliseconds.
    static func textTime(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, frameRate: Double) -> Int64? {
        let digits = bytes[offset..<(offset + 8)].map { Int64($0) - 0x30 }
        guard digits.allSatisfy({ (0...9).contains($0) }) else { return nil }
        let (h, m, s, f) = (digits[0] * 10 + digits[1], digits[2] * 10 + digits[3], digits[4] * 10 + digits[5], Double(digits[6] * 10 + digits[7]))
        guard h < 24, m < 60, s < 60, f < frameRate else { return nil }
        return (h * 3600 + m * 60 + s) * 1000 + Int64((f * 1000 / frameRate).rounded())
    }

    /// The cue's place: its justification (1 left, 2 centred, 3 right) and, for teletext, its row (1–23) as a line
    /// (rows 20 and below are the default place at the bottom).
    static func settings(vertical: UInt8, justification: UInt8, teletext: Bool) -> CueSettings {
        var settings = CueSettings()
        switch justification {
        case 1: settings.align = .left
        case 3: settings.align = .right
        default: break
        }
        if teletext, (1...19).contains(vertical) {
            settings.snapToLines = false
            settings.line = (Double(vertical - 1) / 23 * 100).rounded()
            settings.lineAlign = .start
        }
        return settings
    }
}

/// How an STL file's text bytes (20h–FFh, outside the control codes) become characters.
enum STLCharacters: Sendable {
    /// ISO 6937 (EBU's Latin table).
    case latin
    /// An ISO 8859 part, through iconv.
    case iconv(String)

    var name: String {
        switch self {
        case .latin: "iso-6937"
        case .iconv(let name): name.lowercased()
        }
    }
}

/// An STL subtitle's text field as WebVTT cue text.
enum STLText {
    /// One character shown: its text and the style in force.
    struct Styled {
        var text: String
        var colour: String?
        var italic: Bool
        var underline: Bool
    }

    static func convert(_ field: [UInt8], characters: STLCharacters) -> String {
        if let plain = plainText(field) { return plain }
        var lines: [[Styled]] = [[]]
        var colour: String?
        var italic = false, underline = false
        var accent: Unicode.Scalar?
        var pending: [UInt8] = []  // bytes of a non-Latin table, decoded together
        func flushPending() {
            guard !pending.isEmpty else { return }
            let decoded = (try? TextDecoding.decode(pending, named: characters.name).utf8).map { String(decoding: $0, as: UTF8.self) } ?? "\u{FFFD}"
            for character in decoded { lines[lines.count - 1].append(Styled(text: String(character), colour: colour, italic: italic, underline: underline)) }
            pending.removeAll()
        }
        func add(_ text: String) {
            flushPending()
            lines[lines.count - 1].append(Styled(text: text, colour: colour, italic: italic, underline: underline))
        }
        var i = 0
        blocks: while i < field.count {
            let byte = field[i]
            i += 1
            switch byte {
            case 0x8F:
                // Unused space: the rest of this block's field is filler.
                let next = (i + 111) / 112 * 112
                i = next
                continue blocks
            case 0x8A:
                flushPending()
                if !(lines.last?.isEmpty ?? true) { lines.append([]) }
                colour = nil  // teletext attributes hold to the end of a row
            case 0x80: flushPending(); italic = true
            case 0x81: flushPending(); italic = false
            case 0x82: flushPending(); underline = true
            case 0x83: flushPending(); underline = false
            case 0x00...0x07:
                add(" ")  // a spacing attribute: shown as a space
                colour = ["black", "red", "lime", "yellow", "blue", "magenta", "cyan", nil][Int(byte)]
            case 0x08...0x1F: add(" ")
            case 0x20...0x7E:
                if case .iconv = characters {
                    pending.append(byte)
                } else if let mark = accent {
                    // An accent on a space is the accent alone (ISO 6937's spacing form).
                    if byte == 0x20, let spacing = ISO6937.spacing[mark] {
                        add(String(spacing))
                    } else {
                        add(String(String.UnicodeScalarView([Unicode.Scalar(byte), mark])).precomposedStringWithCanonicalMapping)
                    }
                    accent = nil
                } else {
                    add(String(UnicodeScalar(byte)))
                }
            case 0xA0...0xFF:
                if case .iconv = characters {
                    pending.append(byte)
                } else if let mark = ISO6937.combining[byte] {
                    accent = mark
                } else if let scalar = ISO6937.characters[byte] {
                    add(String(scalar))
                }
            default: break  // 7Fh and the reserved codes
            }
        }
        flushPending()
        return lines.map(serialize).filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// Most subtitles are words and the codes that box and size them: ASCII letters, spacing attributes other than
    /// colours, line breaks, filler. Their text, made without the general walk; nil for anything else.
    static func plainText(_ field: [UInt8]) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        var pendingSpace = false
        var i = 0
        while i < field.count {
            let byte = field[i]
            i += 1
            switch byte {
            case 0x8F:
                i = (i + 111) / 112 * 112
            case 0x8A:
                if !out.isEmpty, out.last != 0x0A { out.append(0x0A) }
                pendingSpace = false
            case 0x08...0x1F, 0x20:
                if !out.isEmpty, out.last != 0x0A { pendingSpace = true }
            case 0x21...0x7E where byte != 0x26 && byte != 0x3C && byte != 0x3E:
                if pendingSpace { out.append(0x20) }
                pendingSpace = false
                out.append(byte)
            default: return nil  // colours, styles, references to escape, the upper half
            }
        }
        while out.last == 0x0A { out.removeLast() }
        return String(decoding: out, as: UTF8.self)
    }

    /// A row as WebVTT cue text: spaces collapsed and trimmed (teletext positions text with them), each run of one
    /// style in its tags.
    static func serialize(_ row: [Styled]) -> String {
        var cells: [Styled] = []
        for cell in row {
            if cell.text == " ", cells.last?.text == " " || cells.isEmpty { continue }
            cells.append(cell)
        }
        while cells.last?.text == " " { cells.removeLast() }
        var out = ""
        var k = 0
        while k < cells.count {
            let style = cells[k]
            var run = ""
            while k < cells.count, cells[k].colour == style.colour, cells[k].italic == style.italic, cells[k].underline == style.underline {
                for character in cells[k].text {
                    switch character {
                    case "&": run += "&amp;"
                    case "<": run += "&lt;"
                    case ">": run += "&gt;"
                    default: run.append(character)
                    }
                }
                k += 1
            }
            // A space alone keeps no style.
            if run == " " {
                out += run
                continue
            }
            if style.underline { run = "<u>\(run)</u>" }
            if style.italic { run = "<i>\(run)</i>" }
            if let colour = style.colour { run = "<c.\(colour)>\(run)</c>" }
            out += run
        }
        return out
    }
}

/// ISO 6937's upper half as EBU's Latin table has it: characters, and the accents written before the letter they
/// go on.
enum ISO6937 {
    static let combining: [UInt8: Unicode.Scalar] = [
        0xC1: "\u{300}", 0xC2: "\u{301}", 0xC3: "\u{302}", 0xC4: "\u{303}", 0xC5: "\u{304}", 0xC6: "\u{306}", 0xC7: "\u{307}", 0xC8: "\u{308}",
        0xCA: "\u{30A}", 0xCB: "\u{327}", 0xCD: "\u{30B}", 0xCE: "\u{328}", 0xCF: "\u{30C}",
    ]

    /// Each accent written alone.
    static let spacing: [Unicode.Scalar: Unicode.Scalar] = [
        "\u{300}": "`", "\u{301}": "´", "\u{302}": "^", "\u{303}": "~", "\u{304}": "¯", "\u{306}": "˘", "\u{307}": "˙", "\u{308}": "¨",
        "\u{30A}": "˚", "\u{327}": "¸", "\u{30B}": "˝", "\u{328}": "˛", "\u{30C}": "ˇ",
    ]

    static let characters: [UInt8: Unicode.Scalar] = [
        0xA0: "\u{A0}", 0xA1: "¡", 0xA2: "¢", 0xA3: "£", 0xA4: "$", 0xA5: "¥", 0xA6: "#", 0xA7: "§", 0xA8: "¤", 0xA9: "‘", 0xAA: "“", 0xAB: "«",
        0xAC: "←", 0xAD: "↑", 0xAE: "→", 0xAF: "↓",
        0xB0: "°", 0xB1: "±", 0xB2: "²", 0xB3: "³", 0xB4: "×", 0xB5: "µ", 0xB6: "¶", 0xB7: "·", 0xB8: "÷", 0xB9: "’", 0xBA: "”", 0xBB: "»",
        0xBC: "¼", 0xBD: "½", 0xBE: "¾", 0xBF: "¿",
        0xD0: "―", 0xD1: "¹", 0xD2: "®", 0xD3: "©", 0xD4: "™", 0xD5: "♪", 0xD6: "¬", 0xD7: "¦", 0xDC: "⅛", 0xDD: "⅜", 0xDE: "⅝", 0xDF: "⅞",
        0xE0: "Ω", 0xE1: "Æ", 0xE2: "Đ", 0xE3: "ª", 0xE4: "Ħ", 0xE6: "Ĳ", 0xE7: "Ŀ", 0xE8: "Ł", 0xE9: "Ø", 0xEA: "Œ", 0xEB: "º", 0xEC: "Þ",
        0xED: "Ŧ", 0xEE: "Ŋ", 0xEF: "ŉ",
        0xF0: "ĸ", 0xF1: "æ", 0xF2: "đ", 0xF3: "ð", 0xF4: "ħ", 0xF5: "ı", 0xF6: "ĳ", 0xF7: "ŀ", 0xF8: "ł", 0xF9: "ø", 0xFA: "œ", 0xFB: "ß",
        0xFC: "þ", 0xFD: "ŧ", 0xFE: "ŋ", 0xFF: "\u{AD}",
    ]
}
