import Captions

/// What a viewer reads in one cue: its lines without markup, their lengths, the characters and words.
///
/// Most cues are ASCII with at most a few well-nested tags: they are measured in one pass over their bytes.
/// Anything else (other scripts, character references, unusual markup) goes through the cue text parser.
struct CueReading {
    /// Shown lines (trailing empty lines are not shown).
    let lineCount: Int
    /// Characters read: every character on every line (user-perceived characters; trailing spaces and line
    /// breaks not counted).
    let readingCharacters: Int
    /// The lines longer than the limit asked for: their number (0-based) and length.
    let longLines: [(line: Int, length: Int)]
    /// Words: runs of letters or digits (an apostrophe or hyphen inside a word keeps it one word).
    let words: Int
    /// No visible character at all.
    let isEmpty: Bool
    /// A problem with the markup, if any.
    let markupProblem: String?

    init(_ cue: Cue, format: CaptionFormat, maxLineLength: Int? = nil) {
        var text = cue.text
        let limit = maxLineLength ?? .max
        if let fast = text.withUTF8({ Self.measureASCII($0, format: format, limit: limit) }) {
            self = fast
            return
        }
        self.init(slowly: cue, format: format, maxLineLength: maxLineLength)
    }

    /// Measures through the cue text parser (any text).
    init(slowly cue: Cue, format: CaptionFormat, maxLineLength: Int? = nil) {
        let text = cue.text
        let limit = maxLineLength ?? .max
        var problem: String?
        let plain: String
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "{") }) {
            plain = text
        } else {
            var problems: [CueTextProblem] = []
            var collector = PlainTextCollector()
            if format.markup == .webvtt {
                CueTextParser.walk(text, problems: &problems) { collector.add($0) }
                // WebVTT lets a voice span run to the end of the cue without its end tag.
                problems.removeAll { $0.message == "<v> is not closed" }
            } else {
                SRTMarkup.walk(text, problems: &problems) { collector.add($0) }
            }
            plain = collector.text
            problem = problems.first.map { $0.message + (problems.count > 1 ? " (and \(problems.count - 1) more)" : "") }
        }
        var lines = plain.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingTrailingSpaces() }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        lineCount = lines.count
        let lengths = lines.map { $0.count }
        readingCharacters = lengths.reduce(0, +)
        longLines = lengths.enumerated().filter { $0.element > limit }.map { ($0.offset, $0.element) }
        markupProblem = problem
        isEmpty = lines.allSatisfy { $0.allSatisfy(\.isWhitespace) }
        var count = 0
        for line in lines {
            var inWord = false
            for character in line {
                let wordy = character.isLetter || character.isNumber || (inWord && (character == "'" || character == "’" || character == "-"))
                if wordy, !inWord { count += 1 }
                inWord = wordy
            }
        }
        words = count
    }

    private init(
        lineCount: Int, readingCharacters: Int, longLines: [(line: Int, length: Int)], words: Int, isEmpty: Bool,
        markupProblem: String?
    ) {
        self.lineCount = lineCount
        self.readingCharacters = readingCharacters
        self.longLines = longLines
        self.words = words
        self.isEmpty = isEmpty
        self.markupProblem = markupProblem
    }

    /// One pass over ASCII text whose tags are ones both formats know (`i b u` for both, `c v lang` for
    /// WebVTT, `font s` for SRT), opened and closed in order; nil for anything else.
    static func measureASCII(_ bytes: UnsafeBufferPointer<UInt8>, format: CaptionFormat, limit: Int) -> CueReading? {
        var longLines: [(line: Int, length: Int)] = []
        var line = 0, characters = 0
        var length = 0, trailingSpaces = 0, words = 0, lastShown = -1
        var inWord = false, visible = false
        // Open tags, innermost in the low byte (each by its first letter); at most 8 deep here.
        var open: UInt64 = 0, depth = 0
        var i = 0
        let count = bytes.count
        let classes = Self.byteClasses
        while i < count {
            let byte = bytes[i]
            let kind = classes[Int(byte)]
            if kind == ByteClass.word {
                // The common case: a letter or digit.
                length += 1
                trailingSpaces = 0
                visible = true
                if !inWord { words += 1 }
                inWord = true
                i += 1
                continue
            }
            if kind == ByteClass.space {
                length += 1
                trailingSpaces += 1
                inWord = false
                i += 1
                continue
            }
            if kind == ByteClass.joiner || kind == ByteClass.other {
                length += 1
                trailingSpaces = 0
                visible = true
                // An apostrophe or hyphen inside a word keeps it one word.
                inWord = inWord && kind == ByteClass.joiner
                i += 1
                continue
            }
            if kind == ByteClass.unsupported { return nil }
            if byte == UInt8(ascii: "<") {
                // A tag: its name up to a space, '.', '>' (WebVTT classes and annotations follow).
                var j = i + 1
                let closing = j < count && bytes[j] == UInt8(ascii: "/")
                if closing { j += 1 }
                let nameStart = j
                while j < count, bytes[j] != UInt8(ascii: ">"), bytes[j] != UInt8(ascii: " "), bytes[j] != UInt8(ascii: "."),
                    bytes[j] != UInt8(ascii: "\n")
                { j += 1 }
                let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<j])
                while j < count, bytes[j] != UInt8(ascii: ">"), bytes[j] != UInt8(ascii: "\n") { j += 1 }
                guard j < count, bytes[j] == UInt8(ascii: ">"), let tag = knownTag(name, format: format) else { return nil }
                if closing {
                    guard depth > 0, UInt8(truncatingIfNeeded: open) == tag else { return nil }
                    open >>= 8
                    depth -= 1
                } else {
                    guard depth < 8 else { return nil }
                    open = open << 8 | UInt64(tag)
                    depth += 1
                }
                i = j + 1
                inWord = false
                continue
            }
            // A line break.
            let shown = length - trailingSpaces
            characters += shown
            if shown > 0 { lastShown = line }
            if shown > limit { longLines.append((line, shown)) }
            line += 1
            length = 0
            trailingSpaces = 0
            inWord = false
            i += 1
        }
        let last = length - trailingSpaces
        characters += last
        if last > 0 { lastShown = line }
        if last > limit { longLines.append((line, last)) }
        // WebVTT may leave a voice span open to the end of the cue.
        while format.markup == .webvtt, depth > 0, UInt8(truncatingIfNeeded: open) == UInt8(ascii: "v") {
            open >>= 8
            depth -= 1
        }
        let problem = depth > 0 ? "<\(tagName(UInt8(truncatingIfNeeded: open)))> is not closed" : nil
        return CueReading(
            lineCount: lastShown + 1, readingCharacters: characters, longLines: longLines, words: words,
            isEmpty: !visible, markupProblem: problem)
    }

    enum ByteClass {
        static let word: UInt8 = 0, space: UInt8 = 1, joiner: UInt8 = 2, other: UInt8 = 3, markup: UInt8 = 4, unsupported: UInt8 = 5
    }

    /// What each byte is to the ASCII pass: letters and digits, spaces, `'` and `-`, other printable
    /// characters, `<` and line feed (handled apart), and what sends a cue to the full path (non-ASCII,
    /// references, `{`, carriage returns, control characters).
    static let byteClasses: [UInt8] = (0..<256).map { value -> UInt8 in
        let byte = UInt8(value)
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return ByteClass.word
        case UInt8(ascii: " "), UInt8(ascii: "\t"): return ByteClass.space
        case UInt8(ascii: "'"), UInt8(ascii: "-"): return ByteClass.joiner
        case UInt8(ascii: "<"), UInt8(ascii: "\n"): return ByteClass.markup
        case 0x80...0xFF, UInt8(ascii: "&"), UInt8(ascii: "{"), 0x00..<0x20, 0x7F: return ByteClass.unsupported
        default: return ByteClass.other
        }
    }

    /// The first letter standing for a known tag (`f` for `font`, `l` for `lang`), or nil.
    static func knownTag(_ name: UnsafeBufferPointer<UInt8>, format: CaptionFormat) -> UInt8? {
        func equals(_ text: StaticString) -> Bool {
            name.count == text.utf8CodeUnitCount
                && zip(name, UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)).allSatisfy { ($0 | 0x20) == $1 }
        }
        if equals("i") { return UInt8(ascii: "i") }
        if equals("b") { return UInt8(ascii: "b") }
        if equals("u") { return UInt8(ascii: "u") }
        switch format.markup {
        case .webvtt:
            if equals("c") { return UInt8(ascii: "c") }
            if equals("v") { return UInt8(ascii: "v") }
            if equals("lang") { return UInt8(ascii: "l") }
        default:
            if equals("font") { return UInt8(ascii: "f") }
            if equals("s") { return UInt8(ascii: "s") }
        }
        return nil
    }

    static func tagName(_ tag: UInt8) -> String {
        switch tag {
        case UInt8(ascii: "f"): "font"
        case UInt8(ascii: "l"): "lang"
        default: String(UnicodeScalar(tag))
        }
    }
}

