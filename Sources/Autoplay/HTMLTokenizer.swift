import Basics

/// A start tag as the HTML tokenizer reads it: lower-cased name, attributes in order (names lower-cased,
/// values with character references decoded), and the line it starts on.
public struct HTMLStartTag: Sendable, Equatable {
    public var name: String
    public var attributes: [(name: String, value: String)]
    public var line: Int
    public var selfClosing: Bool

    /// The first attribute called `name` (the HTML standard ignores later duplicates).
    public func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
    public func has(_ name: String) -> Bool { attributes.contains { $0.name == name } }

    public static func == (lhs: HTMLStartTag, rhs: HTMLStartTag) -> Bool {
        lhs.name == rhs.name && lhs.line == rhs.line && lhs.selfClosing == rhs.selfClosing
            && lhs.attributes.map(\.name) == rhs.attributes.map(\.name) && lhs.attributes.map(\.value) == rhs.attributes.map(\.value)
    }
}

/// What the tokenizer gives: start and end tags, and text (comments and doctypes are skipped).
public enum HTMLToken: Sendable, Equatable {
    case start(HTMLStartTag)
    case end(name: String, line: Int)
    case text(String)
}

/// The HTML tokenizer for what the autoplay check needs, after the WHATWG tokenization rules: tag and
/// attribute names are case-insensitive; attribute values may be double-quoted, single-quoted, unquoted or
/// absent; comments (`<!-- … -->`, and the bogus `<! …>`/`<? …>` forms) hide what is inside them; the
/// contents of `script`, `style`, `xmp`, `iframe`, `noembed`, `noframes` and (scripting enabled) `noscript`
/// are raw text, and of `title` and `textarea` escapable raw text — no elements in either.
public struct HTMLTokenizer: Sendable {
    private let bytes: [UInt8]

    public init(_ text: String) { bytes = Array(text.utf8) }
    public init(bytes: [UInt8]) { self.bytes = bytes }

    static let rawTextElements: Set<String> = ["script", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "title", "textarea"]

    /// Every token, in order.
    public func tokens() -> [HTMLToken] {
        var tokens: [HTMLToken] = []
        var i = 0
        var line = 1
        var text: [UInt8] = []
        let count = bytes.count

        func flushText() {
            if !text.isEmpty { tokens.append(.text(CharacterReferences.decode(String(decoding: text, as: UTF8.self)))) }
            text.removeAll(keepingCapacity: true)
        }
        func advance(to end: Int) {
            while i < end {
                if bytes[i] == 0x0A { line += 1 }
                i += 1
            }
        }
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D }
        func find(_ needle: [UInt8], from start: Int, caseInsensitive: Bool = false) -> Int? {
            guard needle.count <= count else { return nil }
            var k = start
            while k + needle.count <= count {
                var matched = true
                for (offset, expected) in needle.enumerated() {
                    let actual = bytes[k + offset]
                    if caseInsensitive ? (actual | 0x20) != (expected | 0x20) : actual != expected { matched = false; break }
                }
                if matched { return k }
                k += 1
            }
            return nil
        }

