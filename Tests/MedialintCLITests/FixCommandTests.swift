import Foundation
import TestSupport
import Testing

/// `lint --fix` and `check --fix`: the caption file rewritten atomically with every change listed, the original kept
/// when asked, the result passing the rules fixed with every word kept; a file that needs nothing left as it is.
@Suite struct FixCommandTests {
    static let srt = """
        1
        00:00:01,000 --> 00:00:03,000
        An overlap: it ends late.

        2
        00:00:02,500 --> 00:00:04,000
        <i>This single line is much longer</i> than forty-two characters.

        3
        00:00:04,040 --> 00:00:06,000
        A gap of one frame before this one.

        """

    static func words(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { !$0.contains("-->") && $0.contains(where: \.isLetter) }.flatMap { $0.split(separator: " ") }
    }

    @Test func lintFixRewritesTheFile() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("talk.srt")
        try Self.srt.write(to: file, atomically: true, encoding: .utf8)
        let run = try Medialint.run(["lint", "talk.srt", "--fix", "--backup", ".orig", "--format", "compact"], in: directory)
        #expect(
            run.stderr.split(separator: "\n").filter { $0.contains("fixed cue") } == [
                "medialint: note: talk.srt: fixed cue 1: end 00:00:03.000 → 00:00:02.416: it overlapped cue 2 [lint.overlap]",
                "medialint: note: talk.srt: fixed cue 2: lines broken again to at most 42 characters (2 lines) [lint.line-length]",
                "medialint: note: talk.srt: fixed cue 2: end 00:00:04.000 → 00:00:03.956: leaving the profile's gap before cue 3 [lint.min-gap]",
            ])
        let fixed = try String(contentsOf: file, encoding: .utf8)
        #expect(fixed.contains("00:00:01,000 --> 00:00:02,416") && fixed.contains("<i>This single line is much longer</i>\nthan forty-two characters."))
        #expect(Self.words(fixed) == Self.words(Self.srt), "every word kept")
        #expect(try String(contentsOf: directory.appendingPathComponent("talk.srt.orig"), encoding: .utf8) == Self.srt, "the original kept")
        // The report is of the fixed file, and lint finds nothing of what was fixed.
        #expect(!run.stdout.contains("lint.overlap") && !run.stdout.contains("lint.line-length") && !run.stdout.contains("lint.min-gap"))
        let again = try Medialint.run(["lint", "talk.srt", "--format", "compact"], in: directory)
        #expect(!again.stdout.contains("lint.overlap") && !again.stdout.contains("lint.line-length") && !again.stdout.contains("lint.min-gap"))
        // Nothing to fix: the file stays the same file.
        let before = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int
        let quiet = try Medialint.run(["lint", "talk.srt", "--fix"], in: directory)
        #expect(!quiet.stderr.contains("fixed cue"))
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int == before)
        #expect(try Medialint.run(["lint", "talk.srt", "--backup", ".orig"], in: directory).status == 2, "--backup goes with --fix")
    }

    @Test func checkFixFixesCaptionFilesOfALibrary() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("library"), withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("library/talk.srt")
        try Self.srt.write(to: file, atomically: true, encoding: .utf8)
        let run = try Medialint.run(["check", "library", "--fix", "--backup", ".orig", "--no-store", "--format", "compact"], in: directory)
        #expect(run.stderr.contains("library/talk.srt: fixed cue 1: end 00:00:03.000 → 00:00:02.416"))
        #expect(!run.stdout.contains("lint.overlap"))
        #expect(try String(contentsOf: file, encoding: .utf8).contains("00:00:01,000 --> 00:00:02,416"))
        // The original is kept beside it, and is not itself checked as a caption file of the library.
        #expect(try String(contentsOf: directory.appendingPathComponent("library/talk.srt.orig"), encoding: .utf8) == Self.srt)
        #expect(try Medialint.run(["check", "library", "--backup", ".orig", "--no-store"], in: directory).stderr.contains("--backup goes with --fix"))
    }

    /// A fix, a shift in place and a sync in place change only what they change: the byte order mark, CR LF line
    /// breaks, WebVTT's header, STYLE, REGION and NOTE blocks and a block the reader skipped come back byte for byte,
    /// and a second fix changes nothing. A format MediaLint writes whole (ASS, SAMI) is refused when writing it would
    /// lose what it does not read, and left as it was.
    @Test func aRewriteChangesOnlyWhatItFixes() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let srt = "\u{FEFF}" + Self.srt.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n4\r\n-00:00:09,000 --> 00:00:10,000\r\nskipped\r\n"
        try Data(srt.utf8).write(to: directory.appendingPathComponent("talk.srt"))
        let fix = try Medialint.run(["lint", "talk.srt", "--fix"], in: directory)
        #expect(fix.stderr.contains("talk.srt: fixed cue 1"), "\(fix.stderr)")
        let fixed = try String(decoding: Data(contentsOf: directory.appendingPathComponent("talk.srt")), as: UTF8.self)
        #expect(
            fixed
                == srt.replacingOccurrences(of: "00:00:01,000 --> 00:00:03,000", with: "00:00:01,000 --> 00:00:02,416")
                .replacingOccurrences(of: "00:00:02,500 --> 00:00:04,000", with: "00:00:02,500 --> 00:00:03,956")
                .replacingOccurrences(of: "longer</i> than", with: "longer</i>\r\nthan"))
        #expect(try Medialint.run(["lint", "talk.srt", "--fix"], in: directory).stderr.contains("fixed cue") == false)
        #expect(try Medialint.run(["shift", "talk.srt", "--by", "1", "--in-place"], in: directory).status == 0)
        #expect(try Medialint.run(["shift", "talk.srt", "--by", "-1", "--in-place"], in: directory).status == 0)
        #expect(try Data(contentsOf: directory.appendingPathComponent("talk.srt")) == Data(fixed.utf8))

        let vtt = """
            WEBVTT - Interview
            Kind: captions

            STYLE
            ::cue(.loud) { font-weight: bold }

            REGION
            id:top
            lines:2

            NOTE written by hand

            1
            00:01.300 --> 00:03.624 region:top
            <c.loud>Welcome</c> to the media accessibility demo.

            NOTE a comment between cues

            2
            00:04.300 --> 00:06.892
            Captions should appear when the words are spoken.

            00:07.300 --> 00:10.112
            Flashing lights can trigger seizures in some viewers.

            00:10.300 --> 00:12.528
            Thank you for watching this short clip.

            """
        try vtt.write(to: directory.appendingPathComponent("speech.vtt"), atomically: true, encoding: .utf8)
        // 0.8 s late: the sync puts each cue back where Media/speech.vtt has it, and changes nothing else.
        let sync = try Medialint.run(["sync", Medialint.media("speech.mp4"), "speech.vtt", "--in-place"], in: directory)
        #expect(sync.stderr.contains("speech.vtt: "), "\(sync.stderr)")
        let synced = vtt.replacingOccurrences(of: "00:01.300 --> 00:03.624", with: "00:00.500 --> 00:02.824")
            .replacingOccurrences(of: "00:04.300 --> 00:06.892", with: "00:03.500 --> 00:06.092")
            .replacingOccurrences(of: "00:07.300 --> 00:10.112", with: "00:06.500 --> 00:09.312")
            .replacingOccurrences(of: "00:10.300 --> 00:12.528", with: "00:09.500 --> 00:11.728")
        #expect(try String(contentsOf: directory.appendingPathComponent("speech.vtt"), encoding: .utf8) == synced)
        #expect(try Medialint.run(["shift", "speech.vtt", "--by=0.8", "--in-place"], in: directory).status == 0)
        #expect(try String(contentsOf: directory.appendingPathComponent("speech.vtt"), encoding: .utf8) == vtt)

        // ASS: the events' times move, to the centisecond, and the Comment lines with them; styles, PlayRes, layers and
        // tags stay.
        let fixtures = Medialint.root.appendingPathComponent("Tests/CaptionsTests/Fixtures/formats")
        let ass = try String(contentsOf: fixtures.appendingPathComponent("styled-events.ass"), encoding: .utf8)
        try ass.write(to: directory.appendingPathComponent("styled.ass"), atomically: true, encoding: .utf8)
        let shiftedASS = try Medialint.run(["shift", "styled.ass", "--by", "1.234", "--in-place"], in: directory)
        #expect(shiftedASS.status == 0 && !shiftedASS.stderr.contains("dropped"), "nothing is dropped from the file: \(shiftedASS.stderr)")
        let moved = ass.replacingOccurrences(of: "0:00:01.00,0:00:03.50,", with: "0:00:02.23,0:00:04.73,")
            .replacingOccurrences(of: "0:00:13.00,0:00:15.00,", with: "0:00:14.23,0:00:16.23,")
        let after = try String(contentsOf: directory.appendingPathComponent("styled.ass"), encoding: .utf8)
        #expect(after.split(separator: "\n").first { $0.contains("Where were you") } == moved.split(separator: "\n").first { $0.contains("Where were you") })
        #expect(after.split(separator: "\n").first { $0.contains("A square") } == moved.split(separator: "\n").first { $0.contains("A square") })
        #expect(after.contains("Comment: 0,0:00:01.23,0:00:02.23,Default,,0,0,0,,This line is a comment"))
        let untimed = { (text: String) in text.replacing(/(Dialogue|Comment): 0,[0-9:.]+,[0-9:.]+,/) { "\($0.1): 0,T,T," } }
        #expect(untimed(after) == untimed(ass))
        // A bilingual SAMI in CP949: both languages' SYNCs move, and nothing else changes (the encoding neither).
        let name = "korean-two-languages.cp949.smi"
        let original = try Data(contentsOf: fixtures.appendingPathComponent(name))
        try original.write(to: directory.appendingPathComponent(name))
        let run = try Medialint.run(["shift", name, "--by", "1.5", "--in-place"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        // (Latin-1 maps each byte to a character and back: the CP949 bytes stay as they are; SYNC tags are ASCII.)
        var expected = try #require(String(data: original, encoding: .isoLatin1))
        for (from, to) in [("9000", "10500"), ("6250", "7750"), ("4000", "5500"), ("3500", "5000"), ("1000", "2500")] {
            expected = expected.replacingOccurrences(of: "<SYNC Start=\(from)>", with: "<SYNC Start=\(to)>")
        }
        #expect(try Data(contentsOf: directory.appendingPathComponent(name)) == expected.data(using: .isoLatin1))
    }

    /// Each rich format made here goes through every rewrite — `shift --in-place` there and back, `sync --in-place`
    /// to a reference, `lint --fix` and `check --fix` — and comes back byte for byte but for the times fixed: the
    /// TTML's metadata, styles, regions and frame, second and tick times; the SCC's CC2 channel and CR LF; the ASS's
    /// styles, signs, comments and tags; the bilingual CP949 SAMI. A second fix changes nothing.
    @Test func everyFormatComesBackButForWhatIsFixed() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixtures = Medialint.root.appendingPathComponent("Tests/CaptionsTests/Fixtures/formats")
        for name in ["news-regions.ttml", "news-two-channels.scc", "styled-events.ass", "korean-two-languages.cp949.smi"] {
            let original = try Data(contentsOf: fixtures.appendingPathComponent(name))
            let file = directory.appendingPathComponent(name)
            try original.write(to: file)
            for by in ["2.002", "-2.002"] {
                let run = try Medialint.run(["shift", name, "--by=\(by)", "--in-place"], in: directory)
                #expect(run.status == 0, "\(name): \(run.stderr)")
            }
            #expect(try Data(contentsOf: file) == original, "\(name): shifted there and back")
            // Late by 2 s against the same captions in SRT: the sync puts every time back.
            #expect(try Medialint.run(["convert", name, "reference.srt"], in: directory).status == 0)
            #expect(try Medialint.run(["shift", name, "--by=2.002", "--in-place"], in: directory).status == 0)
            let sync = try Medialint.run(["sync", "--reference", "reference.srt", name, "--in-place"], in: directory)
            // (ASS holds centiseconds: its shift was 2 s.)
            #expect(sync.stderr.contains("\(name): times moved by -\(name.hasSuffix(".ass") ? "2.000" : "2.002") s"), "\(name): \(sync.stderr)")
            #expect(!sync.stderr.contains("dropped"), "nothing is dropped from the file: \(sync.stderr)")
            #expect(try Data(contentsOf: file) == original, "\(name): synced back")
            try FileManager.default.removeItem(at: directory.appendingPathComponent("reference.srt"))
        }
        // Fixes: a TTML paragraph overlapping the next ends before it on the document's frames; an SCC caption too short
        // to read lasts longer by its Erase line; an ASS event overlapping the next ends before it to the centisecond; a
        // SAMI caption too short to read lasts longer, the English clear at the same SYNC with it (CP949 kept). Only
        // those times change, by `lint --fix` and by `check --fix` alike.
        let text = { (name: String) in try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .isoLatin1) }
        let (ttml, scc, ass, sami) = try (
            text("news-regions.ttml"), text("news-two-channels.scc"), text("styled-events.ass"), text("korean-two-languages.cp949.smi")
        )
        let cases = [
            (
                "overlap.ttml", ttml.replacingOccurrences(of: #"end="00:00:03:12""#, with: #"end="00:00:03:18""#),
                ttml.replacingOccurrences(of: #"end="00:00:03:12""#, with: #"end="00:00:03:12""#)
            ),
            (
                "short.scc", scc.replacingOccurrences(of: "00:00:10;00\t", with: "00:00:08;12\t"),
                scc.replacingOccurrences(of: "00:00:10;00\t", with: "00:00:08;25\t")
            ),
            (
                "overlap.ass", ass.replacingOccurrences(of: "0:00:03.50,Default,ANNA", with: "0:00:03.80,Default,ANNA"),
                ass.replacingOccurrences(of: "0:00:03.50,Default,ANNA", with: "0:00:03.41,Default,ANNA")
            ),
            (
                "short.cp949.smi", sami.replacingOccurrences(of: "Start=3500", with: "Start=1300"),
                sami.replacingOccurrences(of: "Start=3500", with: "Start=1834")
            ),
        ]
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("library"), withIntermediateDirectories: true)
        for (name, broken, fixed) in cases {
            for command in [["lint", name, "--fix"], ["check", "library", "--fix", "--no-store"]] {
                let path = command[0] == "lint" ? name : "library/\(name)"
                // (Latin-1 maps each byte to a character and back: CP949 bytes stay as they are.)
                try broken.write(to: directory.appendingPathComponent(path), atomically: true, encoding: .isoLatin1)
                let run = try Medialint.run(command, in: directory)
                #expect(run.stderr.contains("\(path): fixed cue"), "\(command): \(run.stderr)")
                #expect(try String(contentsOf: directory.appendingPathComponent(path), encoding: .isoLatin1) == fixed, "\(command)")
                let again = try Medialint.run(command, in: directory)
                #expect(!again.stderr.contains("fixed cue"), "a second fix changes nothing: \(again.stderr)")
                try FileManager.default.removeItem(at: directory.appendingPathComponent(path))
            }
        }
    }

    /// A cue two lines cannot hold is split in two by `lint --fix`: a new block after it, SRT's numbers counted again,
    /// CR LF kept; every word kept, and a second fix changes nothing.
    @Test func aCueTooLongForTwoLinesIsSplit() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let srt =
            "1\r\n00:00:01,000 --> 00:00:07,000\r\nWe got to the station just before midnight. The last train had already gone, so we walked home.\r\n\r\n"
            + "2\r\n00:00:08,000 --> 00:00:09,000\r\nShort one.\r\n"
        try Data(srt.utf8).write(to: directory.appendingPathComponent("long.srt"))
        let run = try Medialint.run(["lint", "long.srt", "--fix"], in: directory)
        #expect(
            run.stderr.contains(
                "long.srt: fixed cue 1: split in two (its words need 3 lines of at most 42 characters): 00:00:01.000–00:00:03.685 and 00:00:03.769–00:00:07.000"
            ),
            "\(run.stderr)")
        let fixed = try String(decoding: Data(contentsOf: directory.appendingPathComponent("long.srt")), as: UTF8.self)
        #expect(
            fixed
                == "1\r\n00:00:01,000 --> 00:00:03,685\r\nWe got to the station\r\njust before midnight.\r\n\r\n"
                + "2\r\n00:00:03,769 --> 00:00:07,000\r\nThe last train had already gone,\r\nso we walked home.\r\n\r\n"
                + "3\r\n00:00:08,000 --> 00:00:09,000\r\nShort one.\r\n")
        #expect(
            Self.words(fixed.replacingOccurrences(of: "\r\n", with: "\n")) == Self.words(srt.replacingOccurrences(of: "\r\n", with: "\n")), "every word kept")
        #expect(try !Medialint.run(["lint", "long.srt", "--fix"], in: directory).stderr.contains("fixed cue"))
    }

    /// A file in another encoding is rewritten in it: Windows-1252 with CR LF, UTF-16 with its byte order mark — the
    /// timing lines moved, every other byte as it was.
    @Test func aRewriteKeepsTheFilesEncoding() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = "1\r\n00:00:01,000 --> 00:00:02,000\r\nCafé crème, naïve\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\n한국어? No: Ærø\r\n"
        let shifted = text.replacingOccurrences(of: "00:00:01,000 --> 00:00:02,000", with: "00:00:02,500 --> 00:00:03,500")
            .replacingOccurrences(of: "00:00:03,000 --> 00:00:04,000", with: "00:00:04,500 --> 00:00:05,500")
        let western = { (text: String) in Data(text.replacingOccurrences(of: "한국어? ", with: "").data(using: .windowsCP1252)!) }
        let utf16 = { (text: String) in Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)! }
        for (name, encode) in [("western.srt", western), ("utf16.srt", utf16)] {
            try encode(text).write(to: directory.appendingPathComponent(name))
            let run = try Medialint.run(["shift", name, "--by", "1.5", "--in-place"], in: directory)
            #expect(run.status == 0 && !run.stderr.contains("written in UTF-8"), "\(name): \(run.stderr)")
            #expect(try Data(contentsOf: directory.appendingPathComponent(name)) == encode(shifted), "\(name)")
        }
    }

    /// A copy in the file's own format (`shift -o`, standard output) is the file with its edits: byte order mark, CR LF,
    /// styles and tags as they were; a conversion writes the other format's way.
    @Test func aCopyKeepsTheByteOrderMarkAndLineBreaks() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let windows = "\u{FEFF}1\r\n00:00:01,000 --> 00:00:02,000\r\nOne\r\ntwo\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\nThree\r\n"
        try Data(windows.utf8).write(to: directory.appendingPathComponent("a.srt"))
        let moved =
            windows.replacingOccurrences(of: "00:00:01,000 --> 00:00:02,000", with: "00:00:02,000 --> 00:00:03,000")
            .replacingOccurrences(of: "00:00:03,000 --> 00:00:04,000", with: "00:00:04,000 --> 00:00:05,000")
        #expect(try Medialint.run(["shift", "a.srt", "--by", "1", "-o", "b.srt"], in: directory).status == 0)
        #expect(try Data(contentsOf: directory.appendingPathComponent("b.srt")) == Data(moved.utf8))
        #expect(try Medialint.run(["shift", "a.srt", "--by", "1"], in: directory).stdout == moved)
        #expect(try Medialint.run(["convert", "a.srt", "c.vtt"], in: directory).status == 0)
        #expect(try String(contentsOf: directory.appendingPathComponent("c.vtt"), encoding: .utf8).hasPrefix("WEBVTT\n\n1\n00:00:01.000"))
        // A styled ASS copied with its times moved: its styles, comments and tags kept, and nothing said dropped.
        let ass = try String(contentsOf: Medialint.root.appendingPathComponent("Tests/CaptionsTests/Fixtures/formats/styled-events.ass"), encoding: .utf8)
        try ass.write(to: directory.appendingPathComponent("styled.ass"), atomically: true, encoding: .utf8)
        let copy = try Medialint.run(["shift", "styled.ass", "--by", "1", "-o", "later.ass"], in: directory)
        #expect(copy.status == 0 && !copy.stderr.contains("dropped"), "\(copy.stderr)")
        let later = try String(contentsOf: directory.appendingPathComponent("later.ass"), encoding: .utf8)
        #expect(later.contains("0:00:12.00,0:00:14.00,Default,,0,0,0,,{\\pos(960,540)\\c&H0000FF&\\fad(200,200)}Centre of the screen"), "\(later)")
        let untimed = { (text: String) in text.replacing(/(Dialogue|Comment): 0,[0-9:.]+,[0-9:.]+,/) { "\($0.1): 0,T,T," } }
        #expect(untimed(later) == untimed(ass))
    }

    /// EBU STL is read, not written: no command that would write it (`shift --in-place`, `shift -o X.stl`,
    /// `sync --in-place`, `lint --fix`) leaves it changed or an empty file behind; `shift -o X.srt` writes SRT.
    @Test func aFormatReadOnlyIsNeverWrittenEmpty() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stl = directory.appendingPathComponent("news.stl")
        let original = try Data(contentsOf: Medialint.root.appendingPathComponent("Tests/CaptionsTests/Fixtures/formats/teletext-subtitles.stl"))
        try original.write(to: stl)
        for arguments in [
            ["shift", "news.stl", "--by", "1", "--in-place"], ["shift", "news.stl", "--by", "1", "-o", "moved.stl"],
            ["sync", Medialint.media("speech.mp4"), "news.stl", "--in-place"],
        ] {
            let run = try Medialint.run(arguments, in: directory)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.contains("EBU STL is read, not written"), "\(arguments): \(run.stderr)")
            #expect(try Data(contentsOf: stl) == original, "\(arguments)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["news.stl"], "\(arguments)")
        }
        let converted = try Medialint.run(["shift", "news.stl", "--by", "1", "-o", "moved.srt"], in: directory)
        #expect(converted.status == 0)
        #expect(
            try String(contentsOf: directory.appendingPathComponent("moved.srt"), encoding: .utf8).hasPrefix(
                "1\n00:00:02,000 --> 00:00:04,480\nHello,\nworld\n"))
    }

    /// `--write-baseline` and `-o` never go over a file the run reads: the caption file linted, a file of the folder
    /// checked, the results store, a settings file. Each is refused before anything is written, and left as it was.
    @Test func aBaselineOrReportNeverReplacesWhatTheRunReads() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.srt.write(to: directory.appendingPathComponent("talk.srt"), atomically: true, encoding: .utf8)
        try "lint:\n  profile: netflix\n".write(to: directory.appendingPathComponent(".medialint.yml"), atomically: true, encoding: .utf8)
        #expect(try Medialint.run(["check", ".", "--db", "store.sqlite"], in: directory).status == 1)
        // The files as bytes; the store by what it holds (SQLite may move pages from its journal into the file).
        func contents() throws -> [String] {
            try ["talk.srt", ".medialint.yml"].map { try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) }
                + [try Medialint.run(["report", "--db", "store.sqlite", "--format", "jsonl"], in: directory).stdout]
        }
        let before = try contents()
        for arguments in [
            ["lint", "talk.srt", "--write-baseline", "talk.srt"], ["lint", "talk.srt", "--write-baseline", ".medialint.yml"],
            ["check", ".", "--db", "store.sqlite", "--write-baseline", "talk.srt"],
            ["check", ".", "--db", "store.sqlite", "--write-baseline", "store.sqlite"],
            ["check", ".", "--no-store", "--write-baseline", ".medialint.yml"], ["check", ".", "--no-store", "-o", ".medialint.yml"],
            ["report", "--db", "store.sqlite", "--write-baseline", "store.sqlite"], ["report", "--db", "store.sqlite", "-o", "store.sqlite"],
        ] {
            let run = try Medialint.run(arguments, in: directory)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.contains("is the input file"), "\(arguments): \(run.stderr)")
            #expect(try contents() == before, "\(arguments)")
        }
        let written = try Medialint.run(["check", ".", "--db", "store.sqlite", "--write-baseline", "baseline.json"], in: directory)
        #expect(written.status == 1 && written.stderr.contains("written to baseline.json as the baseline"), "\(written.stderr)")
    }
}
