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
        #expect(throws: CaptionPatch.Refusal.self) {
            try Self.patched(#"<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="1s" end="2s">A</p></div></body></tt>"#, format: .ttml) { _ in }.get()
        }
        // ASS: times, not text (its override tags are more than the cue model holds).
        let ass =
            "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Text\nDialogue: 0,0:00:01.00,0:00:02.00,Default,{\\fad(9,9)}Hi, you\n"
        #expect(throws: CaptionPatch.Refusal.self) { try Self.patched(ass, format: .ass) { $0.cues[0].text = "Hi,\nyou" }.get() }
    }
}
