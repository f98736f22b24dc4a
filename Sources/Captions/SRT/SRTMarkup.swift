import Basics

/// SubRip's markup, as players read it (FFmpeg, ExoPlayer, VLC): `<b> <i> <u> <s>` and `<font color=… face=…
/// size=…>` (any case, attributes on the others ignored), `<br>` (`<br/>`, `<BR />`) as a line break, and
/// `{\anN}` positioning; other `{\…}` override blocks are dropped. Anything else that looks like a tag (`<sub>`,
/// `</xyz>`) is left out of the text and reported; so is a known tag written with spaces (`< u>`, `</ i>`), which
/// still styles as players read it. A `<` that starts no tag (`5 < 6`) is text.
public enum SRTMarkup {
    /// The text parsed into nodes (bold, italic, underline, strike-through, font with its colour as annotation).
    public static func nodes(of text: String) -> [CueNode] {
        if !hasMarkup(text) { return text.isEmpty ? [] : [.text(text)] }
        var builder = CueTreeBuilder()
        walk(text) { builder.add($0) }
        return builder.finish()
    }

    /// The text as shown: markup left out, `<br>` a line break.
    public static func plainText(of text: String) -> String {
        if !hasMarkup(text) { return text }
        var collector = PlainTextCollector()
        walk(text) { collector.add($0) }
        return collector.text
    }

    /// The problems of the markup: unknown tags, end tags that close nothing or close other elements too,
    /// elements left open, nesting too deep.
    public static func problems(of text: String) -> [CueTextProblem] {
        var problems: [CueTextProblem] = []
        if hasMarkup(text) { walk(text, problems: &problems) { _ in } }
        return problems
    }

    /// Calls `visit` with the events of the markup's tree, in order (an end tag closes the innermost element of
    /// its kind and every element inside it; one that matches no open element is ignored).
    public static func walk(_ text: String, _ visit: (CueMarkupEvent) -> Void) {
        var problems: [CueTextProblem]? = nil
        walk(text, problems: &problems, visit)
    }

    /// `walk`, reporting the markup's problems in `problems`.
    public static func walk(_ text: String, problems: inout [CueTextProblem], _ visit: (CueMarkupEvent) -> Void) {
        var collected: [CueTextProblem]? = []
        walk(text, problems: &collected, visit)
        problems += collected ?? []
    }

    /// The `{\anN}` position (numeric keypad layout: 1 bottom-left … 9 top-right), if the text has one.
    public static func alignment(of text: String) -> Int? {
        guard text.containsUTF8Byte(UInt8(ascii: "{")), let range = text.range(of: "{\\an"),
            let digit = text[range.upperBound...].first?.wholeNumberValue, (1...9).contains(digit)
        else { return nil }
        return digit
    }

