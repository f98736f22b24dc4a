import Captions
import Foundation
import TestSupport
import TestTraits
import Testing

/// `medialint accuracy`: caption text against the words spoken.
@Suite struct AccuracyCommandTests {
    /// The bundled sample: its captions pass; the third cue given the first cue's text fails, that cue alone, with where
    /// it is; captions said to be Korean are not verified.
    @Test func theSampleAndOneWrongCue() throws {
        let right = try Medialint.run(["accuracy", "Media/speech.mp4", "Media/speech.srt"])
        #expect(right.status == 0)
        #expect(right.stdout == "Media/speech.mp4  PASS  accuracy\n  0 of 4 cues with wrong text · 4 checked · model en\n", "\(right.stdout)")

        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let wrong = directory.appendingPathComponent("wrong.srt").path
        let text = try String(contentsOfFile: Medialint.media("speech.srt"), encoding: .utf8)
        try text.replacingOccurrences(of: "Flashing lights can trigger seizures in some viewers.", with: "Welcome to the media accessibility demo.")
            .write(toFile: wrong, atomically: true, encoding: .utf8)
        let words = directory.appendingPathComponent("words.vtt").path
        let failing = try Medialint.run(["accuracy", "Media/speech.mp4", wrong, "--words", words])
        #expect(failing.status == 1)
        #expect(
            failing.stdout.contains(
                "  ✗ 6.500–9.312 s  cue 3 (00:00:06.500–00:00:09.312): its words are not what is said: they are cue 1's, said in its time — “Welcome to the media accessibility demo.” (WCAG 1.2.2, KWCAG 1.2, 47 CFR 79.1(j))  [accuracy.wrong-text]\n"
            ), "\(failing.stdout)")
        // The words file: every cue, a timestamp before each word found inside its cue, and it reads as WebVTT.
        let timed = try CaptionFile.read(words)
        #expect(timed.cues.count == 4 && timed.diagnostics.isEmpty)
        #expect(timed.cues[1].text.hasPrefix("Captions <00:00:04.") && timed.cues[1].text.components(separatedBy: "<00:").count == 8, "\(timed.cues[1].text)")
        #expect(timed.cues[2].text == "Welcome to the media accessibility demo.")

