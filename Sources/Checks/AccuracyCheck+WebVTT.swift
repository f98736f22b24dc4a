import Basics
import Captions
import SpeechAlignment

/// Captions with the time of each word: WebVTT whose cues carry a timestamp tag (`<00:00:01.230>`) before each word
/// found in the speech, at the times the sync fit put the cues.
public enum WordTimedCaptions {
    /// The WebVTT file: each cue at its time in `placed`, its plain text with a timestamp before every
    /// word whose time falls inside the cue (the first word's, at the cue's start, is the cue's own).
    public static func webVTT(placed: [CaptionedSpeech], accuracy: [CueAccuracy]) -> String {
        var text = "WEBVTT\n"
        for (index, cue) in placed.enumerated() {
            let words = index < accuracy.count ? accuracy[index].words : []
            let start = CaptionTime(seconds: max(0, cue.start)), end = CaptionTime(seconds: max(0, cue.end))
            guard end > start else { continue }
            text += "\n\(start.webVTTString) --> \(end.webVTTString)\n"
            text += timed(cue.text, words: words, start: cue.start, end: cue.end) + "\n"
        }
        return text
    }

    /// `text` with a timestamp before each of its tokens that says words, in order: a token says as many of the words
    /// as `SpokenWords` reads in it (none for a speaker's label or a description in brackets).
    static func timed(_ text: String, words: [AlignedWord], start: Double, end: Double) -> String {
        var next = 0, last = start
        var closing: Character?
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(separator: " ", omittingEmptySubsequences: false).map { token -> String in
                let escaped = WebVTTText.escape(token)
                if let close = closing {
                    if token.contains(close) { closing = nil }
                    return escaped
                }
                if let open = token.first, open == "[" || open == "(" {
                    let close: Character = open == "[" ? "]" : ")"
                    if !token.contains(close) { closing = close }
                    return escaped
                }
                let count = SpokenWords.of(String(token)).count
                guard count > 0, next < words.count else { return escaped }
                let time = words[next].start
                next += count
                guard time > last + 0.0005, time < end else { return escaped }
                last = time
                return "<\(CaptionTime(seconds: time).webVTTString)>" + escaped
            }.joined(separator: " ")
        }
        return lines.joined(separator: "\n")
    }
}
