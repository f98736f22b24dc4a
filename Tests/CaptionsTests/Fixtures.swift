import Foundation

/// Paths of the fixtures copied into the project (Fixtures/webvtt-wpt, Fixtures/captions-corpus).
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func url(_ relative: String) -> URL { directory.appendingPathComponent(relative) }

    static func bytes(_ relative: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url(relative))) }

    static func json(_ relative: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(contentsOf: url(relative))) }

    static func files(in relative: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url(relative).path).sorted()
    }
}
