import Foundation
import TestSupport
import TestTraits
import Testing

@testable import Captions

/// SCC files written by hand from CEA-608's tables (every byte with odd parity): pop-on, roll-up and paint-on
/// captions, special and extended characters, mid-row styles, channels, drop-frame timecodes. Each pair takes effect
/// one frame (1001/30000 s) after the one before it on its line.
@Suite struct SCCReaderTests {
    /// Milliseconds of frame `n` at 29.97 fps.
    static func ms(_ frame: Int) -> Int64 { Int64((Double(frame) * 1001 / 30).rounded()) }

    static func read(_ lines: [String], channel: CEA608Decoder.Channel? = nil) throws -> SCCReader.Content {
        let text = "Scenarist_SCC V1.0\n\n" + lines.joined(separator: "\n\n") + "\n"
        return try SCCReader(channel: channel).read(Array(text.utf8))
    }

    static func cue(_ start: Int, _ end: Int, _ text: String, _ adjust: (inout CueSettings) -> Void = { _ in }) -> Cue {
        var settings = CueSettings()
        adjust(&settings)
        return Cue(start: CaptionTime(milliseconds: ms(start)), end: CaptionTime(milliseconds: ms(end)), text: text, settings: settings)
    }

    /// Left-aligned at column `column` (10% + 2.5% a column).
    static func left(_ column: Int) -> (inout CueSettings) -> Void {
        { settings in
            settings.align = .left
            settings.position = 10 + Double(column) * 2.5
            settings.positionAlign = .lineLeft
        }
    }

    /// RCL, ENM, PAC row 15 indent 4, "HELLO, WORLD", EOC (the 13th pair: frame 30 + 12), then EDM at 3;00.
    @Test func popOnShowsFromItsEndOfCaption() throws {
        let content = try Self.read([
            "00:00:01;00\t9420 9420 94ae 94ae 94f2 94f2 c845 4c4c 4f2c 2057 4f52 4cc4 942f 942f",
            "00:00:03;00\t942c 942c",
        ])
        #expect(content.cues == [Self.cue(42, 90, "HELLO, WORLD", Self.left(4))])
        #expect(content.channel == .cc1 && content.channelsWithCaptions == [.cc1])
        #expect(content.modes == [.popOn] && content.dropFrame)
        #expect(content.diagnostics.isEmpty)
    }

    /// Two rows (14 and 15), each 15 characters at indent 8: centred, at the bottom — WebVTT's defaults.
    @Test func centredBottomRowsKeepDefaultSettings() throws {
        let content = try Self.read([
            "00:00:10;00\t9420 9420 94ae 94ae 9454 9454 5457 4f20 4c49 ce45 d32c 20c2 4f54 c880 94f4 94f4 4345 ce54 5245 c420 49ce 2052 4f57 d380 942f 942f",
            "00:00:12;00\t942c 942c",
        ])
        #expect(content.cues == [Self.cue(324, 360, "TWO LINES, BOTH\nCENTRED IN ROWS")])
    }

