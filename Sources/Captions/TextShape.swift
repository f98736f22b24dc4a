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

    /// Found with memchr: CRs, each ">" (checked for a "--" before it) and each line break (a line is looked at
    /// only up to its first visible byte, usually its first).
    init(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard n > 0, let base = bytes.baseAddress else {
            hasEmptyLine = true
            hasBlankLine = true
            return
        }
        hasCarriageReturn = memchr(base, 0x0D, n) != nil
        var from = 2
        while from < n, let found = memchr(base + from, 0x3E, n - from) {
            let gt = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if base[gt - 1] == 0x2D, base[gt - 2] == 0x2D {
                hasArrow = true
                break
            }
            from = gt + 1
        }
        var lineStart = 0
        while true {
            let lineEnd = memchr(base + lineStart, 0x0A, n - lineStart).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? n
            if lineEnd == lineStart {
                hasEmptyLine = true
                hasBlankLine = true
            } else if !hasBlankLine {
                // Blank: spaces, tabs, form feeds (and CRs, which the writers handle apart) only.
                var i = lineStart
                while i < lineEnd, base[i] == 0x20 || base[i] == 0x09 || base[i] == 0x0C || base[i] == 0x0D { i += 1 }
                if i == lineEnd { hasBlankLine = true }
            }
            if lineEnd == n { break }
            lineStart = lineEnd + 1
            if lineStart == n {
                hasEmptyLine = true  // a line break at the very end
                hasBlankLine = true
                break
            }
        }
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
