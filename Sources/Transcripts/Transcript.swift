import Basics
import Captions
import Foundation

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
        let cues = document.cues
        let format = document.format
        let language = language ?? Self.language(of: document) ?? "en"
        // Long files are built in slices on all cores. Each slice starts from the state the cues before it
        // leave: roll-up history and the last words' end from the 8 cues before it, the last speaker from the
        // nearest cue before it that names one. Its text up to its first paragraph break continues the
        // paragraph open at the end of the slice before.
        let slices = ParallelSlices.count(for: cues.count, minimum: ParallelSlices.minimumCues)
        if slices == 1 {
            var state = State()
            return Transcript(title: title, language: language, paragraphs: run(cues, 0..<cues.count, format, &state, continuing: false).paragraphs)
        }
        let bounds = ParallelSlices.bounds(of: 0..<cues.count, slices: slices)
        var entering = [State()]
        for slice in bounds.dropFirst() {
            var state = State()
            _ = run(cues, max(0, slice.lowerBound - 8)..<slice.lowerBound, format, &state, continuing: false)
            if state.lastSpeaker == nil { state.lastSpeaker = lastSpeaker(before: max(0, slice.lowerBound - 8), in: cues, format) }
            entering.append(state)
        }
        let pieces = ParallelSlices.map(slices) { slice in
            var state = entering[slice]
            return run(cues, bounds[slice], format, &state, continuing: slice > 0)
        }
        var paragraphs: [Transcript.Paragraph] = []
        for piece in pieces {
            if let lead = piece.lead, !lead.text.isEmpty {
                if paragraphs.isEmpty {
                    paragraphs.append(Transcript.Paragraph(speaker: nil, start: lead.start, end: lead.end, text: lead.text))
                } else {
                    paragraphs[paragraphs.count - 1].text.append(" ")
                    paragraphs[paragraphs.count - 1].text.append(lead.text)
                    paragraphs[paragraphs.count - 1].end = max(paragraphs[paragraphs.count - 1].end, lead.end)
                }
            } else if let lead = piece.lead, !paragraphs.isEmpty {
                paragraphs[paragraphs.count - 1].end = max(paragraphs[paragraphs.count - 1].end, lead.end)
            }
            paragraphs += piece.paragraphs
        }
        return Transcript(title: title, language: language, paragraphs: paragraphs)
    }

    /// Where a run over some cues starts from.
    struct State {
        var previousLines: [Substring] = []
        var previousEnd = -Double.infinity
        var lastSpeaker: String?
    }

    /// What a run over a slice of cues makes: the text that continues the paragraph open before it, and its
    /// own paragraphs.
    struct Piece {
        var lead: (text: String, start: Double, end: Double)?
        var paragraphs: [Transcript.Paragraph] = []
    }

    /// The speaker of the last cue before `index` whose lines name one (nil after a dialogue dash).
    func lastSpeaker(before index: Int, in cues: [Cue], _ format: CaptionFormat) -> String? {
        var i = index - 1
        while i >= 0 {
            // Only a colon, a dash or a voice tag can name (or unname) a speaker.
            var text = cues[i].text
            let candidate = text.withUTF8 { bytes in
                bytes.indices.contains { i in
                    bytes[i] == UInt8(ascii: ":") || bytes[i] == UInt8(ascii: "-")
                        || (bytes[i] == UInt8(ascii: "<") && i + 1 < bytes.count && bytes[i + 1] | 0x20 == UInt8(ascii: "v"))
                        || bytes[i] >= 0x80
                }
            }
            if candidate {
                let lines = Self.lines(of: cues[i], format: format)
                for line in lines.lines.reversed() {
                    let (speaker, _, dash) = Self.speaker(of: line)
                    if let speaker { return speaker }
                    if dash { return nil }
                }
                if let voice = lines.voice { return voice }
            }
            i -= 1
        }
        return nil
    }

    /// Builds paragraphs from `cues[range]`, starting from and updating `state`. With `continuing`, a paragraph
    /// is open when the run starts (its beginning is in the cues before): what is added to it is the piece's lead.
    func run(_ cues: [Cue], _ range: Range<Int>, _ format: CaptionFormat, _ state: inout State, continuing: Bool) -> Piece {
        var piece = Piece()
        var paragraphs: [Transcript.Paragraph] = []
        // The paragraph being written (kept in locals: appending to its text must not copy it).
        var text = "", speakerOfParagraph: String?, paragraphStart = range.isEmpty ? 0 : cues[range.lowerBound].start.seconds
        var paragraphEnd = -Double.infinity, open = continuing, isLead = continuing
        var lastSpeaker = state.lastSpeaker
        var previousLines = state.previousLines
        previousLines.reserveCapacity(8)
        var previousEnd = state.previousEnd

        func flush() {
            if isLead {
                piece.lead = (text, paragraphStart, paragraphEnd)
                isLead = false
            } else if open, !text.isEmpty {
                paragraphs.append(Transcript.Paragraph(speaker: speakerOfParagraph, start: paragraphStart, end: paragraphEnd, text: text))
            }
            open = false
            text = ""
        }

        for cue in cues[range] {
            let lines = Self.lines(of: cue, format: format)
            // Roll-up: drop the lines that repeat the end of what came before; a line that only extends the
            // last one (word by word) contributes its new words.
            var overlap = min(lines.count, previousLines.count)
            while overlap > 0, !(0..<overlap).allSatisfy({ previousLines[previousLines.count - overlap + $0] == lines.lines[$0] }) {
                overlap -= 1
            }
            var extended: Substring?
            if overlap < lines.count, let last = previousLines.last, !last.isEmpty {
                let first = lines.lines[overlap]
                if first.utf8.count > last.utf8.count, first.utf8.starts(with: last.utf8),
                    first.utf8[first.utf8.index(first.startIndex, offsetBy: last.utf8.count)] == UInt8(ascii: " ")
                {
                    extended = first[first.utf8.index(first.startIndex, offsetBy: last.utf8.count)...].drop { $0 == " " }
                }
            }
            if !lines.isEmpty {
                if extended != nil { previousLines.removeLast() }
                for k in overlap..<lines.count { previousLines.append(lines.lines[k]) }
                if previousLines.count > 4 { previousLines.removeFirst(previousLines.count - 4) }
            }
            let start = cue.start.seconds, end = cue.end.seconds
            // The pause since the last words kept (sound descriptions left out do not bridge it).
            let longPause = start - previousEnd >= paragraphPause
            // A cue that only repeats what was said still shows it: the paragraph lasts until it ends.
            if overlap == lines.count, !lines.isEmpty, open {
                paragraphEnd = max(paragraphEnd, end)
                previousEnd = max(previousEnd, end)
            }

            for k in overlap..<lines.count {
                let line = k == overlap ? (extended ?? lines.lines[k]) : lines.lines[k]
                var (speaker, words, dash) = lines.needs(k, 1) ? Self.speaker(of: line) : (nil, line, false)
                if !includeSounds { words = Substring(Self.removingSounds(String(words))) }
                if (!includeSounds || lines.needs(k, 2) || line.first == " "), Self.needsCollapsing(words) {
                    words = Substring(Self.collapsingSpaces(String(words)))
                }
                guard !words.isEmpty else { continue }
                if speaker == nil, let voice = lines.voice { speaker = voice }
                let turn = (speaker != nil && speaker != lastSpeaker) || dash
                if !open || turn || (longPause && k == overlap) {
                    flush()
                    // A paragraph names its speaker only when the captions do (labels mark changes, not pauses).
                    open = true
                    speakerOfParagraph = speaker
                    paragraphStart = start
                    paragraphEnd = end
                }
                if let speaker { lastSpeaker = speaker } else if dash { lastSpeaker = nil }
                if !text.isEmpty { text.append(" ") }
                text.append(contentsOf: words)
                paragraphEnd = max(paragraphEnd, end)
                previousEnd = max(previousEnd, end)
            }
        }
        flush()
        piece.paragraphs = paragraphs
        state = State(previousLines: previousLines, previousEnd: previousEnd, lastSpeaker: lastSpeaker)
        return piece
    }

    // MARK: - Pieces

    /// A cue's lines as shown, with the cue's first voice.
    struct CueLines: Sequence {
        var lines: [Substring]
        var voice: String?
        /// Per line, what it may need: a speaker label or dialogue dash looked for (1), spaces collapsed (2).
        /// Lines read through the parser get every check.
        var needs: [UInt8]? = nil
        func needs(_ line: Int, _ check: UInt8) -> Bool { needs.map { $0[line] & check != 0 } ?? true }
        var isEmpty: Bool { lines.isEmpty }
        var count: Int { lines.count }
        func makeIterator() -> IndexingIterator<[Substring]> { lines.makeIterator() }
    }

    static func lines(of cue: Cue, format: CaptionFormat) -> CueLines {
        let text = cue.text
        if let (lines, needs) = plainASCIILines(text) { return CueLines(lines: lines, voice: nil, needs: needs) }
        var voice: String?
        let plain: String
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "{") }) {
            plain = text
        } else {
            var collector = PlainTextCollector()
            let visit = { (event: CueMarkupEvent) in
                if voice == nil, case .start(let element) = event, element.kind == .voice, !element.annotation.isEmpty {
                    voice = element.annotation
                }
                collector.add(event)
            }
            if format.markup == .webvtt { CueTextParser.walk(text, visit) } else { SRTMarkup.walk(text, visit) }
            plain = collector.text
        }
        let lines = plain.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters() }.filter { !$0.isEmpty }
        return CueLines(lines: lines, voice: voice)
    }

    /// The trimmed, non-empty lines of ASCII text whose only markup is `<i> <b> <u>` (removed); nil for any
    /// other text (it goes through the cue text parser).
    static func plainASCIILines(_ text: String) -> (lines: [Substring], needs: [UInt8])? {
        var text = text
        // Scan the bytes once: anything beyond plain ASCII and simple style tags takes the full path.
        let scan: (plain: Bool, tags: Bool)? = text.withUTF8 { bytes in
            var tags = false
            var i = 0
            while i < bytes.count {
                let byte = bytes[i]
                if byte >= 0x80 || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "{") { return nil }
                if byte == UInt8(ascii: "<") {
                    var j = i + 1
                    if j < bytes.count, bytes[j] == UInt8(ascii: "/") { j += 1 }
                    guard j + 1 < bytes.count, bytes[j + 1] == UInt8(ascii: ">"),
                        [UInt8(ascii: "i"), UInt8(ascii: "b"), UInt8(ascii: "u")].contains(bytes[j] | 0x20)
                    else { return nil }
                    tags = true
                    i = j + 2
                    continue
                }
                i += 1
            }
            return (true, tags)
        }
        guard let scan, scan.plain else { return nil }
        if scan.tags {
            text = text.withUTF8 { bytes in
                var kept: [UInt8] = []
                kept.reserveCapacity(bytes.count)
                var i = 0
                while i < bytes.count {
                    if bytes[i] == UInt8(ascii: "<") {
                        i += bytes[i + 1] == UInt8(ascii: "/") ? 4 : 3
                        continue
                    }
                    kept.append(bytes[i])
                    i += 1
                }
                return String(decoding: kept, as: UTF8.self)
            }
        }
        // The lines, trimmed, in one pass (ASCII: byte offsets are character offsets); per line, what it needs.
        let source = text
        let utf8 = source.utf8
        return utf8.withContiguousStorageIfAvailable { bytes -> (lines: [Substring], needs: [UInt8]) in
            var lines: [Substring] = []
            var needs: [UInt8] = []
            var lineStart = 0
            func close(_ end: Int) {
                var from = lineStart, to = end
                while from < to, bytes[from] == 0x20 || bytes[from] == 0x09 || bytes[from] == 0x0D { from += 1 }
                while to > from, bytes[to - 1] == 0x20 || bytes[to - 1] == 0x09 || bytes[to - 1] == 0x0D { to -= 1 }
                guard from < to else { return }
                lines.append(source[utf8.index(utf8.startIndex, offsetBy: from)..<utf8.index(utf8.startIndex, offsetBy: to)])
                var need: UInt8 = bytes[from] == UInt8(ascii: "-") ? 1 : 0
                var previousSpace = false
                for i in from..<to {
                    let byte = bytes[i]
                    if byte == UInt8(ascii: ":"), i - from < 40 { need |= 1 }
                    let space = byte == 0x20 || byte == 0x09
                    if space, previousSpace || byte == 0x09 { need |= 2 }
                    previousSpace = space
                }
                needs.append(need)
            }
            for i in 0..<bytes.count where bytes[i] == 0x0A {
                close(i)
                lineStart = i + 1
            }
            close(bytes.count)
            return (lines, needs)
        }
    }

    /// A line's speaker label (`NAME:` or `Name Surname:` at its start), its words, and whether it starts with
    /// a dialogue dash (a new speaker, unnamed).
    static func speaker(of line: Substring) -> (String?, Substring, Bool) {
        var rest = line
        var dash = false
        if let first = rest.first, first == "-" || first == "–" || first == "—", rest.dropFirst().first == " " {
            dash = true
            rest = rest.dropFirst().drop { $0 == " " }
        }
        // A label is short: look for its colon in the first few bytes only.
        let colonOffset: Int? =
            rest.utf8.withContiguousStorageIfAvailable { bytes in
                bytes.prefix(32).firstIndex(of: UInt8(ascii: ":"))
            } ?? rest.utf8.prefix(32).firstIndex(of: UInt8(ascii: ":")).map { rest.utf8.distance(from: rest.startIndex, to: $0) }
        if let colonOffset {
            let colon = rest.utf8.index(rest.startIndex, offsetBy: colonOffset)
            let label = rest[..<colon]
            let words = label.split(separator: " ")
            let isName =
                !label.isEmpty && words.count <= 3 && label.count <= 30
                && words.allSatisfy { $0.first?.isUppercase == true || $0.first?.isNumber == true }
                && label.allSatisfy { $0.isLetter || $0 == " " || $0 == "." || $0 == "'" || $0 == "-" || $0.isNumber }
                && rest[rest.index(after: colon)...].first == " "
            if isName {
                let name = label.allSatisfy { !$0.isLowercase } ? label.capitalized : String(label)
                return (name, rest[rest.index(after: colon)...].drop { $0 == " " }, dash)
            }
        }
        return (nil, rest, dash)
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

    /// Whether the text has runs of spaces, or spaces at its ends.
    static func needsCollapsing(_ text: Substring) -> Bool {
        func check<C: Collection<UInt8>>(_ bytes: C) -> Bool {
            var previousSpace = true
            for byte in bytes {
                let space = byte == 0x20
                if space, previousSpace { return true }
                previousSpace = space
            }
            return previousSpace && !bytes.isEmpty
        }
        return text.utf8.withContiguousStorageIfAvailable { check($0) } ?? check(text.utf8)
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
