import Captions
import Foundation
import SyncAnalysis
import TestSupport
import TestTraits
import Testing

/// The sync verdict does not flip on what nobody can hear: each programme's mix moved later by 1 to 100 samples
/// (62 µs to 6 ms), or with noise 80 dB below full scale added, gives the same findings for every caption case — on
/// time, late, early, drifted, cut, inserted, two breaks, sentences left out: the same breaks (each within half a second
/// of where it was), the same offsets and drift, every fixed cue within 0.1 s of where it was (`SyncOutcome`). (Through
/// an AAC encoder at another bit rate, and resampled to 44.1 kHz: ChecksTests' SyncMetamorphicDecodeTests.)
@Suite(.tags(.media, .slow), .notInFastRun) struct SyncMetamorphicTests {
    /// The delays, in samples (16 kHz): 1, 7, 37 and 100 — or every one from 1 to 100 with `MEDIALINT_EVERY_DELAY=1`
    /// (4,500 comparisons, two minutes of two cores; all alike when last run).
    static let delays = ProcessInfo.processInfo.environment["MEDIALINT_EVERY_DELAY"] == "1" ? Array(1...100) : [1, 7, 37, 100]

    static func timeline(_ samples: [Float]) -> SpeechTimeline {
        var detector = SpeechDetector(sampleRate: 16_000)
        detector.add(samples, at: 0)
        return detector.finish()
    }

    @Test(arguments: Programme.Kind.allCases) func inaudibleChangesGiveTheSameFindings(kind: Programme.Kind) throws {
        let programme = try Programme.forTests(kind)
        let samples = try programme.samples()
        let cases = programme.cases.filter { $0.name != "captioner" }
        let captions = try cases.map { try CaptionFile.read(Array(programme.captions($0.variant).utf8), format: .srt) }
        let base = Self.timeline(samples)
        let baseline = captions.map { SyncOutcome(captions: $0, speech: base) }
        var changes: [(name: String, samples: [Float])] = Self.delays.map { ("\($0) samples later", InaudibleChanges.delayed(samples, by: $0)) }
        changes.append(("noise at −80 dBFS", InaudibleChanges.withNoise(samples)))
        var flips: [String] = []
        for change in changes {
            let speech = Self.timeline(change.samples)
            for (index, (name, _)) in cases.enumerated() {
                let differences = SyncOutcome(captions: captions[index], speech: speech).differences(from: baseline[index])
                if !differences.isEmpty { flips.append("\(kind) \(name), \(change.name): \(differences.joined(separator: "; "))") }
            }
        }
        for flip in flips { print(flip) }
        #expect(flips.isEmpty, "\(flips.count) of \(changes.count * cases.count)")
    }
}
