#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How fast the shape of the spectrum changes, per 10 ms frame: the level in 12 bands from 150 Hz to 4 kHz (equal
/// steps on a log scale) of a 16 ms window, less their mean — the shape, not the loudness — against the frame 40 ms
/// before (the root mean square difference, dB). A voice's formants move all the time, whoever speaks and however
/// they were recorded; a held note, a chime, an organ or a hum keep their shape between onsets.
struct EnvelopeChange: Sendable {
    static let bands = 12
    /// Frames between the two shapes compared.
    static let lag = 4

    private let size: Int
    private var ring: [Float]
    private var written = 0
    private let window: [Float]
    /// Per band, the FFT bins it sums.
    private let bins: [Range<Int>]
    private var fft: FFT
    /// The last `lag` shapes, one after the other.
    private var shapes: [Float]
    private var real: [Float]
    private var imaginary: [Float]
    private let twiddleCos: [Float]
    private let twiddleSin: [Float]
    private var shape = [Float](repeating: 0, count: EnvelopeChange.bands)
    private var frames = 0
    /// Per frame: the change (dB).
    private(set) var change: [Float] = []

    init(sampleRate: Int) {
        var size = 1
        while size < sampleRate * 16 / 1000 { size *= 2 }
        self.size = size
        ring = [Float](repeating: 0, count: size)
        window = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        let edges = (0...Self.bands).map { 150 * pow(4000 / 150, Double($0) / Double(Self.bands)) }
        bins = (0..<Self.bands).map { band in
            let low = Int((edges[band] * Double(size) / Double(sampleRate)).rounded(.up))
            let high = max(low + 1, Int((edges[band + 1] * Double(size) / Double(sampleRate)).rounded(.up)))
            return low..<min(high, size / 2)
        }
        fft = FFT(size: size / 2)
        real = [Float](repeating: 0, count: size / 2)
        imaginary = [Float](repeating: 0, count: size / 2)
        twiddleCos = (0..<(size / 2)).map { Float(cos(-2 * Double.pi * Double($0) / Double(size))) }
        twiddleSin = (0..<(size / 2)).map { Float(sin(-2 * Double.pi * Double($0) / Double(size))) }
        shapes = [Float](repeating: 0, count: Self.bands * Self.lag)
    }

    /// Pads with unchanging frames up to `frames` frames (the stream skipped ahead).
    mutating func pad(toFrames frames: Int) {
        while change.count < frames { change.append(0) }
    }

    /// Takes one sample; `frameEnds` is true on the last sample of a 10 ms frame.
    @inline(__always)
    mutating func add(_ sample: Float, frameEnds: Bool) {
        ring[written & (size - 1)] = sample
        written += 1
        if frameEnds { measure() }
    }

    /// Takes samples in 10 ms frames of `frameLength`, the first of which already has `filled` samples.
    mutating func add(_ samples: UnsafeBufferPointer<Float>, frameLength: Int, filled: Int) {
        var index = 0
        var frameLeft = frameLength - filled
        while index < samples.count {
            // Up to the end of the frame, or of the samples.
            let count = min(frameLeft, samples.count - index)
            ring.withUnsafeMutableBufferPointer { ring in
                for offset in 0..<count { ring[(written + offset) & (size - 1)] = samples[index + offset] }
            }
            written += count
            index += count
            if count == frameLeft {
                measure()
                frameLeft = frameLength
            } else {
                frameLeft -= count
            }
        }
    }

    private mutating func measure() {
        // The window's real samples as half as many complex ones (even, odd), transformed, then taken apart into the
        // real signal's spectrum (`power(bin)`).
        let half = size / 2
        let start = written % size
        let mask = size - 1
        ring.withUnsafeBufferPointer { ring in
            window.withUnsafeBufferPointer { window in
                real.withUnsafeMutableBufferPointer { real in
                    imaginary.withUnsafeMutableBufferPointer { imaginary in
                        for n in 0..<half {
                            real[n] = ring[(start + 2 * n) & mask] * window[2 * n]
                            imaginary[n] = ring[(start + 2 * n + 1) & mask] * window[2 * n + 1]
                        }
                        fft.transform(real, imaginary)
                    }
                }
            }
        }
        for (band, range) in bins.enumerated() {
            var power: Float = 1e-10
            for k in range { power += self.power(bin: k) }
            shape[band] = 10 * log10(power)
        }
        let mean = shape.reduce(0, +) / Float(Self.bands)
        var sum: Float = 0
        let slot = frames % Self.lag * Self.bands
        for band in 0..<Self.bands {
            shape[band] -= mean
            let difference = shape[band] - shapes[slot + band]
            sum += difference * difference
            shapes[slot + band] = shape[band]
        }
        change.append(frames >= Self.lag ? (sum / Float(Self.bands)).squareRoot() : 0)
        frames += 1
    }

    /// The power of the last frame's windowed spectrum at `bin` (0 < bin < size / 2), from the half-size complex
    /// transform.
    @inline(__always)
    func power(bin k: Int) -> Float {
        let half = size / 2
        let (ar, ai) = (real[k], imaginary[k])
        let (br, bi) = (real[half - k], -imaginary[half - k])
        // Even part (A + conj B) / 2, odd part (A − conj B) / 2i, recombined with the twiddle e^(−2πik/size).
        let evenR = (ar + br) / 2, evenI = (ai + bi) / 2
        let oddR = (ai - bi) / 2, oddI = -(ar - br) / 2
        let (c, s) = (twiddleCos[k], twiddleSin[k])
        let xr = evenR + c * oddR - s * oddI, xi = evenI + c * oddI + s * oddR
        return xr * xr + xi * xi
    }
}

/// A radix-2 complex FFT of one size, in place.
struct FFT: Sendable {
    let size: Int
    private let cosines: [Float]
    private let sines: [Float]
    private let reversed: [Int]

    init(size: Int) {
        self.size = size
        cosines = (0..<(size / 2)).map { Float(cos(-2 * Double.pi * Double($0) / Double(size))) }
        sines = (0..<(size / 2)).map { Float(sin(-2 * Double.pi * Double($0) / Double(size))) }
        var bits = 0
        while 1 << bits < size { bits += 1 }
        reversed = (0..<size).map { index in
            var result = 0
            for bit in 0..<bits where index & (1 << bit) != 0 { result |= 1 << (bits - 1 - bit) }
            return result
        }
    }

    func transform(_ real: UnsafeMutableBufferPointer<Float>, _ imaginary: UnsafeMutableBufferPointer<Float>) {
        reversed.withUnsafeBufferPointer { reversed in
            for i in 0..<size where i < reversed[i] {
                real.swapAt(i, reversed[i])
                imaginary.swapAt(i, reversed[i])
            }
        }
        cosines.withUnsafeBufferPointer { cosines in
            sines.withUnsafeBufferPointer { sines in
                var length = 2
                while length <= size {
                    let half = length / 2, step = size / length
                    var start = 0
                    while start < size {
                        for k in 0..<half {
                            let c = cosines[k * step], s = sines[k * step]
                            let a = start + k, b = a + half
                            let tr = real[b] * c - imaginary[b] * s, ti = real[b] * s + imaginary[b] * c
                            real[b] = real[a] - tr
                            imaginary[b] = imaginary[a] - ti
                            real[a] += tr
                            imaginary[a] += ti
                        }
                        start += length
                    }
                    length *= 2
                }
            }
        }
    }
}
