import Foundation

/// Reads SAMI (`.smi`, Microsoft's Synchronized Accessible Media Interchange, the usual caption file in Korea): each
/// `<SYNC Start=ms>` starts a new caption for the classes whose `<P Class=…>` it holds; a paragraph of only `&nbsp;`
/// clears. A file in several languages (one class each, named in its `<STYLE>`) is read in one: the first, or the one
/// asked for. Text in CP949/EUC-KR, UTF-8 or UTF-16 is detected and said; `<br>` breaks lines, `<i>`, `<b>` and `<u>`
/// become WebVTT's, other tags (`<font>`) are dropped and said.
public struct SAMIReader: Sendable {
    /// The class to read (`KRCC`), or a language its style gives (`ko-KR`, `ko`); nil: the first one used.
    public var language: String?

    public init(language: String? = nil) { self.language = language }

    /// A language class of the file's style sheet: `.KRCC { Name: Korean; lang: ko-KR; SAMIType: CC; }`.
    public struct LanguageClass: Sendable, Equatable {
        public var name: String
        public var displayName: String?
        public var language: String?
        /// The definition as written, kept for writing the file back.
        public var definition: String
    }

    public func read(_ bytes: [UInt8], encoding: String? = nil) throws(CaptionError) -> CaptionDocument {
        try bytes.withUnsafeBufferPointer { (buffer) throws(CaptionError) in try read(buffer: buffer, encoding: encoding) }
    }

    /// Reads SAMI from `buffer` (in place when it is UTF-8).
    public func read(buffer bytes: UnsafeBufferPointer<UInt8>, encoding: String? = nil) throws(CaptionError) -> CaptionDocument {
        try read(buffer: bytes, encoding: encoding, mapping: nil)
    }

    /// Reads SAMI from `buffer`, giving the pages of `mapping` back as it goes.
    func read(buffer bytes: UnsafeBufferPointer<UInt8>, encoding: String?, mapping: MappedFile?) throws(CaptionError) -> CaptionDocument {
        let korean = { (bytes: UnsafeBufferPointer<UInt8>) in TextDecoding.looksLikeCP949(bytes) ? "cp949" : nil }
        return try TextDecoding.withUTF8(bytes, encoding: encoding, guess: korean) { (text, found) throws(CaptionError) in
            var document = CaptionDocument(format: .sami, encoding: found.encoding)
            if found.guessed, found.encoding == "cp949" {
                document.diagnostics.append(
                    CaptionDiagnostic(
                        line: 0, rule: "sami.encoding", severity: .info,
                        message: "no byte-order mark and not UTF-8: read as CP949 (EUC-KR), as Korean SAMI files are"))
            } else if found.guessed {
                document.diagnostics.append(
                    CaptionDiagnostic(line: 0, rule: "sami.encoding", severity: .info, message: "no byte-order mark and not UTF-8: read as \(found.encoding)"))
            }
            var parser = SAMIParser(text: text, language: language, pages: PageRelease(text: text, mapping: mapping))
            try parser.parse()
            let classes = parser.classes
            let used = parser.usedClasses
            let chosen = parser.chosen ?? classes.first?.name.lowercased()
            if let chosen, let definition = classes.first(where: { $0.name.caseInsensitiveEquals(chosen) }) {
                document.header = definition.definition
            }
            let others = used.filter { !$0.isEmpty && !$0.caseInsensitiveEquals(chosen ?? "") }
            func described(_ name: String) -> String {
                guard let style = classes.first(where: { $0.name.caseInsensitiveEquals(name) }) else { return name.uppercased() }
                return "\(style.name)\(style.language.map { " (\($0))" } ?? "")"
            }
            if !others.isEmpty {
                document.diagnostics.append(
                    CaptionDiagnostic(
                        line: 0, rule: "sami.language", severity: .info,
                        message:
                            "the file also has captions in \(others.map(described).joined(separator: ", ")); read: \(chosen.map(described) ?? "unnamed") (choose with --sami-language)"
                    ))
            }
            document.cues = parser.cues
            document.diagnostics += parser.diagnostics
            return document
        }
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool { lowercased() == other.lowercased() }
}

/// One pass over a SAMI file's text: its style sheet's classes, and per class the paragraphs at their SYNC times.
struct SAMIParser {
    let text: UnsafeBufferPointer<UInt8>
    /// The class or language asked for (nil: the first class a paragraph names).
    let language: String?
    private var pages: PageRelease
    var classes: [SAMIReader.LanguageClass] = []
    /// The class read (lower case), once known: the one asked for, else the first a paragraph names.
    private(set) var chosen: String?
    /// The cues of the class read.
    private(set) var cues: [Cue] = []
    /// The paragraph of the class read not yet a cue: it ends where the next one starts.
    private var pendingCue: (start: Int64, text: String, line: Int32)?
    /// The classes paragraphs name (lower case), in the order first used ("" for a paragraph without one).
    var usedClasses: [String] = []
    var diagnostics: [CaptionDiagnostic] = []
    private var droppedTags: [String: Int] = [:]
    private var line = 1
    private var position = 0
    // The paragraph being read.
    private var inParagraph = false
    private var paragraphClass = 0
    private var paragraphLine: Int32 = 0
    private var paragraphText: [UInt8] = []
    private var pendingSpace = false
    private var italic = 0, bold = 0, underline = 0
    private var syncTime: Int64?

