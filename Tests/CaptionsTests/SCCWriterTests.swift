import Foundation
import TestSupport
import TestTraits
import Testing

@testable import Captions

/// Pop-on SCC written from cues: read back, the same cues to the frame (text, styles, rows and columns); written
/// again, the same bytes; FFmpeg reads the same text from it; what 608 cannot hold is reported.
@Suite struct SCCWriterTests {
    static func cue(_ start: Int, _ end: Int, _ text: String, _ adjust: (inout CueSettings) -> Void = { _ in }) -> Cue {
        SCCReaderTests.cue(start, end, text, adjust)
    }

    static let cues = [
        cue(30, 90, "HELLO, WORLD"),
        cue(150, 240, "<i>Two lines</i>\nthe second <c.yellow>yellow</c>"),
        // Shown on row 1 at column 4, right when the cue before ends (its swap replaces it: no erase).
        cue(
            240, 330, "♪ Música <i>Über ♪</i>",
            { settings in
                SCCReaderTests.left(4)(&settings)
                settings.snapToLines = false
                settings.line = 10
            }),
        cue(400, 460, "<u>underlined</u> words", SCCReaderTests.left(0)),
    ]

    @Test func roundTripToTheFrame() throws {
        let (bytes, diagnostics) = SCCWriter().write(Self.cues)
        #expect(diagnostics.isEmpty)
        let content = try SCCReader().read(bytes)
        #expect(content.cues == Self.cues)
        #expect(content.diagnostics.isEmpty && content.modes == [.popOn])
        // Read and written again: the same file.
        #expect(SCCWriter().write(content.cues).bytes == bytes)
        // The file itself: the first cue (12 characters, centred: column 10 = indent 8 and tab offset 2 on row 15)
        // loaded in the frames before its End Of Caption on frame 30 (00:00:01;00), its erase on frame 90.
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("Scenarist_SCC V1.0\n\n00:00:00;16\t9420 9420 94ae 94ae 94f4 94f4 97a2 97a2 c845 4c4c 4f2c 2057 4f52 4cc4 942f 942f\n\n"))
        #expect(text.contains("\n\n00:00:03;00\t942c 942c\n\n"))
    }

    /// Written as it goes (the lines before each caption's End Of Caption handed on as soon as they are final), two
    /// thousand cues — some back to back, where the swap replaces the erase — read back the same to the frame.
    @Test func aLongDocumentIsWrittenAsItGoesAndReadsBack() throws {
        let cues = (0..<2_000).map { k in
            let start = 30 + k * 100
            return Self.cue(start, start + (k % 3 == 0 ? 100 : 70), k % 2 == 0 ? "LINE \(k)" : "<i>Line</i> \(k)\nand more")
        }
        var chunks = 0
        var bytes: [UInt8] = []
        let diagnostics = SCCWriter().write(count: cues.count, start: { cues[$0].start }, cue: { cues[$0] }) { chunk in
            chunks += 1
            bytes += chunk
            chunk.removeAll()
        }
        #expect(diagnostics.isEmpty)
        #expect(bytes == SCCWriter().write(cues).bytes)
        let content = try SCCReader().read(bytes)
        #expect(content.cues == cues)
        #expect(chunks >= 1)
    }

    /// Cues closer together than their loads take are shown late, each loaded right after the one before: the pairs
    /// make one line that grows for the whole file. Written as it goes, that line costs its length, not its length
    /// squared (twenty thousand such cues took minutes).
    @Test func cuesTooCloseTogetherMakeOneLongLineInLinearTime() throws {
        let cues = (0..<20_000).map { k in Self.cue(30 + 2 * k, 32 + 2 * k, k % 2 == 0 ? "A" : "B") }
        let clock = ContinuousClock(), started = clock.now
        let (bytes, diagnostics) = SCCWriter().write(cues)
        #expect(clock.now - started < .seconds(20))
        #expect(
            diagnostics.map(\.message) == ["SCC cannot hold cues that start too soon after the one before to be loaded in time (shown late); first in cue 2"])
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 2, "the header and one long line")
        // Each cue: RCL RCL ENM ENM, a preamble twice, a tab offset twice, its letter, EOC EOC: eleven pairs on
        // consecutive frames; then the last erase, twice.
        #expect(lines[1].split(separator: " ").count == 20_000 * 11 + 2)
        #expect(try SCCReader().read(bytes).cues.count == 20_000)
    }

    /// FFmpeg's SCC demuxer and 608 decoder read the same words from the written file (it keeps rows' indents
    /// relative to the leftmost row as hard spaces, `\\h`: not words).
    @Test(.tags(.media), .notInFastRun) func ffmpegReadsTheSameText() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-sccw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scc = directory.appendingPathComponent("out.scc").path, srt = directory.appendingPathComponent("out.srt").path
        try Data(SCCWriter().write(Self.cues).bytes).write(to: URL(fileURLWithPath: scc))
        try ExternalTool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", scc, srt])
        let theirs = try CaptionFile.read(srt).cues.map { $0.plainText(in: .srt).replacingOccurrences(of: "\\h", with: "") }
        #expect(theirs == Self.cues.map { $0.plainText(in: .webvtt) })
    }

    /// The same caption twice back to back is one caption on screen: written as one (and said).
    @Test func identicalCuesBackToBackAreOne() throws {
        let (bytes, diagnostics) = SCCWriter().write([Self.cue(30, 60, "Thank you."), Self.cue(60, 90, "Thank you."), Self.cue(120, 150, "Thank you.")])
        #expect(try SCCReader().read(bytes).cues == [Self.cue(30, 90, "Thank you."), Self.cue(120, 150, "Thank you.")])
        #expect(diagnostics.map(\.message) == ["SCC cannot hold identical cues back to back (shown as one); first in cue 2"])
    }

    /// SCC's timecodes count one day: a cue shown for the whole presentation (untimed TTML, 99:59:59.999) is erased on
    /// 23:59:59;29, and one that starts after 24 hours is left out, said so.
    @Test func timecodesStopAtTwentyFourHours() throws {
        let whole = Cue(start: CaptionTime(milliseconds: 1_000), end: .presentationEnd, text: "untimed")
        let late = Cue(start: CaptionTime(milliseconds: 86_500_000), end: CaptionTime(milliseconds: 86_501_000), text: "late")
        for dropFrame in [true, false] {
            let (bytes, diagnostics) = SCCWriter(dropFrame: dropFrame).write([whole, late])
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasSuffix(dropFrame ? "\n\n23:59:59;29\t942c 942c\n\n" : "\n\n23:59:59:29\t942c 942c\n\n"), "\(text)")
            #expect(diagnostics.map(\.message) == ["SCC cannot hold cues that start after 24 hours, where its timecodes end (left out); first in cue 2"])
            let read = try SCCReader().read(bytes).cues
            #expect(read.map(\.text) == ["untimed"] && read.first?.end.milliseconds == (dropFrame ? 86_399_880 : 86_486_367))
        }
    }

    /// Every kind of loss named once, with the first cue it happened to; what is kept is still written.
    @Test func lossesAreReported() throws {
        let long = "a caption line far longer than the thirty-two columns of a row"
        let cues = [
            Self.cue(30, 90, "<b>Bold</b> and <c.loud>loud</c> … 😀"),
            Self.cue(120, 200, "<v Bob>" + long),
            Self.cue(190, 260, "overlaps the cue before"),
            Self.cue(262, 300, (1...16).map { "row \($0)" }.joined(separator: "\n")),
            Self.cue(400, 460, "mid<i>word</i>"),
        ]
        let (bytes, diagnostics) = SCCWriter().write(cues)
        let messages = diagnostics.map(\.message)
        #expect(
            messages == [
                "SCC cannot hold bold text; first in cue 1",
                "SCC cannot hold colours and classes other than 608's seven colours (`loud`); first in cue 1",
                "SCC cannot hold characters outside 608's sets (`😀` written as `?`); first in cue 1",
                "SCC cannot hold speaker names of voice spans (`<v>`); first in cue 2",
                "SCC cannot hold more than 15 rows (the rows after the 15th are left out); first in cue 4",
                "SCC cannot hold style changes inside a word (608 shows a space there); first in cue 5",
                "SCC cannot hold overlapping cues (608 shows one pop-on caption at a time: a cue ends where the next begins); first in cue 2",
                "SCC cannot hold cues that start too soon after the one before to be loaded in time (shown late); first in cue 4",
            ])
        #expect(diagnostics.allSatisfy { $0.rule == "captions.convert" })
        let read = try SCCReader().read(bytes).cues
        #expect(
            read.map { $0.plainText(in: .webvtt) } == [
                "Bold and loud ... ?", "a caption line far longer than\nthe thirty-two columns of a row", "overlaps the cue before",
                (1...15).map { "row \($0)" }.joined(separator: "\n"), "mid word",
            ])
        #expect(read[1].end == read[2].start && read[2].start.milliseconds == SCCReaderTests.ms(190))
        #expect(read[3].start.milliseconds > SCCReaderTests.ms(262))
    }
}
