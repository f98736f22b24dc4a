import Captions
import Foundation
import Testing

@testable import Transcripts

/// Transcripts from hand-made captions: roll-up repeats, speakers, paragraphs, sounds, and the renderers.
struct TranscriptTests {
    func document(_ text: String) throws -> CaptionDocument { try WebVTTReader(mode: .lenient).read(utf8: Array(text.utf8)) }

    /// YouTube-style auto captions: each cue repeats the line before it, and lines grow word by word.
    @Test func rollUpGivesEachSentenceOnce() throws {
        let captions = try document(
            """
            WEBVTT

            00:00:00.000 --> 00:00:02.000
            welcome back everyone

            00:00:02.000 --> 00:00:04.000
            welcome back everyone
            today we are talking

            00:00:04.000 --> 00:00:05.000
            today we are talking
            today we are talking about captions

            00:00:05.000 --> 00:00:07.000
            today we are talking about captions
            and why they matter

            00:00:07.000 --> 00:00:09.000
            and why they matter
            """)
        let transcript = TranscriptBuilder().build(captions, title: "Roll-up")
        #expect(transcript.paragraphs.map(\.text) == ["welcome back everyone today we are talking about captions and why they matter"])
        #expect(transcript.paragraphs.first.map { [$0.start, $0.end] } == [0, 9])
    }

    @Test func speakersAndParagraphs() throws {
        let captions = try document(
            """
            WEBVTT
            Language: en-GB

            00:00:01.000 --> 00:00:03.000
            <v Ann>Hello there, &amp; welcome.

            00:00:03.000 --> 00:00:05.000
            <v Ann>This is the show.

            00:00:05.500 --> 00:00:07.000
            <v Bob>Thanks, Ann.

            00:00:07.000 --> 00:00:08.000
            [door slams]

            00:00:12.000 --> 00:00:14.000
            BOB: Later that day.

            00:00:14.500 --> 00:00:16.000
            - Are you there?
            - Yes.
            """)
        let transcript = TranscriptBuilder().build(captions, title: "Show")
        #expect(transcript.language == "en-GB")
        #expect(
            transcript.paragraphs.map { "\($0.speaker ?? "-")|\($0.text)" } == [
                "Ann|Hello there, & welcome. This is the show.",
                "Bob|Thanks, Ann. [door slams]",
                "Bob|Later that day.",
                "-|Are you there?",
                "-|Yes.",
            ])
        let quiet = TranscriptBuilder(includeSounds: false).build(captions, title: "Show")
        #expect(quiet.paragraphs[1].text == "Thanks, Ann.")
        #expect(quiet.paragraphs.count == 5)
    }

    @Test func srtSpeakerLabelsAndMarkup() throws {
        let captions = try SRTReader().read(
            utf8: Array(
                """
                1
                00:00:01,000 --> 00:00:02,000
                <i>NARRATOR: It began</i>

                2
                00:00:02,000 --> 00:00:03,000
                in the spring.

                3
                00:00:03,000 --> 00:00:04,000
                Dr. Lee: Not quite.

                """.utf8))
        let transcript = TranscriptBuilder().build(captions, title: "Story")
        #expect(transcript.paragraphs.map { "\($0.speaker ?? "-")|\($0.text)" } == ["Narrator|It began in the spring.", "Dr. Lee|Not quite."])
    }

    @Test func renderers() throws {
        let transcript = Transcript(
            title: "A <talk>", language: "en",
            paragraphs: [
                .init(speaker: "Ann", start: 1, end: 3, text: "Fish & chips."),
                .init(speaker: nil, start: 65.5, end: 70, text: "[music] \"Quiet\" *now*"),
            ])
        #expect(TranscriptRenderer.render(transcript, as: .text) == "Ann: Fish & chips.\n\n[music] \"Quiet\" *now*\n")
        #expect(TranscriptRenderer.render(transcript, as: .text, timestamps: true) == "[00:01] Ann: Fish & chips.\n\n[01:05] [music] \"Quiet\" *now*\n")
        #expect(TranscriptRenderer.render(transcript, as: .markdown) == "# A \\<talk\\>\n\n**Ann:** Fish & chips.\n\n\\[music\\] \"Quiet\" \\*now\\*\n")
        #expect(
            TranscriptRenderer.render(transcript, as: .json) == """
                {"title":"A <talk>","language":"en","paragraphs":[
                {"start":1,"end":3,"speaker":"Ann","text":"Fish & chips."},
                {"start":65.5,"end":70,"speaker":null,"text":"[music] \\"Quiet\\" *now*"}
                ]}

                """)
        let html = TranscriptRenderer.render(transcript, as: .html, timestamps: true, mediaURL: "talk.mp4")
        #expect(html.contains("<p><a class=\"time\" href=\"talk.mp4#t=65.5\">01:05</a> [music] &quot;Quiet&quot; *now*</p>"))
        #expect(html.contains("<title>A &lt;talk&gt; — transcript</title>"))
    }
}

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The HTML transcript is a well-formed, accessible document: language set, one h1, a title, paragraphs with text.
struct TranscriptHTMLTests {
    @Test func structure() throws {
        let captions = try WebVTTReader(mode: .lenient).read(
            utf8: Array(
                """
                WEBVTT
                Language: fr

                00:00:01.000 --> 00:00:03.000
                <v Anne>Bonjour &amp; bienvenue.

                00:00:06.000 --> 00:00:08.000
                [musique]

                00:00:08.000 --> 00:00:09.000
                <i>Merci.</i>
                """.utf8))
        let transcript = TranscriptBuilder(includeSounds: false).build(captions, title: "Émission <1>")
        let html = TranscriptRenderer.render(transcript, as: .html, timestamps: true, mediaURL: "video.mp4")
        let document = try XMLDocument(data: Data(html.utf8), options: [.nodePreserveWhitespace])
        let root = try #require(document.rootElement())
        #expect(root.name == "html" && root.attribute(forName: "lang")?.stringValue == "fr")
        let head = try #require(root.elements(forName: "head").first)
        #expect(head.elements(forName: "title").first?.stringValue == "Émission <1> — transcript")
        let main = try #require(root.elements(forName: "body").first?.elements(forName: "main").first)
        #expect(try document.nodes(forXPath: "//h1").count == 1)
        #expect(main.elements(forName: "h1").first?.stringValue == "Émission <1>")
        let paragraphs = main.elements(forName: "p")
        #expect(paragraphs.count == 2)
        for paragraph in paragraphs {
            #expect(!(paragraph.stringValue ?? "").trimmingCharacters(in: .whitespaces).isEmpty)
            #expect(paragraph.elements(forName: "a").first?.attribute(forName: "href")?.stringValue?.hasPrefix("video.mp4#t=") == true)
        }
        #expect(paragraphs.map(\.stringValue) == ["00:01 Anne: Bonjour & bienvenue.", "00:08 Merci."])
    }
}

