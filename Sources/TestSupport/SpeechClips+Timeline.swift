import Foundation
import SyncAnalysis
import Synchronization

extension SpeechClips {
    /// The speech timeline the detector finds in the script's PCM, in memory (no encoding, no decoding); with
    /// `noiseBelowSpeech` dB, under the white noise bed of `samples(noiseBelowSpeech:)`. Found once per process.
    package static func timeline(noiseBelowSpeech: Double? = nil) throws -> SpeechTimeline {
        try timelines.withLock { found in
            if let known = found[noiseBelowSpeech ?? 0] { return known }
            var detector = SpeechDetector(sampleRate: sampleRate)
            detector.add(try samples(noiseBelowSpeech: noiseBelowSpeech), at: 0)
            let timeline = detector.finish()
            found[noiseBelowSpeech ?? 0] = timeline
            return timeline
        }
    }

    private static let timelines = Mutex<[Double: SpeechTimeline]>([:])
}
