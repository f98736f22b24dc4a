/// SubRip's markup: `<b> <i> <u>` (any case), `<font color="…">`, and `{\anN}` positioning; other
/// `{\…}` override blocks are dropped; anything else is text.
public enum SRTMarkup {
    /// The text parsed into nodes (bold, italic, underline, font with its colour as annotation).
    public static func nodes(of text: String) -> [CueNode] {
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "{") }) {
            return text.isEmpty ? [] : [.text(text)]
        }
        var open = [CueElement(kind: .class)]
        var pending = ""
        func flush() {
            if !pending.isEmpty {
                open[open.count - 1].children.append(.text(pending))
                pending = ""
            }
        }
        func close(_ index: Int) {
            while open.count > index {
                let element = open.removeLast()
                open[open.count - 1].children.append(.element(element))
            }
        }
        var rest = Substring(text)
        while let c = rest.first {
            if c == "{", rest.hasPrefix("{\\"), let closing = rest.firstIndex(of: "}") {
                rest = rest[rest.index(after: closing)...]  // override block: positioning is read by `alignment(of:)`
                continue
            }
            if c == "<", let closing = rest.firstIndex(of: ">"), let tag = Tag(rest[rest.index(after: rest.startIndex)..<closing]) {
                flush()
                if tag.isEnd {
                    if let index = open.lastIndex(where: { $0.kind == tag.kind }), index > 0 { close(index) }
                } else {
                    open.append(CueElement(kind: tag.kind, annotation: tag.color ?? ""))
                }
                rest = rest[rest.index(after: closing)...]
                continue
            }
            pending.append(c)
            rest = rest.dropFirst()
        }
        flush()
        close(1)
        return open[0].children
    }

    /// The `{\anN}` position (numeric keypad layout: 1 bottom-left … 9 top-right), if the text has one.
    public static func alignment(of text: String) -> Int? {
        guard let range = text.range(of: "{\\an"), let digit = text[range.upperBound...].first?.wholeNumberValue,
              (1...9).contains(digit) else { return nil }
        return digit
    }

    private struct Tag {
        var kind: CueElement.Kind
        var isEnd: Bool
        var color: String?

        init?(_ body: Substring) {
            var body = body
            isEnd = body.first == "/"
            if isEnd { body = body.dropFirst() }
            let name = body.prefix { $0.isLetter }.lowercased()
            switch name {
            case "b": kind = .bold
            case "i": kind = .italic
            case "u": kind = .underline
            case "font": kind = .font
            default: return nil
            }
            guard !isEnd || body.count == name.count else { return nil }
            if kind == .font, !isEnd, let equals = body.range(of: "color", options: .caseInsensitive)?.upperBound {
                let value = body[equals...].drop { $0 == "=" || $0 == " " || $0 == "\"" || $0 == "'" }
                color = String(value.prefix { $0 != "\"" && $0 != "'" && $0 != " " })
            } else if kind != .font, !isEnd, body.count != name.count {
                return nil
            }
        }
    }
}