        while i < count {
            let byte = bytes[i]
            guard byte == UInt8(ascii: "<"), i + 1 < count else {
                if byte == 0x0A { line += 1 }
                text.append(byte)
                i += 1
                continue
            }
            let next = bytes[i + 1]
            if next == UInt8(ascii: "!") {
                flushText()
                if i + 3 < count, bytes[i + 2] == UInt8(ascii: "-"), bytes[i + 3] == UInt8(ascii: "-") {
                    // A comment ends at the first "-->" (or "<!-->" / "<!--->" at once), else at the end.
                    var end = count
                    if i + 4 < count, bytes[i + 4] == UInt8(ascii: ">") {
                        end = i + 5
                    } else if i + 5 < count, bytes[i + 4] == UInt8(ascii: "-"), bytes[i + 5] == UInt8(ascii: ">") {
                        end = i + 6
                    } else if let close = find(Array("-->".utf8), from: i + 4) {
                        end = close + 3
                    }
                    advance(to: end)
                } else {
                    // A doctype or bogus comment: up to the next '>'.
                    advance(to: (find([UInt8(ascii: ">")], from: i + 2) ?? count - 1) + 1)
                }
                continue
            }
            if next == UInt8(ascii: "?") {
                flushText()
                advance(to: (find([UInt8(ascii: ">")], from: i + 2) ?? count - 1) + 1)
                continue
            }
            let closing = next == UInt8(ascii: "/")
            let nameStart = closing ? i + 2 : i + 1
            guard nameStart < count, isLetter(bytes[nameStart]) else {
                if closing, nameStart < count, bytes[nameStart] == UInt8(ascii: ">") {
                    advance(to: nameStart + 1)  // "</>" is dropped
                } else if closing, nameStart < count {
                    flushText()
                    advance(to: (find([UInt8(ascii: ">")], from: nameStart) ?? count - 1) + 1)  // a bogus comment
                } else {
                    text.append(byte)
                    i += 1
                }
                continue
            }
            flushText()
            let tagLine = line
            // The tag name runs to whitespace, '/' or '>'.
            var j = nameStart
            while j < count, !isSpace(bytes[j]), bytes[j] != UInt8(ascii: "/"), bytes[j] != UInt8(ascii: ">") { j += 1 }
            let name = String(decoding: bytes[nameStart..<j], as: UTF8.self).lowercased()
            var attributes: [(name: String, value: String)] = []
            var seenNames = Set<String>()  // duplicates are dropped: a set keeps that linear in the attribute count
            var selfClosing = false
            // Attributes, until '>'.
            var k = j
            attributeLoop: while k < count {
                while k < count, isSpace(bytes[k]) || bytes[k] == UInt8(ascii: "/") {
                    if bytes[k] == UInt8(ascii: "/") { selfClosing = k + 1 < count && bytes[k + 1] == UInt8(ascii: ">") }
                    k += 1
                }
                guard k < count else { break }
                if bytes[k] == UInt8(ascii: ">") { k += 1; break }
                selfClosing = false
                // An attribute name: up to whitespace, '/', '>' or '=' (a leading '=' belongs to the name).
                let attributeStart = k
                k += 1
                while k < count, !isSpace(bytes[k]), bytes[k] != UInt8(ascii: "/"), bytes[k] != UInt8(ascii: ">"), bytes[k] != UInt8(ascii: "=") { k += 1 }
                let attributeName = String(decoding: bytes[attributeStart..<k], as: UTF8.self).lowercased()
                var probe = k
                while probe < count, isSpace(bytes[probe]) { probe += 1 }
                var value = ""
                if probe < count, bytes[probe] == UInt8(ascii: "=") {
                    k = probe + 1
                    while k < count, isSpace(bytes[k]) { k += 1 }
                    if k < count, bytes[k] == UInt8(ascii: "\"") || bytes[k] == UInt8(ascii: "'") {
                        let quote = bytes[k]
                        let valueStart = k + 1
                        var valueEnd = valueStart
                        while valueEnd < count, bytes[valueEnd] != quote { valueEnd += 1 }
                        value = String(decoding: bytes[valueStart..<min(valueEnd, count)], as: UTF8.self)
                        k = min(count, valueEnd + 1)
                    } else {
                        let valueStart = k
                        while k < count, !isSpace(bytes[k]), bytes[k] != UInt8(ascii: ">") { k += 1 }
                        value = String(decoding: bytes[valueStart..<k], as: UTF8.self)
                    }
                    value = CharacterReferences.decode(value, inAttribute: true)
                }
                if seenNames.insert(attributeName).inserted { attributes.append((attributeName, value)) }
                continue attributeLoop
            }
            advance(to: min(k, count))
            if closing {
                tokens.append(.end(name: name, line: tagLine))
                continue
            }
            tokens.append(.start(HTMLStartTag(name: name, attributes: attributes, line: tagLine, selfClosing: selfClosing)))
            // Raw text: everything up to the matching end tag is text, not markup.
            if Self.rawTextElements.contains(name) {
                let endTag = Array("</\(name)".utf8)
                var search = i
                var end: Int?
                while let found = find(endTag, from: search, caseInsensitive: true) {
                    let after = found + endTag.count
                    if after >= count || isSpace(bytes[after]) || bytes[after] == UInt8(ascii: "/") || bytes[after] == UInt8(ascii: ">") {
                        end = found
                        break
                    }
                    search = found + 1
                }
                let stop = end ?? count
                text.append(contentsOf: bytes[i..<stop])
                for byte in bytes[i..<stop] where byte == 0x0A { line += 1 }
                i = stop
                flushText()
            }
        }
        flushText()
        return tokens
    }
}
