#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where speech is, in 10 ms frames on the media's timeline.
public struct SpeechTimeline: Sendable {
    /// Frames per second (100: 10 ms frames).
    public static let framesPerSecond = 100.0
    /// Time of frame 0 in seconds.
    public var start: Double
    /// 1 where there is speech.
    public var mask: [UInt8]
    /// `prefix[i]` is the number of speech frames before frame i (for overlaps in constant time).
    public var prefix: [Int32]
    /// The speech threshold used, in dB full scale (for reports).
    public var thresholdDecibels: Double
    /// The noise floor found, in dB full scale.
    public var noiseFloorDecibels: Double
    /// Where speech starts after at least 100 ms below the threshold, in seconds. Finer than the starts of
    /// `segments`: the hangover and gap bridging join words and lines that follow each other closely.
    public var onsets: [Double]
    /// Per onset, how much louder the speech after it is than the sound before it (dB); empty when not measured.
    public var onsetContrasts: [Float]
    /// Per frame, how much like speech the sound around it is (0–1; `SpeechLikeness`); empty when the detector
    /// went by level alone.
    public var likeness: [Float]
    /// Per frame, the speech band's level (dB) and voicing (0–1), for what is decided cue by cue: a short word, too
    /// short to sound like speech over a second, or a sung line are voiced sound where a cue expects it. Empty for a
    /// timeline built from a mask alone.
    public var levels: [Float] = []
    public var voicing: [Float] = []
    /// 1 where the sound is above the speech threshold and voiced, whether or not it sounds like speech over a second
    /// (a short word in a pause, a sung line, an instrument's note), held over 100 ms; empty without levels.
    public var voicedSound: [UInt8] = []
    /// Per frame, how much the spectrum's shape changes (`EnvelopeChange`, dB): a voice's formants move, a tone's do
    /// not. Empty without levels.
    public var shapeChange: [Float] = []

    /// A timeline from its speech mask; `onsets` default to the starts of the mask's segments.
    public init(
        start: Double, mask: [UInt8], onsets: [Double]? = nil, onsetContrasts: [Float] = [], likeness: [Float] = [],
        thresholdDecibels: Double = 0,
        noiseFloorDecibels: Double = 0
    ) {
        self.start = start
        self.mask = mask
        self.likeness = likeness
        self.onsetContrasts = onsetContrasts
        var prefix = [Int32](repeating: 0, count: mask.count + 1)
        for i in 0..<mask.count { prefix[i + 1] = prefix[i] + Int32(mask[i]) }
        self.prefix = prefix
        self.thresholdDecibels = thresholdDecibels
        self.noiseFloorDecibels = noiseFloorDecibels
        self.onsets = []
        self.onsets = onsets ?? segments.map(\.start)
    }

    public var duration: Double { Double(mask.count) / Self.framesPerSecond }

    /// Seconds of speech between `from` and `to` (media seconds).
    public func speech(from: Double, to: Double) -> Double {
        let a = frame(at: from), b = frame(at: to)
        guard b > a else { return 0 }
        return Double(prefix[b] - prefix[a]) / Self.framesPerSecond
    }

    /// The frame index of a time, clamped to the timeline.
    public func frame(at time: Double) -> Int {
        min(mask.count, max(0, Int(((time - start) * Self.framesPerSecond).rounded())))
    }

    public func time(ofFrame frame: Int) -> Double { start + Double(frame) / Self.framesPerSecond }

    /// Total seconds of speech.
    public var totalSpeech: Double { Double(prefix.last ?? 0) / Self.framesPerSecond }

    /// The median, over 1 s windows every 0.25 s from frame `from` to `to`, of the speech band level's standard
    /// deviation (dB; silence counted at −100 dB); nil without levels.
    public func levelSpread(fromFrame from: Int, to: Int) -> Float? {
        guard !levels.isEmpty else { return nil }
        // Window centres every 0.25 s; at least one (a stretch shorter than a window is measured whole).
        let first = max(from, 50), limit = min(to, levels.count - 50)
        let centres = first < limit ? Array(stride(from: first, to: limit, by: 25)) : [first]
        var spreads: [Float] = []
        for centre in centres {
            let low = max(0, centre - 50), high = min(levels.count, centre + 50)
            guard high > low else { break }
            var sum: Float = 0, squares: Float = 0
            for i in low..<high {
                let level = max(levels[i], -100)
                sum += level
                squares += level * level
            }
            let n = Float(high - low), mean = sum / n
            spreads.append(max(0, squares / n - mean * mean).squareRoot())
        }
        spreads.sort()
        return spreads.isEmpty ? nil : spreads[spreads.count / 2]
    }

