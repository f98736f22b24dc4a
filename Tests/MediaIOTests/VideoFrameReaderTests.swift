import Foundation
import Testing

@testable import MediaIO

/// Decoded frames: count and presentation times as ffprobe reports them, and exact sample values.
@Suite struct VideoFrameReaderTests {
    static let videoSamples = [
        "speech.mp4", "flashing.mp4", "no-audio.mp4", "embedded-subtitles.mkv",
        "gray-ramp-10bit.mkv", "rgb-primaries.mkv",
    ]

    @Test(arguments: videoSamples)
    func framesAndTimesMatchFFprobe(sample: String) throws {
        let reader = try VideoFrameReader(path: TestMedia.path(sample))
        var times: [Double] = []
        while let frame = try reader.nextFrame() { times.append(frame.time) }
        let recorded = try TestMedia.frameTimes(sample)
        let decodedCount = try #require(try TestMedia.ffprobe(sample).streams.first { $0.codec_type == "video" }?.nb_read_frames)
        #expect(times.count == Int(decodedCount))
        #expect(times.count == recorded.count)
        for (time, expected) in zip(times, recorded) {
            #expect(abs(time - expected) < 1e-6)
        }
        #expect(reader.decodeErrorCount == 0)
    }

    /// flashing.mp4: grey (Y 128) with frames 60–119 alternating white (235) and black (16) every 3 frames.
    @Test func lumaFollowsTheFlashingPattern() throws {
        let reader = try VideoFrameReader(path: TestMedia.path("flashing.mp4"))
        var index = 0
        while let frame = try reader.nextFrame() {
            let expected: Double =
                switch index {
                case 60..<120: (index - 60) % 6 < 3 ? 235 : 16
                default: 128
                }
            #expect(abs(meanLuma(frame) - expected) < 3, "frame \(index)")
            #expect(abs(frame.time - Double(index) / 30) < 1e-9)
            index += 1
        }
        #expect(index == 180)
    }

    /// 10-bit samples are read at their depth: frame N has luma 64 + 200 N and chroma 512 everywhere.
    @Test func tenBitSamplesAreExact() throws {
        let reader = try VideoFrameReader(path: TestMedia.path("gray-ramp-10bit.mkv"))
        var index = 0
        while let frame = try reader.nextFrame() {
            #expect(frame.layout == PixelLayout(pixelFormat: "yuv420p10le", bitDepth: 10, chromaShiftX: 1, chromaShiftY: 1, hasChroma: true))
            #expect(frame.layout.maximumValue == 1023)
            frame.withPlanes { planes in
                let luma = planes.luma
                #expect(luma.width == 64 && luma.height == 48 && luma.bytesPerSample == 2)
                let values = Set((0..<luma.height).flatMap { Array(luma.row16($0)) })
                #expect(values == [UInt16(64 + 200 * index)])
                let cb = try! #require(planes.cb), cr = try! #require(planes.cr)
                #expect(cb.width == 32 && cb.height == 24)
                #expect(Set((0..<cb.height).flatMap { Array(cb.row16($0)) }) == [512])
                #expect(Set((0..<cr.height).flatMap { Array(cr.row16($0)) }) == [512])
            }
            index += 1
        }
        #expect(index == 5)
    }

    /// RGB pictures are converted to BT.709 full-range YCbCr 4:4:4.
    @Test func rgbIsConvertedToPlanarYCbCr() throws {
        let reader = try VideoFrameReader(path: TestMedia.path("rgb-primaries.mkv"))
        var lumas: [Double] = []
        while let frame = try reader.nextFrame() {
            #expect(frame.layout.pixelFormat == "yuv444p")
            #expect(frame.color.matrix == "bt709" && frame.color.isFullRange)
            lumas.append(meanLuma(frame))
        }
        // Y = 255 × (0.2126, 0.7152, 0.0722) for pure red, green and blue.
        #expect(lumas.count == 3)
        for (luma, expected) in zip(lumas, [54.2, 182.4, 18.4]) {
            #expect(abs(luma - expected) < 1.5)
        }
    }

    @Test func colourMetadataFallsBackToTheStream() throws {
        let frame = try #require(try VideoFrameReader(path: TestMedia.path("gray-ramp-10bit.mkv")).nextFrame())
        #expect(frame.color.isHDR == false)
        #expect(frame.color.lumaCoefficients(height: frame.height) == (0.299, 0.114))  // unspecified, SD: BT.601
    }

    /// The threaded stream yields the same frames as the reader, and stops cleanly when dropped early.
    @Test func threadedStreamMatchesReader() throws {
        let path = TestMedia.path("speech.mp4")
        let stream = try VideoFrameStream(path: path, capacity: 3)
        var times: [Double] = []
        var lumas: [Double] = []
        while let frame = try stream.nextFrame() {
            times.append(frame.time)
            lumas.append(meanLuma(frame))
        }
        let recorded = try TestMedia.frameTimes("speech.mp4")
        #expect(times.count == recorded.count)
        #expect(zip(times, recorded).allSatisfy { abs($0 - $1) < 1e-6 })
        let reader = try VideoFrameReader(path: path)
        var readerLumas: [Double] = []
        while let frame = try reader.nextFrame() { readerLumas.append(meanLuma(frame)) }
        #expect(lumas == readerLumas)
        #expect(times.count == 300)
        #expect(try stream.nextFrame() == nil)

        let early = try VideoFrameStream(path: path, capacity: 2)
        for _ in 0..<3 { _ = try early.nextFrame() }
        early.cancel()
        #expect(try early.nextFrame() == nil)
    }

    /// An error met while decoding reaches the consumer after the frames decoded before it.
    @Test func threadedStreamReportsErrorsInOrder() throws {
        let reader = try VideoFrameReader(path: TestMedia.path("no-audio.mp4"))
        let failing = FailingSource(reader: reader, failAfter: 5)
        let stream = VideoFrameStream(source: failing, stream: reader.stream, capacity: 2)
        var frames = 0
        #expect(throws: FailingSource.failure) {
            while try stream.nextFrame() != nil { frames += 1 }
        }
        #expect(frames == 5)
        #expect(try stream.nextFrame() == nil)
    }

    @Test func threadedStreamThrowsOpeningErrors() {
        #expect(throws: MediaError.self) { try VideoFrameStream(path: TestMedia.path("truncated.mp4")) }
    }

    /// Real frames from a reader, then a failure.
    final class FailingSource: DecodedSource {
        static let failure = MediaError(.corrupt, path: "test", reason: "stopped on purpose")
        let reader: VideoFrameReader
        var remaining: Int
        init(reader: VideoFrameReader, failAfter: Int) {
            self.reader = reader
            remaining = failAfter
        }
        func nextItem() throws(MediaError) -> VideoFrame? {
            guard remaining > 0 else { throw Self.failure }
            remaining -= 1
            return try reader.nextFrame()
        }
        var decodeErrorCount: Int { 0 }
        var lastDecodeError: String? { nil }
    }

    private func meanLuma(_ frame: VideoFrame) -> Double {
        frame.withPlanes { planes in
            let luma = planes.luma
            var sum = 0
            for y in 0..<luma.height {
                for x in 0..<luma.width { sum += luma.sample(x: x, y: y) }
            }
            return Double(sum) / Double(luma.width * luma.height)
        }
    }
}
