import MediaIO
import Streaming

/// Where the accuracy check hears a programme: decoded from the start each time it is opened, at 16 kHz mono.
public enum AccuracyAudio: Sendable {
    /// An audio stream of a media file (nil: its main one).
    case file(String, stream: Int?)
    /// An HLS package's audio: each run of its segments decoded as one stream and placed where the playlist plays it.
    case package(HLSPackage)
    /// Audio decoded already (by `MediaSpeech.detect`, with the same options), read back from its spool.
    case spooled(AudioSpool)

    func open() throws(MediaError) -> any TimedAudio {
        switch self {
        case .file(let path, let stream):
            try AudioSampleStream(path: path, options: Self.options(stream: stream))
        case .package(let package):
            PackageAudio(runs: package.placements(of: package.audioFiles))
        case .spooled(let spool):
            spool.chunks()
        }
    }

    static func options(stream: Int?) -> AudioSampleReader.Options {
        .init(streamIndex: stream, sampleRate: 16_000, resamplingFilterSize: 8)
    }
}

/// Decoded audio, chunk by chunk in the order it plays, each at its media (presentation) time.
protocol TimedAudio: AnyObject {
    func nextChunk() throws(MediaError) -> AudioChunk?
}

extension AudioSampleStream: TimedAudio {}
extension AudioSpool.Reader: TimedAudio {}

/// An HLS package's audio runs one after the other, their chunks on the presentation's timeline.
final class PackageAudio: TimedAudio {
    private var runs: ArraySlice<(run: HLSPackage.MediaFiles.Run, clock: HLSSequenceClock)>
    private var current: (reader: AudioSampleStream, clock: HLSSequenceClock)?

    init(runs: [(run: HLSPackage.MediaFiles.Run, clock: HLSSequenceClock)]) { self.runs = runs[...] }

    func nextChunk() throws(MediaError) -> AudioChunk? {
        while true {
            if let (reader, clock) = current {
                if var chunk = try reader.nextChunk() {
                    chunk.time = clock.presentationTime(chunk.time)
                    return chunk
                }
                current = nil
            }
            guard let (run, clock) = runs.popFirst() else { return nil }
            let files = run.files
            current = (try AudioSampleStream(path: files[0], followedBy: Array(files.dropFirst()), options: AccuracyAudio.options(stream: nil)), clock)
        }
    }
}
