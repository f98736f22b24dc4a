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
    /// `tts:position` by its keywords, offsets and edge offsets (TTML2 §10.2.35): where a 60% × 20% region's origin
    /// lands, in percent of the root.
    @Test func positionPlacesARegionByKeywordsAndEdgeOffsets() throws {
        func origin(_ value: String) -> [Double]? {
            TTMLPosition(value, length: { text, _ in text.hasSuffix("rw") ? Double(text.dropLast(2)) : nil }).map { position in
                let (x, y) = position.origin(width: 60, height: 20)
                return [(x * 1000).rounded() / 1000, (y * 1000).rounded() / 1000]
            }
        }
        let cases: [(String, [Double])] = [
            ("center", [20, 40]), ("left", [0, 40]), ("right", [40, 40]), ("top", [20, 0]), ("bottom", [20, 80]), ("25%", [10, 40]),
            ("bottom center", [20, 80]), ("center left", [0, 40]), ("top right", [40, 0]), ("center 25%", [20, 20]), ("25% top", [10, 0]),
            ("25% 25%", [10, 20]), ("left 25%", [0, 20]), ("bottom left 25%", [10, 80]), ("bottom 25% center", [20, 60]),
            ("center right 25%", [30, 40]), ("left 25% top", [10, 0]), ("top 25% right", [40, 20]), ("bottom 25% left 25%", [10, 60]),
            ("right 25% top 25%", [30, 20]), ("right 5rw bottom 10rw", [35, 70]), ("5rw 10rw", [5, 10]),
        ]
        for (value, expected) in cases { #expect(origin(value) == expected, "\(value)") }
        for bad in ["left right", "top bottom", "25% left top", "left 25% 30%", "middle", "", "a b c d e"] { #expect(origin(bad) == nil, "\(bad)") }
    }

    /// Regions placed by `tts:position` keywords are where they say: two side by side at the bottom do not overlap
    /// (strict mode no longer calls valid documents' regions overlapping), and the cue sits in its region.
    @Test func positionedRegionsAreWhereTheySay() throws {
        let head = """
            <layout><region xml:id="l" tts:extent="40% 20%" tts:position="bottom left"/>\
            <region xml:id="r" tts:extent="40% 20%" tts:position="right 10% bottom"/></layout>
            """
        let document = try TTMLReaderTests.read(
            #"<div><p begin="1s" end="2s" region="l">left</p><p begin="1s" end="2s" region="r">right</p></div>"#, head: head,
            attributes: #"ttp:contentProfiles="http://www.w3.org/ns/ttml/profile/imsc1.1/text""#, mode: .strict)
        #expect(document.diagnostics.filter { $0.severity == .error }.map(\.message) == [])
        #expect(document.cues.map { [$0.settings.position, $0.settings.line, $0.settings.size] } == [[0, 80, 40], [54, 80, 40]])
        // Overlapping regions presented at once are still named.
        let overlapping = try TTMLReaderTests.read(
            #"<div><p begin="1s" end="2s" region="a">a</p><p begin="1s" end="2s" region="b">b</p></div>"#,
            head:
                #"<layout><region xml:id="a" tts:extent="60% 20%" tts:position="bottom"/><region xml:id="b" tts:extent="60% 20%" tts:position="bottom 10% center"/></layout>"#,
            mode: .strict)
        #expect(overlapping.diagnostics.contains { $0.message.contains("regions `a` and `b` overlap") })
    }

    /// IMSC's parameters take the values the profile gives them (IMSC 1.1 §8.2), and text emphasis its syntax without
    /// a quoted mark or a colour.
    @Test func strictModeChecksParameterAndEmphasisValues() throws {
        let ittp = #"xmlns:ittp="http://www.w3.org/ns/ttml/profile/imsc1#parameter""#
        func profileErrors(_ attributes: String, body: String = #"<div><p begin="1s" end="2s">t</p></div>"#) throws -> [String] {
            try TTMLReaderTests.read(body, attributes: ittp + " " + attributes, mode: .strict).diagnostics
                .filter { $0.rule == "ttml.profile" && $0.severity == .error }.map { String($0.message.dropFirst("IMSC 1.1 Text Profile: ".count)) }
        }
        #expect(try profileErrors(#"ttp:displayAspectRatio="4&#160;3""#) == ["`ttp:displayAspectRatio=\"4\u{A0}3\"` is not two positive integers"])
        #expect(try profileErrors(#"ttp:displayAspectRatio="16.0 9""#) == [#"`ttp:displayAspectRatio="16.0 9"` is not two positive integers"#])
        #expect(try profileErrors(#"ittp:aspectRatio="0 9""#) == [#"`ittp:aspectRatio="0 9"` is not two positive integers"#])
        #expect(
            try profileErrors(#"ttp:displayAspectRatio="16 9" ittp:aspectRatio="16 9""#) == ["both `ttp:displayAspectRatio` and `ittp:aspectRatio` are given"])
        #expect(
            try profileErrors(#"ittp:progressivelyDecodable="yes" ittp:activeArea="10% 10% 80%""#) == [
                #"`ittp:progressivelyDecodable="yes"` is neither true nor false"#, #"`ittp:activeArea="10% 10% 80%"` is not four percentages"#,
            ])
        #expect(try profileErrors(#"ttp:displayAspectRatio="16 9" ittp:progressivelyDecodable="true" ittp:activeArea="10% 10% 80% 80%""#) == [])
        func emphasis(_ value: String) throws -> [String] {
            try profileErrors("", body: #"<div><p begin="1s" end="2s"><span tts:textEmphasis="\#(value)">花</span></p></div>"#)
        }
        for valid in ["none", "auto", "filled circle", "open sesame outside", "dot", "filled", "circle current before", "auto after"] {
            #expect(try emphasis(valid) == [], "\(valid)")
        }
        #expect(try emphasis("circle circle") == [#"`tts:textEmphasis="circle circle"` is not a text emphasis"#])
        #expect(try emphasis("white filled circle") == [#"`tts:textEmphasis="white filled circle"` gives the marks a colour (only `current` is permitted)"#])
        #expect(try emphasis("&quot;*&quot;") == [#"`tts:textEmphasis=""*""` uses a quoted string as the mark (not permitted)"#])
        #expect(try emphasis("outside before") == [#"`tts:textEmphasis="outside before"` is not a text emphasis"#])
    }
    /// Values TTML2 does not allow are named in strict mode (the IMSC 1.1 test suite's invalid documents): a colour
    /// TTML does not name, `textCombine="non"`, a shear without its `%`, `rubyReserve` in the wrong order, a position
    /// keyword misspelt; the same attributes with allowed values are not.
    @Test func strictModeNamesValuesTTMLDoesNotAllow() throws {
        func profileErrors(_ span: String, head: String = "") throws -> [String] {
            try TTMLReaderTests.read(#"<div><p begin="1s" end="2s"><span \#(span)>t</span></p></div>"#, head: head, mode: .strict).diagnostics
                .filter { $0.rule == "ttml.profile" && $0.severity == .error }.map { String($0.message.dropFirst("IMSC 1.1 Text Profile: ".count)) }
        }
        #expect(try profileErrors(#"tts:color="grey""#) == [#"`tts:color="grey"` is not a colour"#])
        #expect(try profileErrors(#"tts:textCombine="non""#) == [#"`tts:textCombine="non"` is not `none` or `all`"#])
        #expect(try profileErrors(#"tts:shear="50 %""#) == [#"`tts:shear="50 %"` is not a percentage"#])
        #expect(try profileErrors(#"tts:shear="16.78842""#) == [#"`tts:shear="16.78842"` is not a percentage"#])
        #expect(try profileErrors(#"tts:rubyReserve="none outside""#) == [#"`tts:rubyReserve="none outside"` is not `none`, or a position and a length"#])
        #expect(try profileErrors(#"tts:rubyReserve="20% outside""#) == [#"`tts:rubyReserve="20% outside"` is not `none`, or a position and a length"#])
        #expect(
            try profileErrors("", head: #"<layout><region xml:id="r" tts:extent="60% 20%" tts:position="centre"/></layout>"#) == [
                #"`tts:position="centre"` is not a position"#
            ])
        #expect(
            try profileErrors(
                ##"tts:color="gray" tts:backgroundColor="#00000080" tts:textCombine="all" tts:shear="-16.78842%" tts:rubyReserve="outside 1em""##,
                head: #"<layout><region xml:id="r" tts:extent="60% 20%" tts:position="right 10% bottom"/></layout>"#) == [])
    }
}
