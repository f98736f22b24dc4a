import Captions
import Foundation
import TestSupport

extension Benchmarks {
    // MARK: - Issue 39: captions from everywhere

    /// Reading 200,000-cue SAMI, ASS and SBV files (~20–40 MB) on one core, beside FFmpeg reading the same file and
    /// writing SRT to /dev/null (its SAMI and ASS demuxers; it has no SBV reader: beside it, FFmpeg reading the cues as
    /// SRT). Targets: ≥ 50 MB/s on one core; peak memory above an empty document's under 3 × the file.
    static func captionFormats() throws -> BenchmarkReport {
        var report = BenchmarkReport(title: "Caption formats: read SAMI, ASS, SBV and EBU STL (200,000 cues) on one core — issue 39")
        let srt = try captionFile(cues: 200_000, format: .srt, name: "captions-200k.srt")
        for kind in [CaptionFormat.sami, .ass, .sbv, .stl] {
            let path =
                kind == .stl ? try stlFile(subtitles: 200_000) : try captionFile(cues: 200_000, format: kind, name: "captions-200k.\(kind.fileExtension)")
            let input = kind == .sbv || kind == .stl ? srt : path
            let emptyBytes = kind == .stl ? Self.stlBytes(subtitles: 0) : CaptionFile.encode(CaptionDocument(format: kind), as: kind).bytes
            let (megabytes, parse, peak, baseline, ffmpeg) = try reading(
                path, cues: 200_000, emptyDocument: emptyBytes, named: "empty.\(kind.fileExtension)", repetitions: 3,
                reference: { try Measure.run("ffmpeg", ["-nostdin", "-v", "error", "-i", input, "-f", "srt", "-y", "/dev/null"]).seconds })
            let rate = megabytes / parse.cpu
            report.lines.append(
                "\(kind.displayName) \(format1(megabytes)) MB: read \(Int(rate)) MB/s on one core (wall \(format(parse.wall)) s), peak \(mib(peak)) "
                    + "(\(mib(baseline)) empty); ffmpeg \(kind == .sbv || kind == .stl ? "(no \(kind.displayName) reader) the same cues as SRT" : "-i x.\(kind.fileExtension)") -f srt "
                    + "\(format(ffmpeg)) s → \(format(parse.wall / ffmpeg))×")
            report.check("\(kind.displayName) read \(Int(rate)) MB/s on one core ≥ 50", rate >= 50)
            let sizeMiB = megabytes * 1_000_000 / 1_048_576
            report.check(
                "\(kind.displayName) read memory \(mib(peak - baseline)) above the empty read < 3 × file (\(mib(3 * sizeMiB)))", peak - baseline < 3 * sizeMiB)
        }
        return report
    }

    /// Reading the caption file at `path` (of `cues` cues) in a worker, best of `repetitions` (its wall time and its time
    /// on one core), its peak memory and that of reading `emptyDocument` (written as `name`: the process's own), and
    /// the best of `reference` run beside each read.
    static func reading(
        _ path: String, cues: Int, emptyDocument: [UInt8], named name: String, repetitions: Int, reference: () throws -> Double
    ) throws -> (megabytes: Double, parse: (wall: Double, cpu: Double), peak: Double, baseline: Double, reference: Double) {
        let megabytes = Double((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1_000_000
        var parse = (wall: Double.infinity, cpu: Double.infinity)
        var best = Double.infinity
        for _ in 0..<repetitions {
            let values = try Measure.runCapturing(selfPath, ["parse-captions", path]).output.split(separator: " ").compactMap { Double($0) }
            guard values.count == 3, Int(values[2]) == cues else { throw BenchError("unexpected worker output for \(path): \(values)") }
            parse = (min(parse.wall, values[0]), min(parse.cpu, values[1]))
            best = min(best, try reference())
        }
        let peak = try Measure.runCapturing(selfPath, ["parse-captions-once", path]).run.peakMemoryMiB
        let empty = mediaDirectory.appendingPathComponent(name).path
        try Data(emptyDocument).write(to: URL(fileURLWithPath: empty))
        let baseline = try Measure.runCapturing(selfPath, ["parse-captions-once", empty]).run.peakMemoryMiB
        return (megabytes, parse, peak, baseline, best)
    }

    /// An EBU STL file of `subtitles` teletext subtitles 0.4 s apart (200,000 fill 22 hours of time codes), two rows each
    /// (kept between runs).
    static func stlFile(subtitles: Int) throws -> String {
        let path = mediaDirectory.appendingPathComponent("captions-\(subtitles / 1000)k.stl").path
        if !FileManager.default.fileExists(atPath: path) {
            print("generating EBU STL (\(subtitles) subtitles) …")
            try FileManager.default.createDirectory(at: mediaDirectory, withIntermediateDirectories: true)
            try Data(stlBytes(subtitles: subtitles)).write(to: URL(fileURLWithPath: path))
        }
        return path
    }

    /// A GSI block (25 fps, Latin, teletext, programme at 00:00:00:00), then a TTI block per subtitle.
    static func stlBytes(subtitles: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0x20, count: 1024)
        for (text, offset) in [("850STL25.01100", 0), ("00000000", 256)] { bytes.replaceSubrange(offset..<(offset + text.utf8.count), with: Array(text.utf8)) }
        var random = SeededRandom(seed: 2026)
        let words = ["the", "caption", "speech", "sound", "door", "opens", "quietly", "morning", "station", "train", "we", "never"]
        bytes.reserveCapacity(1024 + subtitles * 128)
        for i in 0..<subtitles {
            func code(_ frames: Int) -> [UInt8] {
                let seconds = frames / 25
                return [UInt8(seconds / 3600), UInt8(seconds / 60 % 60), UInt8(seconds % 60), UInt8(frames % 25)]
            }
            var block: [UInt8] = [0, UInt8(i & 0xFF), UInt8(i >> 8 & 0xFF), 0xFF, 0] + code(i * 10) + code(i * 10 + 8) + [20, 2, 0]
            var text: [UInt8] = [0x0D, 0x0B, 0x0B]
            for row in 0..<2 {
                if row == 1 { text += [0x0A, 0x0A, 0x8A, 0x8A, 0x0D, 0x0B, 0x0B] }
                if random.next() % 8 == 0 { text.append(0x80) }
                text += Array((0..<4).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ").utf8)
            }
            text += [0x0A, 0x0A]
            block += text.prefix(112)
            block += [UInt8](repeating: 0x8F, count: 128 - block.count)
            bytes += block
        }
        return bytes
    }
}
