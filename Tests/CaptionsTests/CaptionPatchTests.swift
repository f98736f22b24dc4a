import Foundation
import Testing

@testable import Captions

/// Edits made in a file's own bytes (`CaptionPatch`): what changed is rewritten where it stands, every other byte —
/// byte order mark, CR LF, comments, styles, a block the reader skipped, how a timestamp is written — comes back.
@Suite struct CaptionPatchTests {
    static func patched(_ text: String, format: CaptionFormat, edit: (inout CaptionDocument) -> Void) throws -> Result<String, CaptionPatch.Refusal> {
        let bytes = Array(text.utf8)
        let original = try CaptionFile.read(bytes, format: format)
        var edited = original
        edit(&edited)
        return CaptionPatch.apply(to: bytes, original: original, edited: edited).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func anSRTShiftKeepsTheByteOrderMarkLineBreaksAndASkippedBlock() throws {
        let file =
            "\u{FEFF}1\r\n00:00:01,000 --> 00:00:02,000 X1:10 X2:20 Y1:5 Y2:9\r\nOne\r\n\r\n"
            + "2\r\n-00:00:01,000 --> 00:00:03,000\r\nskipped: a negative start\r\n\r\n"
            + "3\r\n00:00:04.5 --> 00:00:05,000\r\nThree, <i>styled</i>\r\n"
        let result = try Self.patched(file, format: .srt) { _ = TimingEdit(offset: 1.25).apply(to: &$0) }
        #expect(
            try result.get()
                == "\u{FEFF}1\r\n00:00:02,250 --> 00:00:03,250 X1:10 X2:20 Y1:5 Y2:9\r\nOne\r\n\r\n"
                + "2\r\n-00:00:01,000 --> 00:00:03,000\r\nskipped: a negative start\r\n\r\n"
                + "3\r\n00:00:05.750 --> 00:00:06,250\r\nThree, <i>styled</i>\r\n")
    }

