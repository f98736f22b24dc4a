import Foundation
import TestSupport
import TestTraits
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `medialint check` over a small library made from the bundled samples.
@Suite struct CheckCommandTests {
    /// videos/: captioned, uncaptioned, late captions; videos/sub/: flashing, a truncated file, a symlink loop;
    /// web/: a page that autoplays one of the videos.
    func library() throws -> URL {
        let root = try Medialint.temporaryDirectory()
        let videos = root.appendingPathComponent("videos"), sub = videos.appendingPathComponent("sub"), web = root.appendingPathComponent("web")
        for folder in [sub, web] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let copies = [
            ("speech.mp4", videos, "good.mp4"), ("speech.vtt", videos, "good.vtt"), ("speech.mp4", videos, "uncaptioned.mp4"),
            ("speech.mp4", videos, "late.mp4"), ("flashing.mp4", sub, "flashing.mp4"), ("truncated.mp4", sub, "broken.mp4"),
        ]
        for (name, folder, copy) in copies {
            try FileManager.default.copyItem(atPath: Medialint.media(name), toPath: folder.appendingPathComponent(copy).path)
        }
        let late = try String(contentsOfFile: Medialint.media("speech.vtt"), encoding: .utf8)
            .replacingOccurrences(of: "00:00:0", with: "00:00:1")  // every cue 10 s later
        try late.write(to: videos.appendingPathComponent("late.vtt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: sub.appendingPathComponent("loop").path, withDestinationPath: "..")
        try #"<audio autoplay src="../videos/good.mp4"></audio>"#.write(to: web.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        return root
    }

    @Test func everyFileHasAResultAndTheRunGoesOn() throws {
        let root = try library()
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Medialint.run(["check", root.path, "--format", "json", "--jobs", "2"])
        #expect(result.status == 1, "the truncated file cannot be read: a failing result")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try #require(report["results"] as? [[String: Any]])
        func relative(_ result: [String: Any]) -> String { (result["file"] as? String ?? "").replacingOccurrences(of: root.path + "/", with: "") }
        let files = Set(results.map(relative))
        #expect(
            files == [
                "videos/good.mp4", "videos/good.vtt", "videos/late.mp4", "videos/late.vtt", "videos/uncaptioned.mp4",
                "videos/sub/broken.mp4", "videos/sub/flashing.mp4", "web/index.html",
            ])
        func verdicts(_ file: String) -> [String: String] {
            Dictionary(results.filter { relative($0) == file }.map { ($0["check"] as? String ?? "", $0["verdict"] as? String ?? "") }) { a, _ in a }
        }
        func rules(_ file: String) -> Set<String> {
            Set(results.filter { relative($0) == file }.flatMap { ($0["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String } })
        }
        #expect(verdicts("videos/sub/broken.mp4") == ["media": "error"])
        #expect(verdicts("videos/good.mp4") == ["captions": "pass", "sync": "pass", "flash": "pass"])
        #expect(rules("videos/uncaptioned.mp4").contains("captions.missing") && verdicts("videos/uncaptioned.mp4")["captions"] == "fail")
        #expect(rules("videos/late.mp4").contains("sync.offset") && verdicts("videos/late.mp4")["sync"] == "fail")
        #expect(rules("videos/sub/flashing.mp4").contains("flash.general"))
        #expect(verdicts("web/index.html") == ["autoplay": "fail"])
        #expect(verdicts("videos/good.vtt") == ["lint": "warn"])
        let inventory = try #require(results.first { relative($0) == "videos/good.mp4" && $0["check"] as? String == "captions" }?["metrics"] as? [String: Any])
        #expect((inventory["captionFiles"] as? [String])?.map { ($0 as NSString).lastPathComponent } == ["good.vtt"])
    }

    /// Audio-only media: speech with no transcript or captions next to it fails `transcript.missing`; a transcript
    /// next to it passes; a tone (Media/audio-only.ogg), a minute of recorded game music (hyperrogue-music's, which
    /// the detector took for 26.5 s of speech before speech had to sound clearly like it) and two minutes of another
    /// (5.8 s of "speech" before its spectrum's shape had to move as a voice's does) are sound, not speech, and need none.
    @Test(.tags(.media), .notInFastRun) func audioOnlySpeechNeedsATranscript() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let podcast = directory.appendingPathComponent("podcast.m4a").path
        try ExternalTool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", Medialint.media("speech.mp4"), "-vn", "-c:a", "copy", podcast])
        try FileManager.default.copyItem(atPath: Medialint.media("audio-only.ogg"), toPath: directory.appendingPathComponent("tone.ogg").path)
        let music = try TestMediaCache.ffmpeg(
            "icyland-60s.m4a", ["-i", "/usr/share/hyperrogue/music/hr3-icyland.ogg", "-t", "60", "-c:a", "aac", "-b:a", "96k", TestMediaCache.output])
        try FileManager.default.copyItem(atPath: music, toPath: directory.appendingPathComponent("music.m4a").path)
        let theme = try TestMediaCache.ffmpeg(
            "palace-120s.m4a", ["-i", "/usr/share/hyperrogue/music/hr-savino-palace.ogg", "-t", "120", "-c:a", "aac", "-b:a", "96k", TestMediaCache.output])
        try FileManager.default.copyItem(atPath: theme, toPath: directory.appendingPathComponent("theme.m4a").path)
        let missing = try Medialint.run(["check", ".", "--no-store", "--format", "jsonl"], in: directory)
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("\"rule\":\"transcript.missing\""), "\(missing.stdout)")
        #expect(missing.stdout.components(separatedBy: "transcript.missing").count == 2, "the tone and the two pieces of music need no transcript")
        try "Welcome to the media accessibility demo.\n".write(toFile: directory.appendingPathComponent("podcast.txt").path, atomically: true, encoding: .utf8)
        let transcribed = try Medialint.run(["check", ".", "--no-store", "--format", "jsonl"], in: directory)
        #expect(!transcribed.stdout.contains("transcript.missing"), "\(transcribed.stdout)")
    }

    /// Every caption format is a caption file of the library, with or without a video beside it: a folder of SAMI,
    /// TTML, SCC, ASS, SBV and EBU STL files is linted file by file and stored; a 3D model's `.stl` is not taken for captions.
    @Test func everyCaptionFormatIsLintedOnItsOwn() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let formats = Medialint.root.appendingPathComponent("Tests/CaptionsTests/Fixtures/formats")
        for name in try FileManager.default.contentsOfDirectory(atPath: formats.path) {
            try FileManager.default.copyItem(at: formats.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        try "solid cube\nendsolid cube\n".write(to: directory.appendingPathComponent("model.stl"), atomically: true, encoding: .utf8)
        let run = try Medialint.run(["check", ".", "--db", "store.sqlite", "--format", "json"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let results = try #require(json["results"] as? [[String: Any]])
        #expect(
            results.map { "\($0["file"] ?? "") \($0["check"] ?? "") \($0["verdict"] ?? "")" } == [
                "./korean-two-languages.cp949.smi lint warn", "./news-regions.ttml lint pass", "./news-two-channels.scc lint pass",
                "./styled-events.ass lint warn", "./teletext-subtitles.stl lint warn", "./two-cues.sbv lint pass",
            ])
        let stored = try Medialint.run(["report", "--db", "store.sqlite", "--format", "jsonl"], in: directory)
        #expect(stored.stdout.split(separator: "\n").count == 7, "six results and the summary")
    }

    @Test func jsonLinesStreamAsFilesFinish() throws {
        let root = try library()
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Medialint.run([
            "check", root.appendingPathComponent("videos/good.mp4").path, root.appendingPathComponent("web").path,
            "--format", "jsonl",
        ])
        // The page was given through its own folder: its media (../videos) is outside that root, and not read.
        #expect(result.status == 1)
        #expect(result.stdout.contains("media.outside-root"))
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 5, "four results, then the summary")
        #expect(lines.last?.hasPrefix("{\"summary\":{\"files\":2,\"results\":4,") == true, "\(lines.last ?? "")")
        for line in lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil) }
    }

    /// The HTML report of the library, rendered from the store: one section a file, with the flash chart (its
    /// incident marked) for the flashing video and the caption timeline for each synced video.
    @Test func htmlReportFromTheStore() throws {
        let root = try library()
        defer { try? FileManager.default.removeItem(at: root) }
        let database = root.appendingPathComponent("results.sqlite").path, page = root.appendingPathComponent("report.html")
        #expect(try Medialint.run(["check", root.appendingPathComponent("videos").path, "--db", database, "--format", "json"]).status == 1)
        let result = try Medialint.run(["report", "--db", database, "--format", "html", "-o", page.path])
        #expect(result.status == 1 && result.stdout.isEmpty)
        let document = try XMLDocument(contentsOf: page)
        #expect(try document.nodes(forXPath: "//table[@class='files']/tbody/tr").count == 7, "7 files (the loop is walked once)")
        #expect(try document.nodes(forXPath: "//table[@class='rules']//a[@href]").count >= 3, "the rules found, linked to their sources")
        func section(_ name: String) throws -> XMLNode {
            try #require(
                try document.nodes(forXPath: "//section").first {
                    ($0 as? XMLElement)?.elements(forName: "h2").first?.stringValue?.contains("/" + name + " ") == true
                })
        }
        let flashing = try section("flashing.mp4")
        #expect(try flashing.nodes(forXPath: ".//svg").count == 2, "luminance, and flashes a second, each on its own scale")
        #expect(try flashing.nodes(forXPath: ".//svg/rect").count >= 1, "incidents marked")
        #expect(try flashing.nodes(forXPath: ".//polyline").count == 1 && flashing.nodes(forXPath: ".//polygon").count == 1, "flashes; luminance's range")
        for name in ["good.mp4", "late.mp4"] {
            #expect(
                try section(name).nodes(forXPath: ".//svg/title").map { $0.stringValue ?? "" }
                    .contains { $0.hasPrefix("Captions against detected speech") }, "\(name)")
        }
        #expect(try section("broken.mp4").nodes(forXPath: ".//svg").isEmpty)
    }
}
