#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Voicing and pitch per 10 ms frame: how periodic the sound below 1 kHz is at a period a human voice has
/// (70–400 Hz), and that period. The signal is low-passed (a fourth-order Butterworth at 900 Hz) and decimated
/// to 4 kHz; each frame's 40 ms window is compared with itself one period later (normalised cross-correlation,
/// the best lag refined between samples by a parabola).
struct PitchTracker: Sendable {
    static let decimation = 4
    /// Window length and lag range at the decimated rate (4 kHz): 40 ms; 400 Hz to 70 Hz.
    static let window = 160
    static let shortestLag = 10
    static let longestLag = 57

    private var first: Biquad
    private var second: Biquad
    private var phase = 0
    /// The decimated signal still needed: the last window plus the longest lag.
    private var history: [Float]
    private var fill = 0
    private let sampleRate: Double
    private var scores = [Float](repeating: 0, count: PitchTracker.longestLag + 2)

    /// Per frame: the correlation at the best lag (0–1) and that lag in seconds (0 where nothing correlates).
    private(set) var voicing: [Float] = []
    private(set) var period: [Float] = []

    init(sampleRate: Int) {
        self.sampleRate = Double(sampleRate)
        first = Biquad(lowPass: 900, sampleRate: Double(sampleRate), q: 0.5412)
        second = Biquad(lowPass: 900, sampleRate: Double(sampleRate), q: 1.3066)
        history = [Float](repeating: 0, count: 4 * (Self.window + Self.longestLag + 1))
    }

    /// Pads with silent frames up to `frames` frames (the stream skipped ahead).
    mutating func pad(toFrames frames: Int) {
        while voicing.count < frames { appendUnvoiced() }
    }

    /// A frame with nothing periodic in it.
    private mutating func appendUnvoiced() {
        voicing.append(0)
        period.append(0)
    }

    /// Takes one input sample; `frameEnds` is true on the last sample of a 10 ms frame.
    @inline(__always)
    mutating func add(_ sample: Double, frameEnds: Bool) {
        let low = second.process(first.process(sample))
        phase += 1
        if phase == Self.decimation {
            phase = 0
            if fill == history.count {
                // Keep the most recent samples a frame needs at the front.
                let keep = Self.window + Self.longestLag
                for i in 0..<keep { history[i] = history[fill - keep + i] }
                fill = keep
            }
            history[fill] = Float(low)
            fill += 1
        }
        if frameEnds {
            measureFrame()
            first.flushTinyState()
            second.flushTinyState()
        }
    }

    /// The sum of `a[i] × b[i]` over a window, eight at a time.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>) -> Float {
        var sum = SIMD8<Float>()
        var i = 0
        while i + 8 <= window {
            let x = UnsafeRawPointer(a + i).loadUnaligned(as: SIMD8<Float>.self)
            let y = UnsafeRawPointer(b + i).loadUnaligned(as: SIMD8<Float>.self)
            sum += x * y
            i += 8
        }
        var total = sum.sum()
        while i < window {
            total += a[i] * b[i]
            i += 1
        }
        return total
    }

    /// The voicing and period of the window that ends at the newest sample.
    private mutating func measureFrame() {
        let span = Self.window + Self.longestLag + 1
        guard fill >= span else { return appendUnvoiced() }
        var best: Float = 0, bestLag = 0
        // The correlation at every lag, in a buffer kept between frames.
        var scores: [Float] = []
        swap(&scores, &self.scores)
        defer { swap(&scores, &self.scores) }
        history.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress! + (fill - span)
            let energy0 = Self.dot(base, base)
            guard energy0 > 1e-9 else { return }
            // The energy of the lagged window, slid one sample at a time.
            var energyLag = Self.dot(base + 1, base + 1)
            for lag in 1...(Self.longestLag + 1) {
                if lag > 1 {
                    let out = base[lag - 1], into = base[lag - 1 + Self.window]
                    energyLag += into * into - out * out
                }
                scores[lag] = Self.dot(base, base + lag) / max(1e-12, (energy0 * max(energyLag, 0)).squareRoot())
            }
            // A period is a peak the correlation climbs back to after falling: noise low-passed into a rumble
            // correlates best at the shortest lag, by falling steadily, and is not voiced.
            // A peak as high at a period shorter than a voice's (above 400 Hz) is a tone or an instrument: a
            // siren's sweep correlates at every multiple of its period, some of them in the voice's range.
            var lowest = scores[1]
            var higherPitch: Float = 0
            for lag in 2...Self.longestLag {
                lowest = min(lowest, scores[lag])
                let score = scores[lag]
                guard score >= scores[lag - 1], score >= scores[lag + 1], score - lowest >= 0.2 else { continue }
                if lag < Self.shortestLag {
                    higherPitch = max(higherPitch, score)
                } else if score > best {
                    best = score
                    bestLag = lag
                }
            }
            if higherPitch > best - 0.1 { bestLag = 0 }
        }
        guard bestLag > 0 else { return appendUnvoiced() }
        // Between samples: the vertex of the parabola through the best lag and its neighbours.
        let a = scores[bestLag - 1], b = scores[bestLag], c = scores[bestLag + 1]
        let curvature = a - 2 * b + c
        let offset = curvature < 0 ? max(-0.5, min(0.5, 0.5 * (a - c) / curvature)) : 0
        voicing.append(max(0, min(1, best)))
        period.append((Float(bestLag) + offset) * Float(Self.decimation) / Float(sampleRate))
    }
}
