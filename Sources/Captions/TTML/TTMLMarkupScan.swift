/// Linear looks at a TTML document before the XML parser reads it. libxml2 checks each attribute of an
/// element against every one before it, so one element with hundreds of thousands of attributes takes minutes. Real
/// documents give an element tens; one with more than `limit` is refused.
enum TTMLMarkupScan {
    /// More attributes on one element than any TTML document needs (namespace declarations included).
    static let limit = 2_000

    /// What one pass over the start tags finds: the line of the first with more than `limit` attributes, if any
    /// (the scan stops there), and how many are `p` elements (`p` or a prefixed `…:p`), so that room for the cues is
    /// made once, not doubled as they come (a doubling holds old and new arrays at once). Comments, CDATA sections,
    /// processing instructions and the document type declaration are skipped; quoted values may hold anything.
    static func scan(_ buffer: UnsafeRawBufferPointer, limit: Int = limit) -> (crowdedTagLine: Int?, paragraphs: Int) {
        let bytes = buffer.bindMemory(to: UInt8.self)
        let count = bytes.count
        var index = 0
        var line = 1
        var paragraphs = 0
        func isNameEnd(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
        }
        while index < count {
            let byte = bytes[index]
            index += 1
            if byte == 0x0A {
                line += 1
                continue
            }
            guard byte == UInt8(ascii: "<"), index < count else { continue }
            if skipNonElement(bytes, &index, &line) { continue }
            switch bytes[index] {
            case UInt8(ascii: "/"):
                while index < count, bytes[index] != UInt8(ascii: ">") {
                    if bytes[index] == 0x0A { line += 1 }
                    index += 1
                }
            default:
                let tagLine = line
                // The element's name, up to white space, `>` or `/`: a paragraph when its local name is `p`.
                let nameStart = index
                while index < count, !isNameEnd(bytes[index]) { index += 1 }
                if bytes[index - 1] == UInt8(ascii: "p"), index - nameStart == 1 || bytes[index - 2] == UInt8(ascii: ":") { paragraphs += 1 }
                var attributes = 0
                var quote: UInt8 = 0
                while index < count {
                    let next = bytes[index]
                    index += 1
                    if next == 0x0A { line += 1 }
                    if quote != 0 {
                        if next == quote { quote = 0 }
                    } else if next == UInt8(ascii: "\"") || next == UInt8(ascii: "'") {
                        quote = next
                    } else if next == UInt8(ascii: "=") {
                        attributes += 1
                        if attributes > limit { return (tagLine, paragraphs) }
                    } else if next == UInt8(ascii: ">") {
                        break
                    }
                }
            }
        }
        return (nil, paragraphs)
    }

    /// At `index`, just after a `<`: skips a processing instruction, a comment, a CDATA section or a declaration
    /// (`<!DOCTYPE …>` with an internal subset in brackets), counting the lines passed; false, `index` unmoved, when
    /// what follows is a tag.
    static func skipNonElement<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ index: inout Int, _ line: inout Int) -> Bool
    where Bytes.Index == Int {
        let count = bytes.endIndex
        func skip(until terminator: String) {
            let terminator = Array(terminator.utf8)
            while index < count {
                if bytes[index] == terminator[0], index + terminator.count <= count,
                    terminator.indices.allSatisfy({ bytes[index + $0] == terminator[$0] })
                {
                    index += terminator.count
                    return
                }
                if bytes[index] == 0x0A { line += 1 }
                index += 1
            }
        }
        guard index < count else { return false }
        if bytes[index] == UInt8(ascii: "?") {
            skip(until: "?>")
        } else if bytes[index] == UInt8(ascii: "!") {
            if index + 2 < count, bytes[index + 1] == UInt8(ascii: "-"), bytes[index + 2] == UInt8(ascii: "-") {
                skip(until: "-->")
            } else if index + 1 < count, bytes[index + 1] == UInt8(ascii: "[") {
                skip(until: "]]>")
            } else {
                var depth = 0
                while index < count {
                    let next = bytes[index]
                    index += 1
                    if next == 0x0A { line += 1 }
                    if next == UInt8(ascii: "[") { depth += 1 }
                    if next == UInt8(ascii: "]") { depth -= 1 }
                    if next == UInt8(ascii: ">"), depth <= 0 { break }
                }
            }
        } else {
            return false
        }
        return true
    }
}