    init(text: UnsafeBufferPointer<UInt8>, language: String? = nil, pages: PageRelease) {
        self.text = text
        self.language = language
        self.pages = pages
    }

    mutating func parse() throws(CaptionError) {
        let n = text.count
        var sawSAMI = false
        var syncs = 0
        paragraphText.reserveCapacity(256)
        while position < n {
            pages.consumed(upTo: position)
            let byte = text[position]
            if byte == 0x3C {  // "<"
                if text.hasPrefix(position..<n, caseInsensitive: "<!--") {
                    skipPast("-->")
                    continue
                }
                let tagStart = position
                guard let tag = readTag() else {
                    appendVisible(0x3C)
                    position = tagStart + 1
                    continue
                }
                switch tag.name {
                case .sami where !tag.closing: sawSAMI = true
                case .style where !tag.closing:
                    let end = find("</style", from: position) ?? n
                    readClasses(position..<end)
                    countLines(position..<end)
                    position = end
                    try chooseClass()
                case .sync where !tag.closing:
                    closeParagraph()
                    syncs += 1
                    guard let start = tag.attributes.flatMap({ attributeNumber("start", in: $0) }) else {
                        diagnostics.append(
                            CaptionDiagnostic(line: line, rule: "sami.sync", message: "a SYNC without a Start time (milliseconds): its captions are skipped"))
                        syncTime = nil
                        continue
                    }
                    if let previous = syncTime, start < previous {
                        diagnostics.append(
                            CaptionDiagnostic(line: line, rule: "sami.sync", message: "SYNC Start=\(start) comes after Start=\(previous): out of order"))
                    }
                    syncTime = start
                case .p where !tag.closing:
                    closeParagraph()
                    let className = tag.attributes.flatMap { attributeValue("class", in: $0) }.map { text.string($0).lowercased() } ?? ""
                    var index = usedClasses.firstIndex(of: className)
                    if index == nil {
                        usedClasses.append(className)
                        index = usedClasses.count - 1
                    }
                    if chosen == nil {
                        try chooseClass()
                        if chosen == nil { chosen = className }
                    }
                    (inParagraph, paragraphClass, paragraphLine, pendingSpace) = (true, index!, Int32(clamping: line), false)
                    paragraphText.removeAll(keepingCapacity: true)
                case .p, .body, .sami: closeParagraph()
                case .br:
                    if inParagraph { paragraphText.append(0x0A) }
                    pendingSpace = false
                case .i, .b, .u:
                    guard inParagraph else { continue }
                    let letter: UInt8 = tag.name == .i ? 0x69 : tag.name == .b ? 0x62 : 0x75
                    if tag.closing {
                        let count = tag.name == .i ? italic : tag.name == .b ? bold : underline
                        guard count > 0 else { continue }
                        if tag.name == .i { italic -= 1 } else if tag.name == .b { bold -= 1 } else { underline -= 1 }
                        // A tag with nothing inside it is nothing.
                        if paragraphText.last == 0x3E, paragraphText.count >= 3, paragraphText.suffix(3).elementsEqual([0x3C, letter, 0x3E]) {
                            paragraphText.removeLast(3)
                            continue
                        }
                        flushSpace()
                        paragraphText += [0x3C, 0x2F, letter, 0x3E]
                    } else {
                        flushSpace()
                        if tag.name == .i { italic += 1 } else if tag.name == .b { bold += 1 } else { underline += 1 }
                        paragraphText += [0x3C, letter, 0x3E]
                    }
                case .other(let name):
                    if inParagraph, !tag.closing { droppedTags[name, default: 0] += 1 }
                default: break
                }
                continue
            }
            if byte == 0x26 {  // "&"
                readReference()
                continue
            }
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                if byte == 0x0A || (byte == 0x0D && !(position + 1 < n && text[position + 1] == 0x0A)) { line += 1 }
                if inParagraph, !(paragraphText.isEmpty || paragraphText.last == 0x0A) { pendingSpace = true }
                position += 1
                continue
            }
            if byte < 0x20 || byte == 0x7F {  // a control character: not text (U+FFFD, as WebVTT reads NUL)
                appendVisible(byte)
                position += 1
                continue
            }
            // A run of text without markup, references, whitespace or ">": copied as it is.
            var end = position + 1
            while end < n {
                let next = text[end]
                if next == 0x3C || next == 0x26 || next == 0x3E || next <= 0x20 || next == 0x7F { break }
                end += 1
            }
            if inParagraph {
                flushSpace()
                if byte == 0x3E {
                    paragraphText += Array("&gt;".utf8)
                } else {
                    paragraphText.append(contentsOf: UnsafeBufferPointer(rebasing: text[position..<end]))
                }
            }
            position = byte == 0x3E ? position + 1 : end
        }
        closeParagraph()
        guard sawSAMI || syncs > 0 else {
            throw CaptionError(rule: "sami.parse", message: "not a SAMI file: no <SAMI> element and no <SYNC> tag")
        }
        if language != nil, chosen == nil { try chooseClass() }
        // The last caption, with nothing after it to end it: shown 5 s.
        if let last = pendingCue, !last.text.isEmpty { addCue(last, end: last.start > Int64.max - 5000 ? Int64.max : last.start + 5000) }
        for (name, count) in droppedTags.sorted(by: { $0.key < $1.key }) {
            diagnostics.append(
                CaptionDiagnostic(
                    line: 0, rule: "sami.markup", severity: .info,
                    message: "<\(name)> (\(count)×) has no WebVTT counterpart here: its text is kept, the tag dropped"))
        }
    }

