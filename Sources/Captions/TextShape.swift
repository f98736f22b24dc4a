import Foundation

/// What a piece of text holds that could break a caption file's structure, found in one pass over its bytes.
struct TextShape {
    var hasCarriageReturn = false
    var hasArrow = false
    /// A line with no characters, counting a line break at the very start or end.
    var hasEmptyLine = false
    /// A line of only ASCII whitespace (spaces, tabs, form feeds) or nothing: what SRT readers take for blank.
    var hasBlankLine = false

    init(_ text: String) {
        if let shape = text.utf8.withContiguousStorageIfAvailable({ TextShape(utf8: $0) }) {
            self = shape
        } else {
            self = Array(text.utf8).withUnsafeBufferPointer { TextShape(utf8: $0) }
        }
    }

    init(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard n > 0 else {
            hasEmptyLine = true
            hasBlankLine = true
            return
        }
        var lineIsBlank = true
        var i = 0
        while i < n {
            let b = bytes[i]
            i += 1
            // Letters and every non-ASCII byte are above ">": most bytes take this one branch.
            if b > 0x3E {
                lineIsBlank = false
                continue
            }
            switch b {
            case 0x0D:
                hasCarriageReturn = true
            case 0x0A:
                if i == 1 || bytes[i - 2] == 0x0A { hasEmptyLine = true }
                if lineIsBlank { hasBlankLine = true }
                lineIsBlank = true
            case 0x3E:
                if i >= 3, bytes[i - 2] == 0x2D, bytes[i - 3] == 0x2D { hasArrow = true }
                lineIsBlank = false
            case 0x20, 0x09, 0x0C:
                break
            default:
                lineIsBlank = false
            }
        }
        if bytes[n - 1] == 0x0A { hasEmptyLine = true }
        if lineIsBlank { hasBlankLine = true }
    }
}

/// Cue text split into lines that a caption file can hold: lines that would end the cue are dropped and
/// every "-->" (which would start a new cue) is replaced, until none is left ("---->" included).
struct SafeLines {
    var lines: [String] = []
    var droppedLines = false
    var replacedArrows = false

    init(_ text: String, dropping isDropped: (Substring) -> Bool, arrowReplacement: String) {
        let all = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        for line in all {
            if isDropped(line) {
                droppedLines = true
                continue
            }
            var safe = String(line)
            while safe.contains("-->") {
                safe = safe.replacingOccurrences(of: "-->", with: arrowReplacement)
                replacedArrows = true
            }
            lines.append(safe)
        }
    }
}
