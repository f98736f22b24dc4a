import Captions

/// What a viewer reads in one cue: its lines without markup, their lengths, the characters and words.
struct CueReading {
    /// The lines as shown (markup removed, character references decoded).
    let lines: [Substring]
    /// Characters on each line (user-perceived characters).
    let lineLengths: [Int]
    /// A problem with the markup, if any.
    let markupProblem: String?

    init(_ cue: Cue, format: CaptionFormat) {
        let text = cue.text
        var problem: String?
        let plain: String
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "{") }) {
            plain = text  // the common case: nothing to parse
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
        let lines = plain.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingTrailingSpaces() }
        // Trailing empty lines are not shown.
        var shown = lines
        while let last = shown.last, last.isEmpty { shown.removeLast() }
        self.lines = shown
        lineLengths = shown.map { $0.count }
        markupProblem = problem
    }

    var isEmpty: Bool { lines.allSatisfy { $0.allSatisfy(\.isWhitespace) } }

    /// Characters read: every character on every line, line breaks not counted.
    var readingCharacters: Int { lineLengths.reduce(0, +) }

    /// Words: runs of letters or digits (an apostrophe or hyphen inside a word keeps it one word).
    var words: Int {
        var count = 0
        for line in lines {
            var inWord = false
            for character in line {
                let wordy = character.isLetter || character.isNumber || (inWord && (character == "'" || character == "’" || character == "-"))
                if wordy, !inWord { count += 1 }
                inWord = wordy
            }
        }
        return count
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