    /// The paragraph read so far, kept with its SYNC time (none before a SYNC); tags left open are closed.
    private mutating func closeParagraph() {
        guard inParagraph else { return }
        inParagraph = false
        guard let start = syncTime else { return }
        for (count, letter) in [(underline, UInt8(0x75)), (bold, 0x62), (italic, 0x69)] where count > 0 {
            for _ in 0..<count { paragraphText += [0x3C, 0x2F, letter, 0x3E] }
        }
        (italic, bold, underline) = (0, 0, 0)
        // Only the class read (and paragraphs of no class) make cues: each ends where the next begins; at one SYNC
        // time the last paragraph is the one that stays (a clear clears it).
        let className = usedClasses[paragraphClass]
        guard className == chosen || className.isEmpty else { return }
        let text = Self.trimmingBreaks(paragraphText)
        if let pending = pendingCue, start > pending.start, !pending.text.isEmpty { addCue(pending, end: start) }
        pendingCue = (start, text, paragraphLine)
    }

    private mutating func addCue(_ paragraph: (start: Int64, text: String, line: Int32), end: Int64) {
        var cue = Cue(start: CaptionTime(milliseconds: paragraph.start), end: CaptionTime(milliseconds: end), text: paragraph.text)
        cue.line = paragraph.line
        cues.append(cue)
    }

    /// The class asked for (by its name or its style's language), once the style sheet is read.
    private mutating func chooseClass() throws(CaptionError) {
        guard let language, chosen == nil else { return }
        let wanted = language.lowercased()
        guard
            let found = classes.first(where: { $0.name.lowercased() == wanted || $0.language?.lowercased() == wanted })
                ?? classes.first(where: { $0.language?.lowercased().hasPrefix(wanted + "-") == true })
        else {
            let known = classes.map { "\($0.name)\($0.language.map { " (\($0))" } ?? "")" }.joined(separator: ", ")
            throw CaptionError(rule: "sami.language", message: "no class for \(language) in the SAMI file (it has: \(known.isEmpty ? "none" : known))")
        }
        chosen = found.name.lowercased()
    }

    private mutating func flushSpace() {
        guard pendingSpace else { return }
        paragraphText.append(0x20)
        pendingSpace = false
    }

    private mutating func appendVisible(_ byte: UInt8) {
        guard inParagraph else { return }
        flushSpace()
        WebVTTEscaping.append(byte, to: &paragraphText)
    }

