import Foundation
import Testing

@testable import SyncAnalysis

/// The spectrum's changing shape (`EnvelopeChange`): a held tone keeps its shape, a tone that moves from one band to
/// another changes it; the transform it rests on agrees with the discrete Fourier transform summed by hand.
@Suite struct EnvelopeChangeTests {
    @Test func theFastTransformIsTheDiscreteOne() {
        let size = 64
        let signal = (0..<size).map { Float(sin(Double($0) * 0.7) + 0.3 * cos(Double($0) * 2.1)) }
        var real = signal, imaginary = [Float](repeating: 0, count: size)
        let fft = FFT(size: size)
        real.withUnsafeMutableBufferPointer { real in imaginary.withUnsafeMutableBufferPointer { fft.transform(real, $0) } }
        for k in [0, 1, 5, 11, 32, 63] {
            var re = 0.0, im = 0.0
            for (n, x) in signal.enumerated() {
                re += Double(x) * cos(-2 * Double.pi * Double(k * n) / Double(size))
                im += Double(x) * sin(-2 * Double.pi * Double(k * n) / Double(size))
            }
            #expect(abs(Double(real[k]) - re) < 1e-3 && abs(Double(imaginary[k]) - im) < 1e-3, "bin \(k)")
        }
    }

    /// 16 kHz: a 440 Hz tone held for a second hardly changes the shape (its far bands' leakage, a dB or so); one that
    /// steps between 440 Hz and 2 kHz every 50 ms changes it by many decibels. Each bin's power is that of the windowed
    /// frame's discrete Fourier transform.

    @Test func aHeldToneKeepsItsShapeAndAMovingOneDoesNot() {
        func change(_ frequency: (Int) -> Double) -> Float {
            var envelope = EnvelopeChange(sampleRate: 16_000)
            var phase = 0.0
            for n in 0..<16_000 {
                phase += 2 * Double.pi * frequency(n) / 16_000
                envelope.add(Float(0.5 * sin(phase)), frameEnds: n % 160 == 159)
            }
            let steady = envelope.change[20...]
            return steady.reduce(0, +) / Float(steady.count)
        }
        // The last frame's bins against the transform summed by hand.
        var envelope = EnvelopeChange(sampleRate: 16_000)
        let signal = (0..<480).map { Float(sin(Double($0) * 0.37) + 0.5 * sin(Double($0) * 1.9)) }
        for (n, x) in signal.enumerated() { envelope.add(x, frameEnds: n % 160 == 159) }
        let frame = Array(signal.suffix(256)).enumerated().map { Double($1) * (0.5 - 0.5 * cos(2 * Double.pi * Double($0) / 256)) }
        for k in [3, 10, 40, 64] {
            var re = 0.0, im = 0.0
            for (n, x) in frame.enumerated() {
                re += x * cos(-2 * Double.pi * Double(k * n) / 256)
                im += x * sin(-2 * Double.pi * Double(k * n) / 256)
            }
            let power = re * re + im * im
            #expect(abs(Double(envelope.power(bin: k)) - power) <= 1e-3 * max(1, power), "bin \(k): \(envelope.power(bin: k)) against \(power)")
        }
        let held = change { _ in 440 }
        let moving = change { $0 / 800 % 2 == 0 ? 440 : 2000 }
        #expect(held < 1.5, "\(held)")
        #expect(moving > 5, "\(moving)")
    }
}