extension Substring {
    func trimmingTrailingSpaces() -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " || self[index(before: end)] == "\t" { end = index(before: end) }
        return self[startIndex..<end]
    }
}

/// Rules a WebVTT file turns off for some of its cues with NOTE comments:
///
///     NOTE medialint-disable lint.line-length, lint.reading-speed     (from here on)
///     NOTE medialint-enable lint.line-length                          (from here on, again)
///     NOTE medialint-disable-next lint.min-duration                   (the next cue only)
///
/// Without rule ids, the comment applies to every rule.
struct Suppressions {
    private enum Directive { case disable, enable, disableNext }
    /// (first cue affected, directive, rules; empty = all), in file order.
    private var entries: [(cue: Int, directive: Directive, rules: Set<String>)] = []

    init(_ document: CaptionDocument) {
        for block in document.headerBlocks {
            if case .note(let text) = block { parse(text, cuesBefore: 0) }
        }
        for note in document.notes { parse(note.text, cuesBefore: note.cuesBefore) }
    }

    private mutating func parse(_ text: String, cuesBefore: Int) {
        for line in text.split(whereSeparator: \.isNewline) {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
            guard let keyword = words.first else { continue }
            let directive: Directive? =
                switch keyword {
                case "medialint-disable": .disable
                case "medialint-enable": .enable
                case "medialint-disable-next": .disableNext
                default: nil
                }
            if let directive { entries.append((cuesBefore, directive, Set(words.dropFirst()))) }
        }
    }

    var isEmpty: Bool { entries.isEmpty }

    /// Whether `rule` is off for cue `index` (−1: the file as a whole).
    func disables(_ rule: String, cue index: Int) -> Bool {
        guard !entries.isEmpty else { return false }
        var off = false
        for entry in entries where entry.rules.isEmpty || entry.rules.contains(rule) {
            switch entry.directive {
            case .disable where entry.cue <= max(0, index): off = true
            case .enable where entry.cue <= max(0, index): off = false
            case .disableNext where entry.cue == index: return true
            default: break
            }
        }
        return off
    }
}
