import Foundation

/// The level of sound over time, 10 ms at a time: PCM in, the media's audible stretches out. Pure — the samples come
/// from anywhere (the checks feed it decoded audio).
public struct AudioLevelMeter: Sendable {
    /// Samples a second of the PCM fed in.
    public let sampleRate: Int
    /// Samples in one 10 ms frame.
    private let frameLength: Int
    /// The level of each 10 ms frame, in dBFS (RMS).
    public private(set) var levels: [Float] = []
    private var sum = 0.0
    private var filled = 0
    /// The media time of the first sample fed in.
    public private(set) var start: Double?

    public init(sampleRate: Int = 16_000) {
        self.sampleRate = sampleRate
        frameLength = max(1, sampleRate / 100)
    }

    /// Adds mono samples that start at media time `time` (seconds); a gap since the last ones counts as silence.
    public mutating func add(_ samples: some Collection<Float>, at time: Double) {
        if start == nil { start = time }
        let expected = Int(((time - (start ?? 0)) * 100).rounded(.down))
        while levels.count < expected { levels.append(-200) }
        for sample in samples {
            sum += Double(sample) * Double(sample)
            filled += 1
            if filled == frameLength {
                levels.append(Self.decibels(sum / Double(frameLength)))
                sum = 0
                filled = 0
            }
        }
    }

    /// The activity of what was fed in: `duration` (the media's, when it states one) and its audible stretches above
    /// `threshold` dBFS (see `AudioActivity.stretches`), on the media's timeline.
    public mutating func finish(duration: Double?, threshold: Double = -50) -> AudioActivity {
        if filled > 0 {
            levels.append(Self.decibels(sum / Double(filled)))
            sum = 0
            filled = 0
        }
        let offset = start ?? 0
        let audible = AudioActivity.stretches(levels: levels, frameSeconds: 0.01, threshold: threshold)
            .map { ($0.lowerBound + offset)...($0.upperBound + offset) }
        return AudioActivity(duration: duration ?? Double(levels.count) / 100, hasAudio: true, audible: audible)
    }

    private static func decibels(_ meanSquare: Double) -> Float { Float(10 * log10(max(meanSquare, 1e-20))) }
}
