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
        var guessed: String?
        if encoding == nil, !TextDecoding.isValidUTF8(bytes), !Self.hasByteOrderMark(bytes), TextDecoding.looksLikeCP949(bytes) { guessed = "cp949" }
        let decoded = try TextDecoding.decode(bytes, encoding: encoding ?? guessed)
        var document = CaptionDocument(format: .sami, encoding: decoded.encoding)
        if guessed != nil {
            document.diagnostics.append(
                CaptionDiagnostic(
                    line: 0, rule: "sami.encoding", severity: .info,
                    message: "no byte-order mark and not UTF-8: read as CP949 (EUC-KR), as Korean SAMI files are"))
        } else if decoded.guessed {
            document.diagnostics.append(
                CaptionDiagnostic(line: 0, rule: "sami.encoding", severity: .info, message: "no byte-order mark and not UTF-8: read as \(decoded.encoding)"))
        }
        try decoded.utf8.withUnsafeBufferPointer { text throws(CaptionError) in
            var parser = SAMIParser(text: text)
            try parser.parse()
            let classes = parser.classes
            let used = parser.usedClasses
            let chosen: String?
            if let language {
                let wanted = language.lowercased()
                guard
                    let found = classes.first(where: { $0.name.lowercased() == wanted || $0.language?.lowercased() == wanted })
                        ?? classes.first(where: { $0.language?.lowercased().hasPrefix(wanted + "-") == true })
                else {
                    let known = classes.map { "\($0.name)\($0.language.map { " (\($0))" } ?? "")" }.joined(separator: ", ")
                    throw CaptionError(rule: "sami.language", message: "no class for \(language) in the SAMI file (it has: \(known.isEmpty ? "none" : known))")
                }
                chosen = found.name
            } else {
                chosen = used.first ?? classes.first?.name
            }
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
            document.cues = parser.cues(of: chosen)
            document.diagnostics += parser.diagnostics
        }
        return document
    }

    static func hasByteOrderMark(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool { lowercased() == other.lowercased() }
}

/// One pass over a SAMI file's text: its style sheet's classes, and per class the paragraphs at their SYNC times.
struct SAMIParser {
    let text: UnsafeBufferPointer<UInt8>
    var classes: [SAMIReader.LanguageClass] = []
    /// The classes paragraphs name, in the order first used ("" for a paragraph without one).
    var usedClasses: [String] = []
    var diagnostics: [CaptionDiagnostic] = []
    /// Per paragraph: its SYNC time, its class (lower case), its text in WebVTT's syntax (empty: it clears), its line.
    private var paragraphs: [(start: Int64, className: String, text: String, line: Int32)] = []
    private var droppedTags: [String: Int] = [:]
    private var line = 1
    private var position = 0

    init(text: UnsafeBufferPointer<UInt8>) { self.text = text }

