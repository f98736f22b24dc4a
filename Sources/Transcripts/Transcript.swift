import Captions

/// A transcript: what is said (and, unless left out, heard) in paragraphs, with speakers and times.
public struct Transcript: Sendable, Equatable {
    public var title: String
    /// BCP 47 language tag (for HTML's `lang`).
    public var language: String
    public var paragraphs: [Paragraph]

    public init(title: String, language: String, paragraphs: [Paragraph]) {
        self.title = title
        self.language = language
        self.paragraphs = paragraphs
    }

    /// A speaker's turn, or a run of speech without a long pause.
    public struct Paragraph: Sendable, Equatable {
        /// Who speaks, when the captions say (`<v Name>`, `NAME:`); nil when they do not.
        public var speaker: String?
        /// Seconds on the media timeline: the first and last cue of the paragraph.
        public var start: Double
        public var end: Double
        public var text: String

        public init(speaker: String?, start: Double, end: Double, text: String) {
            self.speaker = speaker
            self.start = start
            self.end = end
            self.text = text
        }
    }
}

/// Makes a transcript from captions: markup stripped and character references decoded, roll-up repeats
/// (auto captions that repeat the previous line in each cue) dropped, lines joined into sentences and
/// paragraphs (a new one on a speaker change or a long pause), speakers kept, sound descriptions kept unless
/// asked not to.
public struct TranscriptBuilder: Sendable {
    /// Keep `[music]`, `(laughs)`, `♪ …` descriptions.
    public var includeSounds = true
    /// A pause at least this long (seconds) between cues starts a new paragraph.
    public var paragraphPause = 2.0

    public init(includeSounds: Bool = true, paragraphPause: Double = 2.0) {
        self.includeSounds = includeSounds
        self.paragraphPause = paragraphPause
    }

    public func build(_ document: CaptionDocument, title: String, language: String? = nil) -> Transcript {
        var paragraphs: [Transcript.Paragraph] = []
        var current: Transcript.Paragraph?
        var lastSpeaker: String?
        var previousLines: [Substring] = []
        var previousEnd = -Double.infinity

        func flush() {
            if let paragraph = current, !paragraph.text.isEmpty { paragraphs.append(paragraph) }
            current = nil
        }

        for cue in document.cues {
            let lines = Self.lines(of: cue, format: document.format)
            // Roll-up: drop the lines that repeat the end of what came before; a line that only extends the
            // last one (word by word) contributes its new words.
            let full = Self.newLines(lines, after: previousLines)
            var fresh = full
            var history = previousLines
            if let first = full.first, let last = history.last, !last.isEmpty,
               first.count > last.count, first.hasPrefix(last), first.dropFirst(last.count).first == " " {
                fresh[0] = first.dropFirst(last.count).drop { $0 == " " }
                history.removeLast()
            }
            if !lines.isEmpty { previousLines = Array((history + full).suffix(4)) }
            let start = cue.start.seconds, end = cue.end.seconds
            // The pause since the last words kept (sound descriptions left out do not bridge it).
            let longPause = start - previousEnd >= paragraphPause
            // A cue that only repeats what was said still shows it: the paragraph lasts until it ends.
            if fresh.isEmpty, !lines.isEmpty, current != nil {
                current!.end = max(current!.end, end)
                previousEnd = max(previousEnd, end)
            }

            for line in fresh {
                var (speaker, words, dash) = Self.speaker(of: line)
                if !includeSounds { words = Self.removingSounds(words) }
                words = Self.collapsingSpaces(words)
                guard !words.isEmpty else { continue }
                if speaker == nil, let voice = lines.voice { speaker = voice }
                let turn = (speaker != nil && speaker != lastSpeaker) || dash
                if current == nil || turn || (longPause && line == fresh.first) {
                    flush()
                    // A paragraph names its speaker only when the captions do (labels mark changes, not pauses).
                    current = Transcript.Paragraph(speaker: speaker, start: start, end: end, text: "")
                }
                if let speaker { lastSpeaker = speaker } else if dash { lastSpeaker = nil }
                current!.text += (current!.text.isEmpty ? "" : " ") + words
                current!.end = max(current!.end, end)
                previousEnd = max(previousEnd, end)
            }
        }
        flush()
        return Transcript(title: title, language: language ?? Self.language(of: document) ?? "en", paragraphs: paragraphs)
    }

