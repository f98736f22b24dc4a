import Foundation
import Testing

@testable import Captions

/// Real SRT shapes (Fixtures/srt-in-the-wild): read as FFmpeg, ExoPlayer and srt read them, each deviation
/// reported on the line that is wrong, and content that holds no cue refused.
@Suite struct SRTInTheWildTests {
    private func read(_ name: String) throws -> CaptionDocument {
        try CaptionFile.read(Fixtures.url("srt-in-the-wild/\(name)").path)
    }

    private func times(_ document: CaptionDocument) -> [[Int64]] {
        document.cues.map { [$0.start.milliseconds, $0.end.milliseconds] }
    }

    @Test func threeDigitSecondsAndMinutes() throws {
        let document = try read("three-digit-seconds.srt")
        #expect(times(document) == [[13_567, 14_901], [15_567, 15_901], [62_000, 63_500]])
        #expect(document.diagnostics.map(\.rule) == ["srt.timing-format", "srt.timing-format", "srt.timing-format"])
        #expect(document.diagnostics.map(\.line) == [2, 6, 10])
    }

    @Test func indexLinesThatAreNotNumbersKeepTheirCues() throws {
        let document = try read("index-lines-that-are-not-numbers.srt")
        #expect(document.cues.map(\.identifier) == ["-1", "1.1", "2.2", "Subtitle 1"])
        #expect(document.cues.map(\.text) == ["A negative index.", "A dotted index.", "Another dotted index.", "A named index."])
        #expect(times(document) == [[1000, 2000], [3000, 4000], [5000, 6000], [7000, 8000]])
        #expect(document.diagnostics.map(\.line) == [1, 5, 9, 13])
        #expect(document.diagnostics.allSatisfy { $0.rule == "srt.index" && $0.severity == .info })
        #expect(document.diagnostics[3].message == "index line \"Subtitle 1\" is not a number (kept as the cue's identifier)")
    }

    @Test func aSecondByteOrderMarkIsNotText() throws {
        let document = try read("second-byte-order-mark.srt")
        #expect(document.cues.map(\.identifier) == ["1", "2"])
        #expect(document.cues.map(\.text) == ["Saved twice with a BOM.", "Second cue."])
        #expect(document.diagnostics.map(\.message) == ["a byte-order mark (U+FEFF) before the index (ignored)"])
    }

    @Test func aGoodTimingLineAfterAnUnreadableOneKeepsItsCue() throws {
        let document = try read("unreadable-timing-then-good-timing.srt")
        #expect(document.cues.map(\.text) == ["First.", "Kept from the good timing line.", "Third."])
        #expect(times(document) == [[1000, 2000], [5000, 6000], [7000, 8000]])
        let diagnostics = document.diagnostics.filter { $0.severity != .info }
        #expect(diagnostics.map(\.rule) == ["srt.timing"])
        #expect(diagnostics.map(\.line) == [6])
        #expect(diagnostics.first?.message == "unreadable timing line \"00:00:0x,000 --> 00:00:04,000\": skipped up to the readable timing line 1 line below")
    }

