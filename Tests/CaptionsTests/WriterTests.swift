import Foundation
import TestSupport
import Testing

@testable import Captions

/// Byte-exact writer output, and reading it back.
@Suite struct WriterTests {
    @Test func webVTTCanonicalOutput() throws {
        var document = CaptionDocument(format: .webvtt, header: " - Interview\nKind: captions")
        var region = CueRegion(identifier: "left")
        region.width = 40
        region.viewportAnchorX = 10
        region.viewportAnchorY = 90
        region.scrollUp = true
        document.headerBlocks = [.note(" made by hand"), .style("::cue(.loud) { font-weight: bold; }"), .region(region)]
        var settings = CueSettings()
        settings.line = 0
        settings.align = .start
        settings.region = "left"
        document.cues = [
            Cue(
                identifier: "intro", start: CaptionTime(milliseconds: 1000), end: CaptionTime(milliseconds: 2500),
                text: "<v Ann>Hello <c.loud>there</c></v>", settings: settings),
            Cue(start: CaptionTime(milliseconds: 3_723_004), end: CaptionTime(milliseconds: 3_725_000), text: "two\nlines"),
        ]
        document.notes = [CaptionNote(cuesBefore: 1, text: "\nbetween cues")]
        let (bytes, diagnostics) = WebVTTWriter().write(document)
        let expected = """
            WEBVTT - Interview
            Kind: captions

            NOTE made by hand

            STYLE
            ::cue(.loud) { font-weight: bold; }

            REGION
            id:left width:40% viewportanchor:10%,90% scroll:up

            intro
            00:00:01.000 --> 00:00:02.500 line:0 align:start region:left
            <v Ann>Hello <c.loud>there</c></v>

            NOTE
            between cues

            01:02:03.004 --> 01:02:05.000
            two
            lines

            """
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(diagnostics.isEmpty)
        let read = try WebVTTReader().read(bytes)
        #expect(read.cues == document.cues)
        #expect(read.headerBlocks == document.headerBlocks)
        #expect(read.notes == document.notes)
        #expect(read.header == document.header)
        #expect(WebVTTWriter().write(read).bytes == bytes)
    }

