import Foundation

extension Benchmarks {
    // MARK: - Issue 14: hostile libraries

    /// Pages and caption files shaped to hurt: one element with 20,000 / 80,000 / 160,000 attributes (linear: the
    /// time an attribute at 160,000 at most 3× that at 20,000), a 14 MB page (≤ 5 s), `autoplay --format json` on
    /// 40,000 elements (≤ 2× the text time), and 32 MB of 8 million stray blocks through convert, transcript and shift
    /// (peak memory < 3× the file, over the ~41 MiB every run starts with).
    static func hostile() throws -> BenchmarkReport {
        var report = BenchmarkReport(title: "Hostile pages and caption files — issue 14")
        report.lines.append(
            "before: 20k attributes 0.42 s, 80k 8.9 s, 160k 25–31 s; a 10 MB page > 120 s; autoplay json on 40k elements 13 s "
                + "(text 0.7 s); 3M stray blocks 1.3–1.5 GB")
        var perAttribute: [Int: Double] = [:]
        var attributeTimes: [String] = []
        for count in [20_000, 80_000, 160_000] {
            let page = try generatedBytes("attributes-\(count).html", "one <video> with \(count) attributes") {
                var html = "<video"
                for index in 0..<count { html += " data-a\(index)=\"x\"" }
                return Array((html + " autoplay muted src=\"a.mp4\"></video>\n").utf8)
            }
            let run = try best(of: 3, medialintPath, ["autoplay", page])
            perAttribute[count] = run.seconds / Double(count)
            attributeTimes.append("\(count / 1000)k \(format(run.seconds)) s")
        }
        report.lines.append("one element's attributes: " + attributeTimes.joined(separator: ", "))
        let growth = perAttribute[160_000]! / perAttribute[20_000]!
        report.check("time an attribute at 160k \(format(growth))× that at 20k ≤ 3× (linear)", growth <= 3)

        let bigPage = try generatedBytes("page-14mb.html", "100,000 blocks of markup with an autoplaying <video> each") {
            var html = ""
            for index in 0..<100_000 {
                html +=
                    "<div class=\"c\(index)\" id=\"d\(index)\" data-x=\"\(index)\"><p>Some text &amp; more \(index)</p>"
                    + "<video autoplay muted src=\"v\(index % 50).mp4\" controls></video></div>\n"
            }
            return Array(html.utf8)
        }
        let page = try best(of: 3, medialintPath, ["autoplay", bigPage], allowedStatuses: [0, 1, 2])
        report.lines.append("a \(format1(fileSize(bigPage) / 1_000_000)) MB page: \(format(page.seconds)) s, peak \(mib(page.peakMemoryMiB))")
        report.check("a 14 MB page in \(format(page.seconds)) s ≤ 5 s", page.seconds <= 5)

        let elements = try generatedBytes("elements-40k.html", "40,000 autoplaying elements") {
            Array(String(repeating: "<video autoplay muted src=\"a.mp4\"></video>\n", count: 40_000).utf8)
        }
        let text = try best(of: 3, medialintPath, ["autoplay", elements])
        let json = try best(of: 3, medialintPath, ["autoplay", elements, "--format", "json"])
        report.lines.append("40,000 elements: text \(format(text.seconds)) s, json \(format(json.seconds)) s")
        report.check("autoplay --format json \(format(json.seconds / text.seconds))× the text time ≤ 2×", json.seconds <= 2 * text.seconds)

        let stray = try generatedBytes("stray-8m.srt", "8 million stray blocks before one cue") {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(32_000_064)
            for index in 0..<8_000_000 { bytes += Array("x\(index % 10)\n\n".utf8) }
            return bytes + Array("1\n00:00:01,000 --> 00:00:02,000\nHello\n\n".utf8)
        }
        let size = fileSize(stray) / 1_048_576
        let out = mediaDirectory.appendingPathComponent("stray-out.vtt").path
        var strayLines: [String] = []
        for (name, arguments) in [("convert", ["convert", stray, out]), ("transcript", ["transcript", stray]), ("shift", ["shift", stray, "--by", "1"])] {
            let run = try best(of: 2, medialintPath, arguments, removing: [out])
            strayLines.append("\(name) \(format(run.seconds)) s \(mib(run.peakMemoryMiB))")
            report.check("\(name) peak \(mib(run.peakMemoryMiB)) < 3 × file + 41 MiB (\(mib(3 * size + 41)))", run.peakMemoryMiB < 3 * size + 41)
        }
        try? FileManager.default.removeItem(atPath: out)
        report.lines.append("\(format1(size)) MiB of stray blocks: " + strayLines.joined(separator: ", "))
        try storeCost(&report)
        return report
    }
}

extension Benchmarks {
    /// Issue 36: what keeping results costs on a library of 5,000 small caption files — `check` with a store beside
    /// `check --no-store`, in the same run (a commit per file: write-ahead logging, no fsync per commit).
    static func storeCost(_ report: inout BenchmarkReport) throws {
        let folder = mediaDirectory.appendingPathComponent("small-captions-5000")
        if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("c4999.srt").path) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for index in 0..<5000 {
                try "1\n00:00:01,000 --> 00:00:03,000\nLine \(index).\n".write(
                    to: folder.appendingPathComponent("c\(index).srt"), atomically: false, encoding: .utf8)
            }
        }
        let store = mediaDirectory.appendingPathComponent("small-captions-5000.sqlite").path
        var stored: ProcessRun?, unstored: ProcessRun?
        for _ in 0..<3 {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
            let with = try Measure.run(medialintPath, ["check", folder.path, "--db", store])
            let without = try Measure.run(medialintPath, ["check", folder.path, "--no-store"])
            if stored.map({ with.seconds < $0.seconds }) ?? true { stored = with }
            if unstored.map({ without.seconds < $0.seconds }) ?? true { unstored = without }
        }
        let ratio = stored!.seconds / unstored!.seconds
        report.lines.append(
            "5,000 small caption files: check with a store \(format(stored!.seconds)) s, --no-store \(format(unstored!.seconds)) s (before: 91 s against 1.1 s)"
        )
        report.check("storing results \(format(ratio))× --no-store ≤ 3×", ratio <= 3)
    }
}
