import Foundation
import Testing

@testable import Captions

/// TTML read as a player presents it (TTML1 §10.4, §12.2; TTML2 §10.2.11): what `tts:display` hides, what a `set`
/// shows or hides for its interval, and the anonymous text of a `seq` paragraph, which has no duration.
@Suite struct TTMLPresentationTests {
    static func timed(_ body: String, head: String = "") throws -> [String] {
        TTMLReaderTests.timed(try TTMLReaderTests.read(body, head: head))
    }

    /// Content no time ends has an indefinite duration (TTML1 §10.4): it is shown for the whole presentation — to the
    /// media's end when read beside it — not for no time at all, nor only to the document's last time.
    @Test func untimedContentLastsTheWholePresentation() throws {
        let untimed = try TTMLReaderTests.read(#"<div><p>always</p></div>"#)
        #expect(TTMLReaderTests.timed(untimed) == ["0-359999999 always"])
        #expect(untimed.cues[0].end == .presentationEnd)
        #expect(untimed.diagnostics.map(\.rule) == ["ttml.timing"])
        #expect(try Self.timed(#"<div><p>always</p><p begin="2s" end="30s">timed</p></div>"#) == ["0-359999999 always", "2000-30000 timed"])
        // Beside a 95-second programme, it ends with it (a cue starting later keeps its start).
        let late = try TTMLReaderTests.read(#"<div><p>always</p><p begin="100s">after the end</p><p begin="1s" end="2s">timed</p></div>"#)
        #expect(TTMLReaderTests.timed(late.endingPresentation(at: 95)) == ["0-95000 always", "100000-100000 after the end", "1000-2000 timed"])
    }

    @Test func displayNoneHides() throws {
        // Inline, on a span and on a paragraph.
        #expect(
            try Self.timed(
                #"<div><p begin="1s" end="3s">shown <span tts:display="none">hidden</span> too</p><p begin="3s" end="4s" tts:display="none">gone</p></div>"#)
                == ["1000-3000 shown too"])
        // By a style, and not undone by a descendant's `auto` (display is not inherited, but a hidden element's content
        // is never shown).
        let head = #"<styling><style xml:id="hide" tts:display="none"/></styling>"#
        #expect(
            try Self.timed(#"<div><p begin="1s" end="2s" style="hide">a <span tts:display="auto">b</span></p><p begin="2s" end="3s">c</p></div>"#, head: head)
                == ["2000-3000 c"])
    }

    @Test func aSetShowsOrHidesForItsInterval() throws {
        // Hidden, then shown from 5 s by a `set` (as IMSC's test documents animate display).
        #expect(
            try Self.timed(#"<div><p begin="2s" end="9s" tts:display="none"><set begin="3s" tts:display="auto"/>late</p></div>"#) == ["5000-9000 late"])
        // Shown, hidden by a `set` for a second in the middle of its span.
        #expect(
            try Self.timed(#"<div><p begin="1s" end="5s">always <span><set begin="1s" end="2s" tts:display="none"/>blinks</span></p></div>"#)
                == ["1000-2000 always blinks", "2000-3000 always", "3000-5000 always blinks"])
    }

    @Test func anonymousTextInASeqParagraphIsNotShown() throws {
        #expect(
            try Self.timed(#"<div><p begin="1s" timeContainer="seq">lost <span dur="1s">one</span> lost <span dur="2s">two</span></p></div>"#)
                == ["1000-2000 one", "2000-4000 two"])
    }

    /// A region with its own times shows its content only then (TTML2 §11.3.1.3).
    @Test func aRegionShowsOnlyWhileActive() throws {
        let head = #"<layout><region xml:id="late" begin="4s" end="6s" tts:origin="10% 10%" tts:extent="80% 20%"/></layout>"#
        #expect(
            try Self.timed(
                #"<div><p begin="2s" end="8s" region="late">in a late region</p><p begin="1s" end="2s" region="late">before it</p></div>"#, head: head)
                == ["4000-6000 in a late region"])
    }

    /// A paragraph in one region inside a division of another is presented in neither (TTML1 §9.3.3), and said.
    @Test func contentInAnotherRegionThanItsDivisionIsNotShown() throws {
        let head =
            #"<layout><region xml:id="top" tts:origin="10% 10%" tts:extent="80% 20%"/><region xml:id="bottom" tts:origin="10% 70%" tts:extent="80% 20%"/></layout>"#
        let document = try TTMLReaderTests.read(
            #"<div region="top"><p begin="1s" end="2s">shown at the top</p><p begin="2s" end="3s" region="bottom">in no region</p></div>"#, head: head)
        #expect(TTMLReaderTests.timed(document) == ["1000-2000 shown at the top"])
        #expect(
            document.diagnostics.map(\.message) == [
                "a `p` in region `bottom` inside content of region `top` is presented in no region (TTML region association): not shown"
            ])
    }

    /// Strict mode names the TTML2 features IMSC 1.1's Text Profile prohibits or constrains, once each, and none of
    /// those it permits (a background colour, ruby centred, a region with its own times).
    @Test func strictModeNamesWhatTheTextProfileProhibits() throws {
        let head = #"<layout><region xml:id="r" begin="1s" tts:origin="10% 10%" tts:extent="80% 20%" tts:backgroundColor="black"/></layout>"#
        let prohibited = try TTMLReaderTests.read(
            """
            <div condition="parameter('forced')"><p begin="1s" end="2s" region="r" tts:textAlign="justify" tts:fontKerning="none" \
            tts:letterSpacing="1px" tts:backgroundImage="url(a.png)" tts:border="1px solid red" xmlns:tta="http://www.w3.org/ns/ttml#audio" \
            tta:gain="0.5"><span tts:rubyAlign="start" tts:textOrientation="upright" tts:bpd="10%" tts:ipd="10%">text</span></p></div>
            """, head: head, mode: .strict)
        let profile = prohibited.diagnostics.filter { $0.rule == "ttml.profile" }.map(\.message)
        for expected in [
            "`condition` is not permitted", "`tta:gain` (audio styling) is not permitted", "`tts:fontKerning` is not permitted",
            "`tts:letterSpacing` is not permitted", "`tts:backgroundImage` is not permitted", "`tts:border` is not permitted",
            "`tts:textAlign=\"justify\"` is not permitted (left, center, right, start, end)", "`tts:rubyAlign=\"start\"` is not permitted (only center)",
            "`tts:textOrientation` is not permitted", "`tts:bpd` is not permitted", "`tts:ipd` is not permitted",
        ] {
            #expect(profile.contains("IMSC 1.1 Text Profile: \(expected)"), "\(expected): \(profile)")
        }
        // Read leniently, the same document says nothing of the profile.
        #expect(
            try TTMLReaderTests.read(#"<div condition="parameter('forced')"><p begin="1s" end="2s" tts:textAlign="justify">t</p></div>"#).diagnostics.isEmpty)
        let permitted = try TTMLReaderTests.read(
            #"<div><p begin="1s" end="2s" region="r" tts:textAlign="center"><span tts:rubyAlign="center" tts:backgroundColor="black">ok</span></p></div>"#,
            head: head, mode: .strict)
        #expect(!permitted.diagnostics.contains { $0.message.contains("is not permitted") }, "\(permitted.diagnostics.map(\.message))")
    }
}