    @Test func srtCanonicalOutput() throws {
        var settings = CueSettings()
        settings.srtCoordinates = "X1:1 X2:2 Y1:3 Y2:4"
        let document = CaptionDocument(
            format: .srt,
            cues: [
                Cue(identifier: "7", start: CaptionTime(milliseconds: 0), end: CaptionTime(milliseconds: 1001), text: "<i>one</i>"),
                Cue(start: CaptionTime(milliseconds: 360_000_000), end: CaptionTime(milliseconds: 360_000_001), text: "a\nb", settings: settings),
            ])
        let (bytes, _) = SRTWriter().write(document)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "1\n00:00:00,000 --> 00:00:01,001\n<i>one</i>\n\n2\n100:00:00,000 --> 100:00:00,001 X1:1 X2:2 Y1:3 Y2:4\na\nb\n\n")
        let crlf = SRTWriter(lineEnding: .crlf).write(document).bytes
        #expect(String(decoding: crlf, as: UTF8.self).hasPrefix("1\r\n00:00:00,000 --> 00:00:01,001\r\n<i>one</i>\r\n\r\n2\r\n"))
        let read = try SRTReader().read(utf8: bytes)
        #expect(read.cues.map(\.text) == document.cues.map(\.text))
        #expect(read.cues.map(\.end) == document.cues.map(\.end))
        #expect(SRTWriter().write(read).bytes == bytes)
    }

    /// What a format cannot hold inside a cue is made safe, so the output reads back as the same cues.
    @Test func unsafeTextIsRepaired() throws {
        let document = CaptionDocument(
            format: .webvtt,
            cues: [
                Cue(identifier: "a-->b", start: .zero, end: CaptionTime(milliseconds: 1000), text: "\nfirst\n\nsecond --> third\n")
            ])
        let (bytes, diagnostics) = WebVTTWriter().write(document)
        #expect(String(decoding: bytes, as: UTF8.self) == "WEBVTT\n\na->b\n00:00:00.000 --> 00:00:01.000\nfirst\nsecond --&gt; third\n")
        #expect(diagnostics.count == 3)
        let read = try WebVTTReader().read(bytes)
        #expect(read.cues.count == 1)
        #expect(read.cues[0].plainText == "first\nsecond --> third")

        let srt = SRTWriter().write(
            CaptionDocument(
                format: .srt,
                cues: [
                    Cue(start: .zero, end: CaptionTime(milliseconds: 1000), text: "one\n  \ntwo --> three")
                ]))
        #expect(String(decoding: srt.bytes, as: UTF8.self) == "1\n00:00:00,000 --> 00:00:01,000\none\ntwo -> three\n\n")
    }

    @Test func numbersAreWrittenWithoutExponents() {
        #expect(NumberFormatting.plainDecimal(1e34) == "10000000000000000000000000000000000")
        #expect(NumberFormatting.plainDecimal(1.8446744073709552e19) == "18446744073709552000")
        #expect(NumberFormatting.plainDecimal(5e-7) == "0.0000005")
        #expect(NumberFormatting.plainDecimal(-12.5) == "-12.5")
        #expect(NumberFormatting.plainDecimal(-0.0) == "0")
        #expect(NumberFormatting.plainDecimal(100) == "100")
    }

    /// Found by `make fuzz`: cases where written output did not read back the same.
    @Test func fuzzFindings() throws {
        // "---->" in SRT text: replacing "-->" once leaves "--->"… every arrow must go.
        let arrows = SRTWriter().write(
            CaptionDocument(
                format: .srt,
                cues: [
                    Cue(start: .zero, end: CaptionTime(milliseconds: 1), text: "a ----> b")
                ])
        ).bytes
        #expect(String(decoding: arrows, as: UTF8.self).contains("a -> b"))
        // A line of a form feed is text in WebVTT but blank in SRT.
        let formFeed = SRTWriter().write(
            CaptionDocument(
                format: .srt,
                cues: [
                    Cue(start: .zero, end: CaptionTime(milliseconds: 1), text: "x\n\u{0C}")
                ])
        ).bytes
        #expect(String(decoding: formFeed, as: UTF8.self) == "1\n00:00:00,000 --> 00:00:00,001\nx\n\n")
        // NUL reads as U+FFFD in WebVTT, so it is written so.
        let nul = WebVTTWriter().write(
            CaptionDocument(
                format: .webvtt,
                cues: [
                    Cue(start: .zero, end: CaptionTime(milliseconds: 1), text: "a\u{0}b")
                ])
        ).bytes
        #expect(try WebVTTReader().read(nul).cues.first?.text == "a\u{FFFD}b")
        #expect(!nul.contains(0))
        // A region of defaults still needs a settings line to be a region.
        let region = WebVTTWriter().write(CaptionDocument(format: .webvtt, headerBlocks: [.region(CueRegion())])).bytes
        #expect(String(decoding: region, as: UTF8.self) == "WEBVTT\n\nREGION\nwidth:100%\n")
        #expect(try WebVTTReader().read(region).regions == [CueRegion()])
    }
}

/// Cue text written line by line into the output (no copies): the same bytes as splitting it into lines, dropping
/// those that would end the cue and replacing "-->" until none is left — checked against that model on random text.
@Suite struct SafeLinesTests {
    /// The model: split at LF, CR LF and CR; drop; replace until no arrow is left.
    private func model(_ text: String, dropWhitespace: Bool, replacement: String, crlf: Bool) -> (bytes: [UInt8], dropped: Bool, replaced: Bool) {
        var bytes: [UInt8] = [], dropped = false, replaced = false
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let drop = dropWhitespace ? line.unicodeScalars.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\u{0C}" } : line.isEmpty
            if drop {
                dropped = true
                continue
            }
            var safe = String(line)
            while safe.contains("-->") {
                safe = safe.replacingOccurrences(of: "-->", with: replacement)
                replaced = true
            }
            bytes += Array(safe.utf8) + (crlf ? [0x0D, 0x0A] : [0x0A])
        }
        return (bytes, dropped, replaced)
    }

    @Test func matchesTheModelOnRandomText() {
        var random = SeededRandom(seed: 14)
        let alphabet: [Character] = ["-", "-", "-", ">", "\n", "\r", " ", "\t", "a", "é"]
        for round in 0..<3_000 {
            let text = String((0..<Int(random.next() % 40)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            for (arrow, replacement, dropWhitespace) in [(SafeLines.Arrow.escaped, "--&gt;", false), (.shortened, "->", true)] {
                let crlf = round % 2 == 0 && arrow == .shortened
                var out: [UInt8] = []
                let outcome = SafeLines.append(
                    text, to: &out, dropping: dropWhitespace ? SafeLines.isBlank : SafeLines.isEmpty, arrow: arrow,
                    crlf: crlf, spill: nil)
                let expected = model(text, dropWhitespace: dropWhitespace, replacement: replacement, crlf: crlf)
                #expect(out == expected.bytes, "\(arrow) \(text.debugDescription)")
                #expect(outcome.droppedLines == expected.dropped && outcome.replacedArrows == expected.replaced, "\(text.debugDescription)")
            }
        }
    }
}
