import Captions
import Foundation
import TestSupport
import TestTraits
import Testing

/// `medialint sync`, and reading embedded tracks with `cues`/`convert --track`, on the bundled samples.
@Suite struct SyncCommandTests {
    /// A fix that cannot be written (a full device) says only that: nothing was moved, and the run is a usage error.
    @Test func aFixThatCannotBeWrittenMovesNothing() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let late = directory.appendingPathComponent("late.srt").path
        #expect(try Medialint.run(["shift", "Media/speech.srt", "--by", "1.5", "-o", late]).status == 0)
        let result = try Medialint.run(["sync", "Media/speech.mp4", late, "--fix", "/dev/full"])
        #expect(result.status == 2)
        #expect(result.stderr == "medialint: error: cannot write /dev/full: No space left on device\n", "\(result.stderr)")
    }

    @Test func sidecarsAreFoundAndChecked() throws {
        let result = try Medialint.run(["sync", "Media/speech.mp4"])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                Media/speech.mp4  PASS  sync
                  Media/speech.srt · offset 0.000 s · drift ×1.000000 · speech captioned 95% · cue time on speech 100% · 4/4 cues on speech onsets · confidence 0.80 · media 12.0 s

                Media/speech.mp4  PASS  sync
                  Media/speech.vtt · offset 0.000 s · drift ×1.000000 · speech captioned 95% · cue time on speech 100% · 4/4 cues on speech onsets · confidence 0.80 · media 12.0 s

                """)
    }

    @Test func embeddedTracksAreChecked() throws {
        let result = try Medialint.run(["sync", "Media/embedded-subtitles.mkv", "--format", "json"])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try #require(json["results"] as? [[String: Any]])
        #expect(
            results.map { ($0["metrics"] as? [String: Any])?["captions"] as? String }
                == ["track 2", "track 3", "track 4"])
        // The same names `check` gives the same sources (one caption-source type for both).
        let check = try Medialint.run(["check", "Media/embedded-subtitles.mkv", "--no-store", "--format", "jsonl"])
        #expect(check.stdout.components(separatedBy: "\"captions\":\"track ").count - 1 == 3)
        for result in results {
            #expect(result["check"] as? String == "sync" && result["verdict"] as? String == "pass")
            let metrics = try #require(result["metrics"] as? [String: Any])
            #expect(abs(try #require(metrics["offsetSeconds"] as? Double)) <= 0.02)
            #expect(metrics["driftRatio"] as? Double == 1)
            #expect(metrics["mediaDuration"] as? Double == 12.021)
            #expect((metrics["speechCoverage"] as? Double ?? 0) > 0.9 && metrics["captionCoverage"] as? Double == 1)
        }
    }

    @Test func lateCaptionsFailAndTheFixPutsThemBack() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let late = directory.appendingPathComponent("late.srt").path, fixed = directory.appendingPathComponent("fixed.srt").path
        #expect(try Medialint.run(["shift", "Media/speech.srt", "--by", "1.5", "-o", late]).status == 0)

        let check = try Medialint.run(["sync", "Media/speech.mp4", late])
        #expect(check.status == 1)
        #expect(check.stdout.contains("✗ captions are 1.50 s late: move them by -1.50 s (WCAG 1.2.2, KWCAG 1.2)  [sync.offset]"))

        let fix = try Medialint.run(["sync", "Media/speech.mp4", late, "--fix", fixed])
        #expect(fix.status == 0, "the offset it found was corrected")
        #expect(fix.stderr == "medialint: note: \(fixed): times moved by -1.500 s\n")
        // What was wrong, and that it was fixed: the verdict shown is the exit status's.
        #expect(
            fix.stdout.hasPrefix(
                "Media/speech.mp4  PASS  sync\n  · captions are 1.50 s late: move them by -1.50 s — fixed in \(fixed): times moved by -1.500 s (WCAG 1.2.2, KWCAG 1.2)  [sync.offset]\n"
            ), "\(fix.stdout)")
        let fixJSON = try Medialint.run(["sync", "Media/speech.mp4", late, "--fix", fixed, "--format", "jsonl"])
        let record = try #require(try JSONSerialization.jsonObject(with: Data(fixJSON.stdout.prefix { $0 != "\n" }.utf8)) as? [String: Any])
        #expect(fixJSON.status == 0 && record["verdict"] as? String == "pass")
        #expect((record["findings"] as? [[String: Any]])?.map { "\($0["rule"]!) \($0["severity"]!)" } == ["sync.offset info"])
        // Back on the original times, byte for byte.
        let written = try String(contentsOfFile: fixed, encoding: .utf8)
        let original = try String(contentsOfFile: Medialint.media("speech.srt"), encoding: .utf8)
        #expect(written == original, "\(written)")

        let again = try Medialint.run(["sync", "Media/speech.mp4", fixed])
        #expect(again.status == 0 && again.stdout.hasPrefix("Media/speech.mp4  PASS  sync\n"))
        #expect(try String(contentsOfFile: late, encoding: .utf8).contains("00:00:02,000 --> 00:00:04,324"), "the input is untouched")
    }

    /// A programme whose captions ignore an advert cut (5 s late after it): the break is reported with both offsets,
    /// `--fix` moves each part by its own offset (every cue back within 0.1 s of its sentence) and the run passes;
    /// `--snap` moves cues only when fixing.
    @Test(.tags(.media), .notInFastRun) func aBreakIsFixedPartByPart() throws {
        let programme = try Programme.forTests(.magazine)
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let variant = try #require(programme.cases.first { $0.name == "cut" }?.variant)
        let input = try programme.writeCaptions(variant, named: "cut.srt", in: directory)
        let fixed = directory.appendingPathComponent("fixed.srt").path

        let check = try Medialint.run(["sync", programme.media, input])
        #expect(check.status == 1)
        #expect(check.stdout.contains(" s (an edit or a cut the captions do not follow): --fix moves each part by its own offset"), "\(check.stdout)")
        let json = try Medialint.run(["sync", programme.media, input, "--format", "json"])
        let result = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]]).first
        let step = try #require((result?["findings"] as? [[String: Any]])?.first { $0["rule"] as? String == "sync.break" }?["data"] as? [String: Any])
        #expect(abs((step["offsetAfter"] as? Double ?? 0) - 5) <= 0.1 && abs(step["offsetBefore"] as? Double ?? 1) <= 0.1, "\(step)")

        let fix = try Medialint.run(["sync", programme.media, input, "--fix", fixed])
        #expect(fix.status == 0, "\(fix.stdout)")
        #expect(fix.stderr.hasPrefix("medialint: note: \(fixed): times moved part by part"), "\(fix.stderr)")
        let errors = programme.startErrors(of: try CaptionFile.read(fixed))
        #expect(errors.count == programme.lines.count && errors.allSatisfy { abs($0) <= 0.1 }, "\(errors)")

        let snapAlone = CommandLineParsing.refusal(["sync", programme.media, input, "--snap"])
        #expect(snapAlone?.status == 2 && snapAlone?.message.contains("--snap moves cues when fixing: give --fix OUT or --in-place too.") == true)
    }

    /// The fix workflow with no traps: `--in-place` rewrites the sidecar (keeping a backup when asked), after which the
    /// library passes; neither the backup nor a `.fixed`/`.bak` copy counts as a caption source; `--fix` onto an input
    /// is refused before any note.
    @Test func theFixInPlaceLeavesTheLibraryPassing() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(atPath: Medialint.media("speech.mp4"), toPath: directory.appendingPathComponent("talk.mp4").path)
        #expect(try Medialint.run(["shift", Medialint.media("speech.srt"), "--by", "1.5", "-o", "talk.en.srt"], in: directory).status == 0)
        let late = try Data(contentsOf: directory.appendingPathComponent("talk.en.srt"))
        try late.write(to: directory.appendingPathComponent("talk.bak.srt"))
        #expect(try Medialint.run(["check", ".", "--no-store"], in: directory).status == 1)

        // --fix onto the caption file itself: refused before anything is said or written.
        let onto = try Medialint.run(["sync", "talk.mp4", "--fix", "talk.en.srt"], in: directory)
        #expect(onto.status == 2 && !onto.stderr.contains("note") && onto.stdout.isEmpty, "\(onto.stderr)")
        #expect(onto.stderr == "medialint: error: talk.en.srt is the input file talk.en.srt; write elsewhere (or use --in-place where offered)\n")

        // The README's --fix OUT writes a copy that is not a caption source: one source still, the late one.
        #expect(try Medialint.run(["sync", "talk.mp4", "--fix", "talk.fixed.srt"], in: directory).status == 0)
        #expect(try Medialint.run(["sync", "talk.mp4"], in: directory).status == 1, "talk.fixed.srt and talk.bak.srt are not sources")

        let inPlace = try Medialint.run(["sync", "talk.mp4", "--in-place", "--backup", ".orig"], in: directory)
        #expect(inPlace.status == 0 && inPlace.stdout.hasPrefix("talk.mp4  PASS  sync\n"), "\(inPlace.stdout)")
        #expect(inPlace.stderr == "medialint: note: talk.en.srt: times moved by -1.500 s\n")
        #expect(try Data(contentsOf: directory.appendingPathComponent("talk.en.srt.orig")) == late, "the original kept byte for byte")
        #expect(
            try String(contentsOf: directory.appendingPathComponent("talk.en.srt"), encoding: .utf8)
                == String(contentsOfFile: Medialint.media("speech.srt"), encoding: .utf8), "back on the original times")
        let check = try Medialint.run(["check", ".", "--no-store"], in: directory)
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stderr.hasSuffix("4 files · 6 results: 3 pass, 3 warn\n"), "talk.fixed.srt and talk.bak.srt linted on their own: \(check.stderr)")

        // A backup is never written over: refused before the captions are touched.
        #expect(try Medialint.run(["shift", "talk.en.srt", "--by", "2", "--in-place"], in: directory).status == 0)
        let moved = try Data(contentsOf: directory.appendingPathComponent("talk.en.srt"))
        let again = try Medialint.run(["sync", "talk.mp4", "--in-place", "--backup", ".orig"], in: directory)
        #expect(again.status == 2 && again.stderr.hasSuffix("talk.en.srt.orig exists: remove it or choose another --backup suffix\n"), "\(again.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("talk.en.srt")) == moved)
        #expect(try Data(contentsOf: directory.appendingPathComponent("talk.en.srt.orig")) == late)

        for (arguments, message) in [
            (["sync", "talk.mp4", "--backup", ".orig"], "--backup goes with --in-place."),
            (["sync", "talk.mp4", "--in-place", "--fix", "out.srt"], "Give either --fix OUT or --in-place, not both."),
            (["sync", "talk.mp4", "--in-place", "--track", "0"], "--in-place cannot rewrite an embedded track"),
            (["shift", "talk.en.srt", "--in-place", "--backup", "a/b"], "--backup takes a suffix such as .orig (no '/')."),
        ] {
            let result = try Medialint.run(arguments, in: directory)
            #expect(result.status == 2 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    /// `check MEDIA --captions FILE`: the caption files named are the media's captions, not the sidecars found by name.
    @Test func checkTakesTheCaptionsNamed() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(atPath: Medialint.media("speech.mp4"), toPath: directory.appendingPathComponent("talk.mp4").path)
        #expect(try Medialint.run(["shift", Medialint.media("speech.srt"), "--by", "3", "-o", "talk.srt"], in: directory).status == 0)
        try FileManager.default.copyItem(atPath: Medialint.media("speech.srt"), toPath: directory.appendingPathComponent("talk.v2.srt").path)

        // Found by name: talk.srt, 3 s late.
        let found = try Medialint.run(["check", "talk.mp4", "--no-store", "--format", "jsonl"], in: directory)
        #expect(found.status == 1)
        #expect(found.stdout.contains(#""file":"talk.mp4","check":"sync","verdict":"fail""#), "\(found.stdout)")
        #expect(!found.stdout.contains("talk.v2.srt"))

        // Named: talk.v2.srt alone, on time.
        let named = try Medialint.run(["check", "talk.mp4", "--captions", "talk.v2.srt", "--no-store", "--format", "jsonl"], in: directory)
        #expect(named.status == 0, "\(named.stdout)\(named.stderr)")
        let sync = named.stdout.split(separator: "\n").filter { $0.contains(#""check":"sync""#) }
        #expect(sync.count == 1 && sync[0].contains(#""verdict":"pass""#) && sync[0].contains(#""captions":"talk.v2.srt""#), "\(sync)")
        #expect(!named.stdout.contains(#""captions":"talk.srt""#))

        // The store keys the result by the captions named: naming others checks again.
        let store = directory.appendingPathComponent("results.sqlite").path
        #expect(try Medialint.run(["check", "talk.mp4", "--captions", "talk.v2.srt", "--db", store], in: directory).status == 0)
        let late = try Medialint.run(["check", "talk.mp4", "--captions", "talk.srt", "--db", store], in: directory)
        #expect(late.status == 1 && late.stderr.contains("1 checked, 0 from the store"), "\(late.stderr)")

        for (arguments, message) in [
            (["check", ".", "--captions", "talk.v2.srt"], "--captions names the captions of one media file: give that one file, not a folder"),
            (["check", "talk.mp4", "talk.srt", "--captions", "talk.v2.srt"], "not 2 paths"),
            (["check", "talk.mp4", "--captions", "gone.srt"], "gone.srt: no such caption file (--captions)"),
            (["check", "talk.srt", "--captions", "talk.v2.srt"], "talk.srt: not a media file; --captions names the captions of one"),
        ] {
            let result = try Medialint.run(arguments, in: directory)
            #expect(result.status == 2 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    /// `--reference`: a translation aligned to its original without audio, as ffsubsync does with a reference
    /// subtitle. The translation's cues start and end a little apart from the original's (different text, different
    /// cuts), run 25/23.976 too fast and 2.5 s late; the fix puts them back within 0.2 s of the original's.
    @Test func aTranslationIsAlignedToItsOriginal() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SeededRandom(seed: 7)
        var original: [(Double, Double)] = []
        var time = 1.0
        for _ in 0..<30 {
            let length = 1.2 + Double.random(in: 0..<1, using: &random) * 2.5
            original.append((time, time + length))
            time += length + 0.3 + Double.random(in: 0..<1, using: &random) * 2
        }
        let scale = 25 / 23.976, offset = 2.5
        let translated = original.map { start, end in
            (
                (start + (Double.random(in: 0..<1, using: &random) - 0.5) * 0.16) * scale + offset,
                (end + (Double.random(in: 0..<1, using: &random) - 0.5) * 0.3) * scale + offset
            )
        }
        func stamp(_ seconds: Double) -> String {
            let milliseconds = Int((seconds * 1000).rounded())
            return String(format: "%02d:%02d:%02d,%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60, milliseconds / 1000 % 60, milliseconds % 1000)
        }
        func srt(_ cues: [(Double, Double)], _ text: String) -> String {
            cues.enumerated().map { index, cue in "\(index + 1)\n\(stamp(cue.0)) --> \(stamp(cue.1))\n\(text) \(index + 1).\n\n" }.joined()
        }
        try srt(original, "Line").write(to: directory.appendingPathComponent("film.en.srt"), atomically: true, encoding: .utf8)
        try srt(translated, "Ligne").write(to: directory.appendingPathComponent("film.fr.srt"), atomically: true, encoding: .utf8)

        let check = try Medialint.run(["sync", "--reference", "film.en.srt", "film.fr.srt", "--format", "jsonl"], in: directory)
        #expect(check.status == 1)
        let result = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.prefix { $0 != "\n" }.utf8)) as? [String: Any])
        #expect(result["file"] as? String == "film.fr.srt" && result["verdict"] as? String == "fail")
        #expect((result["findings"] as? [[String: Any]])?.compactMap { $0["rule"] as? String }.sorted() == ["sync.drift", "sync.offset"])
        let metrics = try #require(result["metrics"] as? [String: Any])
        #expect(abs((metrics["driftRatio"] as? Double ?? 0) - scale) < 0.001, "\(metrics)")

        let fix = try Medialint.run(["sync", "--reference", "film.en.srt", "film.fr.srt", "--fix", "film.fr.synced.srt"], in: directory)
        #expect(fix.status == 0 && fix.stdout.hasPrefix("film.fr.srt  PASS  sync\n"), "\(fix.stdout)")
        let fixed = try Medialint.run(["cues", "film.fr.synced.srt", "--format", "json"], in: directory)
        let cues = try #require((try JSONSerialization.jsonObject(with: Data(fixed.stdout.utf8)) as? [String: Any])?["cues"] as? [[String: Any]])
        #expect(cues.count == 30)
        for (cue, expected) in zip(cues, original) {
            #expect(abs((cue["start"] as? Double ?? 0) - expected.0) < 0.2, "\(cue) against \(expected)")
        }
        #expect(try Medialint.run(["sync", "--reference", "film.en.srt", "film.fr.synced.srt"], in: directory).status == 0)

        let two = try Medialint.run(["sync", "--reference", "film.en.srt", "film.fr.srt", "other.srt"], in: directory)
        #expect(two.status == 2 && two.stderr.contains("With --reference, give one caption file"))
        let onto = try Medialint.run(["sync", "--reference", "film.en.srt", "film.fr.srt", "--fix", "film.en.srt"], in: directory)
        #expect(onto.status == 2 && onto.stderr.contains("is the input file"))
    }

    @Test func cuesPastTheEndOfAShortVideo() throws {
        let result = try Medialint.run(["sync", "Media/no-audio.mp4", "Media/speech.vtt", "--format", "jsonl"])
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.prefix { $0 != "\n" }.utf8)) as? [String: Any])
        #expect(json["verdict"] as? String == "fail")
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(findings.map { $0["rule"] as? String } == ["sync.cue-after-end", "sync.cue-after-end", "sync.unverified"])
        #expect(findings.map { $0["start"] as? Double } == [6.5, 9.5, nil])
    }

    @Test func withoutCaptionsSpeechNeedsThem() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("talk.mp4").path
        try FileManager.default.copyItem(atPath: Medialint.media("speech.mp4"), toPath: copy)
        let missing = try Medialint.run(["sync", copy])
        #expect(missing.status == 1)
        #expect(
            missing.stdout.contains(
                "FAIL  captions\n  ✗ no caption file next to it (NAME.vtt, NAME.srt, NAME.en.srt …), no text subtitle track and no CEA-608 captions, but the audio has"
            ))
        #expect(missing.stdout.contains("[captions.missing]"))

        // A sidecar with a language tag is found.
        try FileManager.default.copyItem(atPath: Medialint.media("speech.vtt"), toPath: directory.appendingPathComponent("talk.en-US.vtt").path)
        let found = try Medialint.run(["sync", copy])
        #expect(found.status == 0)
        #expect(found.stdout.contains("talk.en-US.vtt · offset 0.000 s"))

        let silent = try Medialint.run(["sync", "Media/flashing.mp4"])
        #expect(silent.status == 0 && silent.stdout.hasPrefix("Media/flashing.mp4  PASS  captions\n"))
    }

    /// Speech too weak to judge: the verdict says so, and --fix writes nothing and fails.
    @Test func unverifiedTimingIsNotFixed() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let captions = directory.appendingPathComponent("silent.srt").path, out = directory.appendingPathComponent("out.srt").path
        try "1\n00:00:00,500 --> 00:00:01,500\nOne\n\n2\n00:00:02,000 --> 00:00:03,000\nTwo\n\n3\n00:00:03,500 --> 00:00:04,500\nThree\n"
            .write(toFile: captions, atomically: true, encoding: .utf8)
        let check = try Medialint.run(["sync", "Media/flashing.mp4", captions])
        #expect(check.status == 0)
        #expect(check.stdout.hasPrefix("Media/flashing.mp4  UNVERIFIED  sync\n  · timing not verified: no speech was found in the audio  [sync.unverified]\n"))
        let fix = try Medialint.run(["sync", "Media/flashing.mp4", captions, "--fix", out])
        #expect(fix.status == 1)
        #expect(fix.stderr == "medialint: error: \(out): not written: the timing could not be verified\n")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func usageErrors() throws {
        let two = try Medialint.run(["sync", "Media/speech.mp4", "--fix", "/tmp/never-written.srt"])
        #expect(two.status == 2)
        #expect(two.stderr == "medialint: error: --fix needs one caption source; Media/speech.mp4 has 2: Media/speech.srt, Media/speech.vtt; name one\n")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written.srt"))
        #expect(CommandLineParsing.refusal(["sync", "Media/speech.mp4", "--tolerance", "0.3,0.1"])?.status == 2)
        #expect(
            CommandLineParsing.refusal(["sync", "Media/speech.mp4", "Media/speech.vtt", "--track", "2"])?.message.hasPrefix(
                "Error: Give a caption file or --track, not both.\n") == true)
        let stream = try Medialint.run(["sync", "Media/speech.mp4", "Media/speech.vtt", "--audio-stream", "0"])
        #expect(stream.status == 2 && stream.stderr.contains("Media/speech.mp4"))
        let bad = try Medialint.run(["sync", "Media/not-media.mp4", "Media/speech.vtt"])
        #expect(bad.status == 1 && bad.stdout.contains("ERROR  sync"), "a file that cannot be read fails the check")
    }

    @Test func embeddedTrackCuesAndExtraction() throws {
        let cues = try Medialint.run(["cues", "Media/embedded-subtitles.mkv", "--track", "3"])
        #expect(cues.status == 0)
        #expect(
            cues.stdout == """
                4 cues · srt · utf-8
                1  00:00:00.521 → 00:00:02.845  Welcome to the media accessibility demo.
                2  00:00:03.521 → 00:00:06.113  Captions should appear when the words are spoken.
                3  00:00:06.521 → 00:00:09.333  Flashing lights can trigger seizures in some viewers.
                4  00:00:09.521 → 00:00:11.749  Thank you for watching this short clip.

                """)
        let converted = try Medialint.run(["convert", "Media/embedded-subtitles.mkv", "-", "--to", "vtt", "--track", "4"])
        #expect(converted.status == 0)
        #expect(converted.stdout.hasPrefix("WEBVTT\n\n00:00:00.521 --> 00:00:02.845\nWelcome to the media accessibility demo.\n\n"))
        let untracked = try Medialint.run(["cues", "Media/embedded-subtitles.mkv"])
        #expect(untracked.status == 2)
        #expect(
            untracked.stderr
                == "medialint: error: Media/embedded-subtitles.mkv is a media file: give --track with one of its text subtitle tracks (2: eng, subrip, English (SDH), 3: eng, ass, Styled, 4: eng, webvtt, WebVTT)\n"
        )
        let notText = try Medialint.run(["cues", "Media/embedded-subtitles.mkv", "--track", "0"])
        #expect(notText.status == 2)
        #expect(notText.stderr.contains("stream #0 is video without CEA-608 captions in its first second"), "\(notText.stderr)")
    }
}
