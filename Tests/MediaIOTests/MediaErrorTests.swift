import Foundation
import TestSupport
import Testing

@testable import MediaIO

/// Every way a file can fail to be media gives a typed error with a one-line reason; none crashes.
@Suite struct MediaErrorTests {
    @Test func missingFile() {
        expectError(.notFound, reading: TestMedia.path("no-such-file.mp4"), mentioning: "no such file")
    }

    @Test func emptyFile() {
        expectError(.notMedia, reading: TestMedia.path("empty.mp4"), mentioning: "empty")
    }

    @Test func textFileNamedLikeAVideo() {
        expectError(.notMedia, reading: TestMedia.path("not-media.mp4"), mentioning: "not a media file")
    }

    @Test func corruptHeaderCarriesFFmpegsMessage() throws {
        let error = expectError(.corrupt, reading: TestMedia.path("corrupt-header.mp4"), mentioning: "QuickTime / MOV")
        #expect(error?.ffmpegMessage == "moov atom not found")
    }

    @Test func truncatedFileIsFoundByProbe() {
        expectError(.corrupt, reading: TestMedia.path("truncated.mp4"), mentioning: "truncated")
    }

    @Test func directory() {
        expectError(.unreadable, reading: TestMedia.root.appendingPathComponent("Media").path, mentioning: "directory")
    }

    /// A pipe with no writer would block a reader forever: only regular files are opened.
    @Test func namedPipeIsRefusedWithoutBlocking() throws {
        let directory = try TestMedia.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe.mp4").path
        #expect(mkfifo(fifo, 0o600) == 0)
        expectError(.unreadable, reading: fifo, mentioning: "not a regular file")
        expectError(.unreadable, reading: "/dev/zero", mentioning: "not a regular file")
    }

    /// Every reader checks the sample index when it opens a file, not only the probe.
    @Test func truncatedFileIsRefusedByReaders() {
        let path = TestMedia.path("truncated.mp4")
        for open in [{ _ = try VideoFrameReader(path: path) }, { _ = try AudioSampleReader(path: path) }] as [() throws -> Void] {
            #expect { try open() } throws: { ($0 as? MediaError)?.kind == .corrupt }
        }
    }

    /// Matroska has no sample index: a cut file is found by its packets ending long before the stated duration.
    @Test func truncatedMatroskaIsFoundByThePacketScan() throws {
        let directory = try TestMedia.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = try Data(contentsOf: URL(fileURLWithPath: TestMedia.path("embedded-subtitles.mkv")))
        let path = directory.appendingPathComponent("cut.mkv").path
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        expectError(.corrupt, reading: path, mentioning: "container says it lasts 12.021 s")

        // Decoding what is there still works, and stops at the cut.
        let reader = try VideoFrameReader(path: path)
        var frames = 0
        while try reader.nextFrame() != nil { frames += 1 }
        #expect(frames > 100 && frames < 250)
    }

    @Test func missingDecoder() throws {
        #expect(throws: MediaError.self) { try VideoFrameReader(path: TestMedia.path("unknown-codec.avi")) }
        do throws(MediaError) {
            _ = try VideoFrameReader(path: TestMedia.path("unknown-codec.avi"))
        } catch {
            #expect(error.kind == .decoderMissing)
            #expect(error.reason.contains("tag 'ZZZZ'"))
        }
    }

