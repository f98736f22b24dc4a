/// Stretches of a video stream no decoded frame covers: a frame whose duration is known ends more than `threshold`
/// seconds before the next one starts. Damage the demuxer skipped over (a run of zeros in a Matroska file, say)
/// leaves such a hole without a decoding error; a frame held on screen (variable frame rate) carries its own longer
/// duration and leaves none. Frames of unknown duration say nothing.
struct UnseenStretches {
    static let threshold = 0.5

    /// The holes, in time order.
    private(set) var stretches: [(from: Double, to: Double)] = []
    private var lastEnd: Double?

    /// A frame presented at `time` for `duration` seconds (nil: not known).
    mutating func add(time: Double, duration: Double?) {
        if let lastEnd, time - lastEnd > Self.threshold { stretches.append((lastEnd, time)) }
        lastEnd = duration.flatMap { $0 > 0 ? max(lastEnd ?? -.infinity, time + $0) : nil }
    }

    /// A new run of frames whose timestamps do not continue the last (an HLS discontinuity).
    mutating func restart() { lastEnd = nil }

    /// Seconds not covered in all.
    var total: Double { stretches.reduce(0) { $0 + $1.to - $1.from } }
}