    /// Seconds of voiced sound (`voicedSound`) between `from` and `to` (media seconds); 0 without levels.
    public func voicedSound(from: Double, to: Double) -> Double {
        let a = frame(at: from), b = min(frame(at: to), voicedSound.count)
        guard b > a else { return 0 }
        var frames = 0
        for i in a..<b where voicedSound[i] == 1 { frames += 1 }
        return Double(frames) / Self.framesPerSecond
    }

    /// The share of voiced sound in the frames without speech within `reach` seconds before `start` and after `end`
    /// (a bed or an interlude going on around a cue); 0 when fewer than half a second of such frames are there.
    public func voicedShare(around start: Double, _ end: Double, reach: Double = 2) -> Double {
        guard !voicedSound.isEmpty else { return 0 }
        let count = min(mask.count, voicedSound.count)
        var frames = 0, voiced = 0
        let before = min(frame(at: start - reach), count)..<min(frame(at: start), count)
        let after = min(frame(at: end), count)..<min(frame(at: end + reach), count)
        for range in [before, after] {
            for i in range where mask[i] == 0 {
                frames += 1
                voiced += Int(voicedSound[i])
            }
        }
        return frames >= 50 ? Double(voiced) / Double(frames) : 0
    }

    /// The median change of the spectrum's shape (`shapeChange`, dB) over the voiced-sound frames between `from` and
    /// `to` (media seconds); 0 when none.
    public func shapeChangeOfVoicedSound(from: Double, to: Double) -> Double {
        let a = frame(at: from), b = min(frame(at: to), voicedSound.count, shapeChange.count)
        guard b > a else { return 0 }
        var changes: [Float] = []
        for i in a..<b where voicedSound[i] == 1 { changes.append(shapeChange[i]) }
        guard !changes.isEmpty else { return 0 }
        changes.sort()
        return Double(changes[changes.count / 2])
    }

    /// The mean speech likeness of the speech frames from frame `from` to `to` (1 without likeness scores).
    public func likeness(fromFrame from: Int, to: Int) -> Double {
        guard !likeness.isEmpty else { return 1 }
        let low = max(0, from), high = min(to, mask.count, likeness.count)
        guard high > low else { return 0 }
        var sum = 0.0, frames = 0
        for i in low..<high where mask[i] == 1 {
            sum += Double(likeness[i])
            frames += 1
        }
        return frames > 0 ? sum / Double(frames) : 0
    }

    /// How long the audio was without speech just before `time`, in seconds (up to `limit`; the start of the
    /// timeline counts as quiet).
    public func quiet(before time: Double, limit: Double = 1) -> Double {
        let frame = self.frame(at: time)
        let frames = Int(limit * Self.framesPerSecond)
        var count = 0
        while count < frames, frame - count - 1 >= 0, mask[frame - count - 1] == 0 { count += 1 }
        if frame - count - 1 < 0 { return limit }
        return Double(count) / Self.framesPerSecond
    }

    /// Speech segments as (start, end) seconds.
    public var segments: [(start: Double, end: Double)] {
        var result: [(Double, Double)] = []
        var open: Int?
        for i in 0..<mask.count {
            if mask[i] == 1, open == nil { open = i }
            if mask[i] == 0, let from = open {
                result.append((time(ofFrame: from), time(ofFrame: i)))
                open = nil
            }
        }
        if let from = open { result.append((time(ofFrame: from), time(ofFrame: mask.count))) }
        return result
    }
}

/// Voice activity over 16 kHz mono PCM, without dependencies: the energy of the speech band (a 300–3400 Hz
/// band-pass) per 10 ms frame, against a noise floor measured from the signal itself (a low percentile of
/// frame energies over the surrounding 30 s), so that a steady noise bed raises the threshold with it.
/// Frames above the threshold are speech; short gaps are bridged and a hangover holds speech over the tails
/// of words.
public struct SpeechDetector: Sendable {
    public let sampleRate: Int
    /// How far above the noise floor speech must be, in dB.
    public var margin: Double = 12
    /// Nothing quieter than this is speech, in dB full scale (digital silence has no noise floor).
    public var absoluteFloor: Double = -55
    /// Speech held after the energy drops, and gaps bridged, in seconds.
    public var hangover: Double = 0.10
    public var bridge: Double = 0.15
    /// Whether loud sound must also sound like speech (`SpeechLikeness`): voiced, with a changing spectrum, syllabic rhythm and a
    /// moving pitch. Off: every frame loud enough is speech (music and effects too).
    public var requiresSpeechLikeness = true

