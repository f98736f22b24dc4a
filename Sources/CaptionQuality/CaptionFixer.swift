import Basics
import Captions
import Findings

/// Fixes the mechanical problems `CaptionLinter` finds, as a subtitler would, without touching a word: overlaps
/// (the earlier cue ends before the later one starts, with the profile's gap when there is room), gaps shorter than
/// the profile's minimum (opened to it, or closed when opening would leave the cue too short), cues too short to read
/// (lengthened within the gap before the next cue), and lines longer than the profile allows or more lines than it
/// allows where the words fit in fewer (the cue's words broken again into the fewest lines, as even as they go, the
/// bottom line the longer; a dialogue line, starting `-`, stays a line of its own), and, in SRT and WebVTT, a cue whose
/// words need more lines split in two. Times made are on the file's time grid. Every change is listed.
public struct CaptionFixer: Sendable {
    public var profile: QualityProfile
    public var framesPerSecond: Double

    public init(profile: QualityProfile, framesPerSecond: Double = 24) {
        self.profile = profile
        self.framesPerSecond = framesPerSecond
    }

    /// One change: the cue (1-based), the rule it answers, and what changed; or, not `applied`, a problem left as it
    /// is and why (an overlap whose fix would make a cue too short or too fast to read).
    public struct Change: Sendable, Equatable {
        public var cue: Int
        public var rule: String
        public var description: String
        public var applied = true
    }

