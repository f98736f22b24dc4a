import Foundation

/// SAMI's edits: every `<SYNC Start=…>` moved as the cues' times moved. A time a cue of the language read started or
/// ended at goes where the edit put it; a time between two of them in proportion, one beyond them by the nearest's
/// move: the captions of the other languages (a Korean file's English class) move with them. Text, styles and
/// classes stay as they were. A caption's text broken again is written where its paragraph's text stands, with the
/// file's own `<br>`, when that text is plain (words and line breaks, no other markup or character reference).
/// Refused when the edit moves one time two ways (a cue ended early where the next one starts: SAMI's end is the next
/// SYNC) or changes a text that is not plain.
enum SAMIRetiming {
    static func apply(to bytes: [UInt8], original: CaptionDocument, edited: CaptionDocument) -> Result<[UInt8], CaptionPatch.Refusal> {
        let texts = zip(original.cues, edited.cues).filter { $0.0.text != $0.1.text }
        guard !texts.isEmpty else { return retimed(bytes, original: original, edited: edited) }
        var textEdited = original
        for index in textEdited.cues.indices { textEdited.cues[index].text = edited.cues[index].text }
        switch rewritten(bytes, texts) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let (output, className)):
            // The language read comes back with the edited texts, and the times moved after.
            // (By its class; a file whose style sheet names no classes is read as its first class.)
            guard let reread = (try? SAMIReader(language: className).read(output)) ?? (try? SAMIReader().read(output)),
                reread.cues.map(\.text) == edited.cues.map(\.text)
            else {
                return .failure(CaptionPatch.Refusal("the edited file would not read back as edited"))
            }
            return retimed(output, original: textEdited, edited: edited)
        }
    }

    /// `bytes` with the text of each cue of `edits` (before, after) written in place of its paragraph's; and the class
    /// of those paragraphs.
    private static func rewritten(_ bytes: [UInt8], _ edits: [(Cue, Cue)]) -> Result<([UInt8], String?), CaptionPatch.Refusal> {
        let paragraphs = Dictionary(grouping: Self.paragraphs(bytes), by: \.start)
        let lineBreak = Self.lineBreakTag(bytes)
        var replacements: [(Range<Int>, [UInt8])] = []
        var className: String?
        for (before, after) in edits {
            let lines = before.text.split(separator: "\n").map(String.init)
            let matches = (paragraphs[before.start.milliseconds] ?? []).filter { $0.lines == lines }
            guard matches.count == 1, let paragraph = matches.first, after.text.allSatisfy({ $0 != "<" && $0 != "&" }) else {
                return .failure(
                    CaptionPatch.Refusal("the text of the SAMI caption at \(before.start) is not rewritten: it is not plain text in one paragraph"))
            }
            if className != nil, className != paragraph.className {
                return .failure(CaptionPatch.Refusal("the edited captions are in two classes"))
            }
            className = paragraph.className
            replacements.append((paragraph.text, Array(after.text.split(separator: "\n").joined(separator: lineBreak).utf8)))
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 256)
        var copied = 0
        for (range, text) in replacements.sorted(by: { $0.0.lowerBound < $1.0.lowerBound }) {
            output.append(contentsOf: bytes[copied..<range.lowerBound])
            output.append(contentsOf: text)
            copied = range.upperBound
        }
        output.append(contentsOf: bytes[copied...])
        return .success((output, className))
    }

    /// A paragraph whose text is plain: its SYNC's time, its class, where its text is (trimmed) and its lines.
    struct Paragraph {
        var start: Int64
        var className: String?
        var text: Range<Int>
        var lines: [String]
    }

    /// The plain paragraphs of a SAMI file: text and `<br>` only, up to the next tag of another kind.
    static func paragraphs(_ bytes: [UInt8]) -> [Paragraph] {
        var found: [Paragraph] = []
        var sync: Int64?
        var index = 0
        let count = bytes.count
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        /// The tag at `at` (a `<`): its name in lower case, its attributes' text and its end.
        func tag(at start: Int) -> (name: String, attributes: String, end: Int)? {
            var end = start + 1
            while end < count, bytes[end] != UInt8(ascii: ">") { end += 1 }
            guard end < count else { return nil }
            let inside = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
            let closing = inside.hasPrefix("/")
            let name = (closing ? "/" : "") + inside.dropFirst(closing ? 1 : 0).prefix { !$0.isWhitespace && $0 != "/" }.lowercased()
            return (name, String(inside.dropFirst(name.count)), end + 1)
        }
        /// An attribute's value: `NAME=VALUE`, quoted or not, in any case.
        func value(_ attribute: String, in attributes: String) -> String? {
            let text = Array(attributes.utf8)
            let name = Array(attribute.utf8)
            var at = 0
            while at + name.count <= text.count {
                defer { at += 1 }
                guard at == 0 || isSpace(text[at - 1]), zip(text[at...], name).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) else { continue }
                var k = at + name.count
                while k < text.count, isSpace(text[k]) { k += 1 }
                guard k < text.count, text[k] == UInt8(ascii: "=") else { continue }
                k += 1
                while k < text.count, isSpace(text[k]) || text[k] == 0x22 || text[k] == 0x27 { k += 1 }
                var end = k
                while end < text.count, !isSpace(text[end]), text[end] != 0x22, text[end] != 0x27, text[end] != UInt8(ascii: ">") { end += 1 }
                return String(decoding: text[k..<end], as: UTF8.self)
            }
            return nil
        }
        while index < count {
            guard bytes[index] == UInt8(ascii: "<"), let opened = tag(at: index) else {
                index += 1
                continue
            }
            if opened.name == "sync" {
                sync = value("start", in: opened.attributes).flatMap { Int64($0) }
            } else if opened.name == "p", let start = sync {
                // The text up to the next tag that is not a line break.
                var end = opened.end
                var lines: [String] = []
                var line: [UInt8] = []
                var plain = true
                while end < count {
                    if bytes[end] == UInt8(ascii: "<") {
                        guard let inner = tag(at: end), inner.name == "br" || inner.name == "br/" else { break }
                        lines.append(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
                        line = []
                        end = inner.end
                        continue
                    }
                    if bytes[end] == UInt8(ascii: "&") { plain = false }
                    line.append(bytes[end])
                    end += 1
                }
                lines.append(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
                var lower = opened.end, upper = end
                while lower < upper, isSpace(bytes[lower]) { lower += 1 }
                while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
                if plain, lines.allSatisfy({ !$0.isEmpty }) {
                    found.append(Paragraph(start: start, className: value("class", in: opened.attributes), text: lower..<upper, lines: lines))
                }
                index = end
                continue
            }
            index = opened.end
        }
        return found
    }

    /// The file's own line break tag (`<br>`, `<BR>`, `<br/>` …): the first one in it.
    static func lineBreakTag(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.firstMatch(of: /(?i)<br\s*\/?>/).map { String($0.output) } ?? "<br>"
    }

    /// `bytes` with every SYNC moved as the cues' times moved from `original` to `edited` (texts alike).
    private static func retimed(_ bytes: [UInt8], original: CaptionDocument, edited: CaptionDocument) -> Result<[UInt8], CaptionPatch.Refusal> {
        let moves: TimeMoves
        switch TimeMoves.of(original.cues, edited.cues) {
        case .success(let found): moves = found
        case .failure(let time):
            return .failure(CaptionPatch.Refusal("the edit moves the SYNC at \(time) ms two ways"))
        }
        guard !moves.isEmpty else { return .success(bytes) }
        let moved = moves.moved
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 256)
        var copied = 0
        var i = 0
        let n = bytes.count
        func lower(_ byte: UInt8) -> UInt8 { byte | 0x20 }
        func matches(_ word: String, at position: Int) -> Bool {
            let word = Array(word.utf8)
            return position + word.count <= n && zip(bytes[position...], word).allSatisfy { lower($0) == $1 }
        }
        while i < n {
            guard bytes[i] == UInt8(ascii: "<"), matches("sync", at: i + 1), i + 5 < n, !(lower(bytes[i + 5]) >= 0x61 && lower(bytes[i + 5]) <= 0x7A)
            else {
                i += 1
                continue
            }
            // The tag's Start value: digits after `start`, `=`, spaces and a quote.
            var j = i + 5
            while j < n, bytes[j] != UInt8(ascii: ">") {
                if matches("start", at: j), j > 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[j - 1]) {
                    var k = j + 5
                    while k < n, bytes[k] == 0x20 || bytes[k] == 0x09 { k += 1 }
                    guard k < n, bytes[k] == UInt8(ascii: "=") else { break }
                    k += 1
                    while k < n, bytes[k] == 0x20 || bytes[k] == 0x09 || bytes[k] == UInt8(ascii: "\"") || bytes[k] == UInt8(ascii: "'") { k += 1 }
                    var end = k
                    while end < n, bytes[end] >= 0x30, bytes[end] <= 0x39 { end += 1 }
                    if end > k, end - k <= 15, let time = Int64(String(decoding: bytes[k..<end], as: UTF8.self)) {
                        output.append(contentsOf: bytes[copied..<k])
                        output.append(contentsOf: String(max(0, moved(time))).utf8)
                        copied = end
                    }
                    break
                }
                j += 1
            }
            i = j
        }
        output.append(contentsOf: bytes[copied...])
        // Read back: the language read moved as edited; every other class by the same moves (checked on the default
        // class, which the file reads as when no language is named).
        guard let reread = try? SAMIReader().read(output), let before = try? SAMIReader().read(bytes),
            reread.cues.map({ [$0.start.milliseconds, $0.end.milliseconds] })
                == before.cues.map({ [moved($0.start.milliseconds), moved($0.end.milliseconds)] }),
            reread.cues.map(\.text) == before.cues.map(\.text)
        else { return .failure(CaptionPatch.Refusal("the retimed file would not read back as edited")) }
        return .success(output)
    }
}