    @Test func missingStreams() throws {
        let noAudio = TestMedia.path("no-audio.mp4")
        #expect(throws: MediaError(.noSuchStream, path: noAudio, reason: "the file has no audio stream")) {
            try AudioSampleReader(path: noAudio)
        }
        #expect(throws: MediaError(.noSuchStream, path: noAudio, reason: "there is no stream #7 (the file has 1)")) {
            try VideoFrameReader(path: noAudio, options: .init(streamIndex: 7))
        }
        #expect(throws: MediaError(.noSuchStream, path: noAudio, reason: "stream #0 is not an audio stream")) {
            try AudioSampleReader(path: noAudio, options: .init(streamIndex: 0))
        }
    }

    /// Cover art is a picture in a video stream, not video; an explicit index still reads it.
    @Test func coverArtIsNotVideo() throws {
        let path = TestMedia.path("audio-with-cover.m4a")
        #expect(throws: MediaError(.noSuchStream, path: path, reason: "the file has no video stream (only cover art)")) {
            try VideoFrameReader(path: path)
        }
        let probe = try MediaProbe.probe(path)
        #expect(probe.streams[1].has(disposition: "attached_pic"))
        let cover = try VideoFrameReader(path: path, options: .init(streamIndex: 1))
        #expect(try cover.nextFrame()?.width == 64)
        #expect(try AudioSampleReader(path: path).nextChunk() != nil)
    }

    /// Garbage in the middle of the coded data: decoding goes on past it, counting what it rejects.
    @Test func corruptPayloadDoesNotStopDecoding() throws {
        let directory = try TestMedia.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var data = try Data(contentsOf: URL(fileURLWithPath: TestMedia.path("no-audio.mp4")))
        var generator = SeededRandom(seed: 7)
        for i in (data.count / 2)..<(data.count / 2 + 4096) { data[i] = UInt8(truncatingIfNeeded: generator.next()) }
        let path = directory.appendingPathComponent("garbled.mp4").path
        try data.write(to: URL(fileURLWithPath: path))

        let reader = try VideoFrameReader(path: path)
        var last: Double = -1
        while let frame = try reader.nextFrame() { last = frame.time }
        #expect(last > 3.5)  // reached the end of the 4 s clip
        #expect(reader.decodeErrorCount > 0)
    }

    /// Playlists and manifests named like video (HLS, DASH, concat) are refused before their demuxer reads them:
    /// nothing they name is opened — not a local file outside the folder (a FIFO here: opening it would hang),
    /// not a URL (a listening socket here: it must see no connection).
    @Test func playlistsDisguisedAsVideoAreNotFollowed() throws {
        let directory = try TestMedia.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let outside = directory.appendingPathComponent("outside.ts").path
        #expect(mkfifo(outside, 0o600) == 0)
        let listener = try LocalListener()
        let media = TestMedia.path("speech.mp4")
        let files: [(name: String, text: String, format: String)] = [
            (
                "hls.mp4",
                "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n\(outside)\n#EXTINF:10,\n../outside.ts\n#EXTINF:10,\nhttp://127.0.0.1:\(listener.port)/a.ts\n#EXT-X-ENDLIST\n",
                "Apple HTTP Live Streaming"
            ),
            (
                "remote.ts", "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nhttp://127.0.0.1:\(listener.port)/a.ts\n#EXT-X-ENDLIST\n",
                "Apple HTTP Live Streaming"
            ),
            (
                "dash.mp4",
                "<?xml version=\"1.0\"?>\n<MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\" type=\"static\" mediaPresentationDuration=\"PT10S\" minBufferTime=\"PT1S\" profiles=\"urn:mpeg:dash:profile:isoff-on-demand:2011\"><BaseURL>\(directory.path)/</BaseURL><Period><AdaptationSet mimeType=\"video/mp4\"><Representation id=\"1\" bandwidth=\"1000\" codecs=\"avc1.42c01e\" width=\"320\" height=\"240\"><BaseURL>outside.ts</BaseURL><SegmentBase indexRange=\"0-100\"/></Representation></AdaptationSet></Period></MPD>\n",
                "Dynamic Adaptive Streaming over HTTP"
            ),
            ("concat.mp4", "ffconcat version 1.0\nfile \(media)\nfile \(outside)\n", "Virtual concatenation script"),
        ]
        for file in files {
            let path = library.appendingPathComponent(file.name).path
            try file.text.write(toFile: path, atomically: false, encoding: .utf8)
            let error = expectError(.playlist, reading: path, mentioning: "\(file.format): a playlist or manifest that names other files")
            #expect(error != nil)
            #expect(throws: MediaError.self) { try VideoFrameReader(path: path) }
            #expect(throws: MediaError.self) { try AudioSampleReader(path: path) }
        }
        #expect(listener.connectionAttempted == false)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["library", "outside.ts"])
    }

    @discardableResult
    private func expectError(
        _ kind: MediaError.Kind, reading path: String, mentioning text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> MediaError? {
        do throws(MediaError) {
            _ = try MediaProbe.probe(path)
            Issue.record("\(path) was read without error", sourceLocation: sourceLocation)
            return nil
        } catch {
            #expect(error.kind == kind, sourceLocation: sourceLocation)
            #expect(error.description.contains(text), "\(error.description)", sourceLocation: sourceLocation)
            #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
            #expect(error.path == path, sourceLocation: sourceLocation)
            return error
        }
    }
}

/// A TCP socket listening on 127.0.0.1 (any free port), to show that nothing connected to it.
final class LocalListener {
    let descriptor: Int32
    let port: UInt16

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound, listen(descriptor, 8) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        port = UInt16(bigEndian: address.sin_port)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(descriptor) }

    /// True when a connection is waiting to be accepted.
    var connectionAttempted: Bool {
        let connection = accept(descriptor, nil, nil)
        if connection >= 0 { close(connection) }
        return connection >= 0
    }
}
