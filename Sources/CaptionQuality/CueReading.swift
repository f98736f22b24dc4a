import Captions

/// What a viewer reads in one cue: its lines without markup, their lengths, the characters and words.
///
/// Most cues are ASCII with at most a few well-nested tags: they are measured in one pass over their bytes.
/// Anything else (other scripts, character references, unusual markup) goes through the cue text parser.
struct CueReading {
    /// Shown lines (trailing empty lines are not shown).
    let lineCount: Int
    /// Characters on each line (user-perceived characters; trailing spaces not counted).
    let lineLengths: [Int]
    /// Words: runs of letters or digits (an apostrophe or hyphen inside a word keeps it one word).
    let words: Int
    /// No visible character at all.
    let isEmpty: Bool
    /// A problem with the markup, if any.
    let markupProblem: String?

    init(_ cue: Cue, format: CaptionFormat) {
        var text = cue.text
        if let fast = text.withUTF8({ Self.measureASCII($0, format: format) }) {
            self = fast
            return
        }
        var problem: String?
        let plain: String
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "{") }) {
            plain = text
        } else if format == .webvtt {
            var problems: [CueTextProblem] = []
            plain = CueNode.plainText(of: CueTextParser.parse(text, problems: &problems))
            // WebVTT lets a voice span run to the end of the cue without its end tag.
            problems.removeAll { $0.message == "<v> is not closed" }
            problem = problems.first.map { $0.message + (problems.count > 1 ? " (and \(problems.count - 1) more)" : "") }
        } else {
            plain = CueNode.plainText(of: SRTMarkup.nodes(of: text))
            problem = Self.srtMarkupProblem(text)
        }
        var lines = plain.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingTrailingSpaces() }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        lineCount = lines.count
        lineLengths = lines.map { $0.count }
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

    private init(lineCount: Int, lineLengths: [Int], words: Int, isEmpty: Bool, markupProblem: String?) {
        self.lineCount = lineCount
        self.lineLengths = lineLengths
        self.words = words
        self.isEmpty = isEmpty
        self.markupProblem = markupProblem
    }

    /// Characters read: every character on every line, line breaks not counted.
    var readingCharacters: Int { lineLengths.reduce(0, +) }

    /// One pass over ASCII text whose tags are ones both formats know (`i b u` for both, `c v lang` for
    /// WebVTT, `font s` for SRT), opened and closed in order; nil for anything else.
    static func measureASCII(_ bytes: UnsafeBufferPointer<UInt8>, format: CaptionFormat) -> CueReading? {
        var lengths: [Int] = []
        var length = 0, trailingSpaces = 0, words = 0, lastShown = -1
        var inWord = false, visible = false
        var open: [UInt8] = []  // first letter of each open tag
        var i = 0
        let count = bytes.count
        while i < count {
            let byte = bytes[i]
            if byte >= 0x80 || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "{") || byte == 0x0D { return nil }
            if byte == UInt8(ascii: "<") {
                // A tag: its name up to a space, '.', '>' (WebVTT classes and annotations follow).
                var j = i + 1
                let closing = j < count && bytes[j] == UInt8(ascii: "/")
                if closing { j += 1 }
                let nameStart = j
                while j < count, bytes[j] != UInt8(ascii: ">"), bytes[j] != UInt8(ascii: " "), bytes[j] != UInt8(ascii: "."),
                      bytes[j] != UInt8(ascii: "\n") { j += 1 }
                let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<j])
                while j < count, bytes[j] != UInt8(ascii: ">"), bytes[j] != UInt8(ascii: "\n") { j += 1 }
                guard j < count, bytes[j] == UInt8(ascii: ">"), let tag = knownTag(name, format: format) else { return nil }
                if closing {
                    guard open.last == tag else { return nil }
                    open.removeLast()
                } else {
                    open.append(tag)
                }
                i = j + 1
                inWord = false
                continue
            }
            if byte == UInt8(ascii: "\n") {
                lengths.append(length - trailingSpaces)
                if length - trailingSpaces > 0 { lastShown = lengths.count - 1 }
                length = 0
                trailingSpaces = 0
                inWord = false
                i += 1
                continue
            }
            length += 1
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { trailingSpaces += 1 } else { trailingSpaces = 0; visible = true }
            let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            let wordy = letter || digit || (inWord && (byte == UInt8(ascii: "'") || byte == UInt8(ascii: "-")))
            if wordy, !inWord { words += 1 }
            inWord = wordy
            i += 1
        }
        lengths.append(length - trailingSpaces)
        if length - trailingSpaces > 0 { lastShown = lengths.count - 1 }
        // Lines after the last one with text are not shown.
        let shown = lastShown + 1
        if shown < lengths.count { lengths.removeLast(lengths.count - shown) }
        // WebVTT may leave a voice span open to the end of the cue.
        while format == .webvtt, open.last == UInt8(ascii: "v") { open.removeLast() }
        let problem = open.last.map { "<\(tagName($0))> is not closed" }
        return CueReading(lineCount: shown, lineLengths: lengths, words: words, isEmpty: !visible, markupProblem: problem)
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
        switch format {
        case .webvtt:
            if equals("c") { return UInt8(ascii: "c") }
            if equals("v") { return UInt8(ascii: "v") }
            if equals("lang") { return UInt8(ascii: "l") }
        case .srt:
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

    /// SubRip tags `<i> <b> <u> <font>` opened and closed in order.
    static func srtMarkupProblem(_ text: String) -> String? {
        var open: [String] = []
        var index = text.startIndex
        while let less = text[index...].firstIndex(of: "<") {
            guard let greater = text[less...].firstIndex(of: ">") else { break }
            var tag = text[text.index(after: less)..<greater].lowercased()
            index = text.index(after: greater)
            let closing = tag.hasPrefix("/")
            if closing { tag.removeFirst() }
            let name = String(tag.prefix { $0.isLetter })
            guard ["i", "b", "u", "font", "s"].contains(name) else { return "unknown tag <\(tag)>" }
            if closing {
                guard open.last == name else { return "</\(name)> does not close the open " + (open.last.map { "<\($0)>" } ?? "nothing") }
                open.removeLast()
            } else {
                open.append(name)
            }
        }
        return open.last.map { "<\($0)> is not closed" }
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
            let directive: Directive? = switch keyword {
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
