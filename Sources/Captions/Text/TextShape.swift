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

/// Cue text written line by line straight into a writer's output, as a caption file can hold it: lines that would
/// end the cue are dropped and every "-->" (which would start a new cue) is made harmless, until none is left
/// ("---->" included). Nothing is copied: a cue of millions of lines takes no memory of its own.
enum SafeLines {
    /// How an arrow is made harmless.
    enum Arrow {
        /// WebVTT: the ">" after two or more dashes written as "&gt;" ("-->" reads "--&gt;").
        case escaped
        /// SRT: two or more dashes before ">" written as one ("-->" reads "->").
        case shortened
    }

    struct Outcome {
        var droppedLines = false
        var replacedArrows = false
    }

    /// Appends the kept lines of `text` to `out`, each ended by LF (CR LF with `crlf`); lines end at LF, CR LF or
    /// CR. With `spill`, the output is handed on whenever it holds a chunk.
    static func append(
        _ text: String, to out: inout [UInt8], dropping isDropped: (UnsafeBufferPointer<UInt8>) -> Bool,
        arrow: Arrow, crlf: Bool = false, spill: ((inout [UInt8]) -> Void)?
    ) -> Outcome {
        var outcome = Outcome()
        text.withUTF8Bytes { bytes in
            var start = 0
            while true {
                var end = start
                while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if isDropped(line) {
                    outcome.droppedLines = true
                } else {
                    appendLine(line, to: &out, arrow: arrow, replaced: &outcome.replacedArrows, spill: spill)
                    if crlf { out.append(0x0D) }
                    out.append(0x0A)
                    if let spill, out.count >= captionWriterChunkSize { spill(&out) }
                }
                guard end < bytes.count else { break }
                start = end + (bytes[end] == 0x0D && end + 1 < bytes.count && bytes[end + 1] == 0x0A ? 2 : 1)
            }
        }
        return outcome
    }

    private static func appendLine(
        _ line: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], arrow: Arrow, replaced: inout Bool,
        spill: ((inout [UInt8]) -> Void)?
    ) {
        var dashes = 0  // dashes just written
        for byte in line {
            if byte == UInt8(ascii: ">"), dashes >= 2 {
                replaced = true
                switch arrow {
                case .escaped:
                    out.append(contentsOf: "&gt;".utf8)
                case .shortened:
                    out.removeLast(dashes - 1)
                    out.append(byte)
                }
                dashes = 0
                continue
            }
            dashes = byte == UInt8(ascii: "-") ? dashes + 1 : 0
            out.append(byte)
            // A long line is handed on in chunks, but never inside a run of dashes (a later ">" may shorten it).
            if dashes == 0, let spill, out.count >= captionWriterChunkSize { spill(&out) }
        }
    }

    /// WebVTT drops empty lines.
    static func isEmpty(_ line: UnsafeBufferPointer<UInt8>) -> Bool { line.isEmpty }

    /// SRT drops lines of only spaces, tabs and form feeds (a blank line ends an SRT cue).
    static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0C }
    }
}
