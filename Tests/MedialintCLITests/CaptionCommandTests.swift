import Foundation
import Testing

/// `medialint cues`, `convert` and `shift`, run as a user would.
@Suite struct CaptionCommandTests {
    @Test func cuesAsText() throws {
        let result = try Medialint.run(["cues", "Media/speech.vtt"])
        #expect(result.status == 0)
        #expect(result.stdout == """
            4 cues · webvtt · utf-8
            1  00:00:00.500 → 00:00:02.824  Welcome to the media accessibility demo.
            2  00:00:03.500 → 00:00:06.092  Captions should appear when the words are spoken.
            3  00:00:06.500 → 00:00:09.312  Flashing lights can trigger seizures in some viewers.
            4  00:00:09.500 → 00:00:11.728  Thank you for watching this short clip.

            """)
        #expect(result.stderr.isEmpty)
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

    @Test func convertRefusesToOverwriteItsInputAndBadFormats() throws {
        let same = try Medialint.run(["convert", "Media/speech.srt", "Media/speech.srt"])
        #expect(same.status == 2)
        #expect(same.stderr.contains("is the input file"))
        let unknown = try Medialint.run(["convert", "Media/speech.srt", "/tmp/out.txt"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("give --to vtt or --to srt"))
        let notVTT = try Medialint.run(["cues", "Media/not-media.mp4", "--format", "json"])
        #expect(notVTT.status == 0)  // sniffed as SRT: no cues, one diagnostic
        let badSignature = try Medialint.run(["cues", "Media/generate.sh", "--encoding", "utf-8"])
        #expect(badSignature.status == 0)
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
}
