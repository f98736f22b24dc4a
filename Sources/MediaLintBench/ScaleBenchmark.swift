import Foundation

extension Benchmarks {
    // MARK: - Issue 16: a library at scale

    /// A generated library of `captions` caption files (SRT and WebVTT, 100 to a folder, a few findings each) and
    /// `clips` short clips with an English SRT sidecar each (50 to a folder), under `name` (made on first use).
    static func scaleLibrary(_ name: String, captions: Int, clips: Int) throws -> String {
        let root = mediaDirectory.appendingPathComponent(name)
        let done = root.appendingPathComponent(".complete")
        if FileManager.default.fileExists(atPath: done.path) { return root.path }
        try? FileManager.default.removeItem(at: root)
        print("generating \(name): \(captions) caption files and \(clips) clips with sidecars …")
        let clip = try generated(
            "scale-clip.mp4", "2 s of 160x90 video at 10 fps with a tone (the scale library's clips)",
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=10:duration=2", "-f", "lavfi", "-i", "sine=frequency=300:duration=2",
                "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "1", "-shortest",
            ])
        for index in 0..<captions {
            let folder = root.appendingPathComponent(String(format: "captions/programme-%03d", index / 100))
            if index % 100 == 0 { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
            let vtt = index % 2 == 1
            let text = scaleCaptionText(seed: index, webVTT: vtt)
            try Data(text.utf8).write(to: folder.appendingPathComponent("episode-\(index).\(vtt ? "vtt" : "srt")"))
        }
        for index in 0..<clips {
            let folder = root.appendingPathComponent(String(format: "clips/series-%02d", index / 50))
            if index % 50 == 0 { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
            try FileManager.default.copyItem(atPath: clip, toPath: folder.appendingPathComponent("clip-\(index).mp4").path)
            try Data(scaleCaptionText(seed: index, webVTT: false, cues: 2).utf8).write(to: folder.appendingPathComponent("clip-\(index).en.srt"))
        }
        _ = FileManager.default.createFile(atPath: done.path, contents: Data())
        return root.path
    }

    /// A caption file of `cues` cues; every seventh cue is too long a line, every eleventh too short on screen.
    static func scaleCaptionText(seed: Int, webVTT: Bool, cues: Int = 24) -> String {
        var text = webVTT ? "WEBVTT\n\n" : ""
        for cue in 0..<cues {
            let start = cue * 3000 + (seed % 7) * 10
            let length = cue % 11 == 5 ? 400 : 2200
            let line =
                cue % 7 == 3
                ? "Line \(cue) of episode \(seed) runs on for far longer than any caption line should."
                : "Line \(cue) of episode \(seed)."
            if !webVTT { text += "\(cue + 1)\n" }
            text += "\(scaleTime(start, webVTT)) --> \(scaleTime(start + length, webVTT))\n\(line)\n\n"
        }
        return text
    }

    static func scaleTime(_ milliseconds: Int, _ webVTT: Bool) -> String {
        String(
            format: "%02d:%02d:%02d%@%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60, milliseconds / 1000 % 60, webVTT ? "." : ",",
            milliseconds % 1000)
    }

    /// `medialint check` on 10,000 caption files and 500 clips against half of that: time linear, memory flat, a
    /// re-run with nothing changed ≤ 5% of the first, every report format rendering in linear time.
    static func scale() throws -> BenchmarkReport {
        let medialint = URL(fileURLWithPath: selfPath).deletingLastPathComponent().appendingPathComponent("medialint").path
        let sizes = [(name: "half", captions: 5_000, clips: 250), (name: "full", captions: 10_000, clips: 500)]
        let formats = ["text", "json", "jsonl", "sarif", "junit", "html"]
        var report = BenchmarkReport(title: "medialint check on a library of 10,000 caption files and 500 clips — issue 16")
        var first: [Double] = [], peak: [Double] = [], again: [Double] = [], rerunToSARIF: [Double] = []
        var rendering: [[Double]] = []
        for size in sizes {
            let root = try scaleLibrary("scale-\(size.name)", captions: size.captions, clips: size.clips)
            let database = mediaDirectory.appendingPathComponent("scale-\(size.name).sqlite").path
            var best = (seconds: Double.infinity, memory: Double.infinity)
            for _ in 0..<2 {
                for suffix in ["", "-wal", "-shm", "-journal"] { unlink(database + suffix) }
                let run = try Measure.run(medialint, ["check", root, "--db", database, "-q"], allowedStatuses: [0, 1])
                best = (min(best.seconds, run.seconds), min(best.memory, run.peakMemoryMiB))
            }
            var rerun = Double.infinity
            for _ in 0..<3 {
                rerun = min(rerun, try Measure.run(medialint, ["check", root, "--db", database, "-q"], allowedStatuses: [0, 1]).seconds)
            }
            // A re-run to SARIF: the report needs every result before it starts; they wait in a temporary file.
            var sarif = (seconds: Double.infinity, memory: Double.infinity)
            for _ in 0..<2 {
                let output = mediaDirectory.appendingPathComponent("scale-\(size.name).sarif").path
                let run = try Measure.run(medialint, ["check", root, "--db", database, "--format", "sarif", "-o", output, "-q"], allowedStatuses: [0, 1])
                sarif = (min(sarif.seconds, run.seconds), min(sarif.memory, run.peakMemoryMiB))
            }
            rerunToSARIF.append(sarif.memory)
            var times: [Double] = []
            for format in formats {
                var time = Double.infinity
                for _ in 0..<3 {
                    time = min(time, try Measure.run(medialint, ["report", "--db", database, "--format", format], allowedStatuses: [0, 1]).seconds)
                }
                times.append(time)
            }
            first.append(best.seconds)
            peak.append(best.memory)
            again.append(rerun)
            rendering.append(times)
            let files = size.captions + 2 * size.clips
            report.lines.append(
                "\(size.name): \(size.captions) captions + \(size.clips) clips (\(files) files): check \(format(best.seconds)) s, peak \(mib(best.memory)); "
                    + "re-run \(format(rerun)) s; re-run to SARIF \(format(sarif.seconds)) s, peak \(mib(sarif.memory))")
            report.lines.append(
                "  report " + zip(formats, times).map { "\($0.0) \(format($0.1)) s" }.joined(separator: " · "))
        }
        report.check("check time ×\(format(first[1] / first[0])) for twice the library ≤ 2.3 (linear)", first[1] / first[0] <= 2.3)
        report.check("peak memory ×\(format(peak[1] / peak[0])) for twice the library ≤ 1.3 (flat)", peak[1] / peak[0] <= 1.3)
        report.check(
            "re-run to SARIF: peak memory ×\(format(rerunToSARIF[1] / rerunToSARIF[0])) for twice the library ≤ 1.3 (flat, as check's)",
            rerunToSARIF[1] / rerunToSARIF[0] <= 1.3)
        report.check("re-run with nothing changed \(format(again[1] / first[1] * 100))% of the first run ≤ 5%", again[1] / first[1] <= 0.05)
        for (index, format) in formats.enumerated() {
            let ratio = rendering[1][index] / rendering[0][index]
            report.check("report --format \(format) ×\(Self.format(ratio)) for twice the results ≤ 2.3 (linear)", ratio <= 2.3)
        }
        return report
    }
}
