import Captions
import Foundation

extension Benchmarks {
    // MARK: - Issue 19: broadcast caption formats

    /// Reading a 1-hour SCC file beside `ffmpeg -i x.scc` (its SCC demuxer and 608 decoder, writing SRT to
    /// /dev/null), and a 10 MB TTML file (FFmpeg 5.1 cannot read TTML: beside it, FFmpeg reading the same cues as SRT
    /// and writing them as TTML). Targets: SCC read no slower than FFmpeg; TTML ≥ 10 MB/s on one core (Foundation's XML
    /// parser alone reads ~40 MB/s here), memory above an empty document's under 3 × the file.
    static func broadcastFormats() throws -> BenchmarkReport {
        var report = BenchmarkReport(title: "Broadcast formats: read a 1-hour SCC file and a 10 MB TTML file — issue 19")
        let scc = try captionFile(cues: 1800, format: .scc, name: "captions-1h.scc")
        var ours = (wall: Double.infinity, cpu: Double.infinity, cues: 0.0)
        var reference = Double.infinity
        for _ in 0..<5 {
            let run = try Measure.run("ffmpeg", ["-nostdin", "-v", "error", "-i", scc, "-f", "srt", "-y", "/dev/null"])
            reference = min(reference, run.seconds)
            let parsed = try Measure.runCapturing(selfPath, ["parse-captions", scc])
            let values = parsed.output.split(separator: " ").compactMap { Double($0) }
            guard values.count == 3 else { throw BenchError("unexpected worker output") }
            // The whole process (start-up included), as FFmpeg's is measured.
            ours = (min(ours.wall, parsed.run.seconds), min(ours.cpu, values[1]), values[2])
        }
        report.lines.append(
            "SCC 1 h (\(Int(ours.cues)) cues): medialint \(format(ours.wall)) s (reading \(format(ours.cpu * 1000)) ms on one core); "
                + "ffmpeg -i x.scc -f srt \(format(reference)) s → \(format(ours.wall / reference))×")
        report.check("SCC read \(format(ours.wall / reference))× ffmpeg ≤ 1.00×", ours.wall <= reference)

        let ttml = try captionFile(cues: 70_000, format: .ttml, name: "captions-10mb.ttml")
        let srt = try captionFile(cues: 70_000, format: .srt, name: "captions-10mb-cues.srt")
        // The process's own memory (Foundation and its XML parser loaded, an empty document read), to subtract: at
        // 10 MB it is as large as the file.
        let (megabytes, parse, peak, baseline, ffmpeg) = try reading(
            ttml, cues: 70_000, emptyDocument: Array(#"<tt xmlns="http://www.w3.org/ns/ttml"><body/></tt>"#.utf8), named: "empty.ttml", repetitions: 3,
            reference: { try Measure.run("ffmpeg", ["-nostdin", "-v", "error", "-i", srt, "-f", "ttml", "-y", "/dev/null"]).seconds })
        let rate = megabytes / parse.cpu
        report.lines.append(
            "TTML \(format1(megabytes)) MB (70,000 cues): read \(Int(rate)) MB/s on one core (wall \(format(parse.wall)) s), peak \(mib(peak)) "
                + "(\(mib(baseline)) reading an empty document); ffmpeg SRT → TTML of the same cues \(format(ffmpeg)) s (it has no TTML reader)")
        report.check("TTML read \(Int(rate)) MB/s on one core ≥ 10", rate >= 10)
        let sizeMiB = megabytes * 1_000_000 / 1_048_576
        report.check("TTML read memory \(mib(peak - baseline)) above the empty read < 3 × file (\(mib(3 * sizeMiB)))", peak - baseline < 3 * sizeMiB)
        return report
    }

    /// A generated caption file of `cues` cues 2 s apart in `format` (kept between runs).
    static func captionFile(cues: Int, format: CaptionFormat, name: String) throws -> String {
        let path = mediaDirectory.appendingPathComponent(name).path
        if !FileManager.default.fileExists(atPath: path) {
            print("generating \(name) (\(cues) cues) …")
            try FileManager.default.createDirectory(at: mediaDirectory, withIntermediateDirectories: true)
            try CaptionBench.generate(cues: cues, format: format, to: path)
        }
        return path
    }
}
