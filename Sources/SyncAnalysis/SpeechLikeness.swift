#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How much like speech the sound around each frame is, from what sets speech apart from music and effects
/// over about a second: many voiced frames (a voice's periodicity), a loudness that rises and falls at the
/// rate of syllables (3–8 Hz, the modulation of the speech band's level) and by many decibels, voiced runs
/// starting a few times a second, a pitch that glides (a note, a horn or a phone holds its pitch, then jumps), and a
/// spectrum whose shape keeps changing (`EnvelopeChange`: a voice's formants move; a chime's or an organ's do not).
///
/// The weights are a logistic fit on programmes of four synthetic voices over recorded music and sox effects
/// (TestSupport.Programme), rounded; a window with almost no voiced frames, or whose pitch mostly holds, is not
/// speech whatever the rest says. The spectrum's change came later, fitted on those programmes and one of recorded
/// people (`Programme.Kind.recorded`) as a penalty below 6.25 dB: recorded tonal sound taken for speech fell from 19%
/// of its frames to 12% (the synthetic programmes' music and effects likewise), speech found within 0.7%.
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
    static func scores(energies: [Float], voicing: [Float], period: [Float], change: [Float]) -> [Float] {
        var scores = [Float](repeating: 0, count: energies.count)
        forEachWindow(energies: energies, voicing: voicing, period: period, change: change) { scores[$0] = score($1) }
        return scores
    }

    /// Per frame, the window around it (`Window`), for fitting the model.
    static func windows(energies: [Float], voicing: [Float], period: [Float], change: [Float]) -> [Window] {
        var windows = [Window](repeating: Window(), count: energies.count)
        forEachWindow(energies: energies, voicing: voicing, period: period, change: change) { windows[$0] = $1 }
        return windows
    }

    /// What the score is made of, over the second around a frame.
    struct Window: Sendable {
        var voicedShare = 0.0
        /// Voiced pairs gliding less those holding, of all pairs (−1–1).
        var motion = 0.0
        var spread = 0.0
        var modulation = 0.0
        var syllables = 0.0
        /// The spectrum's shape changing (`EnvelopeChange`), dB, on average.
        var envelopeChange = 0.0
        /// Whether the window can be speech at all (voiced enough; a pitch that does not mostly hold).
        var possible = false
    }

    /// A window's score: 0 when it cannot be speech, else the logistic model's.
    static func score(_ window: Window) -> Float {
        guard window.possible else { return 0 }
        // A spectrum whose shape hardly changes (a held note, a chime) is less like speech, however it is voiced.
        let z =
            6.5 * window.voicedShare + 0.42 * min(window.spread, 20) + 4.8 * window.modulation + 0.4 * min(window.syllables, 5)
            + 2.6 * window.motion - 9.2 - 1.5 * max(0, 6.25 - window.envelopeChange)
        return Float(1 / (1 + exp(-z)))
    }

    /// Calls `body` with each frame and the window around it, in order (nothing kept per frame but what the sliding
    /// sums need).
    static func forEachWindow(
        energies: [Float], voicing: [Float], period: [Float], change: [Float], _ body: (Int, Window) -> Void
    ) {
        let count = energies.count
        guard count > 0 else { return }
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
        var counts = [0, 0, 0, 0, 0]  // voiced, pairs, held, gliding, run starts in the window
        var syllabicSum = 0.0, varyingSum = 0.0, changeSum = 0.0
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
            if frame < change.count { changeSum += Double(sign) * Double(change[frame]) }
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
            // Syllables a second: run starts in the window, as if it were a full second long.
            let syllables = Double(counts[4]) / n * Double(window)
            let varyingPower = max(0, varyingSum) / n, syllabicPower = max(0, syllabicSum) / n
            let modulation = varyingPower > 1e-6 ? min(1, syllabicPower / varyingPower) : 0
            body(
                i,
                Window(
                    voicedShare: voicedShare, motion: motion, spread: Double(spread[i]), modulation: modulation, syllables: syllables,
                    envelopeChange: max(0, changeSum) / n, possible: voicedShare >= 0.12 && motion >= -0.3))
        }
    }
}
