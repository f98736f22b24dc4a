import Captions
import Foundation
import MediaIO
import Streaming
import TestSupport
import TestTraits
import Testing

@testable import Checks

/// CEA-608 captions inside media, made here from an SCC file the SCC writer wrote: a QuickTime `c608` track muxed by
/// the ffmpeg CLI, and ATSC A/53 data put into an H.264 stream's SEI (one pair a frame, as broadcast video carries
/// them). Both read back as the SCC file's cues; FFmpeg's own 608 decoder and ffprobe are the second opinions.
@Suite(.tags(.media), .notInFastRun) struct ClosedCaptionTests {
    /// Cues on whole 29.97 fps frames (pop-on, loadable in the gaps), in WebVTT syntax.
    static let cues: [Cue] = {
        func frames(_ n: Int) -> CaptionTime { CaptionTime(milliseconds: Int64((Double(n) * 1001 / 30).rounded())) }
        return [
            Cue(start: frames(45), end: frames(120), text: "Welcome to the\n<i>closed caption</i> test."),
            Cue(start: frames(150), end: frames(225), text: "♪ Music plays ♪"),
            Cue(start: frames(260), end: frames(330), text: "<c.yellow>Yellow</c> words at the end."),
        ]
    }()

    static func workspace() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-cc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The SCC file of `cues` and what the SCC reader reads from it.
    static func scc(in directory: URL) throws -> (path: String, bytes: [UInt8], cues: [Cue]) {
        let (bytes, diagnostics) = SCCWriter().write(cues)
        #expect(diagnostics.isEmpty)
        let path = directory.appendingPathComponent("captions.scc").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, bytes, try SCCReader().read(bytes).cues)
    }

    @Test func c608TrackInQuickTime() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (scc, _, expected) = try Self.scc(in: directory)
        #expect(expected.map(\.text) == Self.cues.map(\.text))
        let mov = directory.appendingPathComponent("captioned.mov").path
        let video = try TestMediaCache.ffmpeg(
            "testsrc2-ntsc.mp4",
            ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30000/1001:duration=12", "-c:v", "libx264", "-preset", "ultrafast", TestMediaCache.output])
        try ExternalTool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", video, "-i", scc, "-map", "0:v", "-map", "1", "-c", "copy", mov])
        let info = try MediaProbe.probe(mov)
        let track = try #require(info.textSubtitleTracks.first)
        #expect(track.codec == "eia_608" && track.codecTag == "c608")
        let document = try EmbeddedCaptions.read(path: mov, streamIndex: track.index)
        // The same text, styles and places. FFmpeg's SCC demuxer stores each line's timecode as clock time, a frame
        // as 33 ms (00:00:04;28 is 4.924 s, not 4.938): a pair is then sent a frame after the one before, so cues
        // start within a frame of the SCC file's.
        #expect(document.cues.map(\.text) == expected.map(\.text))
        #expect(document.cues.map(\.settings) == expected.map(\.settings))
        for (ours, theirs) in zip(document.cues, expected) {
            #expect(abs(ours.start.milliseconds - theirs.start.milliseconds) <= 34, "\(ours.start) vs \(theirs.start)")
        }
        for (ours, theirs) in zip(document.cues, expected).dropLast() {
            #expect(abs(ours.end.milliseconds - theirs.end.milliseconds) <= 34, "\(ours.end) vs \(theirs.end)")
        }
        // FFmpeg 5.1's MOV muxer leaves out the track's last packet (the SCC file's last line, the final erase:
        // ffprobe lists one packet fewer in the .mov than in the .scc), so the last caption stays to the end of the video.
        #expect(document.cues.last?.end == CaptionTime(seconds: try #require(info.duration)))
        // FFmpeg's own 608 decoder reads the same words from the track.
        let srt = directory.appendingPathComponent("ffmpeg.srt").path
        try ExternalTool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", mov, "-map", "0:s", "-c:s", "srt", srt])
        let theirs = try CaptionFile.read(srt).cues.map { Self.words($0.plainText(in: .srt)) }
        #expect(theirs == expected.map { Self.words($0.plainText(in: .webvtt)) })
    }

    @Test func a53DataInH264Frames() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, sccBytes, expected) = try Self.scc(in: directory)
        let (raw, mp4, frames) = try Self.captionedH264(in: directory, scc: sccBytes)
        #expect(frames == 360)
        // ffprobe sees 608 data with the frames.
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["ffprobe", "-v", "error", "-show_frames", "-read_intervals", "%+#2", "-select_streams", "v", mp4]
        let pipe = Pipe()
        probe.standardOutput = pipe
        try probe.run()
        let probed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        probe.waitUntilExit()
        #expect(probed.contains("side_data_type=ATSC A53 Part 4 Closed Captions"))
        // MediaLint too, and it reads the same cues as from the SCC file, to the millisecond (frame k at k × 1001/30000 s).
        let info = try MediaProbe.probe(mp4, closedCaptions: true)
        #expect(info.streams[0].video?.closedCaptions == true)
        let document = try EmbeddedCaptions.read(path: mp4, streamIndex: 0)
        #expect(document.cues == expected)
        // The raw stream too (its frames have no timestamps: they follow one another at the stream's rate), and a
        // video without 608 data says so.
        #expect(try EmbeddedCaptions.read(path: raw, streamIndex: 0).cues == expected)
        #expect(try MediaProbe.probe("Media/speech.mp4", closedCaptions: true).streams.first { $0.kind == .video }?.video?.closedCaptions == false)
    }

    /// An HLS package cut by the ffmpeg CLI from the A/53-captioned video, its multivariant playlist declaring the 608
    /// captions (`-cc_stream_map`): INSTREAM-ID CC1 is carried; edited to CC3 it is not (hls.instream-id); a CEA-708
    /// service is not verified.
    @Test func declaredClosedCaptionsAreLookedForInTheSegments() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, sccBytes, _) = try Self.scc(in: directory)
        let (_, mp4, _) = try Self.captionedH264(in: directory, scc: sccBytes, keyFrameInterval: 60)
        try ExternalTool.run(
            "ffmpeg",
            [
                "-nostdin", "-v", "error", "-y", "-i", mp4, "-c", "copy", "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
                "-master_pl_name", "master.m3u8", "-cc_stream_map", "ccgroup:cc,instreamid:CC1,language:en", "-var_stream_map", "v:0,ccgroup:cc",
                "-hls_segment_filename", directory.appendingPathComponent("v_%v_%02d.ts").path, directory.appendingPathComponent("video_%v.m3u8").path,
            ])
        let master = directory.appendingPathComponent("master.m3u8")
        let written = try String(contentsOf: master, encoding: .utf8)
        #expect(written.contains(#"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",LANGUAGE="en",INSTREAM-ID="CC1""#), "\(written)")
        func findings(_ instreamID: String) throws -> [String] {
            try Data(written.replacingOccurrences(of: #"INSTREAM-ID="CC1""#, with: "INSTREAM-ID=\"\(instreamID)\"").utf8).write(to: master)
            return HLSPackageCheck().run(try HLSPackage.load(master.path)).findings.map { "\($0.rule) \($0.severity): \($0.message)" }
        }
        #expect(try findings("CC1").isEmpty)
        #expect(
            try findings("CC3") == [
                "hls.instream-id error: closed captions \"CC1\": INSTREAM-ID CC3, but no segment of the video carries 608 captions on CC3"
            ])
        #expect(
            try findings("SERVICE1") == [
                "hls.instream-id info: closed captions \"CC1\": INSTREAM-ID SERVICE1 (CEA-708) not verified: only 608 channels are read"
            ])
    }

    /// 12 s of 29.97 fps H.264 without B-frames whose frames carry the SCC file's pairs as A/53 data: the raw stream
    /// and the MP4 muxed from it, and how many pictures got the data.
    static func captionedH264(in directory: URL, scc: [UInt8], keyFrameInterval: Int? = nil) throws -> (raw: String, mp4: String, frames: Int) {
        let raw = directory.appendingPathComponent("video.h264").path, mp4 = directory.appendingPathComponent("captioned.mp4").path
        let plain = try TestMediaCache.ffmpeg(
            "testsrc2-ntsc.h264",
            ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30000/1001:duration=12", "-c:v", "libx264", "-preset", "ultrafast", "-bf", "0"]
                + (keyFrameInterval.map { ["-g", String($0)] } ?? []) + ["-bsf:v", "h264_mp4toannexb", "-f", "h264", TestMediaCache.output])
        let (injected, frames) = A53Injection.inject(pairsByFrame(scc), into: try Array(Data(contentsOf: URL(fileURLWithPath: plain))))
        try Data(injected).write(to: URL(fileURLWithPath: raw))
        try ExternalTool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-framerate", "30000/1001", "-i", raw, "-c", "copy", mp4])
        return (raw, mp4, frames)
    }

    /// The pair each frame carries: an SCC line's pairs one a frame from its timecode, `80 80` (padding) between.
    static func pairsByFrame(_ scc: [UInt8]) -> [(UInt8, UInt8)] {
        var pairs: [(UInt8, UInt8)] = []
        for line in String(decoding: scc, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t")
            guard fields.count == 2, let timecode = SMPTETimecode(parsing: Array(fields[0].utf8)) else { continue }
            var frame = max(timecode.frame, pairs.count)
            for word in fields[1].split(separator: " ") {
                guard let value = UInt16(word, radix: 16) else { continue }
                while pairs.count <= frame { pairs.append((0x80, 0x80)) }
                pairs[frame] = (UInt8(value >> 8), UInt8(value & 0xFF))
                frame += 1
            }
        }
        return pairs
    }

    static func words(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\\h", with: " ").split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }
}