    /// ExoPlayer reads cues 1 and 3 of this shape; so do we, each skipped block reported where it is wrong.
    @Test func missingAndBrokenTimecodes() throws {
        let document = try read("missing-and-broken-timecodes.srt")
        #expect(document.cues.map(\.text) == ["The first cue.", "The third cue."])
        #expect(times(document) == [[0, 1234], [7_204_567, 7_208_901]])
        #expect(
            document.diagnostics.filter { $0.severity == .error }.map { "\($0.line) \($0.rule)" }
                == ["5 srt.garbage", "14 srt.timing", "18 srt.timing"])
        #expect(document.diagnostics.first { $0.line == 14 }?.message == "unreadable timing line \"--> 02:00:10,901\": block skipped")
    }

    @Test func crCrLfIsOneLineBreak() throws {
        let document = try read("cr-cr-lf-line-endings.srt")
        #expect(document.cues.map(\.text) == ["one", "two\nlines"])
        #expect(document.cues.map(\.line) == [2, 6])
        #expect(document.diagnostics.isEmpty)
    }

    @Test func theDiagnosticNamesTheLineThatIsWrong() throws {
        let document = try read("negative-start-time.srt")
        #expect(document.cues.map(\.text) == ["Fine."])
        let diagnostic = try #require(document.diagnostics.first)
        #expect(diagnostic.line == 2)
        #expect(diagnostic.rule == "srt.timing")
        #expect(diagnostic.message == "unreadable timing line \"-00:00:01,000 --> 00:00:02,000\": block skipped")
    }

    // MARK: - Not an SRT file

    @Test(arguments: ["prose-not-srt.srt", "png-renamed.srt", "binary-bytes.srt"])
    func contentWithoutACueIsNotAnSRTFile(file: String) throws {
        #expect {
            try read(file)
        } throws: { error in
            (error as? CaptionError) == CaptionError(rule: "srt.no-cues", message: "not an SRT file (no cue found)")
        }
    }

    @Test(arguments: ["empty.srt", "whitespace-only.srt"])
    func noContentIsAValidFileWithoutCues(file: String) throws {
        let document = try read(file)
        #expect(document.cues.isEmpty)
        #expect(document.diagnostics.isEmpty)
    }

    @Test func onlyUnreadableTimingLinesSaySo() {
        #expect {
            try SRTReader().read(Array("1\n00:00:0x,000 --> 00:00:02,000\ntext\n".utf8))
        } throws: { error in
            (error as? CaptionError)?.message == "no cue could be read: line 2: unreadable timing line \"00:00:0x,000 --> 00:00:02,000\""
        }
    }

    // MARK: - Encodings

    @Test(arguments: [("utf-32le-with-bom.srt", "utf-32le"), ("utf-32be-with-bom.srt", "utf-32be")])
    func utf32WithItsByteOrderMark(file: String, encoding: String) throws {
        let document = try read(file)
        #expect(document.encoding == encoding)
        #expect(document.cues.map(\.text) == ["Grüß Gott, €5 — 𝄞"])
        #expect(times(document) == [[1000, 2000]])
        #expect(document.diagnostics.isEmpty)
    }

    @Test func strayLatin1LinesAreRecoveredOneByOne() throws {
        let document = try read("utf-8-with-stray-latin-1-lines.srt")
        #expect(document.encoding == "utf-8")
        #expect(document.cues.map(\.text) == ["Grüß Gott", "Ça coûte 5 €", "Naïve café"])
        #expect(document.diagnostics.map { "\($0.line) \($0.rule) \($0.severity)" } == ["7 srt.encoding warning"])
    }

    /// A file that is Windows-1252 throughout is still read as Windows-1252, with one diagnostic.
    @Test func aWholeWindows1252FileIsReadAsOne() throws {
        let bytes = Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8) + Array("Ça coûte 5 €\n".data(using: .windowsCP1252)!)
        let document = try SRTReader().read(bytes)
        #expect(document.encoding == "windows-1252")
        #expect(document.cues.map(\.text) == ["Ça coûte 5 €"])
        #expect(document.diagnostics.map(\.line) == [0])
    }

    // MARK: - Markup

    @Test func markupPlayersKnowAndTagsTheyDoNot() throws {
        let document = try read("markup-players-know-and-unknown-tags.srt")
        #expect(
            document.cues.map { $0.plainText(in: .srt) } == [
                "italic struck Little a\nb",
                "line one\nline two\nline three",
                "closing nothing and spaced",
                "5 < 6 and 7 > 3 stay text, so does <3",
                "yellow bold",
            ])
        // The raw markup is kept as written.
        #expect(document.cues[0].text == "<i>italic <s>struck</s> <sub>Little</sub> a<br>b</i>")
        #expect(
            document.cues[0].nodes(in: .srt) == [
                .element(
                    CueElement(
                        kind: .italic,
                        children: [
                            .text("italic "), .element(CueElement(kind: .strike, children: [.text("struck")])), .text(" Little a\nb"),
                        ]))
            ])
        #expect(
            SRTMarkup.problems(of: document.cues[0].text).map(\.message) == [
                "unknown tag <sub> left out of the text",
                "unknown tag </sub> left out of the text",
            ])
        #expect(
            SRTMarkup.problems(of: document.cues[2].text).map(\.message) == [
                "unknown tag </xyz> left out of the text", "malformed tag < u> (read as a tag, left out of the text)",
            ])
        #expect(SRTMarkup.problems(of: document.cues[3].text).isEmpty)
        #expect(
            SRTMarkup.nodes(of: document.cues[4].text) == [
                .element(CueElement(kind: .font, annotation: "#ffff00", children: [.text("yellow")])), .text(" "),
                .element(CueElement(kind: .bold, children: [.text("bold")])),
            ])
    }
}

