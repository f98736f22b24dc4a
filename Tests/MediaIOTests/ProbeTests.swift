import Foundation
import Testing

@testable import MediaIO

/// `MediaProbe` agrees with ffprobe on every sample: durations, streams, frame counts, properties.
@Suite struct ProbeTests {
    @Test(arguments: TestMedia.readable)
    func formatMatchesFFprobe(sample: String) throws {
        let info = try MediaProbe.probe(TestMedia.path(sample))
        let record = try TestMedia.ffprobe(sample)
        #expect(info.format == record.format.format_name)
        #expect(info.size == Int64(record.format.size))
        let recordedDuration = try #require(record.format.duration.flatMap(Double.init))
        let duration = try #require(info.duration)
        #expect(abs(duration - recordedDuration) < 1e-6)
    }

    @Test(arguments: TestMedia.readable)
    func streamsMatchFFprobe(sample: String) throws {
        let info = try MediaProbe.probe(TestMedia.path(sample))
        let record = try TestMedia.ffprobe(sample)
        #expect(info.streams.map(\.index) == record.streams.map(\.index))
        for (stream, recorded) in zip(info.streams, record.streams) {
            #expect(stream.kind.rawValue == recorded.codec_type)
            #expect(stream.codec == recorded.codec_name ?? "unknown")  // ffprobe leaves out an unknown codec's name
            #expect(stream.language == recorded.tags?["language"])
            #expect(Set(stream.dispositions) == Set(recorded.disposition.filter { $0.value == 1 }.keys))

            // Frame count: the container's when it states one, else every packet counted (ffprobe -count_packets).
            if let stated = recorded.nb_frames.flatMap(Int.init) {
                #expect(stream.frameCount == stated)
                #expect(stream.frameCountSource == .container)
            } else {
                #expect(stream.frameCount == recorded.nb_read_packets.flatMap(Int.init))
                #expect(stream.frameCountSource == .packets)
            }

            if let video = stream.video {
                #expect(video.width == recorded.width)
                #expect(video.height == recorded.height)
                #expect(video.pixelFormat == recorded.pix_fmt)
                #expect(video.frameRate == (recorded.avg_frame_rate == "0/0" ? nil : recorded.avg_frame_rate))
            }
            if let audio = stream.audio {
                #expect(String(audio.sampleRate) == recorded.sample_rate)
                #expect(audio.channels == recorded.channels)
            }
        }
    }

    @Test(arguments: TestMedia.readable)
    func durationsMatchFFprobeOrAreMeasured(sample: String) throws {
        let info = try MediaProbe.probe(TestMedia.path(sample))
        let record = try TestMedia.ffprobe(sample)
        for (stream, recorded) in zip(info.streams, record.streams) {
            let duration = try #require(stream.duration, "stream #\(stream.index) of \(sample) has no duration")
            if let stated = recorded.duration.flatMap(Double.init) {
                #expect(abs(duration - stated) < 1e-6, "stream #\(stream.index) of \(sample)")
                #expect(stream.durationSource == .container)
            } else {
                #expect(stream.durationSource == .packets)
            }
        }
    }

    /// Matroska states no per-stream duration: they are measured from packets and agree with the
    /// muxer's DURATION tags (which give the stream's end time) within one frame.
    @Test func matroskaStreamDurationsAreMeasuredFromPackets() throws {
        let info = try MediaProbe.probe(TestMedia.path("embedded-subtitles.mkv"))
        let record = try TestMedia.ffprobe("embedded-subtitles.mkv")
        let video = info.streams[0], audio = info.streams[1]
        #expect(video.durationSource == .packets && audio.durationSource == .packets)
        #expect(try #require(video.duration) == 12.0)
        let videoTag = try #require(record.streams[0].tags?["DURATION"].flatMap(Self.seconds))
        #expect(abs(try #require(video.duration) + (video.startTime ?? 0) - videoTag) < 0.040)
        let audioTag = try #require(record.streams[1].tags?["DURATION"].flatMap(Self.seconds))
        #expect(abs(try #require(audio.duration) - audioTag) < 0.0214)  // one AAC frame at 48 kHz
    }

    @Test func describesSubtitleTracksAndDispositions() throws {
        let info = try MediaProbe.probe(TestMedia.path("embedded-subtitles.mkv"))
        #expect(info.textSubtitleTracks.map(\.index) == [2, 3, 4])
        #expect(info.textSubtitleTracks.map(\.codec) == ["subrip", "ass", "webvtt"])
        let sdh = info.streams[2]
        #expect(sdh.has(disposition: "hearing_impaired") && sdh.has(disposition: "default"))
        #expect(sdh.title == "English (SDH)")
        #expect(sdh.language == "eng")
        #expect(!info.streams[3].has(disposition: "default"))
    }

    @Test func describesVideoAndAudioProperties() throws {
        let speech = try MediaProbe.probe(TestMedia.path("speech.mp4"))
        let video = try #require(speech.streams[0].video)
        #expect(video.fps == 25)
        #expect(video.bitDepth == 8)
        #expect(speech.streams[0].profile == "High")
        let audio = try #require(speech.streams[1].audio)
        #expect(audio.channelLayout == "mono")
        #expect(audio.sampleRate == 48_000)

        let tenBit = try #require(try MediaProbe.probe(TestMedia.path("gray-ramp-10bit.mkv")).streams[0].video)
        #expect(tenBit.bitDepth == 10)
        let rgb = try #require(try MediaProbe.probe(TestMedia.path("rgb-primaries.mkv")).streams[0].video)
        #expect(rgb.pixelFormat == "rgb24")
        #expect(rgb.color.range == "pc")
    }

    @Test func unknownCodecIsProbedWithItsTag() throws {
        let stream = try #require(try MediaProbe.probe(TestMedia.path("unknown-codec.avi")).streams.first)
        #expect(stream.codec == "unknown")
        #expect(stream.codecTag == "ZZZZ")
    }

    @Test func scanModes() throws {
        let path = TestMedia.path("embedded-subtitles.mkv")
        let headerOnly = try MediaProbe.probe(path, scan: .never)
        #expect(headerOnly.streams[0].duration == nil)
        #expect(headerOnly.streams[0].frameCount == nil)
        let always = try MediaProbe.probe(TestMedia.path("speech.mp4"), scan: .always)
        #expect(always.streams[0].frameCount == 300)
        #expect(always.streams[0].frameCountSource == .packets)
    }

    /// `HH:MM:SS.nnnnnnnnn` (Matroska DURATION tag) in seconds.
    static func seconds(_ tag: String) -> Double? {
        let parts = tag.split(separator: ":").compactMap { Double($0) }
        guard parts.count == 3 else { return nil }
        return parts[0] * 3600 + parts[1] * 60 + parts[2]
    }
}