    /// The fixed document and the changes made, in cue order.
    public func fix(_ document: CaptionDocument) -> (document: CaptionDocument, changes: [Change]) {
        var fixed = document
        var changes: [Change] = []
        let suppressions = Suppressions(document)
        let gap = CaptionTime(milliseconds: Int64(((profile.minGapFrames ?? 0) / framesPerSecond * 1000).rounded(.up)))
        let minimum = profile.minDuration.map { CaptionTime(milliseconds: Int64(($0 * 1000).rounded(.up))) }
        // Times made are on the file's grid (ASS's centisecond, a frame): an end that leaves a gap rounds down, one
        // that lengthens a cue up, so that what is fixed stays fixed once written.
        let grid = TimeGrid(step: document.timeStep)
        // Cues in time order, place by place (ScreenNeighbours: a sign at the top is not dialogue's neighbour; the
        // file's order kept for cues that start together).
        let groups = ScreenNeighbours.groups(of: fixed.cues) ?? []
        let group = { (index: Int) in groups.isEmpty ? 0 : groups[index] }
        let order = fixed.cues.indices.sorted { (group($0), fixed.cues[$0].start, $0) < (group($1), fixed.cues[$1].start, $1) }
        for (position, index) in order.enumerated() {
            let cue = fixed.cues[index]
            guard cue.end > cue.start else { continue }  // never shown: for a person to decide
            let following = position + 1 < order.count && group(order[position + 1]) == group(index) ? order[position + 1] : nil
            let next = following.map { fixed.cues[$0].start }
            var end = cue.end
            var rule = ""
            var why = ""
            if let next, let following, next > cue.start {
                if end > next {
                    // Overlap: end before the next cue, with the gap when the cue can spare it — never too short or
                    // too fast to read: such an overlap is left for a person, and said.
                    let characters = CueReading(cue, format: document.format, maxLineLength: nil).readingCharacters
                    func readable(_ end: CaptionTime) -> Bool {
                        end > cue.start && (minimum.map { end - cue.start >= $0 } ?? true)
                            && (profile.maxCharactersPerSecond.map { Double(characters) / (end - cue.start).seconds <= $0 + 0.005 } ?? true)
                    }
                    let beforeGap = grid.down(next - gap)
                    guard readable(beforeGap) || readable(next) else {
                        if suppressions.disables(Rule.lintOverlap.id, cue: index) { continue }
                        let shown = (next - cue.start).seconds
                        let speed = shown > 0 ? Double(characters) / shown : .infinity
                        changes.append(
                            Change(
                                cue: index + 1, rule: Rule.lintOverlap.id,
                                description:
                                    "it overlaps cue \(following + 1), and ending it before that would leave it \(CaptionLinter.seconds(max(0, shown))) on screen (\(CaptionLinter.number(speed)) characters a second): too short or too fast to read; change the text or the times",
                                applied: false))
                        continue
                    }
                    end = readable(beforeGap) ? beforeGap : next
                    rule = Rule.lintOverlap.id
                    why = "it overlapped cue \(following + 1)"
                } else if gap > .zero, next > end, next - end < gap {
                    // A gap too short to see: open it to the minimum, or close it when that would make the cue too short.
                    let opened = grid.down(next - gap)
                    end = opened > cue.start && (minimum.map { opened - cue.start >= $0 } ?? true) ? opened : next
                    rule = Rule.lintMinGap.id
                    why = end == next ? "closing a gap too short to see" : "leaving the profile's gap before cue \(following + 1)"
                }
            }
            if let minimum, end - cue.start < minimum {
                // Too short to read: longer, within the gap before the next cue.
                let room = next.map { $0 > cue.start ? ($0 - cue.start > gap ? grid.down($0 - gap) : $0) : end } ?? grid.up(cue.start + minimum)
                let longer = min(grid.up(cue.start + minimum), max(room, end))
                if longer > end {
                    end = longer
                    rule = Rule.lintMinDuration.id
                    why = longer - cue.start >= minimum ? "too short to read" : "too short to read (as long as the next cue allows)"
                }
            }
            // A rule turned off for the cue (`NOTE medialint-disable-next …`) is not fixed either.
            if end != cue.end, !suppressions.disables(rule, cue: index) {
                fixed.cues[index].end = end
                changes.append(Change(cue: index + 1, rule: rule, description: "end \(cue.end) → \(end): \(why)"))
            }
        }
        var splits: [(index: Int, parts: [Cue])] = []
        if let limit = profile.maxCharactersPerLine {
            for index in fixed.cues.indices {
                let text = fixed.cues[index].text
                let lines = CueLines(text)
                let tooMany = profile.maxLines.map { lines.lines.filter { !$0.words.isEmpty }.count > $0 } ?? false
                let long = lines.lines.contains { $0.visible > limit }
                guard long || tooMany else { continue }
                let rule = long ? Rule.lintLineLength.id : Rule.lintMaxLines.id
                guard !suppressions.disables(rule, cue: index) else { continue }
                let broken = lines.rebroken(limit: limit)
                let count = broken.split(separator: "\n").count
                // Never more lines than the profile allows: a line-length problem is not traded for a max-lines one.
                if let maximum = profile.maxLines, count > maximum, count > lines.lines.filter({ !$0.words.isEmpty }).count || long {
                    // Split in two where a subtitler would, when the file can take a new cue and both halves can be read.
                    switch split(fixed.cues[index], lines: lines, limit: limit, maxLines: maximum, grid: grid, gap: gap, minimum: minimum) {
                    case .success(let parts) where Self.splits(document.format):
                        splits.append((index, parts))
                        changes.append(
                            Change(
                                cue: index + 1, rule: rule,
                                description:
                                    "split in two (its words need \(count) lines of at most \(limit) characters): \(parts[0].start)–\(parts[0].end) and \(parts[1].start)–\(parts[1].end)"
                            ))
                        continue
                    case .failure(let why) where Self.splits(document.format):
                        changes.append(
                            Change(
                                cue: index + 1, rule: rule,
                                description:
                                    "its words need \(count) lines of at most \(limit) characters (at most \(maximum)), and \(why): shorten it",
                                applied: false))
                        continue
                    default: break
                    }
                    changes.append(
                        Change(
                            cue: index + 1, rule: rule,
                            description:
                                "its words need \(count) lines of at most \(limit) characters (at most \(maximum)): split the cue in two, or shorten it (a fix splits cues in SRT and WebVTT files, not in \(document.format.displayName))",
                            applied: false))
                    continue
                }
                // Too many lines is fixed only where the words fit in fewer (dialogue keeps a line a speaker).
                guard broken != text, !tooMany || count < lines.lines.count else { continue }
                fixed.cues[index].text = broken
                changes.append(
                    Change(
                        cue: index + 1, rule: rule,
                        description: "lines broken again to at most \(limit) characters (\(count) line\(count == 1 ? "" : "s"))"))
            }
        }
        // A split cue's second half follows it, read from the same line (so a patch knows where it goes).
        for (index, parts) in splits.reversed() {
            fixed.cues.replaceSubrange(index...index, with: parts)
        }
        changes.sort { ($0.cue, $0.rule) < ($1.cue, $1.rule) }
        return (fixed, changes)
    }

    /// Whether files of `format` take a new cue in a fix (MediaLint patches their blocks in).
    static func splits(_ format: CaptionFormat) -> Bool { format == .srt || format == .webvtt }

