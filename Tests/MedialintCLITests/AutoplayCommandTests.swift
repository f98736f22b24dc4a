import Foundation
import Testing

/// `medialint autoplay` on a small site built from the bundled samples.
@Suite struct AutoplayCommandTests {
    /// A site folder: `index.html` and `news/page.html` pointing at copies of the samples.
    func site() throws -> URL {
        let directory = try Medialint.temporaryDirectory()
        let media = directory.appendingPathComponent("site/media"), news = directory.appendingPathComponent("site/news")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: news, withIntermediateDirectories: true)
        for name in ["speech.mp4", "no-audio.mp4"] {
            try FileManager.default.copyItem(atPath: Medialint.media(name), toPath: media.appendingPathComponent(name).path)
        }
        try """
        <!doctype html>
        <title>Home</title>
        <video autoplay src="media/speech.mp4"></video>
        <video autoplay muted src="media/speech.mp4"></video>
        <video autoplay src="media/no-audio.mp4"></video>
        """.write(to: directory.appendingPathComponent("site/index.html"), atomically: true, encoding: .utf8)
        try """
        <p>News</p>
        <audio autoplay src="../media/speech.mp4#t=0,2.5"></audio>
        <audio autoplay src="../../secret.mp4"></audio>
        """.write(to: news.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)
        return directory
    }

    @Test func aFolderOfPages() throws {
        let directory = try site()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.appendingPathComponent("site").path
        let result = try Medialint.run(["autoplay", root])
        #expect(result.status == 1, "a page points outside the root: that media cannot be checked")
        #expect(
            result.stdout.contains(
                """
                \(root)/index.html  FAIL  autoplay
                  ✗ line 3  <video> autoplays media/speech.mp4 with 10.6 s of sound: more than 3 s with no control to stop it (WCAG 1.4.2)  [autoplay.audio]
                """))
        #expect(result.stdout.contains("line 4  <video> autoplays muted: no sound"))
        #expect(result.stdout.contains("line 5  <video> autoplays media/no-audio.mp4: no audio stream"))
        #expect(
            result.stdout.contains(
                """
                \(root)/news/page.html  FAIL  autoplay
                """) == false, "the second page has an error, not a failure")
        #expect(result.stdout.contains("\(root)/news/page.html  ERROR  autoplay"))
        #expect(result.stdout.contains("line 2  <audio> autoplays ../media/speech.mp4#t=0,2.5 with 2 s of sound: at most 3 s"))
        #expect(result.stdout.contains("line 3  <audio> source ../../secret.mp4 leaves the checked root (\(root)): not read"))
    }

    @Test func jsonSarifAndMediaOnItsOwn() throws {
        let directory = try site()
        defer { try? FileManager.default.removeItem(at: directory) }
        let index = directory.appendingPathComponent("site/index.html").path
        let json = try Medialint.run(["autoplay", index, "--format", "json", "--profile", "kwcag"])
        #expect(json.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let findings = try #require((report["results"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]])
        #expect(findings.first?["line"] as? Int == 3 && findings.first?["guidelines"] as? [String] == ["KWCAG 3.4"])
        let data = try #require(findings.first?["data"] as? [String: Any])
        #expect(data["src"] as? String == "media/speech.mp4" && data["autoplay"] as? String == "" && data["muted"] as? Bool == false)
        let sarif = try Medialint.run(["autoplay", index, "--format", "sarif"])
        #expect(sarif.stdout.contains("\"region\":{\"startLine\":3}"))
        let media = try Medialint.run(["autoplay", "--media", Medialint.media("speech.mp4"), "--format", "json"])
        #expect(media.status == 0)
        let metrics = try #require(
            ((try JSONSerialization.jsonObject(with: Data(media.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]])?.first?["metrics"]
                as? [String: Any])
        #expect(metrics["duration"] as? Double == 12 || metrics["duration"] as? Int == 12)
        #expect(abs((metrics["firstAudible"] as? Double ?? 9) - 0.5) < 0.1)
        #expect(abs((metrics["lastAudible"] as? Double ?? 0) - 11.73) < 0.15)
        #expect(try Medialint.run(["autoplay"]).status == 2)
        #expect(try Medialint.run(["autoplay", "/nonexistent/page.html"]).status == 2)
    }

    /// A media file given where a page is expected (`--media A B` takes one file): an error, not HTML parsing.
    @Test func binaryFileIsNotAPage() throws {
        let result = try Medialint.run(["autoplay", "--media", Medialint.media("speech.mp4"), Medialint.media("flashing.mp4")])
        #expect(result.status == 1)
        #expect(result.stdout.contains("flashing.mp4  ERROR  autoplay"))
        #expect(result.stdout.contains("not an HTML page: binary data"))
        #expect(result.stdout.contains("speech.mp4  PASS  autoplay"), "the --media file is still measured")
    }

    /// A page saved as UTF-16 (with a byte order mark, or without one, either byte order) is read as the same page,
    /// Korean text and all — not refused as binary.
    @Test(arguments: ["le-bom", "be-bom", "le", "be"])
    func utf16PagesAreRead(encoding: String) throws {
        let directory = try site()
        defer { try? FileManager.default.removeItem(at: directory) }
        let html = "<!doctype html>\n<title>홈 — 자동 재생</title>\n<p>소리가 납니다</p>\n<video autoplay src=\"media/speech.mp4\"></video>\n"
        var bytes: [UInt8] = encoding.hasSuffix("bom") ? (encoding.hasPrefix("le") ? [0xFF, 0xFE] : [0xFE, 0xFF]) : []
        for unit in html.utf16 {
            bytes += encoding.hasPrefix("le") ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        let page = directory.appendingPathComponent("site/utf16.html").path
        try Data(bytes).write(to: URL(fileURLWithPath: page))
        let result = try Medialint.run(["autoplay", page])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                \(page)  FAIL  autoplay
                  ✗ line 4  <video> autoplays media/speech.mp4 with 10.6 s of sound: more than 3 s with no control to stop it (WCAG 1.4.2)  [autoplay.audio]
                  1 autoplaying element · profile wcag

                """)
    }
}
