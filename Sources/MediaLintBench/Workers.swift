import MediaIO

/// The work each benchmark times, run in a process of its own so that it is timed like the reference tool.
enum Workers {
    /// Decodes every frame of the main video stream and reads its luma plane (one sample per 16th row,
    /// enough to prove the plane is there without timing an analysis).
    static func decodeLuma(path: String, threads: Int) throws {
        let stream = try VideoFrameStream(path: path, options: .init(threads: threads))
        var frames = 0
        var checksum: UInt64 = 0
        while let frame = try stream.nextFrame() {
            frames += 1
            frame.withPlanes { planes in
                let luma = planes.luma
                for y in stride(from: 0, to: luma.height, by: 16) {
                    checksum &+= UInt64(luma.sample(x: luma.width / 2, y: y))
                }
            }
        }
        print("frames \(frames) checksum \(checksum)")
    }
}
