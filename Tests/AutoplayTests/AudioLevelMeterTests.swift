import Foundation
import Testing

@testable import Autoplay

/// The meter on plain PCM: where sound is, on the media's timeline, with gaps in the timestamps as silence.
@Suite struct AudioLevelMeterTests {
    /// A 400 Hz sine: four whole periods in each 10 ms frame.
    static func tone(seconds: Double, amplitude: Float, rate: Int = 16_000) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { amplitude * Float(sin(2 * Double.pi * 400 * Double($0) / Double(rate))) }
    }

    @Test func findsTheSoundBetweenSilences() {
        var meter = AudioLevelMeter()
        meter.add([Float](repeating: 0, count: 16_000), at: 0.5)
        meter.add(Self.tone(seconds: 1.5, amplitude: 0.5), at: 1.5)
        meter.add([Float](repeating: 0, count: 8_000), at: 3)
        let activity = meter.finish(duration: 4)
        #expect(activity.duration == 4 && activity.hasAudio)
        #expect(activity.audible == [1.5...3.0])
        #expect(activity.audibleSeconds(from: 0, to: 2) == 0.5)
        // A sine of amplitude 0.5 has an RMS level of 20·log10(0.5/√2) ≈ -9 dBFS.
        #expect(abs(Double(meter.levels[150]) - 20 * log10(0.5 / 2.0.squareRoot())) < 0.01)
    }

    @Test func aGapInTimeIsSilenceAndQuietSoundIsNotAudible() {
        var meter = AudioLevelMeter()
        meter.add(Self.tone(seconds: 1, amplitude: 0.5), at: 0)
        meter.add(Self.tone(seconds: 1, amplitude: 0.5), at: 3)  // nothing from 1 s to 3 s
        meter.add(Self.tone(seconds: 1, amplitude: 0.001), at: 4)  // about -63 dBFS: below -50
        let activity = meter.finish(duration: nil)
        #expect(activity.audible == [0...1, 3...4])
        #expect(activity.duration == 5)
        #expect(meter.levels[150] == -200)
    }
}
