import Captions
import FileAccess
import Foundation
import MediaIO
import Streaming
import SyncAnalysis

extension HLSPackage {
    /// The segments that carry the presentation's audio: the first variant's own when they have an audio stream,
    /// else those of its audio group's default (or first) rendition.
    func audioSegmentPaths() -> [String] {
        guard case .multivariant(let playlist) = self.playlist, let variant = playlist.variants.first else { return [] }
        let own = segmentPaths(ofPlaylist: variant.uri)
        if let first = own.first, let info = try? MediaProbe.probe(first, scan: .never), info.streams.contains(where: { $0.kind == .audio }) {
            return own
        }
        guard let group = variant.audioGroup else { return [] }
        let renditions = playlist.renditions(type: .audio, group: group)
        guard let uri = (renditions.first { $0.isDefault } ?? renditions.first)?.uri else { return [] }
        return segmentPaths(ofPlaylist: uri)
    }

    /// The speech in the package's audio on the presentation's timeline (its segments decoded one after another);
    /// nil when the package has no audio.
    public func speech() throws(MediaError) -> MediaSpeech? {
        let paths = audioSegmentPaths()
        guard !paths.isEmpty else { return nil }
        let start = presentationStart ?? 0
        var detector = SpeechDetector(sampleRate: 16_000)
        var stream: StreamInfo?
        var errors = 0
        var last = -Double.infinity
        for path in paths {
            let reader = try AudioSampleStream(path: path, options: .init(sampleRate: 16_000, resamplingFilterSize: 8))
            stream = stream ?? reader.stream
            while let chunk = try reader.nextChunk() {
                let time = chunk.time - start
                guard time >= last else { continue }  // a segment that starts again earlier: its overlap is left out
                detector.add(chunk.samples, at: time)
                last = time + Double(chunk.samples.count) / 16_000
            }
            errors += reader.decodeErrorCount
        }
        guard let stream else { return nil }
        return MediaSpeech(timeline: detector.finish(), stream: stream, decodeErrors: errors)
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
        return (timelines ?? package.subtitleTimelines()).map { rendition, captions in
            check(
                path: package.path, duration: package.duration, mediaStart: 0, speech: speech.map { ($0.timeline, $0.stream.index) },
                captions: captions, source: package.label(of: rendition), silence: "no speech was found in the package's audio",
                noAudio: problem.map { "the package's audio cannot be decoded: \($0)" } ?? "the package has no audio")
        }
    }
}

extension HLSPackage {
    /// Whether the first variant's video carries 608 captions on `channel` (CC1–CC4): its segments' A/53 data decoded
    /// in order until the channel's commands are seen. Nil when there is no video segment to read.
    public func videoCarries(_ channel: CEA608Decoder.Channel) -> Bool? {
        guard case .multivariant(let playlist) = self.playlist, let variant = playlist.variants.first else { return nil }
        let paths = segmentPaths(ofPlaylist: variant.uri)
        guard !paths.isEmpty else { return nil }
        var decoder = CEA608Decoder(channel: channel)
        for path in paths {
            guard let info = try? MediaProbe.probe(path, scan: .never), let video = info.streams.first(where: { $0.kind == .video }),
                let (_, chunks) = try? ClosedCaptionReader.read(path: path, streamIndex: video.index)
            else { continue }
            for chunk in chunks {
                for (field, first, second) in chunk.pairs608 { decoder.feed(first, second, time: chunk.time, field: field) }
            }
            if !decoder.modesUsed.isEmpty { return true }
        }
        return false
    }
}