    mutating func parse() throws(CaptionError) {
        let n = text.count
        var sawSAMI = false
        var syncTime: Int64?
        var syncs = 0
        // The paragraph being read: its class and text.
        var open: (className: String, text: [UInt8], line: Int32, pendingSpace: Bool)?
        var italic = 0, bold = 0, underline = 0
        func close(_ parser: inout SAMIParser) {
            guard var paragraph = open, let start = syncTime else {
                open = nil
                return
            }
            // Tags left open at the paragraph's end are closed.
            for (count, tag) in [(underline, "u"), (bold, "b"), (italic, "i")] where count > 0 {
                paragraph.text += Array("</\(tag)>".utf8)
            }
            (italic, bold, underline) = (0, 0, 0)
            let content = SAMIParser.trimmingBreaks(paragraph.text)
            parser.paragraphs.append((start, paragraph.className, String(decoding: content, as: UTF8.self), paragraph.line))
            open = nil
        }
        while position < n {
            let byte = text[position]
            if byte == 0x3C {  // "<"
                if text.hasPrefix(position..<n, caseInsensitive: "<!--") {
                    skipPast("-->")
                    continue
                }
                let tagStart = position
                guard let tag = readTag() else {
                    appendText(0x3C, to: &open)
                    position = tagStart + 1
                    continue
                }
                switch tag.name {
                case "sami": sawSAMI = true
                case "style" where !tag.closing:
                    let end = find("</style", from: position) ?? n
                    readClasses(position..<end)
                    countLines(position..<end)
                    position = end
                case "sync" where !tag.closing:
                    close(&self)
                    syncs += 1
                    guard let start = tag.attribute("start").flatMap({ Int64($0.trimmingCharacters(in: CharacterSet(charactersIn: " \"'"))) }), start >= 0
                    else {
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
                case "p" where !tag.closing:
                    close(&self)
                    let className = (tag.attribute("class") ?? "").lowercased()
                    if !usedClasses.contains(className) { usedClasses.append(className) }
                    open = (className, [], Int32(clamping: line), false)
                case "br":
                    if open != nil { open!.text.append(0x0A) }
                    open?.pendingSpace = false
                case "i", "b", "u":
                    guard open != nil else { continue }
                    flushSpace(&open)
                    if tag.closing {
                        let count = tag.name == "i" ? italic : tag.name == "b" ? bold : underline
                        guard count > 0 else { continue }
                        if tag.name == "i" { italic -= 1 } else if tag.name == "b" { bold -= 1 } else { underline -= 1 }
                    } else {
                        if tag.name == "i" { italic += 1 } else if tag.name == "b" { bold += 1 } else { underline += 1 }
                    }
                    open!.text += Array((tag.closing ? "</\(tag.name)>" : "<\(tag.name)>").utf8)
                case "body", "head", "title", "html", "meta", "link", "script": break
                case "/sami", "/body":
                    close(&self)
                default:
                    if open != nil, !tag.closing, !tag.name.isEmpty { droppedTags[tag.name, default: 0] += 1 }
                }
                if tag.closing, tag.name == "sami" || tag.name == "body" { close(&self) }
                if tag.closing, tag.name == "p" { close(&self) }
                continue
            }
            if byte == 0x26 {  // "&"
                readReference(into: &open)
                continue
            }
            if byte == 0x0A || (byte == 0x0D && !(position + 1 < n && text[position + 1] == 0x0A)) { line += 1 }
            appendText(byte, to: &open)
            position += 1
        }
        close(&self)
        guard sawSAMI || syncs > 0 else {
            throw CaptionError(rule: "sami.parse", message: "not a SAMI file: no <SAMI> element and no <SYNC> tag")
        }
        for (name, count) in droppedTags.sorted(by: { $0.key < $1.key }) {
            diagnostics.append(
                CaptionDiagnostic(
                    line: 0, rule: "sami.markup", severity: .info,
                    message: "<\(name)> (\(count)×) has no WebVTT counterpart here: its text is kept, the tag dropped"))
        }
    }

    /// The cues of class `name` (nil or "": paragraphs without a class too): each paragraph with text from its SYNC to
    /// the next SYNC of the same class; the last one, with nothing after it, shown 5 s (said).
    func cues(of name: String?) -> [Cue] {
        let wanted = (name ?? "").lowercased()
        let chosen = paragraphs.filter { $0.className == wanted || $0.className.isEmpty || wanted.isEmpty }
        var cues: [Cue] = []
        cues.reserveCapacity(chosen.count)
        for (k, paragraph) in chosen.enumerated() where !paragraph.text.isEmpty {
            // Several paragraphs of one class in a SYNC: they show together; the caption ends at the next SYNC time.
            var next = k + 1
            while next < chosen.count, chosen[next].start == paragraph.start { next += 1 }
            let end = next < chosen.count ? chosen[next].start : paragraph.start + 5000
            var cue = Cue(start: CaptionTime(milliseconds: paragraph.start), end: CaptionTime(milliseconds: end), text: paragraph.text)
            cue.line = paragraph.line
            cues.append(cue)
        }
        return cues
    }

    /// Text bytes into the open paragraph: whitespace runs become one space (HTML's rule), written before the next word.
    private func appendText(_ byte: UInt8, to open: inout (className: String, text: [UInt8], line: Int32, pendingSpace: Bool)?) {
        guard open != nil else { return }
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            if !(open!.text.last == 0x0A || open!.text.isEmpty) { open!.pendingSpace = true }
            return
        }
        flushSpace(&open)
        WebVTTEscaping.append(byte, to: &open!.text)
    }

