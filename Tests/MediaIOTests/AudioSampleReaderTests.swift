import Foundation
import Testing

@testable import MediaIO

/// Mono Float32 PCM at a chosen rate, with presentation times.
@Suite struct AudioSampleReaderTests {
    /// audio-only.ogg: 1 s silence, 3 s of 440 Hz at −12 dBFS peak, 1 s silence (5.0065 s in all).
    @Test func toneIsWhereItWasPlaced() throws {
        let audio = try readAll(TestMedia.path("audio-only.ogg"), rate: 16_000)
        #expect(abs(audio.start) < 0.001)
        let seconds: Double = Double(audio.samples.count) / 16_000.0
        #expect(abs(seconds - 5.0065) < 0.01)
        let peak = pow(10, -12.0 / 20)
        #expect(abs(rms(audio, from: 1.2, to: 3.8) - peak / 2.0.squareRoot()) < 0.01)
        #expect(rms(audio, from: 0.1, to: 0.8) < 0.001)
        #expect(rms(audio, from: 4.2, to: 4.9) < 0.001)
    }

    @Test func chunksAreContiguous() throws {
        let reader = try AudioSampleReader(path: TestMedia.path("speech.mp4"), options: .init(sampleRate: 8_000))
        #expect(reader.sampleRate == 8_000)
        var expected: Double?
        var total = 0
        while let chunk = try reader.nextChunk() {
            if let expected { #expect(abs(chunk.time - expected) < 1.0 / 8_000) }
            expected = chunk.time + Double(chunk.samples.count) / 8_000
            total += chunk.samples.count
        }
        #expect(abs(Double(total) / 8_000 - 12.0) < 0.03)
    }

    /// speech.mp4: speech inside each caption's interval, silence between them.
    @Test func speechFallsInsideTheCaptions() throws {
        let audio = try readAll(TestMedia.path("speech.mp4"), rate: 16_000)
        let cues = [(0.5, 2.824), (3.5, 6.092), (6.5, 9.312), (9.5, 11.728)]
        for (start, end) in cues {
            #expect(rms(audio, from: start + 0.1, to: end - 0.1) > 0.02, "speech at \(start)")
        }
        for (gapStart, gapEnd) in [(0.0, 0.45), (2.9, 3.45), (6.15, 6.45), (9.35, 9.45)] {
            #expect(rms(audio, from: gapStart, to: gapEnd) < 0.002, "silence at \(gapStart)")
        }
    }

    @Test func rejectsANonPositiveRate() {
        #expect(throws: MediaError.self) { try AudioSampleReader(path: TestMedia.path("speech.mp4"), options: .init(sampleRate: 0)) }
    }

    private struct Audio {
        var start: Double
        var samples: [Float]
    }

    private func readAll(_ path: String, rate: Int) throws -> Audio {
        let reader = try AudioSampleReader(path: path, options: .init(sampleRate: rate))
        var audio: Audio?
        while let chunk = try reader.nextChunk() {
            if audio == nil { audio = Audio(start: chunk.time, samples: []) }
            audio?.samples += chunk.samples
        }
        return try #require(audio)
    }

    private func rms(_ audio: Audio, from start: Double, to end: Double) -> Double {
        let first = Int((start - audio.start) * 16_000), last = Int((end - audio.start) * 16_000)
        let slice = audio.samples[max(0, first)..<min(audio.samples.count, last)]
        return (slice.reduce(0) { $0 + Double($1) * Double($1) } / Double(slice.count)).squareRoot()
    }
}
