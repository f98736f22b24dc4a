import Captions
import Checks
import MediaIO
import Testing

/// `accuracy` hears the audio `sync` decoded (kept on disk), not a second decoding of the media: the same samples at the
/// same times, so the same words are found at the same times with the same scores.
@Suite struct AccuracyAudioTests {
    @Test func theKeptAudioIsWhatADecodingGives() throws {
        let speech = try MediaSpeech.detect(path: "Media/speech.mp4", keepAudio: true)
        let spool = try #require(speech.audio)
        let decoded = try AudioSampleStream(path: "Media/speech.mp4", options: .init(sampleRate: 16_000, resamplingFilterSize: 8))
        let kept = spool.chunks()
        var count = 0
        while let chunk = try decoded.nextChunk() {
            #expect(try kept.nextChunk() == chunk)
            count += chunk.samples.count
        }
        #expect(try kept.nextChunk() == nil)
        #expect(count >= 12 * 16_000 - 800 && count <= 12 * 16_000 + 800, "\(count) samples")
        #expect(try MediaSpeech.detect(path: "Media/speech.mp4").audio == nil, "kept only when asked")
    }

    @Test func accuracyFindsTheSameOnTheKeptAudio() throws {
        let captions = try CaptionFile.read("Media/speech.srt")
        let media = try MediaProbe.probe("Media/speech.mp4")
        let check = AccuracyCheck()
        let decoding = try check.check(path: "Media/speech.mp4", media: media, captions: captions, source: "speech.srt", fix: nil, language: "en")
        let kept = try check.check(
            path: "Media/speech.mp4", media: media, captions: captions, source: "speech.srt", fix: nil, language: "en",
            speech: MediaSpeech.detect(path: "Media/speech.mp4", keepAudio: true))
        #expect(decoding.result.verdict == .pass)
        #expect(kept.cues == decoding.cues)
        #expect(kept.cues.flatMap(\.words).count == decoding.cues.flatMap(\.words).count && !kept.cues.flatMap(\.words).isEmpty)
    }
}
