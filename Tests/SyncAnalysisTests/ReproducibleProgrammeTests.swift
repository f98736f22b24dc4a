import Foundation
import TestSupport
import TestTraits
import Testing

/// Test media are made bit for bit the same from the same recipe: a test programme made twice from nothing, in two
/// empty folders, gives the same bytes — every spoken line, effect, the babble, the music and the mix, as 16 kHz PCM and
/// as AAC. (Before: sox dithered with fresh noise each run, so lines came out a sample longer or shorter, and the sync
/// verdict on the programme could flip.)
@Suite(.tags(.media, .slow), .notInFastRun) struct ReproducibleProgrammeTests {
    /// Each file under `folder` (by its path inside it) and a hash of its bytes.
    func fingerprints(of folder: URL) throws -> [String: String] {
        var found: [String: String] = [:]
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]))
        for case let url as URL in enumerator where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            found[String(url.path.dropFirst(folder.path.count))] = try TestMediaCache.fingerprint(ofFile: url.path)
        }
        return found
    }

    /// The conversation (festival's and espeak-ng's voices, a voice in a hall and one on the telephone made by sox, café
    /// babble, a party's recorded music), 20 s of it, made twice.
    @Test func aProgrammeMadeTwiceFromNothingIsTheSameBytes() throws {
        let folder = try TemporaryFolder.make("reproducible")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try Programme.make(.conversation, in: folder.appendingPathComponent("first"), minutes: 20.0 / 60)
        let second = try Programme.make(.conversation, in: folder.appendingPathComponent("second"), minutes: 20.0 / 60)
        let made = try fingerprints(of: folder.appendingPathComponent("first"))
        // The mix, the encoded programme and the parts it is made of (lines, babble, music).
        #expect(made.keys.contains { $0.hasSuffix(".m4a") } && made.keys.contains { $0.hasSuffix(".pcm") })
        // Lines of festival's and espeak-ng's voices, the one in a hall and the one on the telephone (sox's reverb and
        // filters): `line-VOICE-…`.
        let voices = Set(made.keys.filter { $0.hasPrefix("/parts/line-") }.map { $0.split(separator: "-")[1] })
        #expect(voices.isSuperset(of: ["0", "1", "4", "5"]), "\(made.keys.sorted())")
        #expect(made.keys.contains("/parts/effect-babble.raw"))
        let again = try fingerprints(of: folder.appendingPathComponent("second"))
        #expect(made.keys.sorted() == again.keys.sorted())
        let differing = made.keys.filter { made[$0] != again[$0] }.sorted()
        #expect(differing.isEmpty, "made differently the second time: \(differing)")
        #expect(first.lines.map(\.start) == second.lines.map(\.start) && first.lines.map(\.end) == second.lines.map(\.end))
    }

    /// The programme of recorded people (telephone prompts and a reader resampled from 8 and 16 kHz, recorded effects
    /// decoded from Ogg), 30 s of it, made twice.
    @Test func aRecordedProgrammeMadeTwiceIsTheSameBytes() throws {
        let folder = try TemporaryFolder.make("reproducible-recorded")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try Programme.make(.recorded, in: folder.appendingPathComponent("first"), minutes: 0.5)
        _ = try Programme.make(.recorded, in: folder.appendingPathComponent("second"), minutes: 0.5)
        #expect(first.lines.contains { $0.speaker == "ALLISON" })
        let made = try fingerprints(of: folder.appendingPathComponent("first"))
        #expect(made.keys.contains { $0.hasPrefix("/parts/recorded-") })
        let again = try fingerprints(of: folder.appendingPathComponent("second"))
        #expect(made == again, "made differently the second time: \(made.keys.filter { made[$0] != again[$0] }.sorted())")
    }
}
