import Captions
import FileAccess
import Findings
import Foundation
import MediaIO
import Streaming
import SyncAnalysis

extension HLSPackage {
    /// The files that carry the presentation's audio: the first variant's own when they have an audio stream, else
    /// those of its audio group's default (or first) rendition.
    func audioFiles() -> MediaFiles {
        guard case .multivariant(let playlist) = self.playlist, let variant = playlist.variants.first else { return MediaFiles() }
        let own = mediaFiles(ofPlaylist: variant.uri)
        if let first = own.head.first, let info = try? MediaProbe.probe(first, followedBy: Array(own.head.dropFirst()), scan: .never),
            info.streams.contains(where: { $0.kind == .audio })
        {
            return own
        }
        guard let group = variant.audioGroup else { return MediaFiles() }
        let renditions = playlist.renditions(type: .audio, group: group)
        guard let uri = (renditions.first { $0.isDefault } ?? renditions.first)?.uri else { return MediaFiles() }
        return mediaFiles(ofPlaylist: uri)
    }

    /// The speech in the package's audio on the presentation's timeline: each run of its segments decoded as one
    /// stream, as a player appends them (one decoder across the cuts), placed where the playlist plays it. Nil when
    /// the package has no audio.
    public func speech() throws(MediaError) -> MediaSpeech? {
        let placed = placements(of: audioFiles())
        guard !placed.isEmpty else { return nil }
        var detector = SpeechDetector(sampleRate: 16_000)
        var stream: StreamInfo?
        var errors = 0
        for (run, origin) in placed {
            let files = run.files
            let reader = try AudioSampleStream(
                path: files[0], followedBy: Array(files.dropFirst()), options: .init(sampleRate: 16_000, resamplingFilterSize: 8))
            stream = stream ?? reader.stream
            while let chunk = try reader.nextChunk() {
                detector.add(chunk.samples, at: MPEG2Clock.nearest(chunk.time, to: origin) - origin + run.playlistStart)
            }
            errors += reader.decodeErrorCount
        }
        guard let stream else { return nil }
        return MediaSpeech(timeline: detector.finish(), stream: stream, decodeErrors: errors)
    }

    /// Each run of `files` with its origin: the media time (MPEG-2 clock) that plays at the run's playlist start — the
    /// first picture of the video's run of the same discontinuity sequence (the presentation's start for the first),
    /// else the run's own first timestamp.
    func placements(of files: MediaFiles) -> [(run: MediaFiles.Run, origin: Double)] {
        let videoOrigins = videoRunOrigins()
        return files.runs.enumerated().compactMap { index, run in
            guard let origin = index < videoOrigins.count ? videoOrigins[index] : Self.firstTimestamp(of: run) else { return nil }
            return (run, origin)
        }
    }

    /// The first picture of each run of the video (nil where it cannot be read); the first is the presentation's start.
    func videoRunOrigins() -> [Double?] {
        videoFiles().runs.enumerated().map { index, run in index == 0 ? presentationStart : Self.firstTimestamp(of: run) }
    }

    /// The first picture of a run (else its first timestamp).
    static func firstTimestamp(of run: MediaFiles.Run) -> Double? {
        let head = run.head
        guard let first = head.first, let info = try? MediaProbe.probe(first, followedBy: Array(head.dropFirst()), scan: .never) else { return nil }
        return info.streams.first { $0.kind == .video }?.startTime ?? info.startTime
    }

    /// The files of the video: the first variant's (the one players start with; every variant shows the same
    /// pictures). None when the first variant's playlist was not read.
    public func videoFiles() -> MediaFiles {
        guard case .multivariant(let playlist) = self.playlist, let variant = playlist.variants.first else { return MediaFiles() }
        return mediaFiles(ofPlaylist: variant.uri)
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
        let leftOut = speech == nil ? [] : package.audioFiles().unreadable
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
        let video = package.videoFiles()
        let runs = package.placements(of: video).map { (files: $0.run.files, shift: $0.run.playlistStart - $0.origin, origin: $0.origin) }
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

extension CheckResult {
    /// Adds `finding` and makes a passing verdict unverified (a failure found in what was seen still fails).
    mutating func markUnverified(_ finding: Finding) {
        findings.append(finding)
        if verdict != .fail { verdict = .unverified }
    }
}

extension HLSPackage {
    /// Whether the first variant's video carries 608 captions on `channel` (CC1–CC4): its segments' A/53 data decoded
    /// in order until the channel's commands are seen. Nil when there is no video segment to read.
    public func videoCarries(_ channel: CEA608Decoder.Channel) -> Bool? {
        let files = videoFiles()
        guard !files.segments.isEmpty else { return nil }
        var decoder = CEA608Decoder(channel: channel)
        for segment in files.segments {
            let (path, continuation) = files.initSection.map { ($0, [segment]) } ?? (segment, [])
            guard let info = try? MediaProbe.probe(path, followedBy: continuation, scan: .never), let video = info.streams.first(where: { $0.kind == .video }),
                let (_, chunks) = try? ClosedCaptionReader.read(path: path, followedBy: continuation, streamIndex: video.index)
            else { continue }
            for chunk in chunks {
                for (field, first, second) in chunk.pairs608 { decoder.feed(first, second, time: chunk.time, field: field) }
            }
            if !decoder.modesUsed.isEmpty { return true }
        }
        return false
    }
}
