import Captions
import FileAccess
import Foundation
import MediaIO
import Streaming
import SyncAnalysis

/// What of an HLS package only decoding its media tells: where each discontinuity sequence plays, the speech in its
/// audio, whether its video carries 608 captions.
extension HLSPackage {
    /// Reads the playlist at `path` and the media playlists it names, the first segment of each run of the video
    /// probed with FFmpeg. Reading the package's media — these probes, and later its speech, its flashing, its 608
    /// captions — is given one time in all (`readDeadline`): a media file's limit for the size of all its media files
    /// (`MediaTimeLimit`), however many runs or segments they make.
    public static func load(_ path: String) throws(CaptionError) -> HLSPackage {
        var package = try readPlaylists(path)
        let deadline = ReadDeadline(allowing: MediaTimeLimit.current.seconds(forSize: package.mediaSize), for: "the package's media")
        deadline.bind {
            package.probeRuns { run in
                guard let info = run.probeFirstSegment() else { return nil }
                return SegmentFacts(
                    firstTimestamp: info.streams.first { $0.kind == .video }?.startTime ?? info.startTime,
                    hasAudio: info.streams.contains { $0.kind == .audio })
            }
        }
        if deadline.isPast {
            throw CaptionError(
                rule: "m3u8.read",
                message:
                    "\(path): reading the package's media took longer than the \(ReadDeadline.describe(seconds: deadline.allowedSeconds)) s allowed for its size (MEDIALINT_MEDIA_TIME_LIMIT)"
            )
        }
        package.readDeadline = deadline
        return package
    }

    /// The bytes of the package's media files (the first variant's and its audio's), each file counted once.
    var mediaSize: Int64 {
        var seen = Set<String>()
        var total: Int64 = 0
        for run in videoFiles.runs + audioFiles.runs {
            for file in run.files where seen.insert(file).inserted {
                var info = stat()
                if stat(file, &info) == 0 { total += Int64(info.st_size) }
            }
        }
        return total
    }

    /// The speech in the package's audio on the presentation's timeline: each run of its segments decoded as one
    /// stream, as a player appends them (one decoder across the cuts), placed where the playlist plays it. Nil when
    /// the package has no audio.
    public func speech() throws(MediaError) -> MediaSpeech? {
        var detector = SpeechDetector(sampleRate: 16_000)
        var stream: StreamInfo?
        var errors = 0
        for (run, clock) in placements(of: audioFiles) {
            let files = run.files
            let reader = try AudioSampleStream(
                path: files[0], followedBy: Array(files.dropFirst()), options: .init(sampleRate: 16_000, resamplingFilterSize: 8))
            stream = stream ?? reader.stream
            while let chunk = try reader.nextChunk() { detector.add(chunk.samples, at: clock.presentationTime(chunk.time)) }
            errors += reader.decodeErrorCount
        }
        guard let stream else { return nil }
        return MediaSpeech(timeline: detector.finish(), stream: stream, decodeErrors: errors)
    }

    /// Each run of `files` with where it plays: the clock of the video's discontinuity sequence of the same number,
    /// else the run's own first timestamp at its playlist start. Runs whose timestamps cannot be read are left out.
    func placements(of files: MediaFiles) -> [(run: MediaFiles.Run, clock: HLSSequenceClock)] {
        files.runs.compactMap { run in
            guard let clock = clocks[run.sequence] ?? Self.firstTimestamp(of: run).map({ HLSSequenceClock(origin: $0, start: run.playlistStart) })
            else { return nil }
            return (run, clock)
        }
    }

    /// The first picture of a run (else its first timestamp).
    static func firstTimestamp(of run: MediaFiles.Run) -> Double? {
        guard let info = run.probeFirstSegment() else { return nil }
        return info.streams.first { $0.kind == .video }?.startTime ?? info.startTime
    }

    /// Whether the first variant's video carries 608 captions on `channel` (CC1–CC4): its segments' A/53 data decoded
    /// in order until the channel's commands are seen. Nil when there is no video segment to read.
    public func videoCarries(_ channel: CEA608Decoder.Channel) -> Bool? {
        guard !videoFiles.segments.isEmpty else { return nil }
        var decoder = CEA608Decoder(channel: channel)
        for run in videoFiles.runs {
            for segment in run.segments {
                if ReadDeadline.current?.isPast == true { return nil }
                let (path, continuation) = run.initSection.map { ($0, [segment]) } ?? (segment, [])
                guard let info = try? MediaProbe.probe(path, followedBy: continuation, scan: .never),
                    let video = info.streams.first(where: { $0.kind == .video }),
                    let (_, chunks) = try? ClosedCaptionReader.read(path: path, followedBy: continuation, streamIndex: video.index)
                else { continue }
                for chunk in chunks {
                    for (field, first, second) in chunk.pairs608 { decoder.feed(first, second, time: chunk.time, field: field) }
                }
                if !decoder.modesUsed.isEmpty { return true }
            }
        }
        return false
    }
}

extension HLSPackage.MediaFiles.Run {
    /// Its first segment described (read with the initialisation section it needs); nil when it cannot be read.
    public func probeFirstSegment() -> MediaInfo? {
        let head = firstSegmentFiles
        guard let first = head.first else { return nil }
        return try? MediaProbe.probe(first, followedBy: Array(head.dropFirst()), scan: .never)
    }
}
