import Foundation
import TestSupport
import TestTraits
import Testing

@testable import Captions

/// Time in milliseconds.
private func t(_ ms: Int64) -> CaptionTime { CaptionTime(milliseconds: ms) }

/// SAMI (`.smi`): the Korean two-language fixture in CP949, written here from Microsoft's SAMI description and the
/// files Korean broadcasters publish; its other encodings; writing and reading back.
@Suite struct SAMITests {
    static let fixture = "formats/korean-two-languages.cp949.smi"

    @Test func aKoreanFileInCP949WithTwoLanguages() throws {
        let document = try SAMIReader().read(try Fixtures.bytes(Self.fixture))
        #expect(document.format == .sami && document.encoding == "cp949")
        #expect(
            document.cues.map { [$0.start.milliseconds, $0.end.milliseconds] } == [[1000, 3500], [4000, 6250], [6250, 9000]])
        #expect(
            document.cues.map(\.text) == [
                "안녕하십니까,\n뉴스 9입니다.", "첫 소식입니다. <i>속보</i> &amp; 날씨", "비가 &lt;많이&gt; 옵니다",
            ])
        #expect(document.header == ".KRCC { Name:한국어; lang:ko-KR; SAMIType:CC; }")
        #expect(
            document.diagnostics.map(\.message) == [
                "no byte-order mark and not UTF-8: read as CP949 (EUC-KR), as Korean SAMI files are",
                "the file also has captions in ENCC (en-US); read: KRCC (ko-KR) (choose with --sami-language)",
                "<font> (1×) has no WebVTT counterpart here: its text is kept, the tag dropped",
            ])
        // The other language, by its tag or its class; a language the file lacks is a clear error.
        for choice in ["en", "en-US", "ENCC"] {
            let english = try SAMIReader(language: choice).read(try Fixtures.bytes(Self.fixture))
            #expect(english.cues.map(\.text) == ["Good evening,\nthis is News 9.", "The first story. <i>Breaking</i> &amp; weather", "Heavy rain is coming"])
            #expect(english.cues.map(\.end.milliseconds) == [3500, 6250, 9000])
        }
        #expect(throws: CaptionError(rule: "sami.language", message: "no class for ja in the SAMI file (it has: KRCC (ko-KR), ENCC (en-US))")) {
            try SAMIReader(language: "ja").read(try Fixtures.bytes(Self.fixture))
        }
    }

    /// The same captions in UTF-8, UTF-8 with a byte-order mark and UTF-16 LE/BE with one read alike, named by their
    /// encoding; found to be SAMI by content as well as by name.
    @Test func everyEncodingSAMIFilesUse() throws {
        let korean = try SAMIReader().read(try Fixtures.bytes(Self.fixture))
        let text = String(decoding: try TextDecoding.decode(try Fixtures.bytes(Self.fixture), encoding: "cp949").utf8, as: UTF8.self)
        let encodings: [(String, [UInt8])] = [
            ("utf-8", Array(text.utf8)), ("utf-8", [0xEF, 0xBB, 0xBF] + Array(text.utf8)),
            ("utf-16le", [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            ("utf-16be", [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }),
        ]
        for (name, bytes) in encodings {
            #expect(CaptionFile.format(ofContent: bytes) == .sami, "\(name)")
            let document = try CaptionFile.read(bytes, format: .sami)
            #expect(document.encoding == name && document.cues == korean.cues, "\(name)")
        }
    }

    /// Written: a style sheet with the document's class, a SYNC per cue and a clearing one where a gap follows;
    /// overlapping cues are cut and said; read back, the cues are the same.
    @Test func writtenAndReadBack() throws {
        let cues = [
            Cue(start: t(1000), end: t(2500), text: "<i>Hello</i> &amp; <v Anna>welcome</v>\nto Seoul"),
            Cue(start: t(2500), end: t(4000), text: "No gap before"),
            Cue(start: t(5000), end: t(7000), text: "Overlaps the next"),
            Cue(start: t(6000), end: t(8000), text: "1 &lt; 2"),
        ]
        let (bytes, diagnostics) = CaptionFile.encode(CaptionDocument(format: .webvtt, cues: cues), as: .sami)
        let expected = """
            <SAMI>
            <HEAD>
            <STYLE TYPE="text/css">
            <!--
            P { margin-left: 8pt; margin-right: 8pt; margin-bottom: 2pt; margin-top: 2pt; text-align: center; font-size: 14pt; font-family: Arial, sans-serif; color: white; }
            .CC { Name: Captions; SAMIType: CC; }
            -->
            </STYLE>
            </HEAD>
            <BODY>
            <SYNC Start=1000><P Class=CC><i>Hello</i> &amp; welcome<br>to Seoul
            <SYNC Start=2500><P Class=CC>No gap before
            <SYNC Start=4000><P Class=CC>&nbsp;
            <SYNC Start=5000><P Class=CC>Overlaps the next
            <SYNC Start=6000><P Class=CC>1 &lt; 2
            <SYNC Start=8000><P Class=CC>&nbsp;
            </BODY>
            </SAMI>

            """
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(
            diagnostics.map(\.message) == [
                "SAMI cannot hold speakers' tags (<v>); first in cue 1",
                "SAMI cannot hold captions shown at once (SAMI shows one at a time: a caption ends where the next begins); first in cue 3",
            ])
        let back = try SAMIReader().read(bytes)
        #expect(back.cues.map(\.text) == ["<i>Hello</i> &amp; welcome\nto Seoul", "No gap before", "Overlaps the next", "1 &lt; 2"])
        #expect(back.cues.map { [$0.start.milliseconds, $0.end.milliseconds] } == [[1000, 2500], [2500, 4000], [5000, 6000], [6000, 8000]])
        // A SAMI document keeps its language class when written again.
        let korean = try SAMIReader().read(try Fixtures.bytes(Self.fixture))
        let rewritten = String(decoding: CaptionFile.encode(korean, as: .sami).bytes, as: UTF8.self)
        #expect(
            rewritten.contains(".KRCC { Name:한국어; lang:ko-KR; SAMIType:CC; }\n") && rewritten.contains("<SYNC Start=1000><P Class=KRCC>안녕하십니까,<br>뉴스 9입니다.\n"))
    }

    /// FFmpeg's SAMI reader as a second opinion, on a file of one language: the same times and text.
    @Test(.tags(.media), .notInFastRun) func ffmpegReadsWhatItWrites() throws {
        let cues = [
            Cue(start: t(1000), end: t(2500), text: "<i>Hello</i> there"), Cue(start: t(3000), end: t(4500), text: "Two\nlines"),
            Cue(start: t(4500), end: t(6000), text: "Fish &amp; chips"),
        ]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-sami-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.smi").path
        try Data(CaptionFile.encode(CaptionDocument(format: .webvtt, cues: cues), as: .sami).bytes).write(to: URL(fileURLWithPath: path))
        let srt = try ExternalTool.output("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "srt", "-"])
        let theirs = try SRTReader().read(Array(srt.utf8)).cues
        #expect(theirs.map { [$0.start.milliseconds, $0.end.milliseconds] } == [[1000, 2500], [3000, 4500], [4500, 6000]])
        // (FFmpeg's SubRip output keeps the reference as written.)
        #expect(theirs.map { $0.plainText(in: .srt).replacingOccurrences(of: "&amp;", with: "&") } == ["Hello there", "Two\nlines", "Fish & chips"])
    }

    @Test func notSAMI() {
        #expect(throws: CaptionError(rule: "sami.parse", message: "not a SAMI file: no <SAMI> element and no <SYNC> tag")) {
            try SAMIReader().read(Array("1\n00:00:01,000 --> 00:00:02,000\nHello\n".utf8))
        }
    }
}

