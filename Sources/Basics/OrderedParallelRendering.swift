import Foundation

/// Renders many items to bytes on every core, in order: the items go in windows, each window is cut into one
/// slice per core, the slices are rendered at once (each into its own buffer, with its own state), then handed
/// on in order. The bytes are those of one pass over the items; memory holds one window's output.
public enum OrderedParallelRendering {
    /// What one slice renders into: its bytes, and state of the caller's (diagnostics, what was noticed …).
    public struct Slice<State> {
        public var bytes: [UInt8] = []
        public var state: State
    }

    /// Below this many items, one slice on one core.
    public static let minimumCount = ParallelSlices.minimumCues
    /// Items per window and core.
    public static let windowPerCore = 4_096

    /// How many slices a window of `count` items is cut into.
    public static func sliceCount(for count: Int) -> Int {
        ParallelSlices.count(for: count, minimum: minimumCount)
    }

    /// Renders items `0..<count`: `render(range, slice)` renders a range into a slice (it may run on any thread,
    /// at the same time as other slices: it reads shared values and writes only its slice); after each window,
    /// `windowDone(slices)` gets the slices in order (and may empty them; their state carries on to the next
    /// window). With one slice (few items, or `parallel` false), everything runs on the calling thread.
    public static func render<State>(
        count: Int, state: State, parallel: Bool = true, _ render: (Range<Int>, inout Slice<State>) -> Void,
        windowDone: (inout [Slice<State>]) -> Void
    ) {
        let slices = parallel ? sliceCount(for: count) : 1
        var parts = (0..<slices).map { _ in Slice(state: state) }
        guard slices > 1 else {
            var start = 0
            while start < count {
                let end = min(count, start + windowPerCore)
                render(start..<end, &parts[0])
                windowDone(&parts)
                start = end
            }
            return
        }
        let window = windowPerCore * slices
        var windowStart = 0
        while windowStart < count {
            let bounds = ParallelSlices.bounds(of: windowStart..<min(count, windowStart + window), slices: slices)
            parts.withUnsafeMutableBufferPointer { buffer in
                ParallelSlices.run(slices) { slice in
                    // Moved out and back, so that the slice's arrays stay uniquely referenced and grow in place.
                    var part = (buffer.baseAddress! + slice).move()
                    render(bounds[slice], &part)
                    (buffer.baseAddress! + slice).initialize(to: part)
                }
            }
            windowDone(&parts)
            windowStart = bounds.last!.upperBound
        }
    }
}
