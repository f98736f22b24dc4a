import Foundation
import TestTraits
import Testing

@testable import Captions

/// TTML read through the XML parser: every timing form to the millisecond, time containers, styles, speakers and
/// regions as WebVTT text and settings, and what strict mode reports against IMSC 1.1's Text Profile.
@Suite struct TTMLReaderTests {
    static let namespaces =
        #"xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" xmlns:tts="http://www.w3.org/ns/ttml#styling" xmlns:ttm="http://www.w3.org/ns/ttml#metadata""#

    /// A document with `body` inside `tt` (with `attributes`) and `head`.
    static func document(_ body: String, head: String = "", attributes: String = "") -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <tt \(namespaces) xml:lang="en" \(attributes)>
              <head>\(head)</head>
              <body>\(body)</body>
            </tt>
            """.utf8)
    }

    static func read(_ body: String, head: String = "", attributes: String = "", mode: WebVTTReader.Mode = .lenient) throws -> CaptionDocument {
        try TTMLReader(mode: mode).read(document(body, head: head, attributes: attributes))
    }

    /// Start and end in milliseconds, and text, of each cue.
    static func timed(_ document: CaptionDocument) -> [String] {
        document.cues.map { "\($0.start.milliseconds)-\($0.end.milliseconds) \($0.text)" }
    }

    @Test func everyTimingForm() throws {
        // 29.97 fps: frame 12 is 12 × 1001/30000 s = 0.4004 s; sub-frame 1 of 2 is half a frame more.
        let clock = try Self.read(
            """
            <div>
              <p begin="00:00:01.5" end="00:00:02.250">fraction</p>
              <p begin="00:00:03:12" end="00:00:04:00">frames</p>
              <p begin="00:00:05:12.1" end="100:00:00.000">sub-frames, 100 hours</p>
            </div>
            """, attributes: #"ttp:frameRate="30" ttp:frameRateMultiplier="1000 1001" ttp:subFrameRate="2""#)
        #expect(Self.timed(clock) == ["1500-2250 fraction", "3400-4000 frames", "5417-360000000 sub-frames, 100 hours"])
        // Offsets in every metric; ticks at the tick rate, frames at the frame rate (25).
        let offsets = try Self.read(
            """
            <div>
              <p begin="2.5s" end="3000ms">s and ms</p>
              <p begin="0.1m" end="0.002h">m and h</p>
              <p begin="175f" end="200f">frames</p>
              <p begin="900000t" dur="45000t">ticks</p>
            </div>
            """, attributes: #"ttp:frameRate="25" ttp:tickRate="90000""#)
        #expect(Self.timed(offsets) == ["2500-3000 s and ms", "6000-7200 m and h", "7000-8000 frames", "10000-10500 ticks"])
        // Without a tick rate, ticks count at frame rate × sub-frame rate (TTML2 §7.2.12).
        let ticks = try Self.read(#"<p begin="60t" end="90t">t</p>"#, attributes: #"ttp:frameRate="30""#)
        #expect(Self.timed(ticks) == ["2000-3000 t"])
    }

    /// Cues come in the document's order (as the paragraphs are written; lint says when that is not time order).
    @Test func beginEndDurAndTimeContainers() throws {
        let document = try Self.read(
            """
            <div begin="10s">
              <p begin="1s" dur="2s" end="5s">dur before end: 11–13</p>
              <p begin="1s" end="2s" dur="5s">end before dur: 11–12</p>
              <p begin="-1s" end="1s">clipped to the div: 10–11</p>
            </div>
            <div begin="20s" end="21s"><p begin="0.5s">ends with its div: 20.5–21</p></div>
            <div begin="30s" timeContainer="seq">
              <p dur="1s">seq 1: 30–31</p>
              <p begin="0.5s" dur="1s">seq 2: 31.5–32.5</p>
              <p dur="2s">seq 3: 32.5–34.5</p>
            </div>
            <div begin="40s" timeContainer="seq">
              <div><p dur="1s">a: 40–41</p><p begin="1s" end="3s">b: 41–43</p></div>
              <p dur="1s">after the div's implicit end: 43–44</p>
            </div>
            """)
        #expect(
            Self.timed(document) == [
                "11000-13000 dur before end: 11–13", "11000-12000 end before dur: 11–12", "10000-11000 clipped to the div: 10–11",
                "20500-21000 ends with its div: 20.5–21", "30000-31000 seq 1: 30–31", "31500-32500 seq 2: 31.5–32.5",
                "32500-34500 seq 3: 32.5–34.5", "40000-41000 a: 40–41", "41000-43000 b: 41–43",
                "43000-44000 after the div's implicit end: 43–44",
            ])
    }

    /// Spans with their own timing: one cue for each stretch of time the shown text stays the same.
    @Test func timedSpansSplitAParagraph() throws {
        let document = try Self.read(
            #"<p begin="1s" end="4s" xml:id="p1">Always <span begin="1s" end="2s">then more</span><span begin="2s">and the end</span></p>"#)
        #expect(Self.timed(document) == ["1000-2000 Always", "2000-3000 Always then more", "3000-4000 Always and the end"])
        #expect(document.cues.map(\.identifier) == ["p1", "", ""])
    }

    /// Styles that refer to styles that refer to styles: 250 styles, each referring to the 50 before it, resolve (each
    /// once: naively the chain is exponential), the nearest definition winning; a reference back to itself is ignored.
    @Test func chainsOfStyleReferencesResolveOnce() throws {
        var styles = "<style xml:id=\"s0\" tts:fontWeight=\"bold\"/>"
        for index in 1..<250 {
            let references = (max(0, index - 50)..<index).map { "s\($0)" }.joined(separator: " ")
            styles += "<style xml:id=\"s\(index)\" style=\"\(references) s\(index)\"\(index == 200 ? " tts:fontStyle=\"italic\"" : "")/>"
        }
        let document = try Self.read("<p begin=\"0s\" end=\"1s\" style=\"s249\">deep</p>", head: "<styling>\(styles)</styling>")
        #expect(Self.timed(document) == ["0-1000 <i><b>deep</b></i>"], "\(Self.timed(document))")
    }

    /// A document in UTF-16 is read and said to be UTF-16; an external entity is never read, and the text it leaves out
    /// is said to be lost.
    @Test func encodingsAndExternalEntitiesAreSaid() throws {
        let text =
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?><tt xmlns=\"http://www.w3.org/ns/ttml\"><body><div><p begin=\"1s\" end=\"2s\">XY</p></div></body></tt>"
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let document = try TTMLReader().read(utf16)
        #expect(document.encoding == "utf-16" && Self.timed(document) == ["1000-2000 XY"])
        let entity = try TTMLReader().read(
            Array(
                "<?xml version=\"1.0\"?><!DOCTYPE tt [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><tt xmlns=\"http://www.w3.org/ns/ttml\"><body><div><p begin=\"1s\" end=\"2s\">X&xxe;Y</p></div></body></tt>"
                    .utf8))
        #expect(Self.timed(entity) == ["1000-2000 X"])
        #expect(entity.diagnostics.map(\.rule) == ["ttml.entity"] && entity.diagnostics[0].message.contains("`xxe`: it is not read"))
    }

    /// Thousands of timed spans in one paragraph (overlapping: every stretch would show them all) make one cue, said,
    /// not stretches × spans of text; a few timed spans still split it.
    @Test func aParagraphOfThousandsOfTimedSpansIsOneCue() throws {
        let spans = (0..<3000).map { "<span begin=\"\($0 * 10)ms\" end=\"\($0 * 10 + 50000)ms\">w\($0) </span>" }.joined()
        let document = try Self.read("<p begin=\"0s\" end=\"100s\">\(spans)</p>")
        #expect(document.cues.count == 1 && document.cues[0].text.hasPrefix("w0 w1 w2") && document.cues[0].text.hasSuffix("w2999"))
        #expect(document.diagnostics.map(\.rule) == ["ttml.timing"] && document.diagnostics[0].message.contains("3000 timed pieces"))
        let few = try Self.read("<p begin=\"0s\" end=\"3s\">a <span begin=\"1s\">b</span> <span begin=\"2s\">c</span></p>")
        #expect(Self.timed(few) == ["0-1000 a", "1000-2000 a b", "2000-3000 a b c"] && few.diagnostics.isEmpty, "\(Self.timed(few))")
    }

    @Test func stylesSpeakersAndWhiteSpace() throws {
        let head = """
            <metadata><ttm:agent xml:id="alice" type="person"><ttm:name type="full">Alice</ttm:name></ttm:agent></metadata>
            <styling>
              <style xml:id="base" tts:color="yellow"/>
              <style xml:id="loud" style="base" tts:fontWeight="bold"/>
            </styling>
            """
        let document = try Self.read(
            """
            <p begin="0s" end="1s" style="loud">Bold &amp; yellow
                  <br/>  <span tts:fontStyle="italic" tts:color="#FF8000">orange italic</span> <span tts:textDecoration="underline">under</span></p>
            <p begin="1s" end="2s" ttm:agent="alice">Hello, <span xml:lang="fr">bonjour</span> &lt;3</p>
            <p begin="2s" end="3s" xml:space="preserve">  two  spaces
            kept</p>
            <p begin="3s" end="4s"><span tts:textDecoration="lineThrough">struck</span></p>
            """, head: head)
        #expect(
            document.cues.map(\.text) == [
                "<c.yellow><b>Bold &amp; yellow</b></c>\n<c.color-ff8000><i><b>orange italic</b></i></c><c.yellow><b> <u>under</u></b></c>",
                "<v Alice>Hello, <lang fr>bonjour</lang> &lt;3</v>",
                "  two  spaces\nkept",
                "<c.strike>struck</c>",
            ])
        #expect(document.styleSheets == ["::cue(.color-ff8000) { color: #ff8000; }", "::cue(.strike) { text-decoration: line-through; }"])
        // The text in WebVTT syntax parses back to the same words.
        #expect(document.cues[0].plainText(in: .webvtt) == "Bold & yellow\norange italic under")
    }

    @Test func regionsBecomeLineAndPosition() throws {
        let head = """
            <styling><style xml:id="centred" tts:textAlign="center"/></styling>
            <layout>
              <region xml:id="bottom" tts:origin="10% 10%" tts:extent="80% 80%" tts:displayAlign="after" style="centred"/>
              <region xml:id="top" tts:origin="20% 5%" tts:extent="60% 20%" tts:displayAlign="before" tts:textAlign="left"/>
              <region xml:id="middle" tts:origin="192px 216px" tts:extent="960px 432px" tts:displayAlign="center"/>
              <region xml:id="cells" tts:origin="4c 1c" tts:extent="16c 3c" tts:displayAlign="after" tts:textAlign="end"/>
            </layout>
            """
        let document = try Self.read(
            """
            <div>
              <p begin="0s" end="1s" region="bottom">default place</p>
              <p begin="1s" end="2s" region="top">top left</p>
              <p begin="2s" end="3s" region="middle" tts:textAlign="right">middle</p>
              <p begin="3s" end="4s" region="cells">cells</p>
            </div>
            """, head: head, attributes: #"tts:extent="1920px 1080px""#)
        #expect(document.cues[0].hasDefaultSettings)
        func box(_ line: Double, _ lineAlign: CueSettings.LineAlignment, _ position: Double, _ size: Double, _ align: CueSettings.TextAlignment) -> CueSettings
        {
            var settings = CueSettings()
            settings.snapToLines = false
            settings.line = line
            settings.lineAlign = lineAlign
            settings.position = position
            settings.positionAlign = .lineLeft
            settings.size = size
            settings.align = align
            return settings
        }
        #expect(document.cues[1].settings == box(5, .start, 20, 60, .left))
        #expect(document.cues[2].settings == box(40, .center, 10, 50, .right))
        #expect(document.cues[3].settings == box(26.667, .end, 12.5, 50, .end))
        #expect(document.diagnostics.isEmpty)
    }

    /// Strict mode names what IMSC 1.1's Text Profile forbids; lenient mode reads the same cues and says nothing.
    @Test func strictModeReportsProfileViolations() throws {
        let head = """
            <layout>
              <region xml:id="a" tts:origin="0% 0%" tts:extent="60% 60%"/>
              <region xml:id="b" tts:origin="50% 50%" tts:extent="50% 50%"/>
              <region xml:id="c" tts:origin="0%  90%"/>
            </layout>
            """
        let body = """
            <div>
              <p begin="00:00:01:10" dur="2t" region="a">frames and ticks without rates<set tts:color="red"/></p>
              <p begin="0s" end="2s" region="b">overlaps region a</p>
              <p begin="wallclock(&quot;2026-01-01T00:00&quot;)" end="3s" region="c"><animate tts:color="red"/>wall clock</p>
            </div>
            <div><image src="x.png"/></div>
            """
        let lenient = try Self.read(body, head: head, attributes: #"ttp:timeBase="smpte""#)
        let strict = try Self.read(body, head: head, attributes: #"ttp:timeBase="smpte""#, mode: .strict)
        #expect(lenient.cues == strict.cues)
        #expect(Self.timed(lenient) == ["1333-3333 frames and ticks without rates", "0-2000 overlaps region a", "0-3000 wall clock"])
        #expect(!lenient.diagnostics.contains { $0.rule == "ttml.profile" })
        let messages = strict.diagnostics.filter { $0.rule == "ttml.profile" }.map(\.message)
        #expect(
            messages == [
                "IMSC 1.1 Text Profile: `ttp:timeBase=\"smpte\"` (only the media time base is permitted)",
                "IMSC 1.1 Text Profile: `ttp:contentProfiles` should name http://www.w3.org/ns/ttml/profile/imsc1.1/text",
                "IMSC 1.1 Text Profile: every `region` needs a `tts:extent`",
                "IMSC 1.1 Text Profile: frames are used without `ttp:frameRate` on `tt`",
                "IMSC 1.1 Text Profile: ticks are used without `ttp:tickRate` on `tt`",
                "IMSC 1.1 Text Profile: wall-clock times are not permitted",
                "IMSC 1.1 Text Profile: `animate` is not permitted (only `set`)",
                "IMSC 1.1 Text Profile: `image` is not permitted in the Text Profile",
                "IMSC 1.1 Text Profile: regions `a` and `b` overlap while both are presented",
            ])
    }

    @Test func tooManyRegionsAndEncoding() throws {
        let regions = (1...5).map { #"<region xml:id="r\#($0)" tts:origin="0% \#(($0 - 1) * 20)%" tts:extent="100% 20%"/>"# }.joined()
        let paragraphs = (1...5).map { #"<p begin="0s" end="1s" region="r\#($0)">line \#($0)</p>"# }.joined()
        let profile = #"ttp:contentProfiles="http://www.w3.org/ns/ttml/profile/imsc1.1/text""#
        let strict = try Self.read(paragraphs, head: "<layout>\(regions)</layout>", attributes: profile, mode: .strict)
        #expect(strict.diagnostics.map(\.message) == ["IMSC 1.1 Text Profile: more than 4 regions presented at once (at 00:00:00.000)"])
        let latin1 = Array(
            #"<?xml version="1.0" encoding="ISO-8859-1"?><tt \#(Self.namespaces) \#(profile)><body><p begin="0s" end="1s">caf\#u{E9}</p></body></tt>"#.utf8
        )
        .flatMap { $0 == 0xC3 ? [] : $0 == 0xA9 ? [0xE9] : [$0] }
        let read = try TTMLReader(mode: .strict).read(latin1)
        #expect(read.cues.map(\.text) == ["café"])
        #expect(read.diagnostics.map(\.message) == ["IMSC 1.1 Text Profile: the document declares encoding `iso-8859-1`; IMSC requires UTF-8"])
    }

    /// Times beyond any programme saturate instead of overflowing: nested offsets, frames and ticks of hostile size.
    @Test func hostileTimesSaturate() throws {
        let document = try Self.read(
            """
            <div begin="9223372036854775807s"><div begin="99999999999999999999h"><p begin="1s" end="2s">far</p></div></div>
            <p begin="00:00:00:99999999999999999999.99999999999999999999" end="1e3s">bad frames</p>
            <p begin="99999999999999999999f" end="99999999999999999999t">huge frames and ticks</p>
            """, attributes: #"ttp:frameRate="1" ttp:frameRateMultiplier="1 999999999" ttp:tickRate="1""#)
        #expect(document.cues.map(\.start.milliseconds) == [Int64.max, 0, Int64.max])
        #expect(document.cues.map(\.text) == ["far", "bad frames", "huge frames and ticks"])
    }

    @Test func refusesWhatIsNotTTML() throws {
        #expect(throws: CaptionError.self) { try TTMLReader().read(Array("<tt><p>unclosed</tt>".utf8)) }
        do {
            _ = try TTMLReader().read(Array("<?xml version=\"1.0\"?>\n<html><body/></html>".utf8))
            Issue.record("read HTML as TTML")
        } catch {
            #expect(error.rule == "ttml.root")
            #expect(error.message == "not a TTML document: the root element is `html`, not `tt` in the TTML namespace")
        }
        do {
            _ = try TTMLReader().read(Array("<?xml version=\"1.0\"?>\n<tt xmlns=\"http://www.w3.org/ns/ttml\">\n<body><p>a</b></body></tt>".utf8))
            Issue.record("read broken XML")
        } catch {
            #expect(error.rule == "ttml.xml")
            #expect(error.message.hasPrefix("not well-formed XML") && error.message.contains("line 3"))
        }
        // Bytes that are not UTF-8 (here inside an element name: Foundation's XML parser traps on them, found by
        // `make fuzz`) are refused before parsing; a document declaring Latin-1 is converted instead.
        do {
            _ = try TTMLReader().read(
                Array("<tt xmlns=\"http://www.w3.org/ns/ttml\">\n<body><p>".utf8) + [0x73, 0xC7, 0x70] + Array("an</p></body></tt>".utf8))
            Issue.record("read bytes that are not UTF-8")
        } catch {
            #expect(error.message == "not well-formed XML: bytes that are not UTF-8 at line 2 (byte 49)")
        }
        // `<?xml` and bytes that are not UTF-8 is a processing instruction, not a declaration of another encoding (the
        // parser trapped on its target; found by replaying the fuzz corpora): refused as well.
        do {
            _ = try TTMLReader().read(
                Array("<?xml".utf8) + [0xFF, 0xFF] + Array(" encoding=\"latin1\"?>\n<tt xmlns=\"http://www.w3.org/ns/ttml\"/>".utf8))
            Issue.record("read bytes that are not UTF-8 after <?xml")
        } catch {
            #expect(error.message == "not well-formed XML: bytes that are not UTF-8 at line 1 (byte 5)")
        }
        // Entities that expand a billion times are refused quickly, not expanded.
        var laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE tt [\n<!ENTITY l0 \"ha\">\n"
        for k in 1...9 { laughs += "<!ENTITY l\(k) \"" + String(repeating: "&l\(k - 1);", count: 10) + "\">\n" }
        laughs += "]>\n<tt xmlns=\"http://www.w3.org/ns/ttml\"><body><p begin=\"0s\" end=\"1s\">&l9;</p></body></tt>"
        let clock = ContinuousClock()
        let started = clock.now
        let result = Result { try TTMLReader().read(Array(laughs.utf8)) }
        #expect(clock.now - started < .seconds(5))
        if case .success(let document) = result { #expect(document.cues.allSatisfy { $0.text.utf8.count < 1 << 20 }) }
    }

    /// Over 10 MB: libxml2 refuses one chunk that large, so the reader streams it.
    @Test(.tags(.slow), .notInFastRun) func readsDocumentsOverTenMegabytes() throws {
        let line = String(repeating: "All work and no play makes a long caption. ", count: 128)
        var body = "<div>"
        for k in 0..<2000 { body += #"<p begin="\#(k)s" end="\#(k)s500ms">\#(line)</p>"# }
        body += "</div>"
        let bytes = Self.document(body.replacingOccurrences(of: "s500ms", with: ".5s"))
        #expect(bytes.count > 10_500_000)
        let document = try TTMLReader().read(bytes)
        #expect(document.cues.count == 2000)
        #expect(document.cues[1999].start.milliseconds == 1_999_000 && document.cues[1999].end.milliseconds == 1_999_500)
    }
}

/// libxml2 checks each attribute of an element against all those before it: an element with hundreds of thousands of
/// attributes would take minutes. A linear look at the start tags refuses one with more than 2,000 first; `=` in
/// quoted values, comments, CDATA and the document type declaration is not counted.
@Suite struct CrowdedElementTests {
    @Test func anElementWithThousandsOfAttributesIsRefusedAtOnce() throws {
        let attributes = (0..<300_000).map { "a\($0)=\"x\"" }.joined(separator: " ")
        let bytes = TTMLReaderTests.document(#"<div><p begin="0s" end="1s" "# + attributes + ">Hello</p></div>")
        let clock = ContinuousClock(), started = clock.now
        #expect(
            throws: CaptionError(rule: "ttml.xml", message: "an element with more than 2000 attributes at line 4: not read (no TTML element needs so many)")
        ) {
            try TTMLReader().read(bytes)
        }
        #expect(clock.now - started < .seconds(2))
    }

    @Test func equalsSignsOutsideAttributesAreNotCounted() throws {
        let many = String(repeating: "a=b ", count: 3_000)
        let bytes = Array(
            """
            <?xml version="1.0"?>
            <!DOCTYPE tt [ <!ENTITY e "\(many)"> ]>
            <!-- \(many) -->
            <tt \(TTMLReaderTests.namespaces)><body><div><p begin="0s" end="1s" ttm:role="\(many)"><![CDATA[\(many)]]> ok</p></div></body></tt>
            """.utf8)
        let document = try TTMLReader().read(bytes)
        #expect(document.cues.count == 1)
        let limit = TTMLMarkupScan.limit
        let exactly = (0..<(limit - 2)).map { "a\($0)=\"x\"" }.joined(separator: " ")
        let atTheLimit = TTMLReaderTests.document(#"<div><p begin="0s" end="1s" "# + exactly + ">Hello</p></div>")
        #expect(try TTMLReader().read(atTheLimit).cues.count == 1)
    }
}
