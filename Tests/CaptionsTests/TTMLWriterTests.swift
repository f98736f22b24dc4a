import Foundation
import Testing

@testable import Captions

/// IMSC 1.1 Text written from cues: TTML → WebVTT → TTML keeps every cue (times to the millisecond, text, styles,
/// speakers, places); the written file is a fixed point, reads back with no profile finding, and says what it loses.
@Suite struct TTMLWriterTests {
    static let rich = TTMLReaderTests.document(
        """
        <div>
          <p xml:id="first" begin="00:00:01:12" end="00:00:03.250" style="loud">Bold &amp; yellow<br/><span tts:fontStyle="italic" tts:color="#FF8000">orange italic</span> <span tts:textDecoration="underline">under</span></p>
          <p begin="3.5s" end="5s" ttm:agent="alice" region="top">Hello, <span xml:lang="fr">bonjour</span> &lt;3</p>
          <p begin="5s" end="6s" region="middle" tts:textAlign="right"><span tts:textDecoration="lineThrough">struck</span> and <span tts:color="lime">lime</span></p>
          <p begin="6s" end="9s" region="bottom">Always <span begin="1s" end="2s">then more</span></p>
        </div>
        """,
        head: """
            <metadata><ttm:agent xml:id="alice" type="person"><ttm:name type="full">Alice</ttm:name></ttm:agent></metadata>
            <styling><style xml:id="base" tts:color="yellow"/><style xml:id="loud" style="base" tts:fontWeight="bold"/></styling>
            <layout>
              <region xml:id="bottom" tts:origin="10% 10%" tts:extent="80% 80%" tts:displayAlign="after" tts:textAlign="center"/>
              <region xml:id="top" tts:origin="20% 5%" tts:extent="60% 20%" tts:displayAlign="before" tts:textAlign="left"/>
              <region xml:id="middle" tts:origin="10% 20%" tts:extent="50% 40%" tts:displayAlign="center"/>
            </layout>
            """,
        attributes: #"ttp:frameRate="25""#)

    @Test func ttmlThroughWebVTTAndBack() throws {
        let original = try TTMLReader().read(Self.rich)
        #expect(
            TTMLReaderTests.timed(original) == [
                "1480-3250 <c.yellow><b>Bold &amp; yellow</b></c>\n<c.color-ff8000><i><b>orange italic</b></i></c><c.yellow><b> <u>under</u></b></c>",
                "3500-5000 <v Alice>Hello, <lang fr>bonjour</lang> &lt;3</v>",
                "5000-6000 <c.strike>struck</c> and <c.lime>lime</c>",
                "6000-7000 Always", "7000-8000 Always then more", "8000-9000 Always",
            ])
        let webVTT = CaptionFile.encode(original, as: .webvtt)
        #expect(webVTT.diagnostics.isEmpty)
        let viaWebVTT = try CaptionFile.read(webVTT.bytes, format: .webvtt)
        #expect(viaWebVTT.cues == original.cues)
        let written = CaptionFile.encode(viaWebVTT, as: .ttml)
        #expect(written.diagnostics.isEmpty)
        let back = try TTMLReader(mode: .strict).read(written.bytes)
        #expect(back.cues == original.cues)
        #expect(back.diagnostics.isEmpty, "valid IMSC 1.1 Text: \(back.diagnostics)")
        // Written again from what it reads: the same bytes.
        #expect(TTMLWriter().write(back.cues).bytes == written.bytes)
    }

