import Foundation
import Testing

/// `medialint lint` and `medialint transcript` as a user runs them.
@Suite struct LintTranscriptCommandTests {
    static let fixtures = "Tests/CaptionQualityTests/Fixtures"

    @Test func lintText() throws {
        let result = try Medialint.run(["lint", "\(Self.fixtures)/suppressed.vtt", "Media/speech.srt"])
        #expect(result.status == 0, "warnings only")
        #expect(
            result.stdout == """
                \(Self.fixtures)/suppressed.vtt  WARN  lint
                  ! 5.000–8.000 s  cue 2: line 1 has 58 characters (at most 42): break it differently (Netflix TTSG)  [lint.line-length]
                  ! 10.000–10.200 s  cue 4: on screen 0.2 s, shorter than 0.833 s: too short to read (Netflix TTSG)  [lint.min-duration]
                  ! 10.000–10.200 s  cue 4: 30 characters a second (at most 20): shorten the text or give it more time (Netflix TTSG)  [lint.reading-speed]
                  4 cues · profile netflix · 0 errors, 3 warnings

                Media/speech.srt  WARN  lint
                  ! 3.500–6.092 s  cue 2: line 1 has 49 characters (at most 42): break it differently (Netflix TTSG)  [lint.line-length]
                  ! 6.500–9.312 s  cue 3: line 1 has 53 characters (at most 42): break it differently (Netflix TTSG)  [lint.line-length]
                  4 cues · profile netflix · 0 errors, 2 warnings

                """)
    }

    @Test func lintErrorsFailAndFormatsForCI() throws {
        let file = "\(Self.fixtures)/every-rule.vtt"
        let text = try Medialint.run(["lint", file])
        #expect(text.status == 1)
        let sarif = try Medialint.run(["lint", file, "--format", "sarif"])
        #expect(sarif.status == 1)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 10)
        let rules = ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]]
        #expect(rules?.first?["id"] as? String == "lint.min-duration")
        // Described from the rule catalogue (`medialint rules`): title, description, the style guide behind it.
        #expect((rules?.first?["shortDescription"] as? [String: Any])?["text"] as? String == "cue too short to read")
        #expect(rules?.first?["helpUri"] as? String == "https://partnerhelp.netflixstudios.com/hc/en-us/articles/217350977-English-USA-Timed-Text-Style-Guide")
        #expect((rules?.first?["defaultConfiguration"] as? [String: Any])?["level"] as? String == "warning")
        let junit = try Medialint.run(["lint", file, "--format", "junit"])
        #expect(
            junit.status == 1
                && junit.stdout.hasPrefix(
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"medialint\" tests=\"1\" failures=\"1\" errors=\"0\" time=\"")
        )
    }

    @Test func settingsFromConfigOptionsAndMedia() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("lint.yml").path
        try "lint:\n  profile: bbc\n  max-chars-per-line: 60\n  disable: [lint.overlap]\n".write(toFile: config, atomically: true, encoding: .utf8)
        let file = "\(Self.fixtures)/every-rule.vtt"
        let configured = try Medialint.run(["lint", file, "--config", config, "--format", "json"])
        let rules = try Self.rules(configured.stdout)
        #expect(!rules.contains("lint.line-length") && !rules.contains("lint.overlap") && rules.contains("lint.max-lines"))
        #expect(rules.filter { $0 == "lint.reading-speed" }.count == 2, "words a minute (bbc), not characters a second")
        // An option beats the config file.
        let stricter = try Self.rules(try Medialint.run(["lint", file, "--config", config, "--max-chars-per-line", "20", "--format", "json"]).stdout)
        #expect(stricter.contains("lint.line-length"))
        // The media gives the frame rate (30 fps: 40 ms is 1.2 frames) and the end (6 s).
        let withMedia = try Medialint.run(["lint", file, "--media", "Media/flashing.mp4"])
        #expect(withMedia.stdout.contains("only 1.2 frames (40 ms) after cue 2"))
        #expect(withMedia.stdout.contains("cue 4: the cue starts at 00:00:07.000, after the media ends (00:00:06.000) (WCAG 1.2.2)  [lint.after-end]"))
        let bad = CommandLineParsing.refusal(["lint", file, "--disable", "lint.nope"])
        #expect(bad?.status == 2 && bad?.message.contains("Unknown rule 'lint.nope'") == true)
        let unreadable = try Medialint.run(["lint", "Media/missing.vtt", file, "--format", "jsonl"])
        #expect(unreadable.status == 2, "a named file that does not exist")
        #expect(unreadable.stdout.split(separator: "\n").count == 3, "the readable file is still linted; then the summary")
    }

    static func rules(_ json: String) throws -> [String] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let findings = ((report["results"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]]) ?? []
        return findings.compactMap { $0["rule"] as? String }
    }

    @Test func transcriptFormats() throws {
        let text = try Medialint.run(["transcript", "Media/speech.vtt"])
        #expect(text.status == 0)
        #expect(
            text.stdout
                == "Welcome to the media accessibility demo. Captions should appear when the words are spoken. Flashing lights can trigger seizures in some viewers. Thank you for watching this short clip.\n"
        )
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let markdown = directory.appendingPathComponent("talk.md").path, html = directory.appendingPathComponent("talk.html").path
        #expect(try Medialint.run(["transcript", "Media/speech.srt", "-o", markdown, "--timestamps", "--pause", "0.4", "--title", "Demo"]).status == 0)
        #expect(
            try String(contentsOfFile: markdown, encoding: .utf8) == """
                # Demo

                `00:00` Welcome to the media accessibility demo.

                `00:03` Captions should appear when the words are spoken.

                `00:06` Flashing lights can trigger seizures in some viewers. Thank you for watching this short clip.

                """)
        #expect(
            try Medialint.run(["transcript", "Media/embedded-subtitles.mkv", "--track", "4", "-o", html, "--media-url", "speech.mp4", "--timestamps"]).status
                == 0)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(page.contains("<p><a class=\"time\" href=\"speech.mp4#t=0.521\">00:00</a> Welcome to the media accessibility demo."))
        let json = try Medialint.run(["transcript", "Media/speech.vtt", "--format", "json"])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((parsed["paragraphs"] as? [[String: Any]])?.count == 1)
        #expect(try Medialint.run(["transcript", "Media/missing.vtt"]).status == 2)
    }
}
