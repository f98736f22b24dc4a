/// The files an ffconcat script names, read as FFmpeg's concat demuxer reads them (lines end at CR, LF or NUL; a
/// line is a keyword and its arguments; `file` takes one token, with `'…'` quoting and `\` escapes), so that each can
/// be admitted before the demuxer opens it: the demuxer opens what it names itself, without asking MediaLint.
struct ConcatScript: Equatable {
    /// The `file` entries, as written (after unquoting), in order.
    var files: [String] = []
    /// Keywords MediaLint does not let through: `option` sets what the file named is opened with (its protocol or
    /// format lists, say), which would undo the limits set on the script.
    var refusedKeyword: String?

    /// Reads `bytes`, the whole script.
    init(_ bytes: some Collection<UInt8>) {
        var line: [UInt8] = []
        for byte in bytes {
            if byte == 0x0A || byte == 0x0D || byte == 0 {
                take(line)
                line.removeAll(keepingCapacity: true)
            } else {
                line.append(byte)
            }
        }
        take(line)
    }

    private static let spaces: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0A]

    private mutating func take(_ line: [UInt8]) {
        var index = line.startIndex
        while index < line.endIndex, Self.spaces.contains(line[index]) { index += 1 }
        let keywordStart = index
        while index < line.endIndex, !Self.spaces.contains(line[index]) { index += 1 }
        let keyword = String(decoding: line[keywordStart..<index], as: UTF8.self)
        guard !keyword.isEmpty, !keyword.hasPrefix("#") else { return }
        switch keyword {
        case "file": files.append(Self.token(line[index...]))
        case "option": if refusedKeyword == nil { refusedKeyword = keyword }
        default: break
        }
    }

    /// One token as FFmpeg's `av_get_token` reads it up to white space: leading white space skipped, `\x` is `x`,
    /// `'…'` is taken as written, trailing white space outside quotes dropped.
    static func token(_ text: ArraySlice<UInt8>) -> String {
        var index = text.startIndex
        while index < text.endIndex, spaces.contains(text[index]) { index += 1 }
        var out: [UInt8] = []
        var kept = 0  // the length that trailing white space may not be trimmed below
        while index < text.endIndex, !spaces.contains(text[index]) {
            let byte = text[index]
            index += 1
            if byte == UInt8(ascii: "\\"), index < text.endIndex {
                out.append(text[index])
                index += 1
                kept = out.count
            } else if byte == UInt8(ascii: "'") {
                while index < text.endIndex, text[index] != UInt8(ascii: "'") {
                    out.append(text[index])
                    index += 1
                }
                if index < text.endIndex {
                    index += 1
                    kept = out.count
                }
            } else {
                out.append(byte)
            }
        }
        while out.count > kept, let last = out.last, spaces.contains(last) { out.removeLast() }
        return String(decoding: out, as: UTF8.self)
    }
}
