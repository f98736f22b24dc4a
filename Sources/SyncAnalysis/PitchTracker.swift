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
        while voicing.count < frames {
            voicing.append(0)
            period.append(0)
        }
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
        guard fill >= span else {
            voicing.append(0)
            period.append(0)
            return
        }
        var best: Float = 0, bestLag = 0
        // The correlation at every lag, in a buffer kept between frames.
        var scores: [Float] = []
        swap(&scores, &self.scores)
        defer { swap(&scores, &self.scores) }
        history.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress! + (fill - span)
            var energy0: Float = 0
            for i in 0..<Self.window { energy0 += base[i] * base[i] }
            guard energy0 > 1e-9 else { return }
            // The energy of the lagged window, slid one sample at a time.
            var energyLag: Float = 0
            for i in 0..<Self.window { energyLag += base[i + 1] * base[i + 1] }
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
        guard bestLag > 0 else {
            voicing.append(0)
            period.append(0)
            return
        }
        // Between samples: the vertex of the parabola through the best lag and its neighbours.
        let a = scores[bestLag - 1], b = scores[bestLag], c = scores[bestLag + 1]
        let curvature = a - 2 * b + c
        let offset = curvature < 0 ? max(-0.5, min(0.5, 0.5 * (a - c) / curvature)) : 0
        voicing.append(max(0, min(1, best)))
        period.append((Float(bestLag) + offset) * Float(Self.decimation) / Float(sampleRate))
    }
}

/// How much like speech the sound around each frame is, from what sets speech apart from music and effects
/// over about a second: many voiced frames (a voice's periodicity), a loudness that rises and falls at the
/// rate of syllables (3–8 Hz, the modulation of the speech band's level) and by many decibels, voiced runs
/// starting a few times a second, and a pitch that glides (a note, a horn or a phone holds its pitch, then jumps).
///
/// The weights are a logistic fit on programmes of four synthetic voices over recorded music and sox effects
/// (TestSupport.Programme), rounded; a window with almost no voiced frames, or whose pitch mostly holds, is not
/// speech whatever the rest says.
enum SpeechLikeness {
    /// Voicing above which a frame counts as voiced.
    static let voicedAbove: Float = 0.6
    /// The score from which loud sound counts as speech: below an even chance, so that speech under a dense bed
    /// of music, which evens out the level, is kept; a stretch reported as uncaptioned must score far higher.
    static let speechAbove: Float = 0.35
    /// Window for the shares and the level statistics: 1 s.
    static let window = 100

    /// A 0–1 score per frame (above 0.5: speech-like), from the speech band's level (dB), voicing and period.
    static func scores(energies: [Float], voicing: [Float], period: [Float]) -> [Float] {
        let count = energies.count
        guard count > 0 else { return [] }
        let voiced = (0..<count).map { $0 < voicing.count && voicing[$0] >= voicedAbove ? 1.0 : 0.0 }
        // Pitch from one voiced frame to the next: held (under 0.2%) or gliding (0.5–6%; more is a jump).
        var pairs = [Double](repeating: 0, count: count), held = pairs, gliding = pairs
        for i in 1..<max(1, min(count, period.count)) where voiced[i] == 1 && voiced[i - 1] == 1 && period[i] > 0 && period[i - 1] > 0 {
            pairs[i] = 1
            let change = abs(period[i] - period[i - 1]) / period[i]
            if change < 0.002 { held[i] = 1 } else if change >= 0.005 && change < 0.06 { gliding[i] = 1 }
        }
        let voicedShare = movingMean(voiced, window)
        let pairShare = movingMean(pairs, window), heldShare = movingMean(held, window), glidingShare = movingMean(gliding, window)
        // Syllables a second: voiced runs of at least 40 ms starting within the second around the frame.
        var runStarts = [Double](repeating: 0, count: count)
        var run = 0
        for i in 0..<count {
            run = voiced[i] == 1 ? run + 1 : 0
            if run == 4 { runStarts[i - 3] = 1 }
        }
        let syllables = movingMean(runStarts, window).map { $0 * Double(window) }
        // Level spread (standard deviation, dB) and the share of the level's variation at 2.5–8 Hz, over 1 s.
        let level = energies.map { Double(max($0, -100)) }
        let mean = movingMean(level, window), meanSquare = movingMean(level.map { $0 * $0 }, window)
        var syllabic = level, varying = level
        var highPass = Biquad(highPass: 2.5, sampleRate: 100), lowPass = Biquad(lowPass: 8, sampleRate: 100)
        var slowCut = Biquad(highPass: 0.7, sampleRate: 100)
        for i in 0..<count {
            syllabic[i] = lowPass.process(highPass.process(level[i] - mean[i]))
            varying[i] = slowCut.process(level[i] - mean[i])
        }
        // The filters lag by a few frames; the 1 s windows make that immaterial.
        let syllabicPower = movingMean(syllabic.map { $0 * $0 }, window)
        let varyingPower = movingMean(varying.map { $0 * $0 }, window)
        var scores = [Float](repeating: 0, count: count)
        for i in 0..<count {
            let spread = max(0, meanSquare[i] - mean[i] * mean[i]).squareRoot()
            let modulation = varyingPower[i] > 1e-6 ? min(1, syllabicPower[i] / varyingPower[i]) : 0
            let motion = pairShare[i] >= 0.1 ? (glidingShare[i] - heldShare[i]) / pairShare[i] : 0
            guard voicedShare[i] >= 0.12, motion >= -0.3 else { continue }
            let z =
                6.5 * voicedShare[i] + 0.42 * min(spread, 20) + 4.8 * modulation + 0.4 * min(syllables[i], 5) + 2.6 * motion - 9.2
            scores[i] = Float(1 / (1 + exp(-z)))
        }
        return scores
    }
    /// The mean of `values` over a centred window of `width` frames (shorter at the ends).
    static func movingMean(_ values: [Double], _ width: Int) -> [Double] {
        let count = values.count
        var prefix = [Double](repeating: 0, count: count + 1)
        for i in 0..<count { prefix[i + 1] = prefix[i] + values[i] }
        return (0..<count).map { i in
            let low = max(0, i - width / 2), high = min(count, i + width / 2)
            return high > low ? (prefix[high] - prefix[low]) / Double(high - low) : 0
        }
    }
}
