import Foundation

/// Changes to audio that nobody can hear, for tests that a verdict does not flip on them: a delay of a few samples,
/// noise far below the programme. (Re-encoding and resampling are done with the ffmpeg CLI.)
package enum InaudibleChanges {
    /// `samples` played `count` samples later (silence before them).
    package static func delayed(_ samples: [Float], by count: Int) -> [Float] { [Float](repeating: 0, count: count) + samples }

    /// `samples` with white noise added whose RMS level is `decibels` below full scale (uniform, from `seed`: the same
    /// noise every run).
    package static func withNoise(_ samples: [Float], decibels: Double = -80, seed: UInt64 = 80) -> [Float] {
        var random = SeededRandom(seed: seed)
        let amplitude = Float(pow(10, decibels / 20) * 3.0.squareRoot())
        // (The top 24 bits of each draw, as −1…1: what Float.random(in:) does, without its generic cost.)
        return samples.map { $0 + (Float(random.next() >> 40) / Float(1 << 23) - 1) * amplitude }
    }
}
