/// CEA-608's character sets and code layout: what each byte pair of line-21 caption data means.
///
/// Bytes carry odd parity in bit 7; the tables take the 7-bit values. A pair whose first byte is 0x10–0x1F is a
/// command (sent twice, the repeat ignored) or a special or extended character; bit 3 of that byte selects the data
/// channel (0: CC1/CC3, 1: CC2/CC4). Anything else is one or two basic characters.
enum CEA608 {
    /// The basic character for a 7-bit code 0x20–0x7F: ASCII but for ten codes.
    static func basic(_ code: UInt8) -> Character? {
        switch code {
        case 0x2A: "á"
        case 0x5C: "é"
        case 0x5E: "í"
        case 0x5F: "ó"
        case 0x60: "ú"
        case 0x7B: "ç"
        case 0x7C: "÷"
        case 0x7D: "Ñ"
        case 0x7E: "ñ"
        case 0x7F: "█"
        case 0x20...0x7E: Character(Unicode.Scalar(code))
        default: nil
        }
    }

    /// Special characters: first byte 0x11 (0x19 on data channel 2), second 0x30–0x3F. 0x39 is the transparent space.
    static let special: [Character] = Array("®°½¿™¢£♪à èâêîôû")

    /// Extended characters, second byte 0x20–0x3F: first byte 0x12 (0x1A) — Spanish, French, miscellaneous — and
    /// 0x13 (0x1B) — Portuguese, German, Danish. Each replaces the character before it (decoders that do not know
    /// them show that basic fallback instead).
    static let extended12: [Character] = Array("ÁÉÓÚÜü‘¡*’—©℠•“”ÀÂÇÈÊËëÎÏïÔÙùÛ«»")
    static let extended13: [Character] = Array("ÃãÍÌìÒòÕõ{}\\^_|~ÄäÖöß¥¤│ÅåØø┌┐└┘")

    /// The colours of preamble address and mid-row codes, by the code's attribute index, as WebVTT's default colour
    /// classes name them (608's green is WebVTT's lime); index 7 is white italics.
    static let colorNames = ["white", "lime", "blue", "cyan", "red", "yellow", "magenta", "white"]

    /// Rows of preamble address codes: by the first byte's low three bits, then whether the second byte is 0x60 or more.
    static let pacRows: [(Int, Int)] = [(11, 11), (1, 2), (3, 4), (12, 13), (14, 15), (5, 6), (7, 8), (9, 10)]

    /// Whether a byte has odd parity (as every byte of line-21 data must).
    static func hasOddParity(_ byte: UInt8) -> Bool { byte.nonzeroBitCount % 2 == 1 }

    /// The byte with odd parity for a 7-bit value.
    static func withParity(_ value: UInt8) -> UInt8 {
        let low = value & 0x7F
        return low.nonzeroBitCount % 2 == 1 ? low : low | 0x80
    }

    /// Miscellaneous control codes (second byte, with first byte 0x14/0x15 or 0x1C/0x1D).
    enum Command: UInt8 {
        case resumeCaptionLoading = 0x20, backspace = 0x21, alarmOff = 0x22, alarmOn = 0x23
        case deleteToEndOfRow = 0x24, rollUp2 = 0x25, rollUp3 = 0x26, rollUp4 = 0x27, flashOn = 0x28
        case resumeDirectCaptioning = 0x29, textRestart = 0x2A, resumeTextDisplay = 0x2B
        case eraseDisplayedMemory = 0x2C, carriageReturn = 0x2D, eraseNonDisplayedMemory = 0x2E, endOfCaption = 0x2F
    }

    /// The preamble address code (first and second byte, 7-bit) for a row 1–15 and an indent 0–28 (a multiple of 4)
    /// or a colour attribute (index 0–7: see `colorNames`), underlined or not, on data channel 1 or 2.
    static func preambleAddress(row: Int, indent: Int?, color: Int = 0, underline: Bool = false, channel2: Bool = false) -> (UInt8, UInt8) {
        let first = pacRows.firstIndex { $0.0 == row || $0.1 == row }!
        var second: UInt8 = pacRows[first].0 == row ? 0x40 : 0x60
        if let indent {
            second |= 0x10 | UInt8((indent / 4) << 1)
        } else {
            second |= UInt8(color << 1)
        }
        if underline { second |= 1 }
        return (UInt8(0x10 | first) | (channel2 ? 0x08 : 0), second)
    }
}
