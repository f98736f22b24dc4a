import Foundation
import MediaIO
import SyncAnalysis
import TestSupport

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

extension Workers {
    /// The test programmes of issue 17 in `directory`: each programme's media, its truth (KIND.truth.json) and a
    /// caption file per case (KIND-CASE.srt).
    static func programmes(in directory: String, minutes: Double?, seed: UInt64 = 17) throws {
        let folder = URL(fileURLWithPath: directory)
        for kind in Programme.Kind.allCases {
            let programme = try Programme.make(kind, in: folder, minutes: minutes, seed: seed)
            let base = URL(fileURLWithPath: programme.media).deletingPathExtension().lastPathComponent
            try programme.truthJSON.write(to: folder.appendingPathComponent(base + ".truth.json"), atomically: true, encoding: .utf8)
            for (name, variant) in programme.cases {
                _ = try programme.writeCaptions(variant, named: "\(base)-\(name).srt", in: folder)
            }
            print("\(programme.media): \(String(format: "%.1f", programme.duration)) s, \(programme.lines.count) lines, \(programme.sounds.count) sounds")
        }
    }
}

extension Workers {
    /// Writes the speech detector's features of `path`'s audio (16 kHz mono) to `output`: per 10 ms frame six
    /// little-endian floats — level (dB), voicing, period (s), speech likeness, 1 where the timeline has speech, and
    /// 1 where it has a speech onset.
    static func speechFeatures(of path: String, to output: String) throws {
        let reader = try AudioSampleStream(path: path, options: .init(sampleRate: 16_000, resamplingFilterSize: 8))
        var detector = SpeechDetector(sampleRate: 16_000)
        while let chunk = try reader.nextChunk() { detector.add(chunk.samples, at: chunk.time) }
        let features = detector.features()
        let timeline = detector.finish()
        var onsets = [Float](repeating: 0, count: features.level.count)
        for onset in timeline.onsets {
            let frame = timeline.frame(at: onset)
            if frame < onsets.count { onsets[frame] = 1 }
        }
        var values: [Float] = []
        for i in features.level.indices {
            values += [
                features.level[i], features.voicing[i], features.period[i], features.likeness[i],
                i < timeline.mask.count ? Float(timeline.mask[i]) : 0, onsets[i],
            ]
        }
        try values.withUnsafeBufferPointer { try Data(buffer: $0).write(to: URL(fileURLWithPath: output)) }
    }
}
