import Captions

/// Which cues carry speech. Cues that only describe sound (`♪`, `[MUSIC]`, `(laughs)`) or only name a
/// speaker are left out of the alignment: there is no speech to line them up with.
public enum DialogueCues {
    /// The cues of `document` that carry speech: their index in the document and their times in seconds.
    public static func of(_ document: CaptionDocument) -> [(index: Int, start: Double, end: Double)] {
        document.cues.enumerated().compactMap { index, cue in
            isSpeech(cue.plainText(in: document.format)) && cue.end > cue.start ? (index, cue.start.seconds, cue.end.seconds) : nil
        }
    }

    /// The cues of `document` that describe sound (`[MUSIC]`, `♪ ♪`, `(thunder)`): no words of dialogue, but a
    /// description in brackets or a music note. What sounds under them is expected, even if it sounds like speech.
    public static func sounds(of document: CaptionDocument) -> [(index: Int, start: Double, end: Double)] {
        document.cues.enumerated().compactMap { index, cue in
            let text = cue.plainText(in: document.format)
            let describes = text.contains { "[(（【♪♫♬♩".contains($0) }
            return describes && !isSpeech(text) && cue.end > cue.start ? (index, cue.start.seconds, cue.end.seconds) : nil
        }
    }

    /// Whether a cue's plain text has any words left once sound descriptions in brackets or parentheses,
    /// music notes and speaker labels (`JOHN:`, `- `) are taken out.
    public static func isSpeech(_ text: String) -> Bool {
        var depth = 0
        var words = ""
        for character in text {
            switch character {
            case "[", "(", "（", "【": depth += 1
            case "]", ")", "）", "】": depth = max(0, depth - 1)
            case "♪", "♫", "♬", "♩", "#": continue
            default: if depth == 0 { words.append(character) }
            }
        }
        for line in words.split(whereSeparator: \.isNewline) {
            var rest = Substring(line)
            // A speaker label: "NAME:" or "Name:" at the start of a line.
            if let colon = rest.firstIndex(of: ":"), rest.distance(from: rest.startIndex, to: colon) <= 24,
                !rest[..<colon].contains(where: { $0.isNumber })
            {
                rest = rest[rest.index(after: colon)...]
            }
            if rest.contains(where: { $0.isLetter || $0.isNumber }) { return true }
        }
        return false
    }
}
