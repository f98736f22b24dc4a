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
    /// Every statistic is a sum over a sliding window kept as it moves, so the work and the memory (a few bytes
    /// a frame) grow only with the length of the audio.
    static func scores(energies: [Float], voicing: [Float], period: [Float]) -> [Float] {
        let count = energies.count
        guard count > 0 else { return [] }
        // Per frame: voiced; a pair of voiced frames whose pitch holds (under 0.2%) or glides (0.5–6%; more is a
        // jump); the start of a voiced run of at least 40 ms (a syllable).
        let voiced: UInt8 = 1, pair: UInt8 = 2, held: UInt8 = 4, gliding: UInt8 = 8, runStart: UInt8 = 16
        var flags = [UInt8](repeating: 0, count: count)
        var run = 0
        for i in 0..<count {
            guard i < voicing.count, voicing[i] >= voicedAbove else {
                run = 0
                continue
            }
            flags[i] |= voiced
            run += 1
            if run == 4 { flags[i - 3] |= runStart }
            if i > 0, flags[i - 1] & voiced != 0, i < period.count, period[i] > 0, period[i - 1] > 0 {
                flags[i] |= pair
                let change = abs(period[i] - period[i - 1]) / period[i]
                if change < 0.002 { flags[i] |= held } else if change >= 0.005 && change < 0.06 { flags[i] |= gliding }
            }
        }
        // The level's mean and spread (standard deviation, dB) over the window.
        let half = window / 2
        var mean = [Float](repeating: 0, count: count), spread = [Float](repeating: 0, count: count)
        do {
            var sum = 0.0, squares = 0.0, low = 0, high = 0
            for i in 0..<count {
                while high < min(count, i + half) {
                    let level = Double(max(energies[high], -100))
                    sum += level
                    squares += level * level
                    high += 1
                }
                while low < max(0, i - half) {
                    let level = Double(max(energies[low], -100))
                    sum -= level
                    squares -= level * level
                    low += 1
                }
                let n = Double(high - low), average = sum / n
                mean[i] = Float(average)
                spread[i] = Float(max(0, squares / n - average * average).squareRoot())
            }
        }
        // The level's variation at 2.5–8 Hz (syllables) and above 0.7 Hz (all of it), squared. The filters lag by a
        // few frames; the 1 s windows make that immaterial.
        var syllabic = [Float](repeating: 0, count: count), varying = [Float](repeating: 0, count: count)
        var highPass = Biquad(highPass: 2.5, sampleRate: 100), lowPass = Biquad(lowPass: 8, sampleRate: 100)
        var slowCut = Biquad(highPass: 0.7, sampleRate: 100)
        for i in 0..<count {
            let centred = Double(max(energies[i], -100) - mean[i])
            let band = lowPass.process(highPass.process(centred)), all = slowCut.process(centred)
            syllabic[i] = Float(band * band)
            varying[i] = Float(all * all)
        }
        var scores = [Float](repeating: 0, count: count)
        var counts = [0, 0, 0, 0, 0]  // voiced, pairs, held, gliding, run starts in the window
        var syllabicSum = 0.0, varyingSum = 0.0
        var low = 0, high = 0
        func tally(_ frame: Int, _ sign: Int) {
            let f = flags[frame]
            if f & voiced != 0 { counts[0] += sign }
            if f & pair != 0 { counts[1] += sign }
            if f & held != 0 { counts[2] += sign }
            if f & gliding != 0 { counts[3] += sign }
            if f & runStart != 0 { counts[4] += sign }
            syllabicSum += Double(sign) * Double(syllabic[frame])
            varyingSum += Double(sign) * Double(varying[frame])
        }
        for i in 0..<count {
            while high < min(count, i + half) {
                tally(high, 1)
                high += 1
            }
            while low < max(0, i - half) {
                tally(low, -1)
                low += 1
            }
            let n = Double(high - low)
            let voicedShare = Double(counts[0]) / n, pairShare = Double(counts[1]) / n
            let motion = pairShare >= 0.1 ? Double(counts[3] - counts[2]) / Double(counts[1]) : 0
            guard voicedShare >= 0.12, motion >= -0.3 else { continue }
            // Syllables a second: run starts in the window, as if it were a full second long.
            let syllables = Double(counts[4]) / n * Double(window)
            let varyingPower = max(0, varyingSum) / n, syllabicPower = max(0, syllabicSum) / n
            let modulation = varyingPower > 1e-6 ? min(1, syllabicPower / varyingPower) : 0
            let z =
                6.5 * voicedShare + 0.42 * min(Double(spread[i]), 20) + 4.8 * modulation + 0.4 * min(syllables, 5) + 2.6 * motion
                - 9.2
            scores[i] = Float(1 / (1 + exp(-z)))
        }
        return scores
    }
}
