import CaptionQuality
import Captions
import Foundation
import TestSupport
import Transcripts

/// Caption benchmarks' generated inputs and timed work.
enum CaptionBench {
    /// Writes a deterministic caption file of `cues` cues (about 100 bytes each) in `format`.
    static func generate(cues count: Int, format: CaptionFormat, to path: String) throws {
        var random = SeededRandom(seed: 2026)
        let words = [
            "the", "a", "caption", "speech", "video", "sound", "music", "door", "opens", "quietly", "laughter", "running",
            "we", "you", "they", "said", "never", "always", "here", "there", "coffee", "morning", "station", "train",
        ]
        var document = CaptionDocument(format: format)
        document.cues.reserveCapacity(count)
        for i in 0..<count {
            let start = Int64(i) * 2000
            var lines: [String] = []
            for _ in 0..<2 {
                var line = (0..<5).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
                if random.next() % 8 == 0 { line = "<i>\(line)</i>" }
                lines.append(line)
            }
            document.cues.append(
                Cue(
                    identifier: format == .srt ? String(i + 1) : "", start: CaptionTime(milliseconds: start),
                    end: CaptionTime(milliseconds: start + 1500), text: lines.joined(separator: "\n")))
        }
        let bytes = CaptionFile.encode(document, as: format).bytes
        try Data(bytes).write(to: URL(fileURLWithPath: path + ".partial"))
        try FileManager.default.moveItem(atPath: path + ".partial", toPath: path)
    }

    /// Reads the caption file at `path` `repetitions` times (each timed: mapping, decoding and parsing it;
    /// one document alive at a time) and prints `bestSeconds cues`. Peak memory is measured on a process
    /// that reads once: freed memory stays with the allocator, so later reads would add the file's pages to it.
    static func parse(path: String, repetitions: Int) throws {
        try printBest(of: repetitions, { try CaptionFile.read(path) }, size: \.cues.count)
    }

    /// Runs `work` `repetitions` times, each timed (wall, and this thread's CPU), and prints
    /// `bestSeconds bestCPUSeconds size` with `size` of the last run's result. Each result is released after
    /// its timing ends.
    static func printBest<Result>(of repetitions: Int, _ work: () throws -> Result, size: (Result) -> Int) rethrows {
        var best = Double.infinity, bestCPU = Double.infinity
        var count = 0
        for _ in 0..<repetitions {
            let start = Measure.now(), startCPU = Measure.threadCPUTime()
            let result = try work()
            best = min(best, Measure.now() - start)
            bestCPU = min(bestCPU, Measure.threadCPUTime() - startCPU)
            count = size(result)
        }
        print(best, bestCPU, count)
    }

    /// Reads `path`, then times writing it back in its own format three times; prints `bestSeconds bytes`.
    static func write(path: String) throws {
        let document = try CaptionFile.read(path)
        printBest(of: 3, { CaptionFile.encode(document, as: document.format).bytes }, size: \.count)
    }
}

/// Issue 6: linting and transcribing a whole caption file, reading included (what `medialint lint` and
/// `medialint transcript` do, without printing). Both spread long files over the cores: wall time is what
/// counts; the thread CPU time printed is the calling thread's share.
extension CaptionBench {
    /// Reads and lints `path` three times; prints `bestSeconds bestCPUSeconds findings`.
    static func lint(path: String) throws {
        try printBest(
            of: 3,
            {
                let document = try CaptionFile.read(path)
                return (document, CaptionLinter(profile: .netflix).lint(document))
            }, size: \.1.count)
    }

    /// Reads `path`, builds its transcript and renders it as text, three times; prints
    /// `bestSeconds bestCPUSeconds characters`.
    static func transcribe(path: String) throws {
        try printBest(
            of: 3,
            {
                let document = try CaptionFile.read(path)
                return (document, TranscriptRenderer.render(TranscriptBuilder().build(document, title: "bench"), as: .text))
            }, size: \.1.utf8.count)
    }
}
