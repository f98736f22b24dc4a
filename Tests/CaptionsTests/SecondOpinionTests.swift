import Foundation
import TestSupport
import TestTraits
import Testing

@testable import Captions

/// Other projects' readers and writers on the same captions, both ways: pysubs2 for SAMI and ASS, ttconv for EBU
/// STL (`make test` installs both, pinned, in .build/opinions).
@Suite(.tags(.media), .notInFastRun) struct SecondOpinionTests {
    static let python = TestMediaCache.packageRoot.appendingPathComponent(".build/opinions/bin/python").path

    /// pysubs2's events of the file at `path` (Dialogue only): start and end in milliseconds, plain text.
    static func pysubs2Events(_ path: String) throws -> [[String]] {
        let script = [
            "import json, sys, pysubs2",
            #"subs = pysubs2.load(sys.argv[1], encoding="utf-8")"#,
            #"print(json.dumps([[str(e.start), str(e.end), e.plaintext] for e in subs if e.type == "Dialogue"]))"#,
        ].joined(separator: "\n")
        let output = try ExternalTool.output(python, ["-c", script, path])
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String]])
    }

    /// pysubs2 writing `cues` (start ms, end ms, text with `\N` breaks and `{\i1}` italics) to `path`, its format from
    /// the extension.
    static func pysubs2Write(_ cues: [[String]], to path: String) throws {
        let script = [
            "import json, sys, pysubs2",
            "subs = pysubs2.SSAFile()",
            "for start, end, text in json.loads(sys.argv[2]):",
            "    subs.append(pysubs2.SSAEvent(start=int(start), end=int(end), text=text))",
            "subs.save(sys.argv[1])",
        ].joined(separator: "\n")
        let json = String(decoding: try JSONSerialization.data(withJSONObject: cues), as: UTF8.self)
        _ = try ExternalTool.output(python, ["-c", script, path, json])
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-opinions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static let cues = [
        Cue(start: CaptionTime(milliseconds: 1000), end: CaptionTime(milliseconds: 2500), text: "안녕하십니까,\n뉴스 9입니다."),
        Cue(start: CaptionTime(milliseconds: 3000), end: CaptionTime(milliseconds: 4500), text: "The <i>first</i> story &amp; the weather"),
        Cue(start: CaptionTime(milliseconds: 4500), end: CaptionTime(milliseconds: 6250), text: "Heavy rain"),
    ]

    /// Our ASS read by pysubs2, and pysubs2's read by us: the same times and words.
    @Test func pysubs2AgreesOnASSBothWays() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ours = folder.appendingPathComponent("ours.ass").path
        try Data(CaptionFile.encode(CaptionDocument(format: .webvtt, cues: Self.cues), as: .ass).bytes).write(to: URL(fileURLWithPath: ours))
        let expected = Self.cues.map { [String($0.start.milliseconds), String($0.end.milliseconds), $0.plainText(in: .webvtt)] }
        #expect(try Self.pysubs2Events(ours) == expected)

        let theirs = folder.appendingPathComponent("theirs.ass").path
        try Self.pysubs2Write(
            [["1000", "2500", "안녕하십니까,\\N뉴스 9입니다."], ["3000", "4500", "The {\\i1}first{\\i0} story & the weather"], ["4500", "6250", "Heavy rain"]],
            to: theirs)
        let read = try CaptionFile.read(theirs)
        #expect(read.format == .ass)
        #expect(read.cues.map { [String($0.start.milliseconds), String($0.end.milliseconds), $0.plainText(in: .webvtt)] } == expected)
        #expect(read.cues[1].text == "The <i>first</i> story &amp; the weather", "\(read.cues[1].text)")
    }

    /// Our SAMI read by pysubs2 (it reads SAMI, it does not write it): the same starts and words. pysubs2 makes an
    /// empty event of each clearing SYNC (left out here) and ends a caption before its clear on its own estimate
    /// (the last one's end is not compared).
    @Test func pysubs2ReadsOurSAMI() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ours = folder.appendingPathComponent("ours.smi").path
        try Data(CaptionFile.encode(CaptionDocument(format: .webvtt, cues: Self.cues), as: .sami).bytes).write(to: URL(fileURLWithPath: ours))
        let theirs = try Self.pysubs2Events(ours).filter { !$0[2].isEmpty }
        #expect(theirs.map { [$0[0], $0[2]] } == Self.cues.map { [String($0.start.milliseconds), $0.plainText(in: .webvtt)] })
        #expect(theirs.dropLast().map { $0[1] } == Self.cues.dropLast().map { String($0.end.milliseconds) })
    }

    /// ttconv on the teletext STL fixture: the same words and times (ttconv keeps the programme's 10:00:00:00 time
    /// code; MediaLint counts from it).
    @Test func ttconvReadsTheSameSTL() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = Fixtures.url("formats/teletext-subtitles.stl").path
        let srt = folder.appendingPathComponent("ttconv.srt").path
        _ = try ExternalTool.output(Self.python, ["-m", "ttconv.tt", "convert", "-i", fixture, "-o", srt])
        let theirs = try CaptionFile.read(srt).cues
        let ours = try CaptionFile.read(fixture).cues
        #expect(theirs.map { $0.start.milliseconds - 36_000_000 } == ours.map(\.start.milliseconds))
        #expect(theirs.map { $0.end.milliseconds - 36_000_000 } == ours.map(\.end.milliseconds))
        // Words alike; spaces around a style change are where each reader puts them.
        func words(_ text: String) -> [Substring] { text.split(whereSeparator: { $0 == " " || $0 == "\n" }) }
        #expect(theirs.map { words($0.plainText(in: .srt).replacingOccurrences(of: "white", with: "white ")) } == ours.map { words($0.plainText(in: .webvtt)) })
    }
}