    /// `&nbsp;`, `&amp;`, `&#233;`, `&#xE9;` …: the character, escaped for WebVTT where it must be; `&nbsp;` is a space
    /// (a paragraph of nothing else clears). An unknown reference is kept as text.
    private mutating func readReference() {
        let start = position
        var end = position + 1
        while end < text.count, end - start <= 10, text[end] != 0x3B, text[end] != 0x26, text[end] != 0x3C, text[end] > 0x20 { end += 1 }
        guard end < text.count, text[end] == 0x3B else {
            appendVisible(0x26)
            position += 1
            return
        }
        let name = text.string((start + 1)..<end)
        position = end + 1
        let scalar: Unicode.Scalar?
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
        } else if name.hasPrefix("#") {
            scalar = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init)
        } else {
            scalar = Self.entities[name.lowercased()]
        }
        guard inParagraph else { return }
        guard let scalar, scalar.value != 0 else {
            flushSpace()
            paragraphText += Array("&amp;".utf8) + Array(name.utf8) + [0x3B]
            return
        }
        if scalar == "\u{A0}" {
            if !paragraphText.isEmpty, paragraphText.last != 0x0A { pendingSpace = true }
            return
        }
        if scalar.isASCII {
            appendVisible(UInt8(scalar.value))
        } else {
            flushSpace()
            paragraphText += Array(String(Character(scalar)).utf8)
        }
    }

    static let entities: [String: Unicode.Scalar] = [
        "nbsp": "\u{A0}", "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "copy": "©", "reg": "®", "hellip": "…",
        "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "middot": "·", "shy": "\u{AD}",
    ]

    /// A tag at `position` (just past it after): its name, whether it closes, and its attributes' byte range. Nil when
    /// what follows `<` is not a tag.
    private mutating func readTag() -> SAMITag? {
        let n = text.count
        var i = position + 1
        var closing = false
        if i < n, text[i] == 0x2F {
            closing = true
            i += 1
        }
        let nameStart = i
        while i < n, (text[i] | 0x20) >= 0x61 && (text[i] | 0x20) <= 0x7A || (i > nameStart && text[i] >= 0x30 && text[i] <= 0x39) { i += 1 }
        guard i > nameStart else { return nil }
        let name = SAMITag.Name(text, nameStart..<i)
        let attributesStart = i
        var quote: UInt8 = 0
        while i < n {
            let byte = text[i]
            if byte == 0x0A { line += 1 }
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == 0x22 || byte == 0x27 {
                quote = byte
            } else if byte == 0x3E || byte == 0x3C {
                break  // the end, or a tag left open: ended here
            }
            i += 1
        }
        let attributes = attributesStart < i ? attributesStart..<i : nil
        position = i < n && text[i] == 0x3E ? i + 1 : i
        return SAMITag(name: name, closing: closing, attributes: attributes)
    }

    /// The value of attribute `name` (ASCII, lower case) in `range`: its bytes without quotes.
    private func attributeValue(_ name: StaticString, in range: Range<Int>) -> Range<Int>? {
        var i = range.lowerBound
        let count = name.utf8CodeUnitCount
        while i + count < range.upperBound {
            let before = i == range.lowerBound ? UInt8(0x20) : text[i - 1]
            if before <= 0x20 || before == 0x22 || before == 0x27, text.hasPrefix(i..<range.upperBound, caseInsensitive: name) {
                var k = i + count
                while k < range.upperBound, text[k] == 0x20 || text[k] == 0x09 { k += 1 }
                if k < range.upperBound, text[k] == 0x3D {  // "="
                    k += 1
                    while k < range.upperBound, text[k] == 0x20 || text[k] == 0x09 { k += 1 }
                    if k < range.upperBound, text[k] == 0x22 || text[k] == 0x27 {
                        let quote = text[k]
                        let end = (k + 1..<range.upperBound).first { text[$0] == quote } ?? range.upperBound
                        return (k + 1)..<end
                    }
                    var end = k
                    while end < range.upperBound, text[end] > 0x20, text[end] != 0x3E { end += 1 }
                    return k..<end
                }
            }
            i += 1
        }
        return nil
    }

    /// An attribute's value as a whole number (milliseconds), spaces and quotes aside.
    private func attributeNumber(_ name: StaticString, in range: Range<Int>) -> Int64? {
        guard let value = attributeValue(name, in: range), !value.isEmpty, value.count <= 19 else { return nil }
        var number: Int64 = 0
        for i in value {
            guard text[i] >= 0x30, text[i] <= 0x39 else { return nil }
            let (times, overflow) = number.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) = times.addingReportingOverflow(Int64(text[i] - 0x30))
            guard !overflow, !overflowAgain else { return nil }
            number = sum
        }
        return number
    }

    private mutating func skipPast(_ marker: StaticString) {
        let end = find(marker, from: position) ?? text.count
        countLines(position..<end)
        position = min(text.count, end + marker.utf8CodeUnitCount)
    }

    private mutating func countLines(_ range: Range<Int>) {
        for i in range where text[i] == 0x0A { line += 1 }
    }

    /// Where `marker` (ASCII, compared without case) next starts, from `start`.
    private func find(_ marker: StaticString, from start: Int) -> Int? {
        let count = marker.utf8CodeUnitCount
        guard count > 0, text.count >= count else { return nil }
        let first = UnsafeBufferPointer<UInt8>.lower(marker.utf8Start[0])
        var i = start
        while i + count <= text.count {
            if UnsafeBufferPointer<UInt8>.lower(text[i]) == first, text.hasPrefix(i..<text.count, caseInsensitive: marker) { return i }
            i += 1
        }
        return nil
    }

    /// The classes of a style sheet: `.NAME { Name: …; lang: …; }` rules (the `P` rule and others are not classes).
    private mutating func readClasses(_ range: Range<Int>) {
        let css = text.string(range)
        var rest = Substring(css)
        while let dot = rest.firstIndex(of: "."), let open = rest[dot...].firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = rest[rest.index(after: dot)..<open].trimmingCharacters(in: .whitespacesAndNewlines)
            let body = rest[rest.index(after: open)..<close]
            var language: String?, displayName: String?
            for declaration in body.split(separator: ";") {
                let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                guard parts.count == 2 else { continue }
                switch parts[0].lowercased() {
                case "lang": language = parts[1]
                case "name": displayName = parts[1]
                default: break
                }
            }
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) {
                let definition = String(rest[dot...close]).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(
                    separator: " ")
                classes.append(SAMIReader.LanguageClass(name: name, displayName: displayName, language: language, definition: definition))
            }
            rest = rest[rest.index(after: close)...]
        }
    }

    /// A paragraph's text without line breaks and spaces at its start and end; empty when nothing in it shows (only
    /// spaces and `<i>`, `<b>`, `<u>` tags: it clears).
    static func trimmingBreaks(_ bytes: [UInt8]) -> String {
        var lower = 0, upper = bytes.count
        while lower < upper, bytes[lower] == 0x0A || bytes[lower] == 0x20 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x0A || bytes[upper - 1] == 0x20 { upper -= 1 }
        var visible = false
        var k = lower
        while k < upper, !visible {
            if bytes[k] == 0x3C, k + 2 < upper, bytes[k + 1] == 0x2F || bytes[k + 2] == 0x3E {
                k += bytes[k + 1] == 0x2F ? 4 : 3  // <i>, </i> (the only tags written here)
            } else if bytes[k] == 0x20 || bytes[k] == 0x0A {
                k += 1
            } else {
                visible = true
            }
        }
        return visible ? String(decoding: bytes[lower..<upper], as: UTF8.self) : ""
    }
}