    @Test func aWebVTTTextEditKeepsItsHeaderBlocksCommentsAndShortTimestamps() throws {
        let file = """
            WEBVTT - Interview
            Kind: captions

            STYLE
            ::cue { color: yellow }

            NOTE kept as written

            intro
            01:02.000 --> 01:04.500 line:10% align:start
            <v Ana>A line that is far too long to be shown on one line</v>

            NOTE between cues

            59:59.000 --> 01:00:01.000
            Past the hour

            """
        let result = try Self.patched(file, format: .webvtt) { document in
            document.cues[0].text = "<v Ana>A line that is far too long\nto be shown on one line</v>"
            document.cues[0].end = CaptionTime(milliseconds: 64_000)
            document.cues[1].start = CaptionTime(milliseconds: 3_600_500)
        }
        #expect(
            try result.get() == """
                WEBVTT - Interview
                Kind: captions

                STYLE
                ::cue { color: yellow }

                NOTE kept as written

                intro
                01:02.000 --> 01:04.000 line:10% align:start
                <v Ana>A line that is far too long
                to be shown on one line</v>

                NOTE between cues

                01:00:00.500 --> 01:00:01.000
                Past the hour

                """)
    }

    /// An ASS event's times, in the columns its section's Format line names, to the centisecond; the rest of the line
    /// and other sections as they were. When every event moved (a shift), the `Comment:` lines move with them; a fix of
    /// one event leaves them.
    @Test func anASSShiftMovesOnlyTheEventsTimes() throws {
        let file = """
            [Script Info]
            PlayResX: 1920

            [V4+ Styles]
            Format: Name, Fontname, Fontsize
            Style: Default,Arial,48

            [Events]
            Format: Layer, Style, Start, End, Name, Text
            Comment: 0,Default,0:00:00.00,0:00:01.00,,kept
            Dialogue: 1,Default,0:00:01.00,0:00:02.50,ANNA,{\\c&H0000FF&}Hi, {\\k20}you

            """
        let result = try Self.patched(file, format: .ass) { _ = TimingEdit(offset: 0.456).apply(to: &$0) }
        #expect(
            try result.get()
                == file.replacingOccurrences(of: "0:00:01.00,0:00:02.50,ANNA", with: "0:00:01.46,0:00:02.96,ANNA")
                .replacingOccurrences(of: "0:00:00.00,0:00:01.00,,kept", with: "0:00:00.46,0:00:01.46,,kept"))
        let twoEvents = file + "Dialogue: 0,Default,0:00:03.00,0:00:04.00,,Two\n"
        let oneFixed = try Self.patched(twoEvents, format: .ass) { $0.cues[0].end = CaptionTime(milliseconds: 2000) }
        #expect(try oneFixed.get() == twoEvents.replacingOccurrences(of: "0:00:02.50,ANNA", with: "0:00:02.00,ANNA"))
    }

    /// SAMI: every SYNC moves as the read language's times moved — one of another class between two known times in
    /// proportion; a fix that would move one SYNC two ways is refused.
    @Test func aSAMIRetimingMovesEveryLanguagesSyncs() throws {
        let file = """
            <SAMI><HEAD><STYLE><!-- .KRCC {lang:ko-KR;} .ENCC {lang:en-US;} --></STYLE></HEAD><BODY>
            <SYNC Start=1000><P Class=KRCC>하나
            <SYNC Start=1000><P Class=ENCC>One
            <SYNC Start=2000><P Class=ENCC>One, later
            <SYNC Start=3000><P Class=KRCC>둘
            <SYNC Start=3000><P Class=ENCC>Two
            <SYNC start="5000"><P Class=KRCC>&nbsp;
            </BODY></SAMI>

            """
        let stretched = try Self.patched(file, format: .sami) { document in
            for index in document.cues.indices {
                document.cues[index].start.milliseconds *= 2
                document.cues[index].end.milliseconds *= 2
            }
        }
        #expect(
            try stretched.get()
                == file.replacingOccurrences(of: "Start=1000", with: "Start=2000").replacingOccurrences(
                    of: "Start=2000><P Class=ENCC>One, later", with: "Start=4000><P Class=ENCC>One, later"
                )
                .replacingOccurrences(of: "Start=3000", with: "Start=6000").replacingOccurrences(of: "start=\"5000\"", with: "start=\"10000\""))
        #expect(throws: CaptionPatch.Refusal.self) { try Self.patched(file, format: .sami) { $0.cues[0].end.milliseconds = 2900 }.get() }
    }

    /// SAMI: a caption's text broken again where its paragraph's text stands, with the file's own `<BR>`; the other
    /// language's paragraph at the same SYNC untouched. A paragraph with markup is refused.
    @Test func aSAMITextIsBrokenAgainInItsParagraph() throws {
        let file = """
            <SAMI><HEAD><STYLE><!-- .KRCC {lang:ko-KR;} .ENCC {lang:en-US;} --></STYLE></HEAD><BODY>
            <SYNC Start=1000><P Class=KRCC>하나<BR>둘
            <SYNC Start=1000><P Class=ENCC>One long English line
            <SYNC Start=3000><P Class=ENCC><i>Styled</i> words
            <SYNC Start=5000><P Class=ENCC>&nbsp;
            </BODY></SAMI>

            """
        let bytes = Array(file.utf8)
        let english = try SAMIReader(language: "ENCC").read(bytes)
        var edited = english
        edited.cues[0].text = "One long\nEnglish line"
        edited.cues[0].end.milliseconds = 2900
        edited.cues[1].start.milliseconds = 2900
        let result = CaptionPatch.apply(to: bytes, original: english, edited: edited).map { String(decoding: $0, as: UTF8.self) }
        #expect(
            try result.get()
                == file.replacingOccurrences(of: "One long English line", with: "One long<BR>English line").replacingOccurrences(
                    of: "Start=3000", with: "Start=2900"))
        // A file whose style sheet names no classes (read as its first class), `</P>` closing its paragraphs.
        let bare = "<SAMI><BODY>\n<SYNC Start=2000><P Class=ENCC>One long English line</P>\n<SYNC Start=3500><P Class=ENCC>&nbsp;</P>\n</BODY></SAMI>\n"
        let bareDocument = try SAMIReader().read(Array(bare.utf8))
        var bareEdited = bareDocument
        bareEdited.cues[0].text = "One long\nEnglish line"
        #expect(
            try CaptionPatch.apply(to: Array(bare.utf8), original: bareDocument, edited: bareEdited).map { String(decoding: $0, as: UTF8.self) }.get()
                == bare.replacingOccurrences(of: "One long English", with: "One long<br>English"))
        var styled = english
        styled.cues[1].text = "<i>Styled</i>\nwords"
        #expect(throws: CaptionPatch.Refusal.self) { try CaptionPatch.apply(to: bytes, original: english, edited: styled).get() }
    }

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: Fixtures.directory.appendingPathComponent("formats/\(name)"), encoding: .utf8)
    }

    /// TTML: each moved time rewritten in its own form and relative to its parent — clock time with frames, an offset
    /// in seconds with its `dur`, ticks, a `div`'s begin (its paragraphs' offsets stay); metadata, styles, regions,
    /// languages as they were. A fix moves one paragraph's end alone; what the cue model does not hold is refused.
    @Test func aTTMLRetimingRewritesEachTimeInItsOwnForm() throws {
        let file = try Self.fixture("news-regions.ttml")
        let shifted = try Self.patched(file, format: .ttml) { _ = TimingEdit(offset: 2).apply(to: &$0) }
        #expect(
            try shifted.get()
                == file.replacingOccurrences(of: #"begin="00:00:01:00" end="00:00:03:12""#, with: #"begin="00:00:03:00" end="00:00:05:12""#)
                .replacingOccurrences(of: #"begin="3.6s" dur="2.4s""#, with: #"begin="5.6s" dur="2.4s""#)
                .replacingOccurrences(of: #"begin="40000000t" end="100000000t""#, with: #"begin="60000000t" end="120000000t""#)
                .replacingOccurrences(of: #"<div begin="00:00:10.000""#, with: #"<div begin="00:00:12.000""#))
        // One end, on the document's frames (25 a second): only that attribute changes.
        let fixed = try Self.patched(file, format: .ttml) { $0.cues[1].end = CaptionTime(milliseconds: 5520) }
        #expect(try fixed.get() == file.replacingOccurrences(of: #"dur="2.4s""#, with: #"dur="1.92s""#))
        let second = try Self.patched(file, format: .ttml) { $0.cues[3].end = CaptionTime(milliseconds: 11_750) }
        #expect(try second.get() == file.replacingOccurrences(of: #"end="00:00:02.000""#, with: #"end="00:00:01.750""#))
        #expect(throws: CaptionPatch.Refusal.self) { try Self.patched(file, format: .ttml) { $0.cues[0].text = "Good evening, and welcome." }.get() }
        // Earlier than its div begins: no offset can say it.
        #expect(
            (try Self.patched(file, format: .ttml) { $0.cues[3].start = CaptionTime(milliseconds: 9000) })
                == .failure(CaptionPatch.Refusal("the `p` at line 27 would begin before its parent, or end before it begins")))
        let sequence = #"<tt xmlns="http://www.w3.org/ns/ttml"><body timeContainer="seq"><p dur="1s">A</p><p dur="1s">B</p></body></tt>"#
        #expect(
            (try Self.patched(sequence, format: .ttml) { _ = TimingEdit(offset: 1).apply(to: &$0) })
                == .failure(CaptionPatch.Refusal("the element at line 1 times its children in sequence (`timeContainer=\"seq\"`): not retimed in place")))
        // A paragraph timed by its div: a shift moves the div; a fix of its end alone cannot be said in place.
        let inherited = #"<tt xmlns="http://www.w3.org/ns/ttml"><body><div begin="1s" end="2s"><p>A</p></div><p begin="3s" end="4s">B</p></body></tt>"#
        #expect(throws: CaptionPatch.Refusal.self) { try Self.patched(inherited, format: .ttml) { $0.cues[0].end.milliseconds = 1500 }.get() }
        #expect(
            try Self.patched(inherited, format: .ttml) { _ = TimingEdit(offset: 1).apply(to: &$0) }.get()
                == inherited.replacingOccurrences(of: #"begin="1s" end="2s""#, with: #"begin="2s" end="3s""#)
                .replacingOccurrences(of: #"begin="3s" end="4s""#, with: #"begin="4s" end="5s""#))
    }

    /// SCC: a caption's time is the line that sends its code; moving it moves that line's timecode by whole frames. A
    /// shift moves every line, CC2's with CC1's; a fix of one end moves its Erase line alone; one code that ends a
    /// caption and starts the next cannot move two ways.
    @Test func anSCCRetimingMovesTheLinesThatSendTheCodes() throws {
        let file = try Self.fixture("news-two-channels.scc")
        let shifted = try Self.patched(file, format: .scc) { _ = TimingEdit(offset: 1.5015).apply(to: &$0) }  // 45 frames
        var expected = file
        for (from, to) in [
            ("00:00:00;15", "00:00:02;00"), ("00:00:01;15", "00:00:03;00"), ("00:00:02;27", "00:00:04;12"), ("00:00:03;00", "00:00:04;15"),
            ("00:00:03;13", "00:00:04;28"), ("00:00:05;00", "00:00:06;15"), ("00:00:06;00", "00:00:07;15"), ("00:00:07;00", "00:00:08;15"),
            ("00:00:07;17", "00:00:09;02"), ("00:00:10;00", "00:00:11;15"),
        ].reversed() {
            expected = expected.replacingOccurrences(of: from + "\t", with: to + "\t")
        }
        #expect(try shifted.get() == expected)
        let cc2 = try SCCReader(channel: .cc2).read(Array(try shifted.get().utf8)).cues.map(\.start.milliseconds)
        #expect(cc2 == [3504, 7007], "CC2 moved with CC1 (from 2.002 and 5.506 s)")
        let fixed = try Self.patched(file, format: .scc) { $0.cues[2].end = CaptionTime(milliseconds: 10_510) }
        #expect(try fixed.get() == file.replacingOccurrences(of: "00:00:10;00\t", with: "00:00:10;15\t"))
        let popOn = "Scenarist_SCC V1.0\n\n00:00:01;00\t9420 c1c1 942f\n\n00:00:02;00\t9420 c2c2 942f\n\n00:00:03;00\t942c\n"
        #expect(throws: CaptionPatch.Refusal.self) { try Self.patched(popOn, format: .scc) { $0.cues[0].end.milliseconds -= 100 }.get() }
        #expect(throws: CaptionPatch.Refusal.self) { try Self.patched(popOn, format: .scc) { $0.cues[0].text = "B" }.get() }
    }

    /// A cue split by a fix: its second half a block of its own after it, its timing line written as the cue's (short
    /// timestamps, settings), in the file's line breaks; SRT's numbers counted again.
    @Test func aSplitCueBecomesABlockAfterIt() throws {
        let srt = "1\r\n00:00:01,000 --> 00:00:07,000\r\nOne. Two.\r\n\r\n2\r\n00:00:08,000 --> 00:00:09,000\r\nThree\r\n"
        let split = try Self.patched(srt, format: .srt) { document in
            var second = document.cues[0]
            document.cues[0].text = "One."
            document.cues[0].end.milliseconds = 3000
            second.text = "Two."
            second.start.milliseconds = 3100
            second.identifier = ""
            document.cues.insert(second, at: 1)
        }
        #expect(
            try split.get()
                == "1\r\n00:00:01,000 --> 00:00:03,000\r\nOne.\r\n\r\n2\r\n00:00:03,100 --> 00:00:07,000\r\nTwo.\r\n\r\n3\r\n00:00:08,000 --> 00:00:09,000\r\nThree\r\n"
        )
        let vtt = "WEBVTT\n\nintro\n00:01.000 --> 00:07.000 line:0\nOne. Two.\n\nNOTE kept\n"
        let vttSplit = try Self.patched(vtt, format: .webvtt) { document in
            var second = document.cues[0]
            document.cues[0].end.milliseconds = 3000
            second.start.milliseconds = 3100
            second.identifier = ""
            document.cues[0].text = "One."
            second.text = "Two."
            document.cues.append(second)
        }
        #expect(try vttSplit.get() == "WEBVTT\n\nintro\n00:01.000 --> 00:03.000 line:0\nOne.\n\n00:03.100 --> 00:07.000 line:0\nTwo.\n\nNOTE kept\n")
        // Numbers that do not count 1, 2, 3 … give a new block no number: refused.
        #expect(throws: CaptionPatch.Refusal.self) {
            try Self.patched(srt.replacingOccurrences(of: "2\r\n00:00:08", with: "7\r\n00:00:08"), format: .srt) { document in
                var second = document.cues[0]
                second.identifier = ""
                document.cues.insert(second, at: 1)
            }.get()
        }
    }

    /// An ASS event whose text is plain (no override block, no escape but `\N`) is broken again with `\N`.
    @Test func aPlainASSEventIsBrokenAgain() throws {
        let file =
            "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Text\nDialogue: 0,0:00:01.00,0:00:04.00,Default,Long words, with a comma\n"
        let result = try Self.patched(file, format: .ass) { $0.cues[0].text = "Long words,\nwith a comma" }
        #expect(try result.get() == file.replacingOccurrences(of: "Long words, with", with: "Long words,\\Nwith"))
    }

    @Test func nothingEditedIsTheFileItself() throws {
        let file = "1\n00:00:01,000-->00:00:02,000\nA\n\n\n2\n00:00:03,000 --> 00:00:04,000\n\nB after a blank line\n"
        #expect(try Self.patched(file, format: .srt) { _ in }.get() == file)
    }

    /// What the cue model cannot say where it came from is refused, never written some other way.
    @Test func editsThatCannotBeMadeInPlaceAreRefused() throws {
        let file = "1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\n00:00:03,000 --> 00:00:04,000\nB\n"
        #expect(throws: CaptionPatch.Refusal.self) { try Self.patched(file, format: .srt) { $0.cues.removeLast() }.get() }
        #expect(throws: CaptionPatch.Refusal.self) { try Self.patched(file, format: .srt) { $0.cues[1].identifier = "9" }.get() }
        #expect(throws: CaptionPatch.Refusal.self) {
            try Self.patched(file, format: .srt) {
                $0.cues.swapAt(0, 1); $0.cues[0].text = "C"
            }.get()
        }
        // A cue said to be read where the file has another line.
        let original = try CaptionFile.read(Array(file.utf8), format: .srt)
        var moved = original
        moved.cues[1].line = 3
        var edited = moved
        edited.cues[1].start = .zero
        #expect(
            CaptionPatch.apply(to: Array(file.utf8), original: moved, edited: edited)
                == .failure(CaptionPatch.Refusal("line 3 is not the timing line read there")))
        // ASS: times, not text (its override tags are more than the cue model holds).
        let ass =
            "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Text\nDialogue: 0,0:00:01.00,0:00:02.00,Default,{\\fad(9,9)}Hi, you\n"
        #expect(throws: CaptionPatch.Refusal.self) { try Self.patched(ass, format: .ass) { $0.cues[0].text = "Hi,\nyou" }.get() }
    }
}
