import Foundation
import Testing

@testable import Captions

/// WebVTT ⇄ SRT: markup and positions mapped, losses reported.
@Suite struct ConversionTests {
    @Test func srtToWebVTT() throws {
        let srt = try SRTReader().read(
            utf8: Array(
                """
                1
                00:00:01,000 --> 00:00:02,000
                {\\an8}<i>Top</i> & <b>bold</b> <font color="red">red</font> <font color="#FF8800">orange</font>

                2
                00:00:03,000 --> 00:00:04,000 X1:1 X2:2 Y1:3 Y2:4
                <3 tags <u>under</u>

                """.utf8))
        let (bytes, diagnostics) = CaptionFile.encode(srt, as: .webvtt)
        #expect(
            String(decoding: bytes, as: UTF8.self) == """
                WEBVTT

                STYLE
                ::cue(.color-ff8800) { color: #ff8800; }

                1
                00:00:01.000 --> 00:00:02.000 line:0
                <i>Top</i> &amp; <b>bold</b> <c.red>red</c> <c.color-ff8800>orange</c>

                2
                00:00:03.000 --> 00:00:04.000
                &lt;3 tags <u>under</u>

                """)
        #expect(diagnostics.map(\.message) == ["WebVTT cannot hold SRT pixel coordinates (X1 X2 Y1 Y2)"])
        let vtt = try WebVTTReader().read(bytes)
        #expect(vtt.cues.map(\.plainText) == ["Top & bold red orange", "<3 tags under"])
    }

    @Test func webVTTToSRT() throws {
        let vtt = try WebVTTReader().read(
            Array(
                """
                WEBVTT

                STYLE
                ::cue { color: yellow }

                intro
                00:00:01.000 --> 00:00:02.000 align:start line:0
                <v Ann>Hi <c.yellow.big>there</c></v> &amp; <ruby>漢<rt>kan</rt></ruby><00:00:01.500>!

                NOTE gone

                00:00:03.000 --> 00:00:04.000 line:50% align:end
                <lang en>middle right</lang>

                """.utf8))
        let (bytes, diagnostics) = CaptionFile.encode(vtt, as: .srt)
        #expect(
            String(decoding: bytes, as: UTF8.self) == """
                1
                00:00:01,000 --> 00:00:02,000
                {\\an7}Ann: Hi <font color="yellow">there</font> & 漢(kan)!

                2
                00:00:03,000 --> 00:00:04,000
                {\\an6}middle right


                """)
        let messages = Set(diagnostics.map(\.message))
        #expect(
            messages == [
                "SRT cannot hold STYLE blocks (SRT has no style sheets)", "SRT cannot hold NOTE comments (SRT has no comments)",
                "SRT cannot hold cue identifiers (SRT numbers its cues)", "SRT cannot hold class names other than the default colours",
                "SRT cannot hold voice spans (written as \"Name: \" before the words)", "SRT cannot hold ruby annotations (written in parentheses)",
                "SRT cannot hold karaoke timestamps inside cues", "SRT cannot hold language spans",
            ])
        // And back: the positions survive the round trip.
        let back = CaptionFile.encode(try SRTReader().read(utf8: bytes), as: .webvtt).bytes
        let reread = try WebVTTReader().read(back)
        #expect(reread.cues[0].settings.line == 0 && reread.cues[0].settings.align == .left)
        #expect(reread.cues[1].settings.line == 50 && !reread.cues[1].settings.snapToLines && reread.cues[1].settings.align == .right)
    }

    @Test func keypadPositions() {
        var settings = CueSettings()
        #expect(CaptionConverter.keypadPosition(of: settings) == 2)
        settings.line = -1
        #expect(CaptionConverter.keypadPosition(of: settings) == 2)
        settings.line = 1
        settings.align = .right
        #expect(CaptionConverter.keypadPosition(of: settings) == 9)
        settings.line = 80
        settings.snapToLines = false
        settings.align = .start
        #expect(CaptionConverter.keypadPosition(of: settings) == 1)
    }

    @Test func srtMarkupNodes() {
        let nodes = SRTMarkup.nodes(of: "<B>bold <I>both</I></b>{\\an1} <font color='#00ff00'>green</font> <unknown>")
        #expect(
            nodes == [
                .element(CueElement(kind: .bold, children: [.text("bold "), .element(CueElement(kind: .italic, children: [.text("both")]))])),
                .text(" "),
                .element(CueElement(kind: .font, annotation: "#00ff00", children: [.text("green")])),
                .text(" "),
            ])
        #expect(SRTMarkup.alignment(of: "{\\an9}top right") == 9)
        #expect(SRTMarkup.alignment(of: "plain") == nil)
    }
}
