import Captions
import Foundation

extension Benchmarks {
    // MARK: - Issue 39: captions from everywhere

    /// Reading 200,000-cue SAMI, ASS and SBV files (~20–40 MB) on one core, beside FFmpeg reading the same file and
    /// writing SRT to /dev/null (its SAMI and ASS demuxers; it has no SBV reader: beside it, FFmpeg reading the cues as
    /// SRT). Targets: ≥ 50 MB/s on one core; peak memory above an empty document's under 3 × the file.
    static func captionFormats() throws -> BenchmarkReport {
        var report = BenchmarkReport(title: "Caption formats: read SAMI, ASS and SBV (200,000 cues) on one core — issue 39")
        let srt = try captionFile(cues: 200_000, format: .srt, name: "captions-200k.srt")
        for kind in [CaptionFormat.sami, .ass, .sbv] {
            let path = try captionFile(cues: 200_000, format: kind, name: "captions-200k.\(kind.fileExtension)")
            let megabytes = Double((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1_000_000
            var parse = (wall: Double.infinity, cpu: Double.infinity)
            var ffmpeg = Double.infinity
            for _ in 0..<3 {
                let values = try Measure.runCapturing(selfPath, ["parse-captions", path]).output.split(separator: " ").compactMap { Double($0) }
                guard values.count == 3, Int(values[2]) == 200_000 else { throw BenchError("unexpected worker output for \(path): \(values)") }
                parse = (min(parse.wall, values[0]), min(parse.cpu, values[1]))
                let input = kind == .sbv ? srt : path
                ffmpeg = min(ffmpeg, try Measure.run("ffmpeg", ["-nostdin", "-v", "error", "-i", input, "-f", "srt", "-y", "/dev/null"]).seconds)
            }
            let peak = try Measure.runCapturing(selfPath, ["parse-captions-once", path]).run.peakMemoryMiB
            let empty = mediaDirectory.appendingPathComponent("empty.\(kind.fileExtension)").path
            try Data(CaptionFile.encode(CaptionDocument(format: kind), as: kind).bytes).write(to: URL(fileURLWithPath: empty))
            let baseline = try Measure.runCapturing(selfPath, ["parse-captions-once", empty]).run.peakMemoryMiB
            let rate = megabytes / parse.cpu
            report.lines.append(
                "\(kind.displayName) \(format1(megabytes)) MB: read \(Int(rate)) MB/s on one core (wall \(format(parse.wall)) s), peak \(mib(peak)) "
                    + "(\(mib(baseline)) empty); ffmpeg \(kind == .sbv ? "(no SBV reader) the same cues as SRT" : "-i x.\(kind.fileExtension)") -f srt "
                    + "\(format(ffmpeg)) s → \(format(parse.wall / ffmpeg))×")
            report.check("\(kind.displayName) read \(Int(rate)) MB/s on one core ≥ 50", rate >= 50)
            let sizeMiB = megabytes * 1_000_000 / 1_048_576
            report.check(
                "\(kind.displayName) read memory \(mib(peak - baseline)) above the empty read < 3 × file (\(mib(3 * sizeMiB)))", peak - baseline < 3 * sizeMiB)
        }
        return report
    }
}
