import Basics

extension Finding {
    /// A fingerprint that stays the same while the file changes around the finding: its file, rule, times and
    /// message with cue numbers left out (`cue 12` → `cue #`, `cue 3 (2)` → `cue #`), not its line. A cue inserted above it moves its line
    /// and number, not its fingerprint. 16 hex digits (FNV-1a, 64 bits).
    public func fingerprint(file: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
            hash ^= 0xFF
            hash &*= 0x0000_0100_0000_01B3
        }
        mix(file)
        mix(rule)
        mix(start.map { String(Int64((($0) * 1000).rounded())) } ?? "-")
        mix(end.map { String(Int64((($0) * 1000).rounded())) } ?? "-")
        mix(Self.withoutCueNumbers(Self.withoutFolders(message)))
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Absolute paths in a message (`… (to /home/ana/lib/x.mp4)`) cut to their last name (`… (to x.mp4)`): a library
    /// moved, or checked on another machine, keeps its fingerprints.
    package static func withoutFolders(_ message: String) -> String {
        guard message.contains("/") else { return message }
        var out = ""
        var word = ""
        func flush() {
            if word.hasPrefix("/"), let last = word.split(separator: "/").last { out += last } else { out += word }
            word = ""
        }
        for character in message {
            if character == " " || character == "(" || character == ")" || character == "\"" || character == "," {
                flush()
                out.append(character)
            } else {
                word.append(character)
            }
        }
        flush()
        return out
    }

    /// `cue 12: …` → `cue #: …`, `cues 3–5` → `cues #–#`, `cue 3 (2): …` → `cue #: …`: the numbers (and the
    /// identifier shown beside a number it no longer matches) that change when cues are added above.
    package static func withoutCueNumbers(_ message: String) -> String {
        var out = ""
        var rest = message[...]
        while let range = rest.range(of: "cue") {
            out += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            if rest.hasPrefix("s") {
                out += "s"
                rest = rest.dropFirst()
            }
            guard rest.hasPrefix(" "), rest.dropFirst().first?.isDigitCharacter == true else { continue }
            out += " #"
            rest = rest.dropFirst().drop { $0.isDigitCharacter }
            while let first = rest.first, first == "–" || first == "-", rest.dropFirst().first?.isDigitCharacter == true {
                out += "–#"
                rest = rest.dropFirst().drop { $0.isDigitCharacter }
            }
            // The cue's own identifier after its number (`cue 3 (2)`: an SRT index that no longer matches): left out too.
            if rest.hasPrefix(" ("), let close = rest.firstIndex(of: ")") { rest = rest[rest.index(after: close)...] }
        }
        return out + rest
    }
}

extension Character {
    fileprivate var isDigitCharacter: Bool { ("0"..."9").contains(self) }
}
