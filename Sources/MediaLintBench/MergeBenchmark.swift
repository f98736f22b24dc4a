import Foundation

extension Benchmarks {
    // MARK: - Issue 41: one report for a whole catalogue

    /// The scale benchmark's libraries (5,500 and 11,000 files) checked in 16 shards, a store each (made once), then
    /// `report --merge` of the 16 stores to HTML, JSON, SARIF and JUnit: time linear in the files (×2 files ≤ ×2.3),
    /// memory flat (≤ ×1.1: the reports that need every result first read the stores twice); and the merged HTML
    /// dashboard's size and load time in headless Chromium (under 2 s).
    static func merge() throws -> BenchmarkReport {
        let medialint = URL(fileURLWithPath: selfPath).deletingLastPathComponent().appendingPathComponent("medialint").path
        let sizes = [(name: "half", captions: 5_000, clips: 250), (name: "full", captions: 10_000, clips: 500)]
        let shards = 16
        var report = BenchmarkReport(title: "report --merge of 16 shards' stores, 5,500 and 11,000 files — issue 41")
        var measured: [String: [(seconds: Double, memory: Double)]] = [:]
        var dashboard: (bytes: Int, path: String)?
        for size in sizes {
            let root = try scaleLibrary("scale-\(size.name)", captions: size.captions, clips: size.clips)
            let folder = mediaDirectory.appendingPathComponent("merge-\(size.name)")
            let done = folder.appendingPathComponent(".complete")
            if !FileManager.default.fileExists(atPath: done.path) {
                try? FileManager.default.removeItem(at: folder)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                print("checking \(size.name) in \(shards) shards …")
                for shard in 1...shards {
                    _ = try Measure.run(
                        medialint, ["check", root, "--shard", "\(shard)/\(shards)", "--db", folder.appendingPathComponent("shard-\(shard).sqlite").path, "-q"],
                        allowedStatuses: [0, 1])
                }
                _ = FileManager.default.createFile(atPath: done.path, contents: Data())
            }
            let stores = (1...shards).map { folder.appendingPathComponent("shard-\($0).sqlite").path }
            var line = "\(size.name) (\(size.captions + 2 * size.clips) files, \(shards) stores):"
            for kind in ["html", "json", "sarif", "junit"] {
                let file = folder.appendingPathComponent("merged.\(kind)").path
                var best = (seconds: Double.infinity, memory: Double.infinity)
                for _ in 0..<3 {
                    let run = try Measure.run(medialint, ["report", "--merge"] + stores + ["--format", kind, "-o", file, "-q"], allowedStatuses: [0, 1])
                    best = (min(best.seconds, run.seconds), min(best.memory, run.peakMemoryMiB))
                }
                let bytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
                measured[kind, default: []].append(best)
                if kind == "html" { dashboard = (bytes, file) }
                line += " \(kind) \(format(best.seconds)) s, peak \(mib(best.memory)), \(format(Double(bytes) / 1e6)) MB;"
            }
            report.lines.append(String(line.dropLast()))
        }
        for (kind, runs) in measured.sorted(by: { $0.key < $1.key }) {
            let (time, memory) = (runs[1].seconds / runs[0].seconds, runs[1].memory / runs[0].memory)
            report.check("\(kind): merge time ×\(format(time)) for twice the files ≤ 2.3 (linear)", time <= 2.3)
            report.check("\(kind): merge peak memory ×\(format(memory)) for twice the files ≤ 1.1 (flat)", memory <= 1.1)
        }
        if let dashboard, let loaded = try dashboardLoadTime(dashboard.path) {
            report.check("the 11,000-file dashboard (\(format(Double(dashboard.bytes) / 1e6)) MB) loads in \(format(loaded * 1000)) ms ≤ 2000 ms", loaded <= 2)
        } else {
            report.lines.append("dashboard load time not measured: Chromium is not installed")
        }
        return report
    }

    /// Seconds from navigation to the load event of the page at `path` in headless Chromium (best of 3; a copy with a
    /// timing script added); nil without Chromium.
    static func dashboardLoadTime(_ path: String) throws -> Double? {
        guard let browser = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first(where: FileManager.default.isExecutableFile)
        else { return nil }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let timed = folder.appendingPathComponent("dashboard-timed.html")
        let page = try String(contentsOfFile: path, encoding: .utf8)
        try page.replacingOccurrences(
            of: "</body>",
            with:
                "<script>addEventListener('load', () => setTimeout(() => console.log('loaded in ' + Math.round(performance.now()) + ' ms'), 0))</script></body>"
        ).write(to: timed, atomically: true, encoding: .utf8)
        var best = Double.infinity
        for attempt in 0..<3 {
            let log = folder.appendingPathComponent("chromium-\(attempt).log")
            _ = try Measure.runCapturing(
                "/bin/sh",
                [
                    "-c",
                    "timeout 120 '\(browser)' --headless --disable-gpu --no-sandbox --no-first-run --user-data-dir='\(folder.path)/profile-\(attempt)' --enable-logging=stderr --v=0 --window-size=1280,900 --dump-dom '\(timed.absoluteString)' > /dev/null 2> '\(log.path)'",
                ], allowedStatuses: [0, 124])
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let match = text.firstMatch(of: /loaded in (\d+) ms/), let milliseconds = Double(match.1) { best = min(best, milliseconds / 1000) }
        }
        return best
    }
}
