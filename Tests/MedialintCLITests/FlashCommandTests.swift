import Foundation
import TestSupport
import TestTraits
import Testing

/// `medialint flash`: the report contract, exit statuses, per-frame output, settings files.
@Suite struct FlashCommandTests {
    @Test func textReport() throws {
        let result = try Medialint.run(["flash", "Media/flashing.mp4", "Media/no-audio.mp4"])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                Media/flashing.mp4  FAIL  flash
                  ✗ 2.000–4.000 s  general flashing: up to 5 flashes a second over 100% of the frame (100% of the worst 10° field) (WCAG 2.3.1, KWCAG 3.3)  [flash.general]
                  180 frames · 30 fps (shows at most 15 flashes/s) · most flashes in a second: 5 · profile wcag

                Media/no-audio.mp4  PASS  flash
                  100 frames · 25 fps (shows at most 12.5 flashes/s) · most flashes in a second: 0 · profile wcag

                """)
    }

    @Test func jsonFollowsTheContract() throws {
        let result = try Medialint.run(["flash", "Media/flashing.mp4", "--format", "json"])
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["tool"] as? String == "medialint")
        let first = try #require((json["results"] as? [[String: Any]])?.first)
        #expect(first["file"] as? String == "Media/flashing.mp4")
        #expect(first["check"] as? String == "flash")
        #expect(first["verdict"] as? String == "fail")
        let finding = try #require((first["findings"] as? [[String: Any]])?.first)
        #expect(finding["rule"] as? String == "flash.general")
        #expect(finding["severity"] as? String == "error")
        #expect(finding["start"] as? Double == 2 && finding["end"] as? Double == 4)
        #expect(finding["guidelines"] as? [String] == ["WCAG 2.3.1", "KWCAG 3.3"])
        let metrics = try #require(first["metrics"] as? [String: Any])
        #expect(metrics["framesAnalysed"] as? Int == 180)
        #expect(metrics["fps"] as? Double == 30)
        #expect(metrics["maxFlashesPerSecond"] as? Double == 5)
        #expect(metrics["standard"] as? String == "wcag")
    }

    @Test func unreadableInputIsAnErrorResultThatFails() throws {
        let result = try Medialint.run(["flash", "Media/flashing.mp4", "Media/corrupt-header.mp4", "--format", "jsonl"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("medialint: error: Media/corrupt-header.mp4: truncated or corrupt QuickTime / MOV data"))
        let lines = result.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.map { $0?["verdict"] as? String } == ["fail", "error", nil])
        let summary = try #require(lines.last??["summary"] as? [String: Any])
        #expect(summary["results"] as? Int == 2 && summary["fail"] as? Int == 1 && summary["error"] as? Int == 1 && summary["exitStatus"] as? Int == 1)
        #expect(lines.last??["tool"] as? String == "medialint" && lines.last??["version"] != nil)
        let audioOnly = try Medialint.run(["flash", "Media/audio-only.ogg"])
        #expect(audioOnly.status == 1)
        #expect(audioOnly.stdout.contains("the file has no video stream"))
    }

    @Test func perFrameCSVAndJSON() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("frames.csv").path, json = directory.appendingPathComponent("frames.json").path
        let result = try Medialint.run(["flash", "Media/flashing.mp4", "--frames-csv", csv, "--frames-json", json])
        #expect(result.status == 1)
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 181)
        #expect(rows[0] == "time,mean_luminance,flashing_area_frame,flashing_area_field,transitions_last_second,red_transitions_last_second")
        #expect(rows[61].hasPrefix("2.000000,1.00000,1.0000,1.0000,1,0"))  // frame 60: the first white frame
        let frames = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [[String: Any]])
        #expect(frames.count == 180)
        #expect(frames[90]["transitionsInLastSecond"] as? Int == 10)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["frames.csv", "frames.json"])
    }

    @Test func settingsFileAndOptions() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("medialint.yml").path
        try "flash:\n  profile: kwcag\n  max-flashes: 6\n".write(toFile: config, atomically: true, encoding: .utf8)
        let relaxed = try Medialint.run(["flash", "Media/flashing.mp4", "--config", config, "--format", "json"])
        #expect(relaxed.status == 0)  // 5 flashes a second under a limit of 6
        #expect(relaxed.stdout.contains("\"standard\": \"kwcag\""))
        let overridden = try Medialint.run(["flash", "Media/flashing.mp4", "--config", config, "--max-flashes", "3"])
        #expect(overridden.status == 1)  // the option wins over the file

        try "flash:\n  profile: wcag\n  flashes: 2\n".write(toFile: config, atomically: true, encoding: .utf8)
        let unknown = try Medialint.run(["flash", "Media/flashing.mp4", "--config", config])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown setting 'flash.flashes'"))
        let badProfile = CommandLineParsing.refusal(["flash", "Media/flashing.mp4", "--profile", "nope"])
        #expect(badProfile?.status == 2)
        #expect(badProfile?.message.contains("Unknown profile 'nope'") == true)
    }

    /// `pattern.regular`: on for bt1702, `--patterns`/`--no-patterns` or `flash.patterns` for any profile; the exact
    /// decode by option or setting.
    @Test(.tags(.media), .notInFastRun) func patternsAndExactDecodeOptions() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try TestMediaCache.ffmpeg(
            "stripes.mkv",
            [
                "-f", "lavfi", "-i",
                "nullsrc=s=320x240:r=30:d=2,format=yuv420p,geq=lum='if(between(X,88,231)*between(Y,40,199),if(lt(mod(X-88,24),12),235,16),128)':cb=128:cr=128",
                "-c:v", "ffv1", TestMediaCache.output,
            ])
        let rule = "[pattern.regular]"
        #expect(try !Medialint.run(["flash", clip]).stdout.contains(rule))
        let asked = try Medialint.run(["flash", clip, "--patterns"])
        #expect(asked.status == 0 && asked.stdout.contains("WARN") && asked.stdout.contains(rule))
        #expect(try Medialint.run(["flash", clip, "--profile", "bt1702"]).stdout.contains(rule))
        #expect(try !Medialint.run(["flash", clip, "--profile", "bt1702", "--no-patterns"]).stdout.contains(rule))
        let config = directory.appendingPathComponent("medialint.yml").path
        try "flash:\n  patterns: true\n  exact-decode: true\n".write(toFile: config, atomically: true, encoding: .utf8)
        let configured = try Medialint.run(["flash", clip, "--config", config])
        #expect(configured.status == 0 && configured.stdout.contains(rule))
        #expect(try Medialint.run(["flash", "Media/flashing.mp4", "--exact-decode"]).status == 1)
    }
}
