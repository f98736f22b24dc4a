import Foundation
import Testing

@testable import Captions

/// TTML read as a player presents it (TTML1 §10.4, §12.2; TTML2 §10.2.11): what `tts:display` hides, what a `set`
/// shows or hides for its interval, and the anonymous text of a `seq` paragraph, which has no duration.
@Suite struct TTMLPresentationTests {
    static func timed(_ body: String, head: String = "") throws -> [String] {
        TTMLReaderTests.timed(try TTMLReaderTests.read(body, head: head))
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
}
