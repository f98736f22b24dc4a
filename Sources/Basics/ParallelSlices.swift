import Dispatch
import Foundation

/// Work cut into contiguous slices that run at once, one per core: how many slices a job deserves, where each
/// starts and ends, and running them. Every parallel pass over cues or bytes in the project goes through here
/// (the linter, transcripts, timing edits, UTF-8 validation, parsing, rendering, the sync scan).
public enum ParallelSlices {
    /// The most slices a job is cut into (more cores than this gain little and cost memory).
    public static let maximumSlices = 8

    /// Below this many cues a pass over them runs on one core (slicing costs more than it gains).
    public static let minimumCues = 20_000

    /// How many slices `items` deserve: one below `minimum` items (or on one core), else one per core, at most
    /// `maximumSlices`.
    public static func count(for items: Int, minimum: Int) -> Int {
        guard items >= minimum else { return 1 }
        return max(1, min(ProcessInfo.processInfo.activeProcessorCount, maximumSlices))
    }

    /// `range` cut into `slices` contiguous parts as even as integers allow, in order (part k starts at
    /// `lowerBound + count·k/slices`).
    public static func bounds(of range: Range<Int>, slices: Int) -> [Range<Int>] {
        let slices = max(1, slices)
        let cut = (0...slices).map { range.lowerBound + range.count * $0 / slices }
        return (0..<slices).map { cut[$0]..<cut[$0 + 1] }
    }

    /// Runs `body(k)` for each slice `k` in `0..<slices` at once; returns when all are done. `body` may run on any
    /// thread at the same time as the other slices: it must only read what they share and write its own part.
    /// One slice runs on the calling thread.
    public static func run(_ slices: Int, _ body: (Int) -> Void) {
        guard slices > 1 else {
            if slices == 1 { body(0) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let shared = UnsafeSendable(body)
            DispatchQueue.concurrentPerform(iterations: slices) { shared.value($0) }
        }
    }

    /// What `body(k)` gives for each slice, computed at once (as `run`), in slice order.
    public static func map<T>(_ slices: Int, _ body: (Int) -> T) -> [T] {
        let slices = max(0, slices)
        return [T](unsafeUninitializedCapacity: slices) { storage, initialized in
            let output = UnsafeSendable(storage)
            run(slices) { k in (output.value.baseAddress! + k).initialize(to: body(k)) }
            initialized = slices
        }
    }
}