/// A file of millions of broken blocks keeps the first 1,000 diagnostics and counts the rest, in one pass and
/// when parsed in parts on all cores (memory stays flat whatever the count).
@Suite struct DiagnosticsLimitTests {
    private func strayBlocks(_ count: Int, format: CaptionFormat) -> [UInt8] {
        var text = format == .webvtt ? "WEBVTT\n\n" : ""
        text += format == .webvtt ? "00:00:01.000 --> 00:00:02.000\nHello\n\n" : "1\n00:00:01,000 --> 00:00:02,000\nHello\n\n"
        let block = format == .webvtt ? "00:00:0x --> broken\nstray\n\n" : "2\n00:00:0x --> broken\nstray\n\n"
        text += String(repeating: block, count: count)
        return Array(text.utf8)
    }

    @Test(arguments: [(CaptionFormat.srt, 5_000), (.srt, 200_000), (.webvtt, 5_000), (.webvtt, 200_000)])
    func diagnosticsBeyondTheLimitAreCounted(format: CaptionFormat, blocks: Int) throws {
        let bytes = strayBlocks(blocks, format: format)
        let document: CaptionDocument
        if blocks > 100_000 {
            // Long enough to be parsed in parts (written to a file: the parallel reader works on mapped files).
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("stray-\(blocks)-\(UUID().uuidString).\(format == .srt ? "srt" : "vtt")")
                .path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            #expect(bytes.count >= ParallelParsing.minimumSize)
            document = try CaptionFile.read(path)
        } else {
            document = try CaptionFile.read(bytes, format: format)
        }
        #expect(document.cues.count == 1)
        #expect(document.diagnostics.count == CaptionDiagnostic.limitPerFile + 1)
        let total = document.diagnostics.dropLast().count + Int(document.diagnostics.last!.message.prefix { $0.isNumber })!
        #expect(total >= blocks, "every stray block counted")
        #expect(document.diagnostics.last?.rule == "captions.diagnostics-limit")
        #expect(document.diagnostics.last?.message.hasSuffix(" more diagnostics not listed (the first 1000 of a file are kept)") == true)
    }
}

/// UTF-16 captions cut at an odd byte, or holding unpaired surrogates: read, the damage replaced and reported.
@Suite struct DamagedUTF16Tests {
    private func utf16LE(_ text: String, extraUnits: [UInt16] = [], oddByte: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in Array(text.utf16) + extraUnits { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        if oddByte { bytes.append(0x41) }
        return bytes
    }

    @Test func anOddTrailingByteIsDroppedAndReported() throws {
        let document = try CaptionFile.read(utf16LE("1\n00:00:01,000 --> 00:00:02,000\nGrüß\n", oddByte: true), format: .srt)
        #expect(document.cues.map(\.text) == ["Grüß"])
        #expect(document.encoding == "utf-16le")
        #expect(document.diagnostics.map(\.message) == ["UTF-16 text with an odd trailing byte (dropped)"])
    }

    @Test(arguments: [CaptionFormat.srt, .webvtt])
    func unpairedSurrogatesReadAsReplacementCharacters(format: CaptionFormat) throws {
        let head = format == .srt ? "1\n00:00:01,000 --> 00:00:02,000\nA" : "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nA"
        // A lone high surrogate, then a lone low one, then a good pair (😀).
        var units = Array(head.utf16) + [0xD83D, 0x0042, 0xDE00, 0x0043, 0xD83D, 0xDE00]
        units += Array("\n".utf16)
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in units { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let document = try CaptionFile.read(bytes, format: format)
        #expect(document.cues.map(\.text) == ["A\u{FFFD}B\u{FFFD}C😀"])
        #expect(document.diagnostics.map(\.message) == ["UTF-16 text with 2 unpaired surrogates (read as U+FFFD)"])
        #expect(document.diagnostics.map(\.rule) == [format == .srt ? "srt.encoding" : "webvtt.encoding"])
    }
}
