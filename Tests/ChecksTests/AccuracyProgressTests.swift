import Captions
import Checks
import MediaIO
import Synchronization
import Testing

/// `accuracy`'s progress line is fed as the cues are aligned: the media time the first pass has reached, rising to the
/// last cue's window (Media/speech.mp4: 12 s, four cues), so an hour's programme is not minutes of silence.
@Suite struct AccuracyProgressTests {
    @Test func theFirstPassSaysHowFarItHasCome() throws {
        let seen = Mutex<[Double]>([])
        var check = AccuracyCheck()
        check.progress = { time in seen.withLock { $0.append(time) } }
        let captions = try CaptionFile.read("Media/speech.srt")
        let outcome = try check.check(
            path: "Media/speech.mp4", media: try MediaProbe.probe("Media/speech.mp4"), captions: captions, source: "speech.srt", fix: nil,
            language: "en")
        #expect(outcome.result.verdict == .pass)
        let times = seen.withLock { $0 }
        #expect(times.count == 4, "one call a cue: \(times)")
        #expect(times == times.sorted())
        #expect(times.last.map { $0 > 11 && $0 <= 12.5 } == true, "\(times)")
    }
}