    /// True when the text may hold markup (a tag or an override block).
    static func hasMarkup(_ text: String) -> Bool {
        text.withUTF8Bytes { bytes in bytes.contains { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "{") } }
    }

    // MARK: - Tokenizing

    private static func walk(_ text: String, problems: inout [CueTextProblem]?, _ visit: (CueMarkupEvent) -> Void) {
        guard hasMarkup(text) else {
            if !text.isEmpty { visit(.text(text)) }
            return
        }
        var text = text
        text.withUTF8 { bytes in
            var walker = Walker()
            var pendingStart = 0  // text not yet given out runs from here to `i`
            var i = 0
            let n = bytes.count
            func flush(upTo end: Int) {
                if end > pendingStart { walker.pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[pendingStart..<end])) }
            }
            while i < n {
                let byte = bytes[i]
                if byte == UInt8(ascii: "{"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "\\"), let close = overrideBlockEnd(bytes, from: i) {
                    flush(upTo: i)  // an override block: dropped (positioning is read by `alignment(of:)`)
                    i = close + 1
                    pendingStart = i
                    continue
                }
                if byte == UInt8(ascii: "<"), let tag = Tag(bytes, at: i) {
                    flush(upTo: i)
                    walker.add(tag, bytes, problems: &problems, visit)
                    i = tag.end
                    pendingStart = i
                    continue
                }
                i += 1
            }
            flush(upTo: n)
            walker.finish(problems: &problems, visit)
        }
    }

    /// The `}` closing the override block that starts at `start` (before the next `{`), if any. The search stops
    /// at the next `{`, so the blocks searched never overlap: linear on any text.
    private static func overrideBlockEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var j = start + 2
        while j < bytes.count {
            if bytes[j] == UInt8(ascii: "}") { return j }
            if bytes[j] == UInt8(ascii: "{") { return nil }
            j += 1
        }
        return nil
    }

    /// The tree decisions, given out as events; text is gathered until the next tag.
    private struct Walker {
        var pending: [UInt8] = []
        var open: [CueElement.Kind] = []
        var ignoredDepth = 0

        mutating func flushText(_ visit: (CueMarkupEvent) -> Void) {
            guard !pending.isEmpty else { return }
            visit(.text(String(decoding: pending, as: UTF8.self)))
            pending.removeAll(keepingCapacity: true)
        }

        mutating func add(
            _ tag: Tag, _ bytes: UnsafeBufferPointer<UInt8>, problems: inout [CueTextProblem]?,
            _ visit: (CueMarkupEvent) -> Void
        ) {
            if tag.isSpaced, tag.kind != nil || tag.isLineBreak {
                problems?.append(CueTextProblem(message: "malformed tag \(tag.text(bytes)) (read as a tag, left out of the text)"))
            }
            guard let kind = tag.kind else {
                if tag.isLineBreak {
                    pending.append(0x0A)
                } else {
                    problems?.append(CueTextProblem(message: "unknown tag \(tag.text(bytes)) left out of the text"))
                }
                return
            }
            flushText(visit)
            if tag.isEnd {
                if ignoredDepth > 0 {
                    ignoredDepth -= 1
                    return
                }
                guard let index = open.lastIndex(of: kind) else {
                    problems?.append(CueTextProblem(message: "\(tag.text(bytes)) closes nothing; ignored"))
                    return
                }
                if index != open.count - 1 {
                    problems?.append(CueTextProblem(message: "\(tag.text(bytes)) does not close the open <\(Self.name(open[open.count - 1]))>"))
                }
                while open.count > index { visit(.end(open.removeLast())) }
                return
            }
            guard open.count < maxCueMarkupDepth else {
                if ignoredDepth == 0 {
                    problems?.append(CueTextProblem(message: "tags nested more than \(maxCueMarkupDepth) deep: the deeper ones ignored"))
                }
                ignoredDepth += 1
                return
            }
            open.append(kind)
            visit(.start(CueElement(kind: kind, annotation: kind == .font ? tag.attribute("color", bytes) ?? "" : "")))
        }

        mutating func finish(problems: inout [CueTextProblem]?, _ visit: (CueMarkupEvent) -> Void) {
            flushText(visit)
            if let last = open.last { problems?.append(CueTextProblem(message: "<\(Self.name(last))> is not closed")) }
            while let kind = open.popLast() { visit(.end(kind)) }
        }

        static func name(_ kind: CueElement.Kind) -> String { kind == .font ? "font" : kind.rawValue }
    }

    /// A tag: `<` [spaces] [`/`] [spaces] name, then `>`, `/>` or attributes up to `>`, all on one line. The
    /// name starts with a letter (letters, digits, `-`, `_` after it). A space after `<` makes it a tag only
    /// without attributes (`< u>` is one, `a < b and c > d` is not).
    struct Tag {
        /// The element it opens or closes; nil for `<br>` and unknown tags.
        var kind: CueElement.Kind?
        var isEnd: Bool
        var isLineBreak: Bool
        /// Written with a space after `<` or `/` (`< u>`, `</ i>`).
        var isSpaced: Bool
        var start: Int
        /// Just past the `>`.
        var end: Int
        /// Where the attributes are (empty when none).
        var attributes: Range<Int>

        init?(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) {
            let n = bytes.count
            func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
            func isLetter(_ b: UInt8) -> Bool { (b | 0x20) &- 0x61 < 26 }
            var j = start + 1
            var spaced = false
            while j < n, isSpace(bytes[j]) { j += 1; spaced = true }
            isEnd = j < n && bytes[j] == UInt8(ascii: "/")
            if isEnd {
                j += 1
                while j < n, isSpace(bytes[j]) { j += 1; spaced = true }
            }
            let nameStart = j
            guard j < n, isLetter(bytes[j]) else { return nil }
            while j < n, isLetter(bytes[j]) || bytes[j].isASCIIDigit || bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: "_") { j += 1 }
            let nameEnd = j
            var attributesStart = j, attributesEnd = j
            var sawSpace = false
            while j < n, isSpace(bytes[j]) { j += 1; sawSpace = true }
            if j < n, bytes[j] == UInt8(ascii: "/"), j + 1 < n, bytes[j + 1] == UInt8(ascii: ">") {
                j += 2
            } else if j < n, bytes[j] == UInt8(ascii: ">") {
                j += 1
            } else {
                // Attributes: only after a space, never after a spaced "<", up to ">" on the same line.
                guard sawSpace, !spaced else { return nil }
                attributesStart = j
                while j < n, bytes[j] != UInt8(ascii: ">") {
                    if bytes[j] == UInt8(ascii: "<") || bytes[j] == 0x0A || bytes[j] == 0x0D { return nil }
                    j += 1
                }
                guard j < n else { return nil }
                attributesEnd = j
                j += 1
            }
            self.start = start
            end = j
            attributes = attributesStart..<attributesEnd
            isLineBreak = false
            let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd])
            func named(_ text: StaticString) -> Bool {
                name.count == text.utf8CodeUnitCount
                    && zip(name, UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)).allSatisfy { ($0 | 0x20) == $1 }
            }
            kind = nil
            isSpaced = spaced
            if named("b") {
                kind = .bold
            } else if named("i") {
                kind = .italic
            } else if named("u") {
                kind = .underline
            } else if named("s") {
                kind = .strike
            } else if named("font") {
                kind = .font
            } else if named("br") {
                isLineBreak = true
            }
        }

        /// The tag as written.
        func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }

        /// The value of attribute `name` (`color="#ff0000"`, `color='red'`, `color=red`), if present.
        func attribute(_ name: StaticString, _ bytes: UnsafeBufferPointer<UInt8>) -> String? {
            var j = attributes.lowerBound
            let end = attributes.upperBound
            let length = name.utf8CodeUnitCount
            while j < end {
                while j < end, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
                let keyStart = j
                while j < end, bytes[j] != UInt8(ascii: "="), bytes[j] != 0x20, bytes[j] != 0x09 { j += 1 }
                let key = UnsafeBufferPointer(rebasing: bytes[keyStart..<j])
                while j < end, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
                var value: Range<Int>?
                if j < end, bytes[j] == UInt8(ascii: "=") {
                    j += 1
                    while j < end, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
                    if j < end, bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: "'") {
                        let quote = bytes[j]
                        let valueStart = j + 1
                        j = valueStart
                        while j < end, bytes[j] != quote { j += 1 }
                        value = valueStart..<j
                        if j < end { j += 1 }
                    } else {
                        let valueStart = j
                        while j < end, bytes[j] != 0x20, bytes[j] != 0x09 { j += 1 }
                        value = valueStart..<j
                    }
                }
                if key.count == length,
                    zip(key, UnsafeBufferPointer(start: name.utf8Start, count: length)).allSatisfy({ ($0 | 0x20) == $1 })
                {
                    return value.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) } ?? ""
                }
                if keyStart == j { j += 1 }
            }
            return nil
        }
    }
}