        let korean = try Medialint.run(["accuracy", "Media/speech.mp4", "Media/speech.srt", "--language", "ko"])
        #expect(korean.stdout.hasPrefix("Media/speech.mp4  UNVERIFIED  accuracy\n"), "\(korean.stdout)")
        #expect(korean.stdout.contains("caption text not verified: the captions are in ko, and the only acoustic model is for en"))
    }

    /// An HLS package cut across the MPEG-2 clock's wrap, with two subtitle renditions — the sample's captions, and a
    /// copy whose third cue has the first cue's text: its audio segments are heard as one presentation, and only the
    /// copy's third cue is wrong. The package's captions are its own: a caption file beside it is refused.
    @Test(.tags(.media), .notInFastRun) func anHLSPackagesRenditions() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let wrong = directory.appendingPathComponent("wrong.vtt").path
        let text = try String(contentsOfFile: Medialint.media("speech.vtt"), encoding: .utf8)
        try text.replacingOccurrences(of: "Flashing lights can trigger seizures in some viewers.", with: "Welcome to the media accessibility demo.")
            .write(toFile: wrong, atomically: true, encoding: .utf8)
        let folder = directory.appendingPathComponent("package")
        try HLSTestPackage.build(in: folder, subtitles: [("Media/speech.vtt", "en"), (wrong, "en")], timestampOffset: 95_440)
        let master = folder.appendingPathComponent("master.m3u8").path
        let run = try Medialint.run(["accuracy", master, "--format", "json"])
        #expect(run.status == 1, "\(run.stderr)")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])["results"] as? [[String: Any]]
        let verdicts = (results ?? []).map { $0["verdict"] as? String }
        #expect(verdicts == ["pass", "fail"], "\(run.stdout)")
        let findings = (results?.last?["findings"] as? [[String: Any]]) ?? []
        #expect(findings.map { $0["rule"] as? String } == ["accuracy.wrong-text"], "\(findings)")
        let start = findings.first?["start"] as? Double, end = findings.first?["end"] as? Double
        #expect(start == 6.5 && end == 9.312, "\(findings)")

        // `check --accuracy` on the package: the same two results, beside its other checks'.
        let checked = try Medialint.run(["check", master, "--accuracy", "--format", "json"])
        let all = try #require(try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any])["results"] as? [[String: Any]]
        let accuracy = (all ?? []).filter { $0["check"] as? String == "accuracy" }.map { $0["verdict"] as? String }
        #expect(accuracy == ["pass", "fail"], "\(checked.stdout)")

        let refused = try Medialint.run(["accuracy", master, "Media/speech.srt"])
        #expect(refused.status == 2 && refused.stderr.contains("give the playlist alone"), "\(refused.stderr)")
    }

    /// Captions no programme has are judged quickly, not aligned for hours: 5,000 cues on 12 s of media, and a cue of
    /// 5,000 words in 3 s.
    /// English accuracy needs espeak-ng (it pronounces the words the dictionary lacks): without it on the PATH the result
    /// is an error that says what to install, never a quieter check.
    @Test func espeakNGMissingIsAnError() throws {
        let run = try Medialint.run(["accuracy", "Media/speech.mp4", "Media/speech.srt", "--format", "compact"], environment: ["PATH": "/nonexistent"])
        #expect(run.status == 1)
        #expect(
            run.stdout.contains(
                "error: accuracy needs espeak-ng, which pronounces the words the dictionary lacks (names, new words), and it is not on the PATH: install it (Debian: apt-get install espeak-ng) [accuracy.unverifiable]"
            ), "\(run.stdout)")
    }

    @Test func captionsNoProgrammeHasAreNotAligned() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let crowded = directory.appendingPathComponent("crowded.srt").path
        try (0..<5000).map { n in
            "\(n + 1)\n\(CaptionTime(seconds: Double(n) * 0.002).srtString) --> \(CaptionTime(seconds: Double(n) * 0.002 + 1).srtString)\nWelcome to the demo.\n"
        }.joined(separator: "\n").write(toFile: crowded, atomically: true, encoding: .utf8)
        let many = try Medialint.run(["accuracy", "Media/speech.mp4", crowded], timeout: 60)
        #expect(many.stdout.contains("caption text not verified: 5000 cues for 12 s of media: more than four a second"), "\(many.stdout)")
        let wordy = directory.appendingPathComponent("wordy.srt").path
        let text = try String(contentsOfFile: Medialint.media("speech.srt"), encoding: .utf8)
        try text.replacingOccurrences(of: "Thank you for watching this short clip.", with: Array(repeating: "the word", count: 2500).joined(separator: " "))
            .write(toFile: wordy, atomically: true, encoding: .utf8)
        let long = try Medialint.run(["accuracy", "Media/speech.mp4", wordy], timeout: 60)
        #expect(
            long.status == 1
                && long.stdout.contains(
                    "cue 4 (00:00:09.500–00:00:11.728): its words are not what is said: 5000 words in 2 s: more than can be said in its time"),
            "\(long.stdout)")
    }

    /// `check` runs the accuracy check when asked — `--accuracy`, or `accuracy: true` (or `accuracy.enabled`) in the
    /// settings — after each caption source's sync, and not otherwise; an unknown accuracy setting is refused.
    @Test func checkRunsItWhenAsked() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(atPath: Medialint.media("speech.mp4"), toPath: directory.appendingPathComponent("talk.mp4").path)
        let text = try String(contentsOfFile: Medialint.media("speech.srt"), encoding: .utf8)
        try text.replacingOccurrences(of: "Thank you for watching this short clip.", with: "Captions should appear when the words are spoken.")
            .write(to: directory.appendingPathComponent("talk.srt"), atomically: true, encoding: .utf8)
        func checks(_ arguments: [String]) throws -> [String] {
            let run = try Medialint.run(["check", ".", "--no-store", "--format", "json"] + arguments, in: directory)
            let results = (try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]] ?? []
            return results.map { "\($0["check"] ?? "") \($0["verdict"] ?? "")" }
        }
        #expect(try checks([]) == ["captions pass", "sync pass", "flash pass", "lint warn"])
        // (An English sentence without function words is still English: "Meanwhile, a small bakery found something
        // unexpected." — see aProgrammeInSeveralLanguages for the others.)
        let asked = ["captions pass", "sync pass", "accuracy fail", "flash pass", "lint warn"]
        #expect(try checks(["--accuracy"]) == asked)
        try "accuracy: true\n".write(to: directory.appendingPathComponent(".medialint.yml"), atomically: true, encoding: .utf8)
        #expect(try checks([]) == asked)
        try "accuracy:\n  enabled: false\n".write(to: directory.appendingPathComponent(".medialint.yml"), atomically: true, encoding: .utf8)
        #expect(try checks([]) == ["captions pass", "sync pass", "flash pass", "lint warn"])
        // (An English sentence without function words is still English: "Meanwhile, a small bakery found something
        // unexpected." — see aProgrammeInSeveralLanguages for the others.)
        #expect(try checks(["--set", "accuracy.enabled=true"]) == asked)
        try "accuracy:\n  colour: red\n".write(to: directory.appendingPathComponent(".medialint.yml"), atomically: true, encoding: .utf8)
        let refused = try Medialint.run(["check", ".", "--no-store"], in: directory)
        #expect(refused.status == 2 && refused.stderr.contains("unknown setting 'accuracy.colour' (known: enabled, language)"), "\(refused.stderr)")
    }

    /// Names the pronunciation dictionary lacks (Zorbulon, Quibblewick) are pronounced by espeak-ng's letter-to-sound
    /// rules: festival's speech of them is matched, not left unverified; the same cues with another sentence's words
    /// still cannot be fitted.
    @Test(.tags(.media), .notInFastRun) func namesTheDictionaryLacks() throws {
        let texts = [
            "Doctor Zorbulon arrived at the station this morning.", "Nobody expected the Quibblewick family to win.",
            "Zorbulon and Quibblewick shook hands on the bridge.", "The harbour was quiet after the storm.",
            "Later tonight the theatre company will close for repairs.",
        ]
        let sentences = try FestivalWords.speak(texts, voice: FestivalWords.voices[1])
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The sentences one after another with a second between them, as 16 kHz PCM, then AAC in an .m4a.
        var pcm: [Int16] = [], cues: [(Double, Double, String)] = []
        for (text, sentence) in zip(texts, sentences) {
            let start = Double(pcm.count) / 16000
            pcm += sentence.samples.map { Int16(max(-32767, min(32767, $0 * 32767))) }
            cues.append((start + (sentence.words.first?.start ?? 0), start + (sentence.words.last?.end ?? 0), text))
            pcm += [Int16](repeating: 0, count: 16000)
        }
        let raw = directory.appendingPathComponent("names.raw"), media = directory.appendingPathComponent("names.m4a").path
        try pcm.withUnsafeBytes { Data($0) }.write(to: raw)
        try ExternalTool.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "s16le", "-ar", "16000", "-ac", "1", "-i", raw.path, "-c:a", "aac", media])
        func srt(_ cues: [(Double, Double, String)]) -> String {
            cues.enumerated().map { n, cue in
                "\(n + 1)\n\(CaptionTime(seconds: cue.0).srtString) --> \(CaptionTime(seconds: cue.1).srtString)\n\(cue.2)\n"
            }.joined(separator: "\n")
        }
        let captions = directory.appendingPathComponent("names.srt").path
        try srt(cues).write(toFile: captions, atomically: true, encoding: .utf8)
        let run = try Medialint.run(["accuracy", media, captions])
        #expect(run.status == 0 && run.stdout.contains("  0 of 5 cues with wrong text · 5 checked · "), "\(run.stdout)")

        var swapped = cues
        swapped[0].2 = texts[3]
        try srt(swapped).write(toFile: captions, atomically: true, encoding: .utf8)
        let wrong = try Medialint.run(["accuracy", media, captions])
        #expect(wrong.status == 1 && wrong.stdout.contains("cue 1 ("), "\(wrong.stdout)")
    }

    /// The travel programme, captions in sync: its Korean, Spanish, Catalan, Italian and German cues are not read as
    /// English and not verified (one note), its song is counted with the sounds, and its English cues are checked and
    /// right — nothing is called wrong.
    @Test(.tags(.media), .notInFastRun) func aProgrammeInSeveralLanguages() throws {
        let programme = try Programme.forTests(.travel)
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try programme.writeCaptions(.inSync, named: "travel.srt", in: directory)
        let run = try Medialint.run(["accuracy", programme.media, input])
        let english = programme.lines.filter { $0.speaker == "ANNA" }.count
        let foreign = programme.lines.filter { !["ANNA", "SINGER"].contains($0.speaker) }.count
        #expect(run.status == 0, "\(run.stdout)")
        // The note spans those cues: from the first one's start to the last one's end.
        let others = programme.lines.filter { !["ANNA", "SINGER"].contains($0.speaker) }
        let span = String(format: "%.3f–%.3f s", others.first!.start, others.last!.end)
        #expect(run.stdout.contains("· \(span)  \(foreign) cues do not read as English, from cue 1: not verified"), "\(run.stdout)")
        #expect(run.stdout.contains("  0 of \(programme.lines.count) cues with wrong text · \(english) checked · "), "\(run.stdout)")
    }

    /// A programme whose captions run 1.5 s late, two of them with wrong text (another programme's sentence, the next
    /// cue's) and one 2 s later still: the timing is put right first, those two cues — no other — are wrong text, and
    /// the third is found 2 s after its words, in the JSON report with every cue's words.
    @Test(.tags(.media), .notInFastRun) func aLateProgrammeWithTwoWrongCues() throws {
        let programme = try Programme.forTests(.magazine)
        let other = try Programme.forTests(.lecture)
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var document = try CaptionFile.read(try programme.writeCaptions(.shifted(1.5), named: "late.srt", in: directory))
        let (first, second) = (5, 12)
        document.cues[first - 1].text = other.lines[7].text
        document.cues[second - 1].text = document.cues[second].text
        let late = 20
        document.cues[late - 1].start = CaptionTime(milliseconds: document.cues[late - 1].start.milliseconds + 2000)
        document.cues[late - 1].end = CaptionTime(milliseconds: document.cues[late - 1].end.milliseconds + 2000)
        let input = directory.appendingPathComponent("edited.srt").path
        try Data(SRTWriter().write(document).bytes).write(to: URL(fileURLWithPath: input))

        let run = try Medialint.run(["accuracy", programme.media, input, "--format", "json"])
        #expect(run.status == 1, "\(run.stderr)")
        let result = try #require((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]]).first
        let findings = result?["findings"] as? [[String: Any]] ?? []
        let wrong = findings.filter { $0["rule"] as? String == "accuracy.wrong-text" }.compactMap { ($0["data"] as? [String: Any])?["cue"] as? Int }
        #expect(wrong == [first, second], "\(findings)")
        let offTime = findings.filter { $0["rule"] as? String == "sync.word-offset" }
        #expect(offTime.compactMap { ($0["data"] as? [String: Any])?["cue"] as? Int } == [late], "\(findings)")
        let offset = (offTime.first?["data"] as? [String: Any])?["offset"] as? Double ?? 0
        #expect(abs(offset + 2) <= 0.15, "\(offTime)")
        #expect((offTime.first?["message"] as? String)?.contains("s before the caption appears") == true, "\(offTime)")
        let metrics = try #require(result?["metrics"] as? [String: Any])
        #expect(abs((metrics["timingShift"] as? Double ?? 0) + 1.5) <= 0.1, "\(metrics["timingShift"] ?? "")")
        // Every other spoken line matched, its first word found where it was said: within 50 ms for half of them, and
        // within half a second for all (a short first word over the music bed can take in some of it).
        let cues = metrics["cueWords"] as? [[String: Any]] ?? []
        var errors: [Double] = []
        for cue in cues where cue["status"] as? String == "matched" {
            guard let start = (cue["words"] as? [[String: Any]])?.first?["start"] as? Double else { continue }
            errors.append(programme.lines.map { abs($0.start - start) }.min() ?? .infinity)
        }
        errors.sort()
        // Each word found has its confidence (the share of the programme's words fitting worse); wrong text has no words.
        let words = cues.filter { $0["status"] as? String == "matched" }.flatMap { $0["words"] as? [[String: Any]] ?? [] }
        let confidences = words.compactMap { $0["confidence"] as? Double }.sorted()
        #expect(confidences.count == words.count && confidences.first! >= 0 && confidences.last! <= 1, "\(confidences.count) of \(words.count)")
        #expect(abs(confidences[confidences.count / 2] - 0.5) < 0.05)
        #expect(cues.filter { [first, second].contains($0["cue"] as? Int ?? 0) }.allSatisfy { ($0["words"] as? [Any])?.isEmpty == true })
        #expect(errors.count == programme.lines.count - 3, "\(errors.count) of \(programme.lines.count) lines matched")
        #expect(errors[errors.count / 2] <= 0.05 && errors.last! <= 0.5, "\(errors)")
    }
}
