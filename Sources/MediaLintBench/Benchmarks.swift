import Foundation

/// One benchmark's outcome, as printed.
struct BenchmarkResult {
    var name: String
    var ours: ProcessRun
    var reference: ProcessRun
    var referenceName: String
    var targetRatio: Double
    var notes: [String] = []
    /// Further targets of the issue, each with whether it was met.
    var checks: [(description: String, met: Bool)] = []

    var ratio: Double { ours.seconds / reference.seconds }
    var metTarget: Bool { ratio <= targetRatio && checks.allSatisfy(\.met) }
}

enum Benchmarks {
    /// Where generated benchmark media live (kept between runs; `make clean` removes them).
    static let mediaDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        .appendingPathComponent(".build/bench-media")

    static var selfPath: String { URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path }

    static func runAll() throws -> [BenchmarkResult] {
        print("MediaLint benchmarks — \(ProcessInfo.processInfo.activeProcessorCount) cores; best of 5 runs, reference measured in the same run\n")
        let results = [try decodeLuma()]
        print("")
        for result in results { report(result) }
        return results
    }

    /// Issue 2: decoding a 1080p30 H.264 clip to luma planes ≤ 1.10× `ffmpeg -threads 2 -i clip -f null -`.
    static func decodeLuma() throws -> BenchmarkResult {
        let clip = try generated("clip-1080p30-h264.mp4", "20 s of 1080p30 H.264 (moving test pattern with light grain, ~5 Mb/s)",
                                 ["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=20,noise=alls=3:allf=t",
                                  "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p"])
        let (ours, reference) = try Measure.compare(
            ours: (selfPath, ["decode-luma", clip]),
            reference: ("ffmpeg", ["-nostdin", "-v", "error", "-threads", "2", "-i", clip, "-f", "null", "-"]))
        // Memory must not grow with the length of the media: the same clip three times over.
        let long = try generated("clip-1080p30-h264-60s.mp4", "the same clip three times over (60 s)",
                                 ["-stream_loop", "2", "-i", clip, "-c", "copy"])
        let longRun = try Measure.run(selfPath, ["decode-luma", long])
        let flat = longRun.peakMemoryMiB <= ours.peakMemoryMiB * 1.10
        return BenchmarkResult(
            name: "decode 1080p30 H.264 to luma planes (600 frames)", ours: ours, reference: reference,
            referenceName: "ffmpeg -threads 2 -i clip -f null -", targetRatio: 1.10,
            notes: ["\(Int((600 / ours.seconds).rounded())) frames/s"],
            checks: [("peak memory 20 s clip \(Int(ours.peakMemoryMiB.rounded())) MiB, 60 s clip \(Int(longRun.peakMemoryMiB.rounded())) MiB (flat: ≤ 1.10×)", flat)])
    }

    /// Makes `name` with the ffmpeg CLI unless it exists.
    static func generated(_ name: String, _ description: String, _ ffmpegInput: [String]) throws -> String {
        let url = mediaDirectory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path) { return url.path }
        try FileManager.default.createDirectory(at: mediaDirectory, withIntermediateDirectories: true)
        print("generating \(name): \(description) …")
        let partial = url.path + ".partial.mp4"
        _ = try Measure.run("ffmpeg", ["-nostdin", "-v", "error", "-y"] + ffmpegInput + [partial])
        try FileManager.default.moveItem(atPath: partial, toPath: url.path)
        return url.path
    }

    static func report(_ result: BenchmarkResult) {
        let verdict = result.metTarget ? "ok" : "MISSED"
        print(result.name)
        print("  medialint  \(format(result.ours.seconds)) s   peak \(Int(result.ours.peakMemoryMiB.rounded())) MiB")
        print("  reference  \(format(result.reference.seconds)) s   peak \(Int(result.reference.peakMemoryMiB.rounded())) MiB   (\(result.referenceName))")
        print("  ratio      \(format(result.ratio))×   target ≤ \(format(result.targetRatio))×   \(result.ratio <= result.targetRatio ? "ok" : "MISSED")"
              + (result.notes.isEmpty ? "" : "   " + result.notes.joined(separator: ", ")))
        for check in result.checks {
            print("  \(check.description)   \(check.met ? "ok" : "MISSED")")
        }
        print("  overall    \(verdict)")
    }

    static func format(_ value: Double) -> String { String(format: "%.2f", value) }
}
