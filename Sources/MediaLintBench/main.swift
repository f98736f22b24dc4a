import Foundation
import MediaIO

// `make bench`: MediaLint's speed against reference tools measured in the same run, on this machine.
// Each benchmark prints our time, the reference's time, their ratio and the target from its issue.
//
//   medialint-bench                  run every benchmark
//   medialint-bench decode-luma FILE decode FILE's video to luma planes (a worker the benchmarks time)

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "decode-luma":
        guard arguments.count >= 2 else { throw BenchError("usage: medialint-bench decode-luma FILE [THREADS]") }
        let threads = arguments.count > 2 ? Int(arguments[2]) ?? 0 : 0
        try Workers.decodeLuma(path: arguments[1], threads: threads)
    case nil:
        let results = try Benchmarks.runAll()
        exit(results.allSatisfy(\.metTarget) ? 0 : 1)
    default:
        throw BenchError("unknown mode \(arguments[0]); run without arguments for every benchmark")
    }
} catch {
    FileHandle.standardError.write(Data("medialint-bench: \(error)\n".utf8))
    exit(2)
}
