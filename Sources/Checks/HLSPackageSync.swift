import Captions
import FileAccess
import Findings
import Foundation
import MediaIO
import Streaming
import SyncAnalysis

extension HLSPackage {
    /// The files that carry `variant`'s audio: its own when they have an audio stream, else those of its audio group's
    /// default (or first) rendition.
    func audio(of variant: HLSVariant, in playlist: HLSMultivariantPlaylist) -> MediaFiles {
        if videoFiles.runs.first?.probeFirstSegment()?.streams.contains(where: { $0.kind == .audio }) == true { return videoFiles }
        guard let group = variant.audioGroup else { return MediaFiles() }
        let renditions = playlist.renditions(type: .audio, group: group)
        guard let uri = (renditions.first { $0.isDefault } ?? renditions.first)?.uri else { return MediaFiles() }
        return mediaFiles(ofPlaylist: uri)
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

    /// The video's duration: the first variant's playlist's.
    public var duration: Double? {
        guard case .multivariant(let playlist) = self.playlist, let variant = playlist.variants.first else { return nil }
        return mediaPlaylists[variant.uri]?.duration
    }
}

extension SyncCheck {
    /// Each subtitle rendition of `package` (its `timelines`, by default read here) against the speech of its audio:
    /// a `sync` result per rendition, named by the rendition's playlist.
    public func check(
        package: HLSPackage, timelines: [(rendition: HLSRendition, document: CaptionDocument)]? = nil
    ) -> [Outcome] {
        let speech: MediaSpeech?
        var problem: String?
        do { speech = try package.speech() } catch {
            speech = nil
            problem = error.reason
        }
        let leftOut = speech == nil ? [] : package.audioFiles.unreadable
        return (timelines ?? package.subtitleTimelines()).map { rendition, captions in
            var outcome = check(
                path: package.path, duration: package.duration, mediaStart: 0, speech: speech.map { ($0.timeline, $0.stream.index) },
                captions: captions, source: package.label(of: rendition), silence: "no speech was found in the package's audio",
                noAudio: problem.map { "the package's audio cannot be decoded: \($0)" } ?? "the package has no audio")
            if !leftOut.isEmpty {
                outcome.result.markUnverified(
                    Rule.syncUnverified.finding(
                        severity: .warning,
                        message:
                            "\(HLSPackage.describe(leftOut)) of the audio could not be read: the speech in \(leftOut.count == 1 ? "it" : "them") was not heard")
                )
            }
            return outcome
        }
    }
}

extension FlashCheck {
    /// The flash check of `package`'s video (its first variant), decoded as one stream across its segments; segments
    /// that could not be read leave the result unverified.
    public func run(package: HLSPackage, progress: Progress? = nil) throws(MediaError) -> CheckResult {
        let video = package.videoFiles
        let runs = package.placements(of: video).map { (files: $0.run.files, clock: $0.clock) }
        var result = try run(runs: runs, file: package.path, duration: package.duration, progress: progress)
        if !video.unreadable.isEmpty {
            result.markUnverified(
                Rule.flashUnverified.finding(
                    severity: .warning,
                    message:
                        "\(HLSPackage.describe(video.unreadable)) of the video could not be read: flashing in \(video.unreadable.count == 1 ? "it" : "them") was not checked"
                ))
        }
        return result
    }
}

extension HLSPackage {
    /// "segment a.ts", "2 segments (a.ts, b.ts)", "12 segments (a.ts, b.ts, c.ts …)".
    static func describe(_ files: [MediaFiles.Unreadable]) -> String {
        let names = files.prefix(3).map(\.uri).joined(separator: ", ") + (files.count > 3 ? " …" : "")
        return files.count == 1 ? "segment \(names)" : "\(files.count) segments (\(names))"
    }
}

extension HLSPackage {
    /// Whether the first variant's video carries 608 captions on `channel` (CC1–CC4): its segments' A/53 data decoded
    /// in order until the channel's commands are seen. Nil when there is no video segment to read.
    public func videoCarries(_ channel: CEA608Decoder.Channel) -> Bool? {
        guard !videoFiles.segments.isEmpty else { return nil }
        var decoder = CEA608Decoder(channel: channel)
        for run in videoFiles.runs {
            for segment in run.segments {
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