    private let frameLength: Int
    /// Band energy per frame in dB; the timeline is built from these at the end (4 bytes per 10 ms).
    private var energies: [Float] = []
    private var start: Double?
    private var filter: BandPass
    private var pitch: PitchTracker
    private var envelope: EnvelopeChange
    private var frameSum: Double = 0
    private var frameFill = 0

    /// What `pitch` holds while `add` works on its own copy.
    private static let idlePitch = PitchTracker(sampleRate: 16_000)

    public init(sampleRate: Int = 16_000) {
        self.sampleRate = sampleRate
        frameLength = sampleRate / 100
        filter = BandPass(sampleRate: Double(sampleRate), low: 300, high: 3400)
        pitch = PitchTracker(sampleRate: sampleRate)
        envelope = EnvelopeChange(sampleRate: sampleRate)
    }

    /// Adds samples whose first one plays at `time` seconds; gaps in time are filled with silence.
    public mutating func add(_ samples: [Float], at time: Double) {
        if start == nil { start = time }
        guard let start else { return }
        // Where this chunk belongs: pad with silent frames if the stream skipped ahead.
        let expectedFrame = Int(((time - start) * 100).rounded(.down))
        while energies.count < expectedFrame {
            energies.append(-120)
        }
        pitch.pad(toFrames: energies.count)
        envelope.pad(toFrames: energies.count)
        samples.withUnsafeBufferPointer { envelope.add($0, frameLength: frameLength, filled: frameFill) }
        // The filter and frame state live in locals for the loop (no access to `self` per sample).
        // (The tracker's arrays are left to the local alone, or every chunk would copy them whole on its first frame.)
        var filter = self.filter
        var pitch = self.pitch
        self.pitch = Self.idlePitch
        var sum = frameSum, fill = frameFill
        let length = frameLength
        for sample in samples {
            let value = Double(sample)
            let filtered = filter.process(value)
            sum += filtered * filtered
            fill += 1
            let frameEnds = fill == length
            pitch.add(value, frameEnds: frameEnds)
            if frameEnds {
                energies.append(Float(10 * log10(max(sum / Double(length), 1e-12))))
                sum = 0
                fill = 0
                filter.flushTinyState()
            }
        }
        self.filter = filter
        self.pitch = pitch
        frameSum = sum
        frameFill = fill
    }

    /// Per 10 ms frame: the speech band's level (dB), voicing (0–1), pitch period (s) and speech likeness (0–1).
    public func features() -> (level: [Float], voicing: [Float], period: [Float], likeness: [Float]) {
        (
            energies, pitch.voicing, pitch.period,
            SpeechLikeness.scores(energies: energies, voicing: pitch.voicing, period: pitch.period, change: envelope.change)
        )
    }

    /// Per frame, what its speech likeness is made of (for fitting the model).
    func likenessWindows() -> [SpeechLikeness.Window] {
        SpeechLikeness.windows(energies: energies, voicing: pitch.voicing, period: pitch.period, change: envelope.change)
    }

