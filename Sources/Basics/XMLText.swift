/// Text inside XML and HTML (the reports, the transcript, TTML): the one escaper.
///
/// Markup characters become references; characters XML 1.0 forbids are dropped (control characters other than
/// tab, LF and CR, and U+FFFE / U+FFFF).
public enum XMLText {
    /// Text for XML attributes and content. `apostrophes: false` leaves `'` as it is (for attributes quoted with `"`
    /// and content, where it needs no escaping).
    public static func escape(_ text: String, apostrophes: Bool = true) -> String {
        var out = ByteWriter(capacity: text.utf8.count + 16)
        out.append(xmlEscaped: text, apostrophes: apostrophes)
        return out.takeString()
    }

    /// `text` escaped, appended to `out`.
    public static func append(_ text: some StringProtocol, to out: inout [UInt8], apostrophes: Bool = true) {
        var text = String(text)
        text.withUTF8 { utf8 in escapedPieces(of: utf8, apostrophes: apostrophes) { out.append(contentsOf: $0) } }
    }

    /// Whether XML text can hold `scalar` as `append` writes it: all but the control characters other than tab, LF and
    /// CR, and U+FFFE / U+FFFF (which `append` drops).
    public static func canHold(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0..<0x20, 0xFFFE, 0xFFFF: false
        default: true
        }
    }

    /// Bit `b` set for each byte `b` below 64 that XML text cannot hold as it is: 0x00–0x1F but 0x09, 0x0A, 0x0D,
    /// and `"`, `&`, `'`, `<`, `>`.
    private static let specialBelow64: UInt64 = 0x5000_00C4_FFFF_D9FF
    private static let apostropheBit: UInt64 = 1 << 0x27

    /// The escaped form of `utf8` handed to `emit` in pieces, in order: runs of the text as it is and the references
    /// that replace markup characters.
    package static func escapedPieces(
        of utf8: UnsafeBufferPointer<UInt8>, apostrophes: Bool = true, _ emit: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        let special = apostrophes ? specialBelow64 : specialBelow64 & ~apostropheBit
        var runStart = 0
        var i = 0
        let n = utf8.count
        while i < n {
            let byte = utf8[i]
            // Markup characters, control characters but tab, LF and CR, and U+FFFE / U+FFFF (EF BF BE, EF BF BF).
            let isSpecial = byte < 64 ? (special >> UInt64(byte)) & 1 != 0 : byte == 0xEF
            guard isSpecial else {
                i += 1
                continue
            }
            if i > runStart { emit(UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
            var skip = 1
            var keep = false
            switch byte {
            case UInt8(ascii: "&"): ("&amp;" as StaticString).withUTF8Buffer(emit)
            case UInt8(ascii: "<"): ("&lt;" as StaticString).withUTF8Buffer(emit)
            case UInt8(ascii: ">"): ("&gt;" as StaticString).withUTF8Buffer(emit)
            case UInt8(ascii: "\""): ("&quot;" as StaticString).withUTF8Buffer(emit)
            case UInt8(ascii: "'"): ("&apos;" as StaticString).withUTF8Buffer(emit)
            case 0xEF:
                if i + 2 < n, utf8[i + 1] == 0xBF, utf8[i + 2] == 0xBE || utf8[i + 2] == 0xBF {
                    skip = 3  // U+FFFE or U+FFFF: dropped
                } else {
                    keep = true
                }
            default:
                break  // other control characters: dropped
            }
            i += skip
            runStart = keep ? i - 1 : i
        }
        if n > runStart { emit(UnsafeBufferPointer(rebasing: utf8[runStart..<n])) }
    }
}