/// Puts ATSC A/53 caption data into an H.264 Annex B stream: before the first slice of each picture, an SEI message
/// (user data registered by ITU-T T.35: country 0xB5, provider 0x0031, `GA94`, type 3) carrying that frame's
/// field-1 pair and a field-2 padding pair, with emulation prevention. Pictures must be in presentation order (no
/// B-frames).
enum A53Injection {
    static func inject(_ pairs: [(UInt8, UInt8)], into stream: [UInt8]) -> (bytes: [UInt8], frames: Int) {
        var starts: [Int] = []  // offsets of each NAL unit's start code
        var index = 0
        while index + 3 <= stream.count {
            if stream[index] == 0, stream[index + 1] == 0, stream[index + 2] == 1 {
                starts.append(index > 0 && stream[index - 1] == 0 ? index - 1 : index)
                index += 3
            } else {
                index += 1
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(stream.count + starts.count * 32)
        var frame = 0
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1] : stream.count
            var header = start
            while stream[header] == 0 { header += 1 }
            header += 1  // past the 01
            let type = stream[header] & 0x1F
            // A slice whose first_mb_in_slice is 0 (ue(v) "1") starts a picture.
            if type == 1 || type == 5, header + 1 < stream.count, stream[header + 1] & 0x80 != 0 {
                let pair = frame < pairs.count ? pairs[frame] : (0x80, 0x80)
                out += [0, 0, 0, 1] + sei(pair)
                frame += 1
            }
            out += stream[start..<end]
        }
        return (out, frame)
    }

    static func sei(_ pair: (UInt8, UInt8)) -> [UInt8] {
        let payload: [UInt8] = [0xB5, 0x00, 0x31, 0x47, 0x41, 0x39, 0x34, 0x03, 0x40 | 2, 0xFF, 0xFC, pair.0, pair.1, 0xFD, 0x80, 0x80, 0xFF]
        let rbsp: [UInt8] = [0x04, UInt8(payload.count)] + payload + [0x80]
        var nal: [UInt8] = [0x06]
        var zeros = 0
        for byte in rbsp {
            if zeros >= 2, byte <= 3 {
                nal.append(0x03)
                zeros = 0
            }
            nal.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return nal
    }
}