    @Test func writtenDocument() throws {
        var placed = CueSettings()
        placed.snapToLines = false
        placed.line = 5
        placed.position = 20
        placed.positionAlign = .lineLeft
        placed.size = 60
        placed.align = .left
        let cues = [
            Cue(
                identifier: "intro", start: CaptionTime(milliseconds: 1000), end: CaptionTime(milliseconds: 2500),
                text: "<i>One</i> &amp; <v Bob>two</v>\nlines"),
            Cue(start: CaptionTime(milliseconds: 3_723_004), end: CaptionTime(milliseconds: 3_724_000), text: "top", settings: placed),
        ]
        let (bytes, diagnostics) = TTMLWriter(language: "en").write(cues)
        #expect(diagnostics.isEmpty)
        #expect(
            String(decoding: bytes, as: UTF8.self) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" xmlns:tts="http://www.w3.org/ns/ttml#styling" xmlns:ttm="http://www.w3.org/ns/ttml#metadata" xml:lang="en" ttp:contentProfiles="http://www.w3.org/ns/ttml/profile/imsc1.1/text">
                  <head>
                    <metadata>
                      <ttm:agent xml:id="agent1" type="person"><ttm:name type="full">Bob</ttm:name></ttm:agent>
                    </metadata>
                    <layout>
                      <region xml:id="r1" tts:origin="10% 73.333%" tts:extent="80% 16.667%" tts:displayAlign="after" tts:textAlign="center"/>
                      <region xml:id="r2" tts:origin="20% 5%" tts:extent="60% 8.333%" tts:displayAlign="before" tts:textAlign="left"/>
                    </layout>
                  </head>
                  <body>
                    <div>
                      <p xml:id="intro" begin="00:00:01.000" end="00:00:02.500" region="r1"><span tts:fontStyle="italic">One</span> &amp; <span ttm:agent="agent1">two</span><br/>lines</p>
                      <p begin="01:02:03.004" end="01:02:04.000" region="r2">top</p>
                    </div>
                  </body>
                </tt>

                """)
        let back = try TTMLReader(mode: .strict).read(bytes)
        #expect(back.diagnostics.isEmpty)
        #expect(back.cues.map(\.text) == ["<i>One</i> &amp; <v Bob>two</v>\nlines", "top"])
        #expect(back.cues[0].hasDefaultSettings && back.cues[1].settings == placed)
    }

    /// Lines with nothing XML can hold (markup alone, a form feed) are not written, and a placed cue's region holds the
    /// lines that are: written again, the same bytes (`make fuzz` found both).
    @Test func linesWithNothingToWriteTakeNoRow() throws {
        var placed = CueSettings()
        placed.snapToLines = false
        placed.line = 10
        let cues = [
            Cue(start: CaptionTime(milliseconds: 0), end: CaptionTime(milliseconds: 1_000), text: "one\n<i></i>\ntwo", settings: placed),
            Cue(start: CaptionTime(milliseconds: 1_000), end: CaptionTime(milliseconds: 2_000), text: "three\n\u{0C}"),
        ]
        let document = CaptionDocument(format: .webvtt, cues: cues)
        let first = CaptionFile.encode(document, as: .ttml).bytes
        let text = String(decoding: first, as: UTF8.self)
        // Two rows of 1/15 of 125% of the height: 16.667%.
        #expect(text.contains(#"<region xml:id="r1" tts:origin="10% 10%" tts:extent="80% 16.667%" tts:displayAlign="before""#), "\(text)")
        #expect(text.contains(">one<br/>two</p>") && text.contains(">three</p>"), "\(text)")
        let reread = try CaptionFile.read(first, format: .ttml)
        #expect(String(decoding: CaptionFile.encode(reread, as: .ttml).bytes, as: UTF8.self) == text)
    }

    @Test func lossesAreNamedOnce() throws {
        var vertical = CueSettings()
        vertical.vertical = .verticalGrowingLeft
        var lineNumber = CueSettings()
        lineNumber.line = 2
        var low = CueSettings()
        low.snapToLines = false
        low.line = 85
        low.lineAlign = .end
        let cues = [
            Cue(identifier: "a b", start: .zero, end: CaptionTime(milliseconds: 1000), text: "<ruby>漢<rt>kan</rt></ruby> <00:00:00.500>late <c.loud>loud</c>"),
            Cue(identifier: "a b", start: CaptionTime(milliseconds: 500), end: CaptionTime(milliseconds: 1500), text: "vertical", settings: vertical),
            Cue(start: CaptionTime(milliseconds: 600), end: CaptionTime(milliseconds: 900), text: "line 2", settings: lineNumber),
            // Its rows (76.667–85%) overlap the bottom rows (81.667–90%) shown at the same time.
            Cue(start: CaptionTime(milliseconds: 800), end: CaptionTime(milliseconds: 900), text: "low", settings: low),
        ]
        let (bytes, diagnostics) = TTMLWriter().write(cues)
        #expect(
            diagnostics.map(\.message) == [
                "IMSC 1.1 Text cannot hold cue identifiers that are not unique XML names (`a b`); first in cue 1",
                "IMSC 1.1 Text cannot hold ruby text (`<rt>`; the base text is kept); first in cue 1",
                "IMSC 1.1 Text cannot hold karaoke timestamps inside cues; first in cue 1",
                "IMSC 1.1 Text cannot hold classes other than colours (`loud`); first in cue 1",
                "IMSC 1.1 Text cannot hold vertical text (written horizontally); first in cue 2",
                "IMSC 1.1 Text cannot hold line numbers (`line:2`: placed by rows of 8.333%); first in cue 3",
                "IMSC 1.1 Text cannot hold cues shown at once in places that overlap (IMSC forbids overlapping regions); first in cue 4",
            ])
        #expect(try TTMLReader().read(bytes).cues.map(\.text) == ["漢 late loud", "vertical", "line 2", "low"])
    }

    /// SRT through to TTML: its font colours and `{\an8}` placement arrive as colours and a top region.
    @Test func srtToTTML() throws {
        let srt = try CaptionFile.read(Array("1\n00:00:01,000 --> 00:00:02,000\n{\\an8}<font color=\"#00ff00\">Top</font> <b>bold</b>\n".utf8), format: .srt)
        let (bytes, diagnostics) = CaptionFile.encode(srt, as: .ttml)
        #expect(diagnostics.map(\.message) == ["IMSC 1.1 Text cannot hold line numbers (`line:0`: placed by rows of 8.333%); first in cue 1"])
        let ttml = try TTMLReader(mode: .strict).read(bytes)
        #expect(ttml.diagnostics.isEmpty)
        #expect(ttml.cues.map(\.text) == ["<c.lime>Top</c> <b>bold</b>"])
        #expect(ttml.cues[0].settings.line == 10 && ttml.cues[0].settings.lineAlign == .start)
    }
}

/// Every pair of formats through the one cue model: the same words and times (to the frame for SCC), and the losses
/// named.
@Suite struct FormatPairTests {
    static let source = [
        Cue(start: CaptionTime(milliseconds: 1001), end: CaptionTime(milliseconds: 2002), text: "<i>Hello</i> there,\n<c.yellow>friend</c>."),
        Cue(start: CaptionTime(milliseconds: 3003), end: CaptionTime(milliseconds: 5005), text: "<v Ann>Second</v> cue &amp; more"),
    ]

    @Test(arguments: CaptionFormat.writable)
    func fromEachFormatToEveryOther(source format: CaptionFormat) throws {
        let start = CaptionDocument(format: .webvtt, cues: Self.source)
        let sourceDocument = try CaptionFile.read(CaptionFile.encode(start, as: format).bytes, format: format)
        for target in CaptionFormat.writable {
            let (bytes, diagnostics) = CaptionFile.encode(sourceDocument, as: target)
            let converted = try CaptionFile.read(bytes, format: target)
            let context = "\(format) → \(target)"
            #expect(converted.cues.count == 2, "\(context)")
            // The letters (SCC shows a space where a colour changes inside a word; SRT writes a voice as `Ann: `).
            func letters(_ cue: Cue, _ markup: CaptionFormat) -> String {
                cue.plainText(in: markup).replacingOccurrences(of: "Ann: ", with: "").filter { !$0.isWhitespace }
            }
            #expect(converted.cues.map { letters($0, target.markup) } == sourceDocument.cues.map { letters($0, format.markup) }, "\(context)")
            for (a, b) in zip(converted.cues, sourceDocument.cues) {
                // SCC to the frame; ASS to the hundredth of a second.
                let tolerance: Int64 = target == .scc || format == .scc ? 34 : target == .ass || format == .ass ? 5 : 0
                #expect(abs(a.start.milliseconds - b.start.milliseconds) <= tolerance, "\(context)")
            }
            // What the target cannot hold is said: SCC has no voices, nor colours inside a word.
            if target == .scc, format == .webvtt || format == .ttml {
                #expect(diagnostics.contains { $0.message.contains("speaker names") }, "\(context)")
                #expect(diagnostics.contains { $0.message.contains("style changes inside a word") }, "\(context)")
            }
        }
    }
}