    /// The speech timeline.
    public func finish() -> SpeechTimeline {
        let count = energies.count
        guard count > 0 else { return SpeechTimeline(start: start ?? 0, mask: []) }
        // Noise floor: the 10th percentile of frame energies over 30 s windows (every 10 s, interpolated).
        let window = 3000, hop = 1000
        var floors: [(center: Int, level: Float)] = []
        var from = 0
        while true {
            let to = min(count, from + window)
            var slice = Array(energies[from..<to])
            let k = slice.count / 10
            slice.withUnsafeMutableBufferPointer { buffer in _ = quickSelect(buffer, k) }
            floors.append(((from + to) / 2, slice[k]))
            if to == count { break }
            from += hop
        }
        var mask = [UInt8](repeating: 0, count: count)
        var floorSum = 0.0
        var thresholdSum = 0.0
        var f = 0
        for i in 0..<count {
            while f + 1 < floors.count && floors[f + 1].center <= i { f += 1 }
            let floor: Float
            if f + 1 < floors.count, i > floors[f].center {
                let t = Float(i - floors[f].center) / Float(floors[f + 1].center - floors[f].center)
                floor = floors[f].level + t * (floors[f + 1].level - floors[f].level)
            } else {
                floor = floors[f].level
            }
            let threshold = max(Double(floor) + margin, absoluteFloor)
            floorSum += Double(floor)
            thresholdSum += threshold
            mask[i] = Double(energies[i]) > threshold ? 1 : 0
        }
        // Voiced sound above the threshold, held over 100 ms, before speech likeness is asked for.
        var voiced = [UInt8](repeating: 0, count: count)
        var held = 0
        for i in 0..<count {
            if mask[i] == 1, i < pitch.voicing.count, pitch.voicing[i] >= SpeechLikeness.voicedAbove {
                voiced[i] = 1
                held = Int(hangover * 100)
            } else if held > 0 {
                voiced[i] = 1
                held -= 1
            }
        }
        var likeness: [Float] = []
        if requiresSpeechLikeness {
            likeness = SpeechLikeness.scores(energies: energies, voicing: pitch.voicing, period: pitch.period, change: envelope.change)
        }
        // Onsets from the frames above the threshold themselves, before any smoothing; where loud sound is not
        // speech-like, it starts no speech.
        var onsetFrames: [Int] = []
        var quiet = 10
        for i in 0..<count {
            if mask[i] == 1 {
                if quiet >= 10, likeness.isEmpty || Self.speechLike(likeness, from: i) { onsetFrames.append(i) }
                quiet = 0
            } else {
                quiet += 1
            }
        }
        var onsets = onsetFrames.map { (start ?? 0) + Double($0) / 100 }
        var contrasts: [Float] = []
        if !likeness.isEmpty {
            (onsets, contrasts) = Self.speechOnsets(onsetFrames, energies, pitch.voicing, likeness, start: start ?? 0)
            for i in 0..<count where likeness[i] < SpeechLikeness.speechAbove { mask[i] = 0 }
        }
        // Hangover: hold speech a little after each frame above the threshold; then bridge short gaps.
        let hold = Int(hangover * 100), gap = Int(bridge * 100)
        var remaining = 0
        for i in 0..<count {
            if mask[i] == 1 { remaining = hold } else if remaining > 0 { mask[i] = 1; remaining -= 1 }
        }
        var lastSpeech = -1
        for i in 0..<count where mask[i] == 1 {
            if lastSpeech >= 0, i - lastSpeech - 1 <= gap { for j in (lastSpeech + 1)..<i { mask[j] = 1 } }
            lastSpeech = i
        }
        var timeline = SpeechTimeline(
            start: start ?? 0, mask: mask, onsets: onsets, onsetContrasts: contrasts, likeness: likeness, thresholdDecibels: thresholdSum / Double(count),
            noiseFloorDecibels: floorSum / Double(count))
        timeline.levels = energies
        timeline.voicing = pitch.voicing
        timeline.voicedSound = voiced
        timeline.shapeChange = envelope.change
        return timeline
    }
}

extension SpeechDetector {
    /// Whether speech-like sound (`SpeechLikeness.speechAbove`) follows frame `from` within `frames` frames (0.3 s).
    static func speechLike(_ likeness: [Float], from: Int, within frames: Int = 30) -> Bool {
        for i in from..<min(likeness.count, from + frames) where likeness[i] >= SpeechLikeness.speechAbove { return true }
        return false
    }