    // MARK: - Pieces

    /// A cue's lines as shown, with the cue's first voice.
    struct CueLines: Sequence {
        var lines: [Substring]
        var voice: String?
        var isEmpty: Bool { lines.isEmpty }
        var count: Int { lines.count }
        func makeIterator() -> IndexingIterator<[Substring]> { lines.makeIterator() }
    }

    static func lines(of cue: Cue, format: CaptionFormat) -> CueLines {
        let text = cue.text
        var voice: String?
        let plain: String
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "{") }) {
            plain = text
        } else {
            let nodes = format == .webvtt ? CueTextParser.parse(text) : SRTMarkup.nodes(of: text)
            voice = firstVoice(nodes)
            plain = CueNode.plainText(of: nodes)
        }
        let lines = plain.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters() }.filter { !$0.isEmpty }
        return CueLines(lines: lines, voice: voice)
    }

    static func firstVoice(_ nodes: [CueNode]) -> String? {
        for case .element(let element) in nodes {
            if element.kind == .voice, !element.annotation.isEmpty { return element.annotation }
            if let voice = firstVoice(element.children) { return voice }
        }
        return nil
    }

    /// The lines of `lines` not already said: the longest run of its first lines that equals the last lines
    /// before it is dropped.
    static func newLines(_ lines: CueLines, after previous: [Substring]) -> [Substring] {
        let current = lines.lines
        var overlap = min(current.count, previous.count)
        while overlap > 0 {
            if Array(previous.suffix(overlap)) == Array(current.prefix(overlap)) { break }
            overlap -= 1
        }
        return Array(current.dropFirst(overlap))
    }

    /// A line's speaker label (`NAME:` or `Name Surname:` at its start), its words, and whether it starts with
    /// a dialogue dash (a new speaker, unnamed).
    static func speaker(of line: Substring) -> (String?, String, Bool) {
        var rest = line
        var dash = false
        if let first = rest.first, first == "-" || first == "–" || first == "—", rest.dropFirst().first == " " {
            dash = true
            rest = rest.dropFirst().drop { $0 == " " }
        }
        if let colon = rest.firstIndex(of: ":") {
            let label = rest[..<colon]
            let words = label.split(separator: " ")
            let isName = !label.isEmpty && words.count <= 3 && label.count <= 30
                && words.allSatisfy { $0.first?.isUppercase == true || $0.first?.isNumber == true }
                && label.allSatisfy { $0.isLetter || $0 == " " || $0 == "." || $0 == "'" || $0 == "-" || $0.isNumber }
                && rest[rest.index(after: colon)...].first == " "
            if isName {
                let name = label.allSatisfy { !$0.isLowercase } ? label.capitalized : String(label)
                return (name, String(rest[rest.index(after: colon)...].drop { $0 == " " }), dash)
            }
        }
        return (nil, String(rest), dash)
    }

    /// The text without `[…]`, `(…)` and `♪` descriptions.
    static func removingSounds(_ text: String) -> String {
        var output = ""
        var depth = 0
        for character in text {
            switch character {
            case "[", "(": depth += 1
            case "]", ")": depth = max(0, depth - 1)
            case "♪", "♫": continue
            default: if depth == 0 { output.append(character) }
            }
        }
        return output
    }

    static func collapsingSpaces(_ text: String) -> String {
        guard text.contains("  ") || text.first == " " || text.last == " " else { return text }
        return text.split(separator: " ").joined(separator: " ")
    }

    /// `Language:` in a WebVTT header.
    static func language(of document: CaptionDocument) -> String? {
        for line in document.header.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters().lowercased() == "language" {
                let value = parts[1].trimmingCharacters()
                if !value.isEmpty { return String(value) }
            }
        }
        return nil
    }
}

extension Substring {
    func trimmingCharacters() -> Substring {
        var start = startIndex, end = endIndex
        while start < end, self[start].isWhitespace { start = index(after: start) }
        while end > start, self[index(before: end)].isWhitespace { end = index(before: end) }
        return self[start..<end]
    }

    var capitalized: String {
        split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined(separator: " ")
    }
}