/// ASS and SSA: an Aegisub-style script written here from the ASS specification (v4.00+) and an SSA v4.00 one.
@Suite struct ASSTests {
    @Test func styledEvents() throws {
        let document = try CaptionFile.read(Fixtures.url("formats/styled-events.ass").path)
        #expect(document.format == .ass)
        #expect(
            document.cues.map { [$0.start.milliseconds, $0.end.milliseconds] } == [
                [1000, 3500], [3500, 5250], [5250, 7000], [7000, 9000], [9000, 11000], [11000, 13000], [13000, 15000],
            ])
        #expect(
            document.cues.map(\.text) == [
                "<v ANNA>Where were you,\nlast night?</v>", "<i>She knows.</i>", "I was <i>out</i> — with <b>friends</b> &amp; &lt;family&gt;.",
                "<b>SALE 50%</b>", "Top left", "Centre of the screen", "A square",
            ])
        // The Sign style's top centre, \an7, and \pos on the 1920×1080 canvas.
        #expect(document.cues[3].settings.line == 0 && document.cues[3].settings.align == .center)
        #expect(document.cues[4].settings.line == 0 && document.cues[4].settings.align == .left)
        let centre = document.cues[5].settings
        #expect(centre.position == 50 && centre.line == 50 && !centre.snapToLines && centre.lineAlign == .end && centre.positionAlign == .center)
        #expect(document.cues[0].hasDefaultSettings)
        #expect(
            document.diagnostics.map(\.message) == [
                "override tag \\c (1×, first in cue 6) has no WebVTT counterpart: dropped",
                "override tag \\fad (1×, first in cue 6) has no WebVTT counterpart: dropped",
                "override tag \\p (1×, first in cue 7) has no WebVTT counterpart: dropped",
            ])
    }

    /// SSA v4.00: `[V4 Styles]`, `Marked=` in place of Layer, and its own alignment numbers (6 is top centre).
    @Test func ssaVersion4() throws {
        let script = """
            [Script Info]
            ScriptType: v4.00

            [V4 Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, TertiaryColour, BackColour, Bold, Italic, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, AlphaLevel, Encoding
            Style: Default,Arial,20,16777215,65535,65535,-2147483640,0,0,1,3,0,2,30,30,10,0,0
            Style: Top,Arial,20,16777215,65535,65535,-2147483640,0,-1,1,3,0,6,30,30,10,0,0

            [Events]
            Format: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: Marked=0,0:00:01.5,0:00:02.25,Default,,0000,0000,0000,,Hello, world
            Dialogue: Marked=0,0:00:03.00,0:00:04.00,Top,,0000,0000,0000,,Up here
            """
        let document = try CaptionFile.read(Array(script.utf8), format: .ass)
        #expect(document.cues.map { [$0.start.milliseconds, $0.end.milliseconds] } == [[1500, 2250], [3000, 4000]])
        #expect(document.cues.map(\.text) == ["Hello, world", "<i>Up here</i>"])
        #expect(document.cues[1].settings.line == 0 && document.cues[0].hasDefaultSettings)
        #expect(CaptionFile.format(ofContent: Array(script.utf8)) == .ass)
    }

    /// Written from WebVTT: byte-exact; read back, the same cues; written again, the same bytes.
    @Test func writtenAndReadBack() throws {
        var top = CueSettings()
        top.line = 0
        top.align = .left
        var placed = CueSettings()
        placed.position = 25
        placed.line = 80
        placed.snapToLines = false
        placed.lineAlign = .end
        placed.positionAlign = .center
        let cues = [
            Cue(start: t(1000), end: t(2500), text: "<v Anna>Hello, <i>you</i></v>\nthere"),
            Cue(start: t(2500), end: t(4004), text: "Top {left}", settings: top),
            Cue(start: t(5000), end: t(6000), text: "<b>Placed</b> &amp; bold", settings: placed),
        ]
        let (bytes, diagnostics) = CaptionFile.encode(CaptionDocument(format: .webvtt, cues: cues), as: .ass)
        let events = String(decoding: bytes, as: UTF8.self).components(separatedBy: "[Events]\n")[1]
        #expect(
            events == """
                Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
                Dialogue: 0,0:00:01.00,0:00:02.50,Default,Anna,0,0,0,,Hello, {\\i1}you{\\i0}\\Nthere
                Dialogue: 0,0:00:02.50,0:00:04.00,Default,,0,0,0,,{\\an7}Top (left)
                Dialogue: 0,0:00:05.00,0:00:06.00,Default,,0,0,0,,{\\an2\\pos(96,230.4)}{\\b1}Placed{\\b0} & bold

                """)
        #expect(
            diagnostics.map(\.message) == [
                "ASS cannot hold times finer than a hundredth of a second (rounded); first in cue 2",
                "ASS cannot hold braces in text (written as parentheses); first in cue 2",
            ])
        let back = try CaptionFile.read(bytes, format: .ass)
        #expect(back.cues.map(\.text) == ["<v Anna>Hello, <i>you</i>\nthere</v>", "Top (left)", "<b>Placed</b> &amp; bold"])
        #expect(back.cues[1].settings.line == 0 && back.cues[1].settings.align == .left)
        #expect(back.cues[2].settings.position == 25 && back.cues[2].settings.line == 80)
        #expect(CaptionFile.encode(back, as: .ass).bytes == bytes)
    }

    /// FFmpeg's ASS reader as a second opinion on what is written: the same times and words.
    @Test(.tags(.media), .notInFastRun) func ffmpegReadsWhatItWrites() throws {
        let document = try CaptionFile.read(Fixtures.url("formats/styled-events.ass").path)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-ass-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.ass").path
        try Data(CaptionFile.encode(document, as: .ass).bytes).write(to: URL(fileURLWithPath: path))
        let srt = try ExternalTool.output("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "srt", "-"])
        let theirs = try SRTReader().read(Array(srt.utf8)).cues
        #expect(theirs.map(\.start) == document.cues.map(\.start) && theirs.map(\.end) == document.cues.map(\.end))
        // FFmpeg's SRT keeps override blocks it cannot express ({\an7}) as text, and `<family>` reads there as a tag;
        // without them the words are the same.
        func words(_ text: String) -> String { text.replacingOccurrences(of: #"\{[^}]*\}|<[^>]*>"#, with: "", options: .regularExpression) }
        #expect(theirs.map { words($0.text) } == document.cues.map { words($0.plainText(in: .webvtt)) })
    }

    /// Styles closed and opened again around spaces alone are one run (as the reader reads them): written once.
    @Test func adjacentRunsOfOneStyleAreOne() throws {
        for text in ["<i>lea </i><i>(</i>", "<i>lea</i> <i>(</i>"] {
            let cue = Cue(start: t(1000), end: t(2000), text: text)
            let written = CaptionFile.encode(CaptionDocument(format: .webvtt, cues: [cue]), as: .ass).bytes
            #expect(String(decoding: written, as: UTF8.self).hasSuffix(",,{\\i1}lea ({\\i0}\n"), "\(text)")
            let back = try CaptionFile.read(written, format: .ass)
            #expect(back.cues.map(\.text) == ["<i>lea (</i>"] && CaptionFile.encode(back, as: .ass).bytes == written)
        }
    }

    /// A speaker's name as the Name field holds it and the reader reads it back: no commas, `<`, `>`, `&` or control
    /// characters, one space between words (`make fuzz` found names written two ways).
    @Test func aSpeakerNameIsWrittenAsItReadsBack() throws {
        let cue = Cue(start: t(1000), end: t(2000), text: "<v  Tom &amp; Jerry,  Sr.\u{7}>Hi</v>")
        let written = CaptionFile.encode(CaptionDocument(format: .webvtt, cues: [cue]), as: .ass).bytes
        #expect(String(decoding: written, as: UTF8.self).hasSuffix("Dialogue: 0,0:00:01.00,0:00:02.00,Default,Tom Jerry Sr.,0,0,0,,Hi\n"))
        let back = try CaptionFile.read(written, format: .ass)
        #expect(back.cues.map(\.text) == ["<v Tom Jerry Sr.>Hi</v>"] && CaptionFile.encode(back, as: .ass).bytes == written)
    }

    @Test func notASS() {
        #expect(throws: CaptionError(rule: "ass.parse", message: "not an ASS/SSA file: no [Script Info] or [Events] section")) {
            try ASSReader().read(Array("WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n".utf8))
        }
    }
}

/// SBV, YouTube's SubViewer captions.
@Suite struct SBVTests {
    @Test func readWriteAndBack() throws {
        let bytes = try Fixtures.bytes("formats/two-cues.sbv")
        #expect(CaptionFile.format(ofContent: bytes) == .sbv)
        let document = try CaptionFile.read(bytes, format: .sbv)
        #expect(document.cues.map { [$0.start.milliseconds, $0.end.milliseconds] } == [[1000, 3500], [3500, 5250]])
        #expect(document.cues.map(\.text) == ["Where were you,\nlast night?", "Out with friends &amp; &lt;family&gt;."])
        #expect(document.diagnostics.isEmpty)
        let (written, diagnostics) = CaptionFile.encode(document, as: .sbv)
        #expect(written == bytes && diagnostics.isEmpty)
        // From WebVTT: styles and positions are said lost, the words kept.
        var top = CueSettings()
        top.line = 0
        let (fromWebVTT, losses) = CaptionFile.encode(
            CaptionDocument(format: .webvtt, cues: [Cue(start: t(61_005), end: t(3_723_450), text: "<i>Hi</i> &amp; bye", settings: top)]), as: .sbv)
        #expect(String(decoding: fromWebVTT, as: UTF8.self) == "0:01:01.005,1:02:03.450\nHi & bye\n\n")
        #expect(
            losses.map(\.message) == [
                "SBV cannot hold styles or voices (italics, bold, speakers' tags); first in cue 1", "SBV cannot hold positions or alignment; first in cue 1",
            ])
    }

    @Test func malformed() throws {
        let mixed = try SBVReader().read(Array("0:00:01.000,0:00:02.000\nfine\n\n0:00:03,0:00:04\nbad timing\n".utf8))
        #expect(mixed.cues.count == 1 && mixed.diagnostics.map(\.line) == [4])
        #expect(throws: CaptionError(rule: "sbv.timing", message: "not an SBV file: no block starts with a timing line (H:MM:SS.mmm,H:MM:SS.mmm)")) {
            try SBVReader().read(Array("hello\nworld\n".utf8))
        }
    }
}
