import Foundation
import Testing

@testable import MediaIO

/// Decoded audio kept on disk and read back as it was written.
@Suite struct AudioSpoolTests {
    /// Chunks of every size, times with gaps between them, more than a flush's worth in all.
    private func chunks() -> [AudioChunk] {
        var made: [AudioChunk] = []
        var time = 0.25
        for (k, count) in [0, 1, 8_000, 7_999, 300_000, 3].enumerated() {
            let samples = (0..<count).map { Float(sin(Double($0 + k) * 0.01)) * (k.isMultiple(of: 2) ? 1 : -0.5) }
            made.append(AudioChunk(time: time, samples: samples))
            time += Double(count) / 16_000 + (k == 3 ? 2.5 : 0)
        }
        return made
    }

    private func readAll(_ reader: AudioSpool.Reader) throws -> [AudioChunk] {
        var read: [AudioChunk] = []
        while let chunk = try reader.nextChunk() { read.append(chunk) }
        return read
    }

    @Test func readsBackEveryChunkExactly() throws {
        let writer = try #require(AudioSpoolWriter())
        let written = chunks()
        written.forEach(writer.append)
        let spool = try #require(writer.finish())
        #expect(writer.failure == nil)
        #expect(spool.byteCount == written.reduce(0) { $0 + 16 + 4 * $1.samples.count })
        #expect(try readAll(spool.chunks()) == written)
        // Read again, and by two readers in turn: each from the start.
        let first = spool.chunks(), second = spool.chunks()
        #expect(try first.nextChunk() == written[0])
        #expect(try second.nextChunk() == written[0])
        #expect(try first.nextChunk() == written[1])
        #expect(try readAll(second) == Array(written.dropFirst()))
        #expect(try readAll(first) == Array(written.dropFirst(2)))
        #expect(try first.nextChunk() == nil)
    }

    @Test func leavesNoFileBehind() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = try #require(AudioSpoolWriter(directory: folder.path))
        writer.append(AudioChunk(time: 0, samples: [0.5, -0.5]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        let spool = try #require(writer.finish())
        #expect(try spool.chunks().nextChunk() == AudioChunk(time: 0, samples: [0.5, -0.5]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func noSpoolWhereNoFileCanBeMade() {
        #expect(AudioSpoolWriter(directory: "/nonexistent-medialint-folder") == nil)
    }

    @Test func anEmptySpoolHasNoChunks() throws {
        let spool = try #require(AudioSpoolWriter()?.finish())
        #expect(spool.byteCount == 0)
        #expect(try spool.chunks().nextChunk() == nil)
    }
}