/// Long files are built in slices on all cores: the result must be the one a single pass gives.
struct TranscriptSliceTests {
    @Test func slicesGiveTheSameTranscript() {
        var cues: [Cue] = []
        var t: Int64 = 0
        let speakers = ["ANN", "BOB", "Dr. Lee"]
        var previous = "start of the story"
        for i in 0..<30_000 {
            var text: String
            switch i % 11 {
            case 0: text = "\(speakers[i / 11 % 3]): line \(i) is said here"
            case 3: text = "\(previous)\nand then line \(i) follows"  // roll-up
            case 5: text = "- Are you there \(i)?\n- Yes."
            case 7: text = "[music \(i)]"
            case 8: text = "<i>Quietly</i> line \(i)"
            default: text = "words of line \(i)"
            }
            previous = String(text.split(separator: "\n").last ?? "")
            let gap: Int64 = i % 97 == 0 ? 3_000 : 200
            cues.append(Cue(start: CaptionTime(milliseconds: t), end: CaptionTime(milliseconds: t + 1_500), text: text))
            t += 1_500 + gap
        }
        let document = CaptionDocument(format: .srt, cues: cues)
        for builder in [TranscriptBuilder(), TranscriptBuilder(includeSounds: false)] {
            var state = TranscriptBuilder.State()
            let single = builder.run(cues, 0..<cues.count, .srt, &state, continuing: false).paragraphs
            let sliced = builder.build(document, title: "t").paragraphs
            #expect(sliced.count == single.count)
            #expect(sliced == single)
        }
    }
}
