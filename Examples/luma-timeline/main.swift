// luma-timeline: prints each frame's presentation time and mean luma (0–1) of a video, as CSV.
// A short program on MediaLint's library; build and run it with
//
//   swift run luma-timeline Media/flashing.mp4
import Foundation
import MediaIO

/// Mean of the luma plane, from 0 (black) to 1 (the largest code value).
func meanLuma(of frame: VideoFrame) -> Double {
    frame.withPlanes { planes in
        let luma = planes.luma
        var sum = 0
        for y in 0..<luma.height {
            for x in 0..<luma.width { sum += luma.sample(x: x, y: y) }
        }
        return Double(sum) / Double(luma.width * luma.height * frame.layout.maximumValue)
    }
}

func printTimeline(of path: String) throws(MediaError) {
    let stream = try VideoFrameStream(path: path)
    print("time,mean_luma")
    while let frame = try stream.nextFrame() {
        print(String(format: "%.3f,%.4f", frame.time, meanLuma(of: frame)))
    }
}

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: luma-timeline VIDEO\n".utf8))
    exit(2)
}
do {
    try printTimeline(of: CommandLine.arguments[1])
} catch {
    FileHandle.standardError.write(Data("luma-timeline: \(error)\n".utf8))
    exit(2)
}
