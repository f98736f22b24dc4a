import Foundation
import TestSupport

/// The committed samples (Media/) and what ffprobe recorded of them (Fixtures/ffprobe/, written by Media/generate.sh).
enum TestMedia {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Path of a sample in Media/.
    static func path(_ name: String) -> String { root.appendingPathComponent("Media/\(name)").path }

    /// Samples that FFmpeg reads without error.
    static let readable = [
        "speech.mp4", "flashing.mp4", "no-audio.mp4", "audio-only.ogg", "audio-with-cover.m4a",
        "embedded-subtitles.mkv", "gray-ramp-10bit.mkv", "rgb-primaries.mkv", "unknown-codec.avi",
    ]

    /// ffprobe's `-show_format -show_streams -count_frames -count_packets` JSON for a sample.
    static func ffprobe(_ name: String) throws -> FFprobeRecord {
        let url = root.appendingPathComponent("Tests/MediaIOTests/Fixtures/ffprobe/\(name).json")
        return try JSONDecoder().decode(FFprobeRecord.self, from: Data(contentsOf: url))
    }

    /// ffprobe's `best_effort_timestamp_time` of every frame of the first video stream.
    static func frameTimes(_ name: String) throws -> [Double] {
        let url = root.appendingPathComponent("Tests/MediaIOTests/Fixtures/ffprobe/\(name).frames.txt")
        return try String(contentsOf: url, encoding: .utf8).split(whereSeparator: \.isNewline).compactMap { Double($0) }
    }

    /// A fresh temporary directory, removed by the caller with `FileManager.default.removeItem`.
    static func temporaryDirectory() throws -> URL { try TemporaryFolder.make("tests") }
}

/// The parts of ffprobe's JSON the tests compare (numbers are strings there, as ffprobe prints them).
struct FFprobeRecord: Decodable {
    struct Format: Decodable {
        let format_name: String
        let duration: String?
        let start_time: String?
        let size: String
    }

    struct Stream: Decodable {
        let index: Int
        let codec_name: String?
        let codec_type: String
        let duration: String?
        let nb_frames: String?
        let nb_read_frames: String?
        let nb_read_packets: String?
        let width: Int?
        let height: Int?
        let pix_fmt: String?
        let avg_frame_rate: String?
        let sample_rate: String?
        let channels: Int?
        let disposition: [String: Int]
        let tags: [String: String]?
    }

    let format: Format
    let streams: [Stream]
}
