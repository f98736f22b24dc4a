import Foundation
import MediaIO

// `make bench`: MediaLint's speed against reference tools measured in the same run, on this machine.
// Each benchmark prints our time, the reference's time, their ratio and the target from its issue.
//
//   MediaLintBench [NAME…]            run every benchmark, or the named ones (decode, flash, captions, sync, quality, library, recorded,
//                                     convert, shapes, reports, hostile, scale, programmes, formats)
//   MediaLintBench decode-luma FILE   decode FILE's video to luma planes (a worker the benchmarks time)
//   MediaLintBench parse-captions F   parse a caption file 3 times, print the best seconds and cues (a worker)
//   MediaLintBench parse-captions-once F   the same, once (for its peak memory)
//   MediaLintBench write-captions F   parse, then time writing it back (a worker)
//   MediaLintBench lint-captions F    read and lint a caption file 3 times (a worker)
//   MediaLintBench transcribe-captions F   read it and make its text transcript, 3 times (a worker)
//   MediaLintBench render-findings F [lint options]   lint F, render the result in every format 3 times (a worker)
//   MediaLintBench make-programmes DIR [MINUTES [SEED]]   make the test programmes (issue 17) in DIR, with every caption case and
//                                     the truth as JSON, to try medialint sync (or another tool) on by hand
//   MediaLintBench speech-features MEDIA OUT   the speech detector's features per 10 ms frame, as float32 (6 a frame)

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "decode-luma":
        guard arguments.count >= 2 else { throw BenchError("usage: MediaLintBench decode-luma FILE [THREADS]") }
        let threads = arguments.count > 2 ? Int(arguments[2]) ?? 0 : 0
        try Workers.decodeLuma(path: arguments[1], threads: threads)
    case "parse-captions" where arguments.count == 2:
        try CaptionBench.parse(path: arguments[1], repetitions: 3)
    case "parse-captions-once" where arguments.count == 2:
        try CaptionBench.parse(path: arguments[1], repetitions: 1)
    case "write-captions" where arguments.count == 2:
        try CaptionBench.write(path: arguments[1])
    case "lint-captions" where arguments.count == 2:
        try CaptionBench.lint(path: arguments[1])
    case "transcribe-captions" where arguments.count == 2:
        try CaptionBench.transcribe(path: arguments[1])
    case "render-findings" where arguments.count >= 2:
        try CaptionBench.renderFindings(path: arguments[1], options: Array(arguments.dropFirst(2)))
    case "make-programmes" where arguments.count >= 2:
        try Workers.programmes(
            in: arguments[1], minutes: arguments.count > 2 ? Double(arguments[2]).flatMap { $0 > 0 ? $0 : nil } : nil,
            seed: arguments.count > 3 ? UInt64(arguments[3]) ?? 17 : 17)
    case "speech-features" where arguments.count == 3:
        try Workers.speechFeatures(of: arguments[1], to: arguments[2])
    case nil, "decode", "flash", "captions", "sync", "quality", "library", "convert", "shapes", "reports", "hostile", "scale", "programmes", "formats",
        "accuracy", "caption-formats", "merge", "recorded":
        let results = try Benchmarks.run(only: Set(arguments))
        exit(results.allSatisfy(\.metTarget) ? 0 : 1)
    default:
        throw BenchError("unknown mode \(arguments[0]); run without arguments for every benchmark")
    }
} catch {
    FileHandle.standardError.write(Data("MediaLintBench: \(error)\n".utf8))
    exit(2)
}