    /// RU2, then three lines each after a carriage return: each window is a cue from its new line's first character
    /// to the next line's.
    @Test func rollUpWindowsBecomeCues() throws {
        let content = try Self.read([
            "00:00:00;00\t9425 9425 94ad 94ad 9470 9470 4649 52d3 5420 4c49 ce45",
            "00:00:02;00\t94ad 94ad 9470 9470 d345 434f cec4 204c 49ce 4580",
            "00:00:04;00\t94ad 94ad 9470 9470 54c8 4952 c480",
            "00:00:06;00\t942c 942c",
        ])
        #expect(
            content.cues == [
                Self.cue(6, 64, "FIRST LINE", Self.left(0)),
                Self.cue(64, 124, "FIRST LINE\nSECOND LINE", Self.left(0)),
                Self.cue(124, 180, "SECOND LINE\nTHIRD", Self.left(0)),
            ])
        #expect(content.modes == [.rollUp(rows: 2)])
    }

    /// RDC, PAC row 1, "PAINT", PAC row 2 indent 4, "ON": one burst, one picture, shown from its first character.
    @Test func paintOnBurstsBecomeCues() throws {
        let content = try Self.read([
            "00:00:20;00\t9429 9429 91d0 91d0 d0c1 49ce 5480 91f2 91f2 4fce",
            "00:00:22;00\t942c 942c",
        ])
        #expect(
            content.cues == [
                Self.cue(
                    604, 660, "PAINT\nON",
                    { settings in
                        Self.left(0)(&settings)
                        settings.snapToLines = false
                        settings.line = 10
                    })
            ])
        #expect(content.modes == [.paintOn])
    }

    /// RU3, then each line after a PAC to row 1: a base row too near the top for three rows is taken as row 3 (the
    /// highest that fits), so the window keeps its rows rather than dropping those above (ttconv reads it so too).
    @Test func aRollUpBaseRowNearTheTopKeepsTheWindow() throws {
        let content = try Self.read([
            "00:00:01:00\t9426 9426 94ad 94ad 9140 9140 4fce 4580",
            "00:00:02:00\t94ad 94ad 9140 9140 5457 4f80",
            "00:00:03:00\t94ad 94ad 9140 9140 54c8 5245 4580",
            "00:00:05:00\t942c 942c",
        ])
        func top(_ row: Int) -> (inout CueSettings) -> Void {
            { settings in
                Self.left(0)(&settings)
                settings.snapToLines = false
                settings.line = 10 + Double(row - 1) * 80 / 15
            }
        }
        #expect(
            content.cues == [
                Self.cue(36, 64, "ONE", top(3)), Self.cue(64, 94, "ONE\nTWO", top(2)), Self.cue(94, 150, "ONE\nTWO\nTHREE", top(1)),
            ])
    }

    /// Text on screen written over in place is a cue before it changes: paint-on "HELLO", then a PAC back to its
    /// row and "WORLD" within the same burst; roll-up "FIRST", then a PAC back to the base row and "SECOND" before any
    /// carriage return. Each text shown is a cue, from when it was shown.
    @Test func textWrittenOverInPlaceIsACueFirst() throws {
        let paintOn = try Self.read(["00:00:01:00\t9429 9429 94e0 94e0 c845 4c4c 4f80 94e0 94e0 574f 524c c480", "00:00:03:00\t942c 942c"])
        #expect(paintOn.cues == [Self.cue(34, 39, "HELLO", Self.left(0)), Self.cue(39, 90, "WORLD", Self.left(0))])
        let rollUp = try Self.read([
            "00:00:01:00\t9425 9425 94ad 94ad 94e0 94e0 4649 52d3 5480", "00:00:02:00\t94e0 94e0 d345 434f cec4", "00:00:04:00\t942c 942c",
        ])
        #expect(rollUp.cues == [Self.cue(36, 62, "FIRST", Self.left(0)), Self.cue(62, 120, "SECOND", Self.left(0))])
        // Painting a row again with what it shows is no change; correcting a character after a backspace is no
        // overwrite (the cell was empty): one cue each.
        let same = try Self.read(["00:00:01:00\t9429 9429 94e0 94e0 c845 4c4c 4f80 94e0 94e0 c845 4c4c 4f80", "00:00:03:00\t942c 942c"])
        #expect(same.cues == [Self.cue(34, 90, "HELLO", Self.left(0))])
        let corrected = try Self.read(["00:00:01:00\t9429 9429 94e0 94e0 c845 4c4c d080 94a1 94a1 4f80", "00:00:03:00\t942c 942c"])
        #expect(corrected.cues == [Self.cue(34, 90, "HELLO", Self.left(0))])
    }

    /// A mid-row code shows as a space (47 CFR §15.119), before punctuation too, in each mode: "HI", italics, "."
    /// (pop-on); "HI", italics, "!" (roll-up); "WAIT", italics, "?" (paint-on). FFmpeg reads all three so.
    @Test func aMidRowCodeBeforePunctuationIsASpace() throws {
        let popOn = try Self.read(["00:00:01:00\t9420 9420 94ae 94ae 94e0 94e0 c849 91ae 91ae ae80 942f 942f", "00:00:03:00\t942c 942c"])
        #expect(popOn.cues == [Self.cue(40, 90, "HI <i>.</i>", Self.left(0))])
        let rollUp = try Self.read(["00:00:01:00\t9425 9425 94ad 94ad 94e0 94e0 c849 91ae 91ae a180 94ad 94ad", "00:00:03:00\t942c 942c"])
        #expect(rollUp.cues == [Self.cue(36, 90, "HI <i>!</i>", Self.left(0))])
        let paintOn = try Self.read(["00:00:01:00\t9429 9429 94e0 94e0 57c1 4954 91ae 91ae bf80", "00:00:03:00\t942c 942c"])
        #expect(paintOn.cues == [Self.cue(34, 90, "WAIT <i>?</i>", Self.left(0))])
    }

    /// ♪ (special), ú (basic 0x60), an italics mid-row code (a space), U replaced by Ü (extended 0x12 0x24); a
    /// white mid-row code after yellow (the space it shows as belongs to neither style).
    @Test func specialExtendedAndMidRowCodes() throws {
        let content = try Self.read([
            "00:00:30;00\t9420 9420 94ae 94ae 94f2 94f2 9137 9137 20cd e073 e9e3 6180 91ae 91ae d580 92a4 92a4 62e5 f220 9137 9137 942f 942f",
            "00:00:32;00\t942c 942c",
            "00:00:40;00\t9420 9420 94ae 94ae 94ea 94ea d945 4c4c 4f57 9120 9120 57c8 4954 4580 942f 942f",
            "00:00:42;00\t942c 942c",
        ])
        #expect(
            content.cues == [
                Self.cue(921, 960, "♪ Música <i>Über ♪</i>", Self.left(4)),
                Self.cue(1214, 1260, "<c.yellow>YELLOW</c> WHITE", Self.left(0)),
            ])
    }

    /// In the last column the cursor stays: an extended character there replaces the fallback in that column (PAC
    /// row 15 indent 28, "ABCa", then å).
    @Test func extendedCharacterInTheLastColumn() throws {
        let content = try Self.read(["00:00:01;00\t9420 9420 94ae 94ae 94fe 94fe c1c2 4361 13b9 13b9 942f 942f", "00:00:03;00\t942c 942c"])
        #expect(content.cues == [Self.cue(40, 90, "ABCå", Self.left(28))])
    }

    /// Drop-frame numbering: 00:01:00;02 is frame 1800 (60.06 s of the clock), 00:10:00;00 frame 17982.
    @Test func dropFrameTimecodes() throws {
        let content = try Self.read([
            "00:01:00;02\t9420 9420 94ae 94ae 94f2 94f2 c845 4c4c 4f2c 2057 4f52 4cc4 942f 942f",
            "00:10:00;00\t942c 942c",
        ])
        #expect(content.cues == [Self.cue(1812, 17982, "HELLO, WORLD", Self.left(4))])
        for (text, frame, drop) in [
            ("00:00:00;00", 0, true), ("00:00:59;29", 1799, true), ("00:01:00;02", 1800, true), ("00:10:00;00", 17982, true),
            ("01:00:00;00", 107_892, true), ("00:01:00:00", 1800, false), ("01:00:00:00", 108_000, false),
        ] {
            let timecode = try #require(SMPTETimecode(parsing: Array(text.utf8)), "\(text)")
            #expect(timecode.frame == frame && timecode.dropFrame == drop, "\(text)")
            #expect(timecode.description == text)
        }
        // Frame numbers drop-frame skips, and things that are not timecodes.
        for text in ["00:01:00;00", "00:01:00;01", "00:00:60;00", "00:00:00;30", "0:0:0", "00:00:00:0x", ""] {
            #expect(SMPTETimecode(parsing: Array(text.utf8)) == nil, "\(text)")
        }
        #expect(SMPTETimecode(seconds: 3600, dropFrame: true).description == "01:00:00;00")
        #expect(SMPTETimecode(seconds: 3600, dropFrame: false).description == "00:59:56:12")
    }

    /// Commands on data channel 2 (first byte 0x1C …): CC2. Chosen when CC1 is empty; CC1 asked for is empty.
    @Test func channelTwo() throws {
        let lines = ["00:00:01;00\t1c20 1c20 1cae 1cae 1c70 1c70 d345 434f cec4 2043 c8c1 cece 454c 1c2f 1c2f", "00:00:03;00\t1c2c 1c2c"]
        let content = try Self.read(lines)
        #expect(content.channel == .cc2 && content.channelsWithCaptions == [.cc2])
        #expect(content.cues == [Self.cue(43, 90, "SECOND CHANNEL", Self.left(0))])
        #expect(try Self.read(lines, channel: .cc1).cues.isEmpty)
        #expect(throws: CaptionError.self) { try Self.read(lines, channel: .cc3) }
    }

    /// A byte with even parity is left out and reported; a word that is not hex is reported and takes its frame.
    @Test func damageIsReportedNotFatal() throws {
        let content = try Self.read([
            "00:00:01;00\t9420 9420 94ae 94ae 94f2 94f2 4845 zz12 942f 942f",
            "00:00:03;00\t942c 942c",
        ])
        #expect(content.cues == [Self.cue(38, 90, "E", Self.left(4))])
        #expect(content.diagnostics.map(\.line) == [3, 3])
        #expect(content.diagnostics.contains { $0.message.contains("parity") })
        #expect(throws: CaptionError.self) { try SCCReader().read(Array("1\n00:00:01,000 --> 00:00:02,000\nHello\n".utf8)) }
    }

    /// FFmpeg's SCC demuxer and 608 decoder as a second opinion: the same text on every cue (ffmpeg puts a mid-row
    /// code's space inside the new style, we before it: the same words either way). Its times differ, each
    /// difference explained: ffmpeg shows a line's captions at the line's timecode read as clock time (frames as
    /// 33 ms, drop-frame ignored), where the pairs take effect one a frame — a pop-on caption at its End Of Caption,
    /// `index` pairs later — on the 29.97 fps clock.
    @Test(.tags(.media), .notInFastRun) func secondOpinionFromFFmpeg() throws {
        let lines = [
            "00:00:01;00\t9420 9420 94ae 94ae 94f2 94f2 c845 4c4c 4f2c 2057 4f52 4cc4 942f 942f", "00:00:03;00\t942c 942c",
            "00:00:30;00\t9420 9420 94ae 94ae 94f2 94f2 9137 9137 20cd e073 e9e3 6180 91ae 91ae d580 92a4 92a4 62e5 f220 9137 9137 942f 942f",
            "00:00:32;00\t942c 942c",
            "00:01:00;02\t9420 9420 94ae 94ae 94ea 94ea d945 4c4c 4f57 9120 9120 57c8 4954 4580 942f 942f", "00:10:00;00\t942c 942c",
        ]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-scc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scc = directory.appendingPathComponent("pop.scc").path, srt = directory.appendingPathComponent("pop.srt").path
        try Data(("Scenarist_SCC V1.0\n\n" + lines.joined(separator: "\n\n") + "\n").utf8).write(to: URL(fileURLWithPath: scc))
        try ExternalTool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", scc, srt])
        let theirs = try CaptionFile.read(srt).cues
        let ours = try Self.read(lines).cues
        try #require(theirs.count == 3 && ours.count == 3)
        // The End Of Caption's place on its line, and the line's timecode.
        let shown: [(pairs: Int, timecode: String, erased: String)] = [
            (12, "00:00:01;00", "00:00:03;00"), (21, "00:00:30;00", "00:00:32;00"), (14, "00:01:00;02", "00:10:00;00"),
        ]
        func clockReading(_ text: String) -> Int64 {
            let parts = text.split { $0 == ":" || $0 == ";" }.map { Int64($0)! }
            return (parts[0] * 3600 + parts[1] * 60 + parts[2]) * 1000 + parts[3] * 33
        }
        for (k, (mine, ffmpeg)) in zip(ours, theirs).enumerated() {
            #expect(mine.plainText(in: .webvtt) == ffmpeg.plainText(in: .srt).replacingOccurrences(of: "<i> ", with: " <i>"))
            let line = try #require(SMPTETimecode(parsing: Array(shown[k].timecode.utf8)))
            let erase = try #require(SMPTETimecode(parsing: Array(shown[k].erased.utf8)))
            #expect(mine.start.milliseconds == Self.ms(line.frame + shown[k].pairs))
            #expect(mine.end.milliseconds == Self.ms(erase.frame))
            #expect(ffmpeg.start.milliseconds == clockReading(shown[k].timecode))
            #expect(ffmpeg.end.milliseconds == clockReading(shown[k].erased))
        }
    }
}