    /// Speech onsets under a bed of music or noise: the frames where loud sound starts after 100 ms below the
    /// threshold (`thresholdOnsets`), and the frames where the speech band's level starts a rise of 10 dB or more
    /// over its lowest in the 250 ms before, or of 8 dB over its highest in the 150 ms before — which a bed that
    /// never falls below the threshold hides from the first kind — followed by voicing within 250 ms and
    /// speech-like sound within half a second. Each keeps its contrast: the level over the 200 ms after it against
    /// the loud end (80th percentile) of the 300 ms before, in dB; an onset with none is dropped. A sentence after
    /// a pause has a high contrast, a word after a short gap within it a low one.
    static func speechOnsets(
        _ thresholdOnsets: [Int], _ energies: [Float], _ voicing: [Float], _ likeness: [Float], start: Double
    ) -> (times: [Double], contrasts: [Float]) {
        let count = energies.count
        var rises: [Int] = []
        var last = -100
        if count > 25 {
            for i in 25..<count where i - last >= 10 {
                var low = energies[i - 25], high = energies[i - 15]
                for j in (i - 24)..<i { low = min(low, energies[j]) }
                for j in (i - 14)..<i { high = max(high, energies[j]) }
                // A rise of 10 dB over the lowest level of the last 250 ms, or of 8 dB over the highest of the last
                // 150 ms (a bed that wavers hides the first); back to where it leaves the level before it.
                var rise = i
                if energies[i] - low >= 10, energies[i - 1] - low < 10 {
                    while rise > i - 6, energies[rise - 1] > max(low, -70) + 6 { rise -= 1 }
                } else if energies[i] - high >= 8 {
                    while rise > i - 6, energies[rise - 1] > high + 2 { rise -= 1 }
                } else {
                    continue
                }
                var voiced = false
                for j in i..<min(count, i + 25) where j < voicing.count && voicing[j] >= SpeechLikeness.voicedAbove {
                    voiced = true
                    break
                }
                if voiced, speechLike(likeness, from: i, within: 50) {
                    rises.append(rise)
                    last = i
                }
            }
        }
        // A rise within 80 ms of an onset found by the threshold is that onset.
        var frames = thresholdOnsets
        var next = 0
        for rise in rises {
            while next < thresholdOnsets.count, thresholdOnsets[next] < rise - 8 { next += 1 }
            if next < thresholdOnsets.count, thresholdOnsets[next] <= rise + 8 { continue }
            frames.append(rise)
        }
        frames.sort()
        var times: [Double] = [], contrasts: [Float] = []
        for frame in frames {
            var contrast: Float = 20
            if frame > 5 {
                let after = energies[frame..<min(count, frame + 20)]
                var before = Array(energies[max(0, frame - 30)..<frame])
                before.sort()
                contrast = after.reduce(0, +) / Float(after.count) - before[min(before.count - 1, before.count * 8 / 10)]
            }
            guard contrast >= 0 else { continue }
            times.append(start + Double(frame) / 100)
            contrasts.append(contrast)
        }
        return (times, contrasts)
    }
}

/// A band-pass made of a second-order high-pass and low-pass (RBJ biquads).
struct BandPass: Sendable {
    private var high: Biquad
    private var low: Biquad

    init(sampleRate: Double, low lowCut: Double, high highCut: Double) {
        high = Biquad(highPass: lowCut, sampleRate: sampleRate)
        low = Biquad(lowPass: highCut, sampleRate: sampleRate)
    }

    @inline(__always)
    mutating func process(_ x: Double) -> Double { low.process(high.process(x)) }

    /// Sets a state that has decayed to nothing to exactly zero. Over digital silence the filters' memory
    /// would otherwise decay into subnormal numbers, which the processor handles many times slower.
    mutating func flushTinyState() {
        high.flushTinyState()
        low.flushTinyState()
    }
}

struct Biquad: Sendable {
    private let b0, b1, b2, a1, a2: Double
    private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

    /// A second-order low-pass at `frequency` with quality `q` (0.7071: Butterworth).
    init(lowPass frequency: Double, sampleRate: Double, q: Double = 0.7071) {
        let w = 2 * Double.pi * frequency / sampleRate, alpha = sin(w) / (2 * q), cosine = cos(w)
        let a0 = 1 + alpha
        b0 = (1 - cosine) / 2 / a0
        b1 = (1 - cosine) / a0
        b2 = b0
        a1 = -2 * cosine / a0
        a2 = (1 - alpha) / a0
    }

    init(highPass frequency: Double, sampleRate: Double, q: Double = 0.7071) {
        let w = 2 * Double.pi * frequency / sampleRate, alpha = sin(w) / (2 * q), cosine = cos(w)
        let a0 = 1 + alpha
        b0 = (1 + cosine) / 2 / a0
        b1 = -(1 + cosine) / a0
        b2 = b0
        a1 = -2 * cosine / a0
        a2 = (1 - alpha) / a0
    }

    mutating func flushTinyState() {
        if abs(x1) < 1e-15 { x1 = 0 }
        if abs(x2) < 1e-15 { x2 = 0 }
        if abs(y1) < 1e-15 { y1 = 0 }
        if abs(y2) < 1e-15 { y2 = 0 }
    }

    @inline(__always)
    mutating func process(_ x: Double) -> Double {
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2 = x1
        x1 = x
        y2 = y1
        y1 = y
        return y
    }
}

/// Puts the `k`-th smallest element at index `k` (Hoare's selection, expected linear time).
@discardableResult
func quickSelect(_ values: UnsafeMutableBufferPointer<Float>, _ k: Int) -> Float {
    var low = 0, high = values.count - 1
    while low < high {
        let pivot = values[(low + high) / 2]
        var i = low, j = high
        while i <= j {
            while values[i] < pivot { i += 1 }
            while values[j] > pivot { j -= 1 }
            if i <= j {
                values.swapAt(i, j)
                i += 1
                j -= 1
            }
        }
        if k <= j { high = j } else if k >= i { low = i } else { break }
    }
    return values[k]
}
