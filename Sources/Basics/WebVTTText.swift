/// Text inside WebVTT cue text: the one escaper. `&`, `<` and `>` become `&amp;`, `&lt;` and `&gt;`; everything else
/// is left as it is.
public enum WebVTTText {
    public static func escape(_ text: some StringProtocol) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else {
            return String(text)
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        append(text.utf8, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The UTF-8 bytes of `text` escaped, appended to `out`.
    public static func append(_ text: some Sequence<UInt8>, to out: inout [UInt8]) {
        for byte in text {
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            default: out.append(byte)
            }
        }
    }

    /// `character` escaped, appended to `text`.
    @inlinable
    public static func append(_ character: Character, to text: inout String) {
        switch character {
        case "&": text += "&amp;"
        case "<": text += "&lt;"
        case ">": text += "&gt;"
        default: text.append(character)
        }
    }
}