/// A SAMI tag: its name, whether it closes, and its attributes' bytes.
struct SAMITag {
    enum Name: Equatable {
        case sami, body, style, sync, p, br, i, b, u, head, title, other(String)

        init(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
            // The tags of every caption first, without making a string.
            let first = text[range.lowerBound] | 0x20
            if range.count == 1 {
                switch first {
                case 0x70: self = .p
                case 0x69: self = .i
                case 0x62: self = .b
                case 0x75: self = .u
                default: self = .other(String(UnicodeScalar(first)))
                }
                return
            }
            if range.count == 4, text.hasPrefix(range, caseInsensitive: "sync") {
                self = .sync
                return
            }
            if range.count == 2, text.hasPrefix(range, caseInsensitive: "br") {
                self = .br
                return
            }
            let name = String(decoding: text[range], as: UTF8.self).lowercased()
            switch name {
            case "sami": self = .sami
            case "body": self = .body
            case "style": self = .style
            case "sync": self = .sync
            case "p": self = .p
            case "br": self = .br
            case "i": self = .i
            case "b": self = .b
            case "u": self = .u
            case "head", "html", "meta", "link", "script": self = .head
            case "title": self = .title
            default: self = .other(name)
            }
        }
    }

    var name: Name
    var closing: Bool
    var attributes: Range<Int>?
}