    /// `cue` as two cues of at most `maxLines` lines each, split between the words where a subtitler would (after a
    /// sentence, then a clause; between speakers; as even as it goes), the time shared by characters, the profile's
    /// gap between them, on the file's time grid; or why it cannot be.
    func split(
        _ cue: Cue, lines: CueLines, limit: Int, maxLines: Int, grid: TimeGrid, gap: CaptionTime, minimum: CaptionTime?
    ) -> Result<[Cue], SplitRefusal> {
        guard !cue.text.contains("<"), !cue.text.contains("{") else { return .failure(SplitRefusal("its markup would have to be split too")) }
        let words = lines.lines.flatMap(\.words)
        guard words.count > 1 else { return .failure(SplitRefusal("it is one word")) }
        let text = { (slice: ArraySlice<CueLines.Word>) in slice.map { String($0.text) }.joined(separator: " ") }
        let characters = { (slice: ArraySlice<CueLines.Word>) in slice.reduce(0) { $0 + $1.visible } }
        let total = characters(words[...])
        var best: (at: Int, cost: Int, top: String, bottom: String)?
        for at in 1..<words.count {
            let top = CueLines(text(words[..<at])).rebroken(limit: limit), bottom = CueLines(text(words[at...])).rebroken(limit: limit)
            guard top.split(separator: "\n").count <= maxLines, bottom.split(separator: "\n").count <= maxLines else { continue }
            // A sentence end is worth a lot of evenness; a dialogue dash starts a speaker's half.
            let dialogue = CueLines.plain(words[at]).hasPrefix("-") ? -20 : 0
            let cost = CueLines.breakCost(after: words[at - 1], before: words[at]) * 4 + dialogue + abs(total - 2 * characters(words[..<at])) / 2
            if best.map({ cost < $0.cost }) ?? true { best = (at, cost, top, bottom) }
        }
        guard let best else { return .failure(SplitRefusal("no split gives two cues of \(maxLines) lines")) }
        let share = Double(characters(words[..<best.at])) / Double(max(1, total))
        let middle = grid.up(cue.start + CaptionTime(milliseconds: Int64((Double((cue.end - cue.start).milliseconds) * share).rounded())))
        let firstEnd = middle - cue.start > gap ? grid.down(middle - gap) : middle
        if let minimum, firstEnd - cue.start < minimum || cue.end - middle < minimum {
            return .failure(SplitRefusal("a half would be on screen less than \(CaptionLinter.seconds(minimum.seconds))"))
        }
        var first = cue, second = cue
        first.text = best.top
        first.end = firstEnd
        second.text = best.bottom
        second.start = middle
        second.identifier = ""
        return .success([first, second])
    }

    /// Why a cue cannot be split.
    public struct SplitRefusal: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}

/// The times a file can hold: every millisecond, or multiples of a coarser step (the nearest millisecond of each).
struct TimeGrid {
    /// Milliseconds between two times; nil: every millisecond.
    let step: Double?

    init(step seconds: Double?) { step = seconds.map { $0 * 1000 }.flatMap { $0 > 1 ? $0 : nil } }

    /// The latest time on the grid at or before `time`.
    func down(_ time: CaptionTime) -> CaptionTime { snapped(time, .down) }
    /// The earliest time on the grid at or after `time`.
    func up(_ time: CaptionTime) -> CaptionTime { snapped(time, .up) }

    private func snapped(_ time: CaptionTime, _ rule: FloatingPointRoundingRule) -> CaptionTime {
        guard let step else { return time }
        // Tolerant of the millisecond the grid's own times were rounded to.
        let count = (Double(time.milliseconds) / step + (rule == .down ? 0.5 : -0.5) / step).rounded(rule)
        return CaptionTime(milliseconds: Int64((count * step).rounded()))
    }
}

extension CaptionTime {
    static func - (a: CaptionTime, b: CaptionTime) -> CaptionTime { CaptionTime(milliseconds: a.milliseconds - b.milliseconds) }
    static func + (a: CaptionTime, b: CaptionTime) -> CaptionTime { CaptionTime(milliseconds: a.milliseconds + b.milliseconds) }
}

/// A cue's text as lines of words, each word with its markup (tags `<…>`, `{…}` and references `&…;` count as
/// what they show: nothing, and one character).
struct CueLines {
    struct Word {
        var text: Substring
        var visible: Int
    }

    struct Line {
        var words: [Word]
        var visible: Int { words.reduce(0) { $0 + $1.visible } + max(0, words.count - 1) }
    }

    var lines: [Line] = []

