/// Linear looks at a TTML document before the XML parser reads it. libxml2 checks each attribute of an
/// element against every one before it, so one element with hundreds of thousands of attributes takes minutes. Real
/// documents give an element tens; one with more than `limit` is refused.
enum TTMLMarkupScan {
    /// More attributes on one element than any TTML document needs (namespace declarations included).
    static let limit = 2_000

    /// How many `p` elements the document holds at most (`<p` or a prefixed `:p` before white space, `>` or `/`):
    /// room for the cues is made once, not doubled as they come (a doubling costs old and new arrays at once).
    static func paragraphCount(in buffer: UnsafeRawBufferPointer) -> Int {
        let bytes = buffer.bindMemory(to: UInt8.self)
        guard bytes.count > 2 else { return 0 }
        var count = 0
        for index in 1..<(bytes.count - 1) where bytes[index] == UInt8(ascii: "p") {
            let before = bytes[index - 1], after = bytes[index + 1]
            guard before == UInt8(ascii: "<") || before == UInt8(ascii: ":") else { continue }
            if after == 0x20 || after == 0x09 || after == 0x0A || after == 0x0D || after == UInt8(ascii: ">") || after == UInt8(ascii: "/") { count += 1 }
        }
        return count
    }

    /// The line of the first start tag with more than `limit` attributes, if any. Comments, CDATA sections,
    /// processing instructions and the document type declaration are skipped; quoted values may hold anything.
    static func firstCrowdedTag(in buffer: UnsafeRawBufferPointer, limit: Int = limit) -> Int? {
        let bytes = buffer.bindMemory(to: UInt8.self)
        let count = bytes.count
        var index = 0
        var line = 1
        @inline(__always) func skip(until terminator: [UInt8]) {
            while index < count {
                if bytes[index] == 0x0A { line += 1 }
                if bytes[index] == terminator[0], index + terminator.count <= count,
                    terminator.indices.allSatisfy({ bytes[index + $0] == terminator[$0] })
                {
                    index += terminator.count
                    return
                }
                index += 1
            }
        }
        while index < count {
            let byte = bytes[index]
            index += 1
            if byte == 0x0A {
                line += 1
                continue
            }
            guard byte == UInt8(ascii: "<"), index < count else { continue }
            switch bytes[index] {
            case UInt8(ascii: "?"): skip(until: Array("?>".utf8))
            case UInt8(ascii: "!"):
                if index + 2 < count, bytes[index + 1] == UInt8(ascii: "-"), bytes[index + 2] == UInt8(ascii: "-") {
                    skip(until: Array("-->".utf8))
                } else if index + 7 < count, bytes[index + 1] == UInt8(ascii: "[") {
                    skip(until: Array("]]>".utf8))
                } else {
                    // <!DOCTYPE …> with an internal subset in brackets, or any other declaration.
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
            case UInt8(ascii: "/"): skip(until: Array(">".utf8))
            default:
                let tagLine = line
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
                        if attributes > limit { return tagLine }
                    } else if next == UInt8(ascii: ">") {
                        break
                    }
                }
            }
        }
        return nil
    }
}
