import Captions
import Foundation
import TestSupport
import TestTraits
import Testing

/// `medialint cues`, `convert` and `shift`, run as a user would.
@Suite struct CaptionCommandTests {
    @Test func cuesAsText() throws {
        let result = try Medialint.run(["cues", "Media/speech.vtt"])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                4 cues · webvtt · utf-8
                1  00:00:00.500 → 00:00:02.824  Welcome to the media accessibility demo.
                2  00:00:03.500 → 00:00:06.092  Captions should appear when the words are spoken.
                3  00:00:06.500 → 00:00:09.312  Flashing lights can trigger seizures in some viewers.
                4  00:00:09.500 → 00:00:11.728  Thank you for watching this short clip.

                """)
        #expect(result.stderr.isEmpty)
    }

    /// The table's numbers are right-aligned to the widest, times past 100 hours keep every digit, and each line
    /// break in a text shows as ⏎ (the markup gone).
    @Test func cuesTableAlignsNumbersAndShowsLineBreaks() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("eleven.srt")
        var srt = ""
        for index in 1...11 { srt += "\(index)\n00:00:\(String(format: "%02d", index)),000 --> 00:00:\(String(format: "%02d", index)),500\ncue \(index)\n\n" }
        srt += "12\n123:04:05,006 --> 123:04:06,000\n<i>one</i>\r\ntwo\n"
        try srt.write(to: file, atomically: true, encoding: .utf8)
        let result = try Medialint.run(["cues", file.path])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "12 cues · srt · utf-8")
        #expect(lines[1] == " 1  00:00:01.000 → 00:00:01.500  cue 1")
        #expect(lines[9] == " 9  00:00:09.000 → 00:00:09.500  cue 9")
        #expect(lines[10] == "10  00:00:10.000 → 00:00:10.500  cue 10")
        #expect(lines[12] == "12  123:04:05.006 → 123:04:06.000  one ⏎ two")
        #expect(lines.count == 14 && lines[13].isEmpty)
    }

    @Test func cuesAsJSON() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("voices.vtt")
        try "WEBVTT\n\nq1\n00:01.000 --> 00:02.000 line:0 align:start\n<v Ann>Tom &amp; <i>Jerry</i>\nline two\n\n00:03.000 --> 00:04.000 bogus:1\nx\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try Medialint.run(["cues", file.path, "--format", "json"])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["format"] as? String == "webvtt")
        let cues = try #require(json["cues"] as? [[String: Any]])
        #expect(cues.count == 2)
        #expect(cues[0]["id"] as? String == "q1")
        #expect(cues[0]["start"] as? Double == 1 && cues[0]["end"] as? Double == 2)
        #expect(cues[0]["text"] as? String == "Tom & Jerry\nline two")
        #expect(cues[0]["voice"] as? String == "Ann")
        let settings = try #require(cues[0]["settings"] as? [String: Any])
        #expect(settings["line"] as? Double == 0 && settings["align"] as? String == "start")
        let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["rule"] as? String } == ["webvtt.setting"])
        #expect(diagnostics.first?["line"] as? Int == 8)
    }

    @Test func strictModeReportsCueTextProblems() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("sloppy.vtt")
        try "WEBVTT\n\n00:01.000 --> 00:02.000\n<b>bold & <blink>unclosed\n".write(to: file, atomically: true, encoding: .utf8)
        let lenient = try Medialint.run(["cues", file.path])
        #expect(lenient.stderr.isEmpty)
        let strict = try Medialint.run(["cues", file.path, "--strict"])
        #expect(strict.status == 0)
        #expect(strict.stderr.contains("unknown tag <blink> ignored [webvtt.cue-text]"))
        #expect(strict.stderr.contains("<b> is not closed"))
        #expect(strict.stderr.contains("\"&\" that starts no character reference"))
    }

    @Test func convertBothWaysIsStable() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let vtt = directory.appendingPathComponent("speech.vtt").path
        let srt = directory.appendingPathComponent("speech.srt").path
        #expect(try Medialint.run(["convert", "Media/speech.srt", vtt]).status == 0)
        #expect(try Medialint.run(["convert", vtt, srt]).status == 0)
        #expect(try String(contentsOfFile: srt, encoding: .utf8) == String(contentsOfFile: "Media/speech.srt", encoding: .utf8))
        let toStdout = try Medialint.run(["convert", srt, "-", "--to", "vtt"])
        #expect(toStdout.stdout == (try String(contentsOfFile: vtt, encoding: .utf8)))
    }

    /// SRT → SCC (pop-on 608) → every caption command: the same words (lines over 32 characters wrapped), times on
    /// 29.97 fps frames (11.728 s is frame 351: 11.712 s), and back to SRT. The first cue, at 0.5 s, cannot be loaded
    /// (32 pairs, one a frame) before it is due: it shows at 1.068 s, and the conversion says so.
    @Test func sccThroughTheCaptionCommands() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scc = directory.appendingPathComponent("speech.scc").path
        let converted = try Medialint.run(["convert", "Media/speech.srt", scc])
        #expect(converted.status == 0)
        #expect(
            converted.stderr
                == "Media/speech.srt: warning: SCC cannot hold cues that start too soon after the one before to be loaded in time (shown late); first in cue 1 [captions.convert]\n"
        )
        #expect(try String(contentsOfFile: scc, encoding: .utf8).hasPrefix("Scenarist_SCC V1.0\n\n00:00:00;00\t9420 9420 94ae 94ae "))
        let cues = try Medialint.run(["cues", scc])
        #expect(cues.status == 0)
        #expect(cues.stdout.hasPrefix("4 cues · scc · ascii\n1  00:00:01.068 → 00:00:02.836  Welcome to the media ⏎ accessibility demo.\n"))
        #expect(cues.stdout.contains("4  00:00:09.510 → 00:00:11.712  Thank you for watching this ⏎ short clip."))
        let back = directory.appendingPathComponent("back.srt").path
        #expect(try Medialint.run(["convert", scc, back]).status == 0)
        #expect(
            try String(contentsOfFile: back, encoding: .utf8).hasPrefix(
                "1\n00:00:01,068 --> 00:00:02,836\nWelcome to the media\naccessibility demo.\n\n2\n"))
        let transcript = try Medialint.run(["transcript", scc])
        #expect(transcript.status == 0 && transcript.stdout.contains("Welcome to the media accessibility demo."))
        let lint = try Medialint.run(["lint", scc])
        #expect(!lint.stdout.contains("lint.encoding") && !lint.stdout.contains("lint.syntax"))
        let strict = try Medialint.run(["convert", "Media/speech.vtt", "-", "--to", "scc"])
        #expect(strict.status == 0 && strict.stdout.hasPrefix("Scenarist_SCC V1.0\n"))
    }

    /// TTML through convert, cues, lint, transcript and check (a `.ttml` sidecar is the media's captions).
    @Test func ttmlThroughTheCaptionCommands() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ttml = directory.appendingPathComponent("speech.ttml").path
        let converted = try Medialint.run(["convert", "Media/speech.vtt", ttml])
        #expect(converted.status == 0 && converted.stderr.isEmpty)
        let written = try String(contentsOfFile: ttml, encoding: .utf8)
        #expect(written.contains("<p begin=\"00:00:00.500\" end=\"00:00:02.824\" region=\"bottom\">Welcome to the media accessibility demo.</p>"))
        let cues = try Medialint.run(["cues", ttml, "--strict"])
        #expect(cues.status == 0 && cues.stderr.isEmpty)
        #expect(cues.stdout.hasPrefix("4 cues · ttml · utf-8\n1  00:00:00.500 → 00:00:02.824  Welcome to the media accessibility demo.\n"))
        let back = directory.appendingPathComponent("back.vtt").path
        #expect(try Medialint.run(["convert", ttml, back]).status == 0)
        #expect(try String(contentsOfFile: back, encoding: .utf8) == String(contentsOfFile: "Media/speech.vtt", encoding: .utf8))
        let transcript = try Medialint.run(["transcript", ttml])
        #expect(transcript.status == 0 && transcript.stdout.contains("Welcome to the media accessibility demo."))
        let lint = try Medialint.run(["lint", ttml])
        #expect(!lint.stdout.contains("lint.encoding") && !lint.stdout.contains("lint.syntax"))
        // Not TTML: refused with the reason.
        let html = directory.appendingPathComponent("page.ttml").path
        try Data("<?xml version=\"1.0\"?><html/>".utf8).write(to: URL(fileURLWithPath: html))
        let refused = try Medialint.run(["cues", html])
        #expect(refused.status == 2)
        #expect(refused.stderr == "medialint: error: \(html): not a TTML document: the root element is `html`, not `tt` in the TTML namespace\n")
        // Beside its media, the TTML file is the media's captions.
        try FileManager.default.copyItem(atPath: "Media/speech.mp4", toPath: directory.appendingPathComponent("speech.mp4").path)
        try FileManager.default.removeItem(atPath: back)
        let check = try Medialint.run(["check", directory.appendingPathComponent("speech.mp4").path, "--no-store", "--format", "json"])
        #expect(check.stdout.contains("speech.ttml") && !check.stdout.contains("captions.missing"))
    }

    /// 608 captions inside media: a QuickTime c608 track (muxed by the ffmpeg CLI from SCC the SCC writer wrote) is
    /// listed by probe, read by cues/transcript with --track, and is the media's captions for check (synced with its
    /// speech, no captions.missing).
    @Test(.tags(.media), .notInFastRun) func closedCaptionTrackThroughTheCommands() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scc = directory.appendingPathComponent("speech.scc").path, mov = directory.appendingPathComponent("speech.mov").path
        #expect(try Medialint.run(["convert", "Media/speech.vtt", scc]).status == 0)
        try ExternalTool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", "Media/speech.mp4", "-i", scc, "-map", "0", "-map", "1", "-c", "copy", mov])
        let probe = try Medialint.run(["probe", mov])
        #expect(probe.stdout.contains("#2 subtitle eia_608"), "\(probe.stdout)")
        let cues = try Medialint.run(["cues", mov, "--track", "2"])
        #expect(cues.status == 0)
        #expect(cues.stdout.hasPrefix("4 cues · webvtt · utf-8\n1  00:00:01.068 → 00:00:02.828  Welcome to the media ⏎ accessibility demo.\n"))
        let transcript = try Medialint.run(["transcript", mov, "--track", "2"])
        #expect(transcript.stdout.contains("Welcome to the media accessibility demo. Captions should appear when the words are spoken."))
        let lint = try Medialint.run(["lint", mov, "--track", "2", "--format", "json"])
        #expect(lint.status == 0 && lint.stdout.contains("\"lint.line-length\"") == false, "\(lint.stdout)")
        let srt = directory.appendingPathComponent("extracted.srt").path
        #expect(try Medialint.run(["convert", mov, srt, "--track", "2"]).status == 0)
        #expect(try String(contentsOfFile: srt, encoding: .utf8).hasPrefix("1\n00:00:01,068 --> 00:00:02,828\nWelcome to the media\naccessibility demo.\n"))
        let check = try Medialint.run(["check", mov, "--no-store", "--format", "json"])
        #expect(!check.stdout.contains("captions.missing"), "\(check.stdout)")
        #expect(check.stdout.contains("\"track 2\""), "\(check.stdout)")
    }

    /// An HLS package (built by the ffmpeg CLI): `cues` and `convert` give its subtitle rendition as one timeline;
    /// a rendition that leaves the package's folder is refused, never read.
    @Test(.tags(.media), .notInFastRun) func hlsPackageSubtitlesAsOneTimeline() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try HLSTestPackage.build(in: directory, subtitles: [("Media/speech.vtt", nil)])
        let master = directory.appendingPathComponent("master.m3u8").path
        let cues = try Medialint.run(["cues", master])
        #expect(cues.status == 0 && cues.stderr.isEmpty)
        #expect(cues.stdout.hasPrefix("4 cues · webvtt · utf-8\n1  00:00:00.501 → 00:00:02.825  Welcome to the media accessibility demo.\n"), "\(cues.stdout)")
        let srt = try Medialint.run(["convert", master, "-", "--to", "srt"])
        #expect(srt.stdout.hasPrefix("1\n00:00:00,501 --> 00:00:02,825\nWelcome to the media accessibility demo.\n\n2\n"))
        let missing = try Medialint.run(["cues", master, "--track", "1"])
        #expect(missing.status == 2 && missing.stderr == "medialint: error: \(master): no subtitle rendition 1 (0: subtitle_0)\n")
        let evil = directory.appendingPathComponent("evil.m3u8").path
        try Data(
            """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="x",URI="../../../etc/passwd"
            #EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES="s"
            stream_0.m3u8

            """.utf8
        ).write(to: URL(fileURLWithPath: evil))
        let refused = try Medialint.run(["cues", evil])
        #expect(refused.status == 2)
        #expect(refused.stderr == "medialint: error: \(evil): subtitles \"x\": ../../../etc/passwd: ../../../etc/passwd leaves the package's folder\n")
    }

    /// check on HLS packages the ffmpeg CLI builds: the package is one item (its segments are not checked one by one),
    /// its subtitles are linted and synced against its audio, its video checked for flashing across its segments;
    /// subtitles made 1.5 s late fail with that offset.
    @Test(.tags(.media), .notInFastRun) func hlsPackageCheckSyncsItsSubtitles() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let late = directory.appendingPathComponent("late.vtt").path
        #expect(try Medialint.run(["shift", "Media/speech.vtt", "--by", "1.5", "-o", late]).status == 0)
        for (name, captions) in [("good", "Media/speech.vtt"), ("late", late)] {
            try HLSTestPackage.build(in: directory.appendingPathComponent(name), subtitles: [(captions, nil)])
        }
        let good = try Medialint.run(["check", directory.appendingPathComponent("good").path, "--no-store"])
        #expect(good.status == 0, "\(good.stdout)")
        #expect(
            (good.stdout + good.stderr).contains("1 file · 4 results: 3 pass, 1 warn"),
            "the package, its lint (line length), its sync, its flashing: \(good.stdout)")
        #expect(good.stdout.contains("master.m3u8  PASS  sync") && good.stdout.contains("cue time on speech 100%"), "\(good.stdout)")
        #expect(good.stdout.contains("master.m3u8  PASS  flash\n  300 frames · 25 fps"), "every picture of the package's 12 s: \(good.stdout)")
        #expect(good.stdout.contains("sub_0.m3u8 · offset +0.0"), "\(good.stdout)")
        // The package's video is bound by the memory a file may take, as a single file's is: 3840×2160 needs ~300 MB.
        let big = try TestMediaCache.ffmpeg(
            "uhd.mp4",
            [
                "-f", "lavfi", "-i", "color=c=gray:s=3840x2160:r=25:d=0.4", "-f", "lavfi", "-i", "sine=d=0.4",
                "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", TestMediaCache.output,
            ])
        try HLSTestPackage.build(in: directory.appendingPathComponent("uhd"), media: big, subtitles: [("Media/speech.vtt", nil)])
        let bounded = try Medialint.run(["check", directory.appendingPathComponent("uhd").path, "--no-store", "--max-file-memory", "64"])
        #expect(bounded.status == 1 && bounded.stdout.contains("master.m3u8  ERROR  flash"), "\(bounded.stdout)")
        #expect(bounded.stdout.contains("more than the 64 MB a file may take (--max-file-memory): not read  [check.memory-limit]"), "\(bounded.stdout)")
        // As JSON, the package's inventory in the captions result, valid against the report's schema.
        let json = try Medialint.run(["check", directory.appendingPathComponent("good").path, "--no-store", "--format", "json"])
        #expect(json.stdout.contains("\"renditions\"") && json.stdout.contains("\"group\": \"subs\""), "\(json.stdout)")
        #expect(try JSONContractTests.validator("check-report.schema.json").errors(in: try JSONNode.parse(json.stdout)) == [])
        let bad = try Medialint.run(["check", directory.appendingPathComponent("late").path, "--no-store"])
        #expect(bad.status == 1)
        #expect(bad.stdout.range(of: #"captions are 1\.5[0-9] s late: move them by -1\.5[0-9] s"#, options: .regularExpression) != nil, "\(bad.stdout)")
        // sync on the package itself, and its fix: the cues back on the speech.
        let master = directory.appendingPathComponent("late/master.m3u8").path, fixed = directory.appendingPathComponent("fixed.vtt").path
        let sync = try Medialint.run(["sync", master])
        #expect(sync.status == 1 && sync.stdout.contains("[sync.offset]"), "\(sync.stdout)")
        #expect(try Medialint.run(["sync", master, "--fix", fixed]).status == 0)
        let corrected = try CaptionFile.read(fixed).cues, original = try CaptionFile.read("Media/speech.vtt").cues
        #expect(zip(corrected, original).allSatisfy { abs($0.start.milliseconds - $1.start.milliseconds) <= 100 }, "\(corrected.map(\.start))")
    }

    /// A package with two subtitle renditions (English and French) built by the ffmpeg CLI: each read with --track,
    /// each linted and synced by check; ffmpeg marks both DEFAULT=YES, which RFC 8216 forbids (hls.rendition-default).
    @Test(.tags(.media), .notInFastRun) func hlsPackageWithTwoSubtitleRenditions() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let french = directory.appendingPathComponent("fr.vtt").path
        try String(contentsOfFile: "Media/speech.vtt", encoding: .utf8).replacingOccurrences(of: "Welcome", with: "Bienvenue")
            .write(toFile: french, atomically: true, encoding: .utf8)
        let package = directory.appendingPathComponent("package")
        try HLSTestPackage.build(in: package, subtitles: [("Media/speech.vtt", "en"), (french, "fr")])
        let master = package.appendingPathComponent("master.m3u8").path
        #expect(try Medialint.run(["cues", master, "--track", "1"]).stdout.contains("Bienvenue to the media accessibility demo."))
        #expect(try Medialint.run(["cues", master]).stdout.contains("1  00:00:00.501 → 00:00:02.825  Welcome to the media"))
        let check = try Medialint.run(["check", package.path, "--no-store"])
        #expect(check.stdout.contains("[hls.rendition-default]"), "\(check.stdout)")
        #expect((check.stdout + check.stderr).contains("1 file · 6 results"), "the package, two lints, two syncs, its flashing: \(check.stdout)")
        #expect(check.stdout.contains("sub_1.m3u8 · offset +0.0"), "\(check.stdout)")
    }

    @Test func convertRefusesToOverwriteItsInputAndBadFormats() throws {
        let same = try Medialint.run(["convert", "Media/speech.srt", "Media/speech.srt"])
        #expect(same.status == 2)
        #expect(same.stderr.contains("is the input file"))
        let unknown = CommandLineParsing.refusal(["convert", "Media/speech.srt", "/tmp/out.txt"])
        #expect(unknown?.status == 2)
        #expect(unknown?.message.contains("give --to vtt, srt, scc, ttml, smi, ass or sbv") == true)
        // Named as media but not media FFmpeg reads: said so, not sniffed as captions (an empty file would be captions
        // with no cue, and pass).
        let notMedia = try Medialint.run(["cues", "Media/not-media.mp4", "--format", "json"])
        #expect(notMedia.status == 2)
        let message = "Media/not-media.mp4: not a media file FFmpeg can read (no known format recognised)"
        #expect(
            notMedia.stdout
                == "{\n  \"tool\": \"medialint\",\n  \"version\": \"0.1.0\",\n  \"file\": \"Media/not-media.mp4\",\n  \"error\": {\n    \"message\": \"\(message)\"\n  }\n}\n",
            "a document for scripts, naming the error")
        #expect(notMedia.stderr == "medialint: error: \(message)\n")
        let empty = try Medialint.run(["lint", "Media/empty.mp4"])
        #expect(empty.status == 1 && empty.stdout.hasPrefix("Media/empty.mp4  ERROR  lint\n  ✗ Media/empty.mp4: the file is empty"), "\(empty.stdout)")
        let script = try Medialint.run(["cues", "Media/generate.sh", "--encoding", "utf-8"])
        #expect(script.status == 2)
        #expect(script.stderr.hasPrefix("medialint: error: Media/generate.sh: no cue could be read: line 54: unreadable timing line"))
        let missing = try Medialint.run(["cues", "Media/nope.vtt"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "medialint: error: Media/nope.vtt: no such file\n")
    }

    @Test func shiftWithNegativeOffsetAndRatio() throws {
        let result = try Medialint.run(["shift", "Media/speech.vtt", "--by", "-0.8", "--scale", "25/23.976"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("WEBVTT\n\n00:00:00.000 --> 00:00:02.145\nWelcome"))
        #expect(result.stderr.contains("1 cue would start or end before 0 and was set to 0 (cue 1)"))
        let bad = try Medialint.run(["shift", "Media/speech.vtt", "--scale", "0"])
        #expect(bad.status == 2)
    }

    @Test func shiftInPlaceIsAtomicAndExplicit() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("talk.srt").path
        try FileManager.default.copyItem(atPath: "Media/speech.srt", toPath: file)
        #expect(try Medialint.run(["shift", file, "--by", "1", "-o", file]).status == 2)  // never over the input by accident
        #expect(try Medialint.run(["shift", file, "--by", "1", "--in-place"]).status == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("1\n00:00:01,500 --> 00:00:03,824\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["talk.srt"])
    }

    // MARK: - Files from the wild (Tests/CaptionsTests/Fixtures/srt-in-the-wild)

    private static let wild = "Tests/CaptionsTests/Fixtures/srt-in-the-wild/"

    /// Content without a single cue: exit 2 and one line, for every command that reads captions; no output file.
    @Test(arguments: ["prose-not-srt.srt", "png-renamed.srt", "binary-bytes.srt"])
    func notAnSRTFileIsRefused(file: String) throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.vtt").path
        for arguments in [["cues"], ["transcript"], ["convert", "ARG", out], ["shift", "ARG", "--by", "1", "-o", out]] {
            let command =
                arguments.count > 1 && arguments[1] == "ARG"
                ? [arguments[0], Self.wild + file] + arguments.dropFirst(2)
                : arguments + [Self.wild + file]
            let result = try Medialint.run(command)
            #expect(result.status == 2, "\(command)")
            #expect(result.stderr == "medialint: error: \(Self.wild + file): not an SRT file (no cue found)\n", "\(command)")
            #expect(result.stdout.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        let lint = try Medialint.run(["lint", Self.wild + file, "--format", "json"])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("\"rule\": \"captions.parse\""))
    }

    @Test(arguments: ["empty.srt", "whitespace-only.srt"])
    func anEmptyFileIsValid(file: String) throws {
        let result = try Medialint.run(["cues", Self.wild + file])
        #expect(result.status == 0)
        #expect(result.stdout == "0 cues · srt · utf-8\n")
        #expect(result.stderr.isEmpty)
    }

    /// Markup players know styles; tags they do not know are left out of the text, kept in the markup, and
    /// reported by lint.
    @Test func markupInTheWild() throws {
        let file = Self.wild + "markup-players-know-and-unknown-tags.srt"
        let cues = try Medialint.run(["cues", file])
        #expect(cues.status == 0)
        let texts: [String] = cues.stdout.split(separator: "\n").dropFirst().map { (line: Substring) -> String in
            line.split(separator: "  ", maxSplits: 2).last.map(String.init) ?? ""
        }
        let expected: [String] = [
            "italic struck Little a ⏎ b", "line one ⏎ line two ⏎ line three", "closing nothing and spaced",
            "5 < 6 and 7 > 3 stay text, so does <3", "yellow bold",
        ]
        #expect(texts == expected)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try Medialint.run(["cues", file, "--format", "json"]).stdout.utf8)) as? [String: Any])
        let first = try #require((json["cues"] as? [[String: Any]])?.first)
        #expect(first["text"] as? String == "italic struck Little a\nb")
        #expect(first["markup"] as? String == "<i>italic <s>struck</s> <sub>Little</sub> a<br>b</i>")
        let lint = try Medialint.run(["lint", file, "--format", "jsonl"])
        let markup = lint.stdout.split(separator: "\n").first.map { String($0) } ?? ""
        #expect(markup.contains("\"rule\":\"lint.markup\",\"severity\":\"warning\",\"message\":\"cue 1: unknown tag <sub> left out of the text (and 1 more)\""))
        #expect(markup.contains("\"message\":\"cue 3: unknown tag </xyz> left out of the text (and 1 more)\""))
        let transcript = try Medialint.run(["transcript", file])
        #expect(transcript.stdout.hasPrefix("italic struck Little a b line one line two line three closing nothing and spaced"))
        let vtt = try Medialint.run(["convert", file, "-", "--to", "vtt"])
        #expect(vtt.stdout.contains("00:00:01.000 --> 00:00:02.000\n<i>italic <c.strike>struck</c> Little a\nb</i>\n"))
        #expect(vtt.stdout.hasPrefix("WEBVTT\n\nSTYLE\n::cue(.strike) { text-decoration: line-through; }\n"))
        #expect(vtt.stderr.contains("WebVTT cannot hold tags SubRip players do not know (such as <sub>): left out, their text kept [captions.convert]"))
    }

    /// 50,000 nested `<i>` (a 350 KB cue): one cue through cues, lint and convert, no crash.
    @Test func deepNestingDoesNotCrash() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("deep.srt").path
        let depth = 50_000
        try ("1\n00:00:01,000 --> 00:00:02,000\n" + String(repeating: "<i>", count: depth) + "deep" + String(repeating: "</i>", count: depth) + "\n")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let cues = try Medialint.run(["cues", file])
        #expect(cues.status == 0)
        #expect(cues.stdout.hasSuffix("1  00:00:01.000 → 00:00:02.000  deep\n"))
        let lint = try Medialint.run(["lint", file])
        #expect(lint.status == 0)
        #expect(lint.stdout.contains("tags nested more than 100 deep: the deeper ones ignored"))
        let convert = try Medialint.run(["convert", file, directory.appendingPathComponent("deep.vtt").path])
        #expect(convert.status == 0)
        #expect(
            try String(contentsOfFile: directory.appendingPathComponent("deep.vtt").path, encoding: .utf8)
                == "WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\n" + String(repeating: "<i>", count: 100) + "deep" + String(repeating: "</i>", count: 100) + "\n"
        )
    }
}