    init(_ text: String) {
        var line = Line(words: [])
        var wordStart: String.Index?
        var visible = 0
        var inTag: Character?
        var index = text.startIndex
        func endWord(at end: String.Index) {
            if let start = wordStart { line.words.append(Word(text: text[start..<end], visible: visible)) }
            wordStart = nil
            visible = 0
        }
        while index < text.endIndex {
            let character = text[index]
            if let close = inTag {
                if character == close { inTag = nil }
            } else if character == "<" || character == "{" {
                if wordStart == nil { wordStart = index }
                inTag = character == "<" ? ">" : "}"
            } else if character == " " || character == "\t" {
                endWord(at: index)
            } else if character == "\n" || character == "\r\n" {
                endWord(at: index)
                lines.append(line)
                line = Line(words: [])
            } else {
                if wordStart == nil { wordStart = index }
                if character == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";") {
                    visible += 1
                    index = semicolon
                } else {
                    visible += 1
                }
            }
            index = text.index(after: index)
        }
        endWord(at: text.endIndex)
        lines.append(line)
    }

    /// The words broken into lines of at most `limit` characters: each speaker's dialogue (a line starting `-`, or a
    /// `-` after the end of a sentence: `- Coming? - Yes.`) on its own, the others together; the fewest lines, broken
    /// where a subtitler would (`wrap`). A word longer than the limit stands on its own line.
    func rebroken(limit: Int) -> String {
        var groups: [[Word]] = []
        for line in lines where !line.words.isEmpty {
            for (position, word) in line.words.enumerated() {
                let startsDialogue =
                    Self.plain(word).hasPrefix("-")
                    && (position == 0 || Self.plain(line.words[position - 1]).last.map { ".?!…\"”".contains($0) } == true)
                if groups.isEmpty || startsDialogue {
                    groups.append([word])
                } else {
                    groups[groups.count - 1].append(word)
                }
            }
        }
        return groups.flatMap { Self.wrap($0, limit: limit) }.map { $0.map { String($0.text) }.joined(separator: " ") }.joined(separator: "\n")
    }

    /// What a line break between two words costs, in characters of the longer line (Netflix's Timed Text Style Guide:
    /// break after punctuation, before conjunctions and prepositions; never after an article or inside a name): less
    /// after the end of a sentence or a clause, less before "and", "to", "with" …; far more after "the", "a", "my" …,
    /// and more between two capitalised words.
    static func breakCost(after last: Word, before first: Word) -> Int {
        let end = plain(last), start = plain(first)
        var cost = 0
        if let mark = end.last, ".?!…:;".contains(mark) {
            cost -= 10
        } else if end.last == "," {
            cost -= 8
        } else if articles.contains(end.lowercased()) {
            cost += 100
        } else if end.first?.isUppercase == true, start.first?.isUppercase == true {
            cost += 8
        }
        if joiners.contains(start.lowercased()) { cost -= 3 }
        return cost
    }

    /// Words a line does not end on.
    static let articles: Set<String> = [
        "a", "an", "the", "my", "your", "his", "her", "its", "our", "their", "this", "these", "those", "some", "every",
    ]
    /// Words a line may start with: conjunctions and prepositions.
    static let joiners: Set<String> = [
        "and", "but", "or", "nor", "so", "yet", "because", "although", "though", "that", "which", "who", "when", "while",
        "if", "than", "to", "of", "in", "on", "at", "for", "with", "from", "by", "about", "as", "into", "after", "before",
    ]

    /// A word as shown: without its tags.
    static func plain(_ word: Word) -> String {
        var shown = ""
        var inTag: Character?
        for character in word.text {
            if let close = inTag {
                if character == close { inTag = nil }
            } else if character == "<" || character == "{" {
                inTag = character == "<" ? ">" : "}"
            } else {
                shown.append(character)
            }
        }
        return shown
    }

    /// The fewest lines of at most `limit`, the longest line as short as it can be (then the bottom one longer).
    static func wrap(_ words: [Word], limit: Int) -> [[Word]] {
        func width(_ slice: ArraySlice<Word>) -> Int { slice.reduce(0) { $0 + $1.visible } + max(0, slice.count - 1) }
        guard width(words[...]) > limit else { return [words] }
        // Greedy gives the fewest lines; then each break moves to even the lines without adding one.
        var breaks: [Int] = []
        var start = 0
        while start < words.count {
            var end = start + 1
            while end < words.count, width(words[start...end]) <= limit { end += 1 }
            breaks.append(end)
            start = end
        }
        if breaks.count == 2 {
            // Two lines: of the breaks that fit both, the one with the shortest longer line, where a subtitler breaks
            // (`breakCost`); on a tie, the one with the longer line at the bottom.
            var best: (split: Int, cost: Int, bottomHeavy: Bool)?
            for split in 1..<words.count {
                let top = width(words[..<split]), bottom = width(words[split...])
                guard top <= limit, bottom <= limit else { continue }
                let candidate = (split, max(top, bottom) + breakCost(after: words[split - 1], before: words[split]), top <= bottom)
                if best == nil || candidate.1 < best!.cost || (candidate.1 == best!.cost && candidate.2 && !best!.bottomHeavy) {
                    best = candidate
                }
            }
            if let best { breaks = [best.split, words.count] }
        }
        var lines: [[Word]] = []
        var from = 0
        for end in breaks {
            lines.append(Array(words[from..<end]))
            from = end
        }
        return lines
    }
}