    private func flushSpace(_ open: inout (className: String, text: [UInt8], line: Int32, pendingSpace: Bool)?) {
        guard open != nil, open!.pendingSpace else { return }
        open!.text.append(0x20)
        open!.pendingSpace = false
    }

    /// `&nbsp;`, `&amp;`, `&#233;`, `&#xE9;` …: the character, escaped for WebVTT where it must be; `&nbsp;` is a space
    /// (a paragraph of nothing else clears). An unknown reference is kept as text.
    private mutating func readReference(into open: inout (className: String, text: [UInt8], line: Int32, pendingSpace: Bool)?) {
        let start = position
        var end = position + 1
        while end < text.count, end - start <= 10, text[end] != 0x3B, text[end] != 0x26, text[end] != 0x3C, text[end] > 0x20 { end += 1 }
        guard end < text.count, text[end] == 0x3B else {
            appendText(0x26, to: &open)
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
        guard let scalar, scalar.value != 0 else {
            flushSpace(&open)
            if open != nil { open!.text += Array("&amp;".utf8) + Array(name.utf8) + [0x3B] }
            return
        }
        if scalar == "\u{A0}" {
            if open != nil, !open!.text.isEmpty, open!.text.last != 0x0A { open!.pendingSpace = true }
            return
        }
        flushSpace(&open)
        if scalar.isASCII {
            appendText(UInt8(scalar.value), to: &open)
        } else if open != nil {
            open!.text += Array(String(Character(scalar)).utf8)
        }
    }

    static let entities: [String: Unicode.Scalar] = [
        "nbsp": "\u{A0}", "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "copy": "©", "reg": "®", "hellip": "…",
        "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "middot": "·", "shy": "\u{AD}",
    ]

    /// A tag at `position` (just past it after): its lower-case name (`p`, `sync`, `br`), whether it closes, and its
    /// attributes' text. Nil when what follows `<` is not a tag.
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
        let name = String(decoding: text[nameStart..<i].map { $0 | 0x20 }, as: UTF8.self)
        let attributesStart = i
        var quote: UInt8 = 0
        while i < n {
            let byte = text[i]
            if byte == 0x0A { line += 1 }
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == 0x22 || byte == 0x27 {
                quote = byte
            } else if byte == 0x3E {
                break
            } else if byte == 0x3C {
                break  // a tag left open: end it here
            }
            i += 1
        }
        let attributes = text.string(attributesStart..<min(i, n))
        position = i < n && text[i] == 0x3E ? i + 1 : i
        return SAMITag(name: name, closing: closing, attributes: attributes)
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

    /// A paragraph's text without line breaks and spaces at its start and end.
    static func trimmingBreaks(_ bytes: [UInt8]) -> [UInt8] {
        var lower = 0, upper = bytes.count
        while lower < upper, bytes[lower] == 0x0A || bytes[lower] == 0x20 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x0A || bytes[upper - 1] == 0x20 { upper -= 1 }
        // Tags with nothing inside them are nothing: `<i></i>` alone is a clearing paragraph.
        let inner = Array(bytes[lower..<upper])
        let withoutTags = String(decoding: inner, as: UTF8.self).replacingOccurrences(of: #"</?[ibu]>"#, with: "", options: .regularExpression)
        return withoutTags.allSatisfy { $0 == " " || $0 == "\n" } ? [] : inner
    }
}

/// A SAMI tag's name, whether it closes, and its attributes' text.
struct SAMITag {
    var name: String
    var closing: Bool
    var attributes: String

    /// The value of attribute `name` (compared without case), quotes removed.
    func attribute(_ wanted: String) -> String? {
        var rest = Substring(attributes)
        while let equals = rest.firstIndex(of: "=") {
            let key = rest[..<equals].split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).last.map(String.init) ?? ""
            var value = rest[rest.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
            let result: Substring
            if let quote = value.first, quote == "\"" || quote == "'" {
                value = value.dropFirst()
                let end = value.firstIndex(of: quote) ?? value.endIndex
                result = value[..<end]
                rest = end < value.endIndex ? value[value.index(after: end)...] : value[end...]
            } else {
                let end = value.firstIndex { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == ">" } ?? value.endIndex
                result = value[..<end]
                rest = value[end...]
            }
            if key.lowercased() == wanted { return String(result) }
        }
        return nil
    }
}
