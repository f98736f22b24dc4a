import Foundation
import SyncAnalysis
import Testing

/// Caption timing on a real conversation (`Fixtures/conversation`: 30 s of two people talking spontaneously, with
/// overlapping turns, from pyannote.audio's sample and its turns labelled by people), in memory.
@Suite struct ConversationRecordingTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/conversation")

    /// The recording's samples (16-bit PCM after a 44-byte header), −1…1.
    static func samples() throws -> [Float] {
        let data = try Data(contentsOf: folder.appendingPathComponent("two-speakers.wav"))
        return data.dropFirst(44).withUnsafeBytes { raw in
            (0..<raw.count / 2).map { Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self))) / 32768 }
        }
    }

    /// The turns, start and end in seconds, as labelled.
    static func turns() throws -> [(start: Double, end: Double)] {
        let text = try String(contentsOf: folder.appendingPathComponent("two-speakers.rttm"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 5, let start = Double(fields[3]), let length = Double(fields[4]) else { return nil }
            return (start, start + length)
        }.sorted { $0.start < $1.start }
    }

    /// The speech timeline of the recording, found once per process.
    static let timeline: Result<SpeechTimeline, any Error> = Result {
        var detector = SpeechDetector(sampleRate: 16_000)
        detector.add(try samples(), at: 0)
        return detector.finish()
    }

    /// Frame by frame against the turns people labelled, the detector finds the talk: precision and recall ≥ 0.95 (0.989
    /// and 0.989 when written).
    @Test func theDetectorFindsTheTalk() throws {
        let timeline = try Self.timeline.get()
        var truth = [Bool](repeating: false, count: timeline.mask.count)
        for turn in try Self.turns() {
            for frame in Int(turn.start * 100)..<min(truth.count, Int(turn.end * 100)) { truth[frame] = true }
        }
        let found = truth.indices.filter { timeline.mask[$0] == 1 }
        let right = found.filter { truth[$0] }.count
        let precision = Double(right) / Double(found.count), recall = Double(right) / Double(truth.filter { $0 }.count)
        #expect(precision >= 0.95 && recall >= 0.95, "precision \(precision), recall \(recall)")
    }

    /// A cue a turn (ten, some overlapping, over 23 s), on time or 1.5 s late, 0.8 s early, 3 s late: the offset within
    /// 0.1 s, no drift (a few tightly fitting onsets once gave ×1.0025 here), no break, nothing said to be uncaptioned,
    /// no cue where nobody speaks, and the cues that start on an onset within 0.05 s of it.
    @Test(arguments: [0.0, 1.5, -0.8, 3.0]) func aCueATurnIsMeasured(offset: Double) throws {
        let turns = try Self.turns()
        #expect(turns.count == 10)
        let report = SyncAligner().align(cues: turns.map { ($0.start + offset, $0.end + offset) }, speech: try Self.timeline.get())
        #expect(abs(report.offsetSeconds - offset) <= 0.1 && report.driftRatio == 1, "\(report.offsetSeconds) \(report.driftRatio)")
        #expect(report.breaks.isEmpty && report.uncaptionedSpeech.isEmpty && report.cuesOverSilence.isEmpty && report.cuesOverMusic.isEmpty)
        let onsets = report.onsets.compactMap { $0 }
        #expect(onsets.count >= 3 && onsets.allSatisfy { abs($0.offset) <= 0.05 }, "\(onsets)")
    }
}
