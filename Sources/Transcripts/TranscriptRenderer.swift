import Basics
import Captions
import Findings

/// Transcripts as plain text, Markdown, an accessible HTML document, or JSON.
public enum TranscriptRenderer {
    public enum Format: String, Sendable, CaseIterable { case text, markdown, html, json }

    /// Renders `transcript`; with `timestamps`, each paragraph starts with its time (in HTML a link to
    /// `mediaURL#t=SECONDS`, so a player can jump there).
    /// `producer`: the tool's name and version, written into the JSON (`tool`, `version`).
    public static func render(
        _ transcript: Transcript, as format: Format, timestamps: Bool = false, mediaURL: String = "", producer: (name: String, version: String)? = nil
    ) -> String {
        switch format {
        case .text:
            return transcript.paragraphs.map { paragraph in
                (timestamps ? "[\(stamp(paragraph.start))] " : "") + (paragraph.speaker.map { "\($0): " } ?? "") + paragraph.text
            }.joined(separator: "\n\n") + "\n"
        case .markdown:
            var output = "# \(markdownEscaped(transcript.title))\n"
            for paragraph in transcript.paragraphs {
                output +=
                    "\n" + (timestamps ? "`\(stamp(paragraph.start))` " : "")
                    + (paragraph.speaker.map { "**\(markdownEscaped($0)):** " } ?? "") + markdownEscaped(paragraph.text) + "\n"
            }
            return output
        case .html:
            var output = """
                <!DOCTYPE html>
                <html lang="\(escaped(transcript.language))">
                <head>
                <meta charset="utf-8" />
                <meta name="viewport" content="width=device-width, initial-scale=1" />
                <title>\(escaped(transcript.title)) — transcript</title>
                <style>body{font:1.1rem/1.6 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem}.time{font-variant-numeric:tabular-nums;margin-right:.5em}.speaker{font-weight:600}</style>
                </head>
                <body>
                <main>
                <h1>\(escaped(transcript.title))</h1>

                """
            for paragraph in transcript.paragraphs {
                output += "<p>"
                if timestamps {
                    output +=
                        "<a class=\"time\" href=\"\(escaped(mediaURL))#t=\(JSONValue.number(NumberText.rounded(paragraph.start)).serialized())\">\(stamp(paragraph.start))</a> "
                }
                if let speaker = paragraph.speaker { output += "<span class=\"speaker\">\(escaped(speaker)):</span> " }
                output += escaped(paragraph.text) + "</p>\n"
            }
            return output + "</main>\n</body>\n</html>\n"
        case .json:
            // A paragraph a line.
            var output = "{"
            if let producer {
                output += "\"tool\":\(JSONValue.string(producer.name).serialized()),\"version\":\(JSONValue.string(producer.version).serialized()),"
            }
            output +=
                "\"title\":\(JSONValue.string(transcript.title).serialized()),"
                + "\"language\":\(JSONValue.string(transcript.language).serialized()),\"paragraphs\":["
            for (index, paragraph) in transcript.paragraphs.enumerated() {
                let object = JSONValue.object([
                    ("start", .number(NumberText.rounded(paragraph.start))), ("end", .number(NumberText.rounded(paragraph.end))),
                    ("speaker", paragraph.speaker.map { .string($0) } ?? .null), ("text", .string(paragraph.text)),
                ])
                output += (index == 0 ? "\n" : ",\n") + object.serialized()
            }
            return output + "\n]}\n"
        }
    }

    /// `hh:mm:ss` (hours only when needed: `mm:ss`).
    static func stamp(_ seconds: Double) -> String {
        let total = Int(max(0, seconds))
        let h = total / 3600, m = total / 60 % 60, s = total % 60
        return h > 0 ? "\(h):\(pad(m)):\(pad(s))" : "\(pad(m)):\(pad(s))"
    }

    static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    static func escaped(_ text: String) -> String { XMLText.escape(text) }

    static func markdownEscaped(_ text: String) -> String {
        var output = ""
        for character in text {
            if "\\`*_[]<>#|".contains(character) { output.append("\\") }
            output.append(character)
        }
        return output
    }
}
