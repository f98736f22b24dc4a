import Foundation
import TestTraits
import Testing

/// `medialint probe`: text and JSON output, `-o`, and the exit statuses of docs/cli.md.
@Suite struct ProbeCommandTests {
    @Test func jsonFollowsTheContract() throws {
        let result = try Medialint.run(["probe", "Media/embedded-subtitles.mkv", "--format", "json"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["file"] as? String == "Media/embedded-subtitles.mkv")
        #expect(json["format"] as? String == "matroska,webm")
        #expect(json["duration"] as? Double == 12.021)
        let streams = try #require(json["streams"] as? [[String: Any]])
        #expect(streams.map { $0["index"] as? Int } == [0, 1, 2, 3, 4])
        #expect(streams.map { $0["kind"] as? String } == ["video", "audio", "subtitle", "subtitle", "subtitle"])
        #expect(streams.map { $0["codec"] as? String } == ["h264", "aac", "subrip", "ass", "webvtt"])
        #expect(streams[0]["duration"] as? Double == 12)
        #expect(streams[0]["durationSource"] as? String == "packets")
        #expect(streams[2]["language"] as? String == "eng")
        #expect(streams[2]["dispositions"] as? [String] == ["default", "hearing_impaired"])
        // Keys in a stable, readable order.
        #expect(
            result.stdout.hasPrefix(
                "{\n  \"tool\": \"medialint\",\n  \"version\": \"0.1.0\",\n  \"file\": \"Media/embedded-subtitles.mkv\",\n  \"format\": \"matroska,webm\","))
    }

    /// FFmpeg's libraries are opened when media is first read, not when medialint starts: where they cannot be opened
    /// (here an empty file stands first on the library path), caption commands work and a media command says why it
    /// cannot read the file, with exit status 2.
    @Test func ffmpegIsOpenedOnlyToReadMedia() throws {
        let folder = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("libavformat.so.59"))
        let environment = ["LD_LIBRARY_PATH": folder.path]
        let lint = try Medialint.run(["lint", "Media/speech.srt"], environment: environment)
        #expect(lint.status == 0)
        #expect(lint.stdout.hasSuffix("4 cues · profile netflix · 0 errors, 2 warnings\n"))
        let probe = try Medialint.run(["probe", "Media/speech.mp4"], environment: environment)
        #expect(probe.status == 2)
        #expect(probe.stdout.isEmpty)
        #expect(probe.stderr.contains("Media/speech.mp4: FFmpeg's libavformat.so.59 could not be opened ("))
        #expect(probe.stderr.contains("install FFmpeg's libraries"))
    }

    @Test func textOutput() throws {
        let result = try Medialint.run(["probe", "Media/speech.mp4"])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                Media/speech.mp4
                  QuickTime / MOV (mov,mp4,m4a,3gp,3g2,mj2) · 12.000 s · 292.0 KiB · 199 kb/s
                  #0 video    h264 (High), 320x180, 25 fps, yuv420p (8-bit), und — 12.000 s, 300 frames [default]
                  #1 audio    aac (LC), 48000 Hz, mono, eng — 12.000 s, 564 packets [default]

                """)
    }

    @Test func writesToAFile() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("probe.json").path
        let result = try Medialint.run(["probe", "Media/no-audio.mp4", "--format", "json", "-o", output])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.contains("\"codec\": \"h264\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["probe.json"])  // no temp left
    }

    @Test func unwritableOutputIsAnError() throws {
        let result = try Medialint.run(["probe", "Media/no-audio.mp4", "-o", "/nonexistent-dir/out.txt"])
        #expect(result.status == 2)
        #expect(result.stderr == "medialint: error: cannot write /nonexistent-dir/out.txt: no such directory /nonexistent-dir\n")
    }

    /// Each unreadable input: exit status 2, one line on stderr saying why, nothing on stdout.
    @Test(arguments: [
        ("Media/no-such-file.mp4", "Media/no-such-file.mp4: no such file"),
        ("Media/empty.mp4", "Media/empty.mp4: the file is empty"),
        ("Media/not-media.mp4", "Media/not-media.mp4: not a media file FFmpeg can read (no known format recognised)"),
        ("Media/corrupt-header.mp4", "Media/corrupt-header.mp4: truncated or corrupt QuickTime / MOV data (FFmpeg: moov atom not found)"),
        ("Media/truncated.mp4", "Media/truncated.mp4: the file is truncated: stream #0's data runs to byte"),
        ("Media", "Media: is a directory, not a media file"),
    ])
    func unreadableInput(path: String, message: String) throws {
        let result = try Medialint.run(["probe", path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("medialint: error: " + message))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    /// A usage error is exit status 2 (the binary), with ArgumentParser's message (parsed here).
    @Test func usageErrorsExitWithTwo() throws {
        let missing = try Medialint.run(["probe"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("Missing expected argument '<media>'"))
        #expect(CommandLineParsing.refusal(["probe"])?.message.contains("Missing expected argument '<media>'") == true)
        #expect(CommandLineParsing.refusal(["probe", "Media/speech.mp4", "--format", "xml"])?.status == 2)
        let unknown = try Medialint.run(["frobnicate"])
        #expect(unknown.status == 2)
    }

    @Test func versionHelpAndCompletions() throws {
        let version = try Medialint.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "0.1.0\n")
        #expect(CommandLineParsing.refusal(["--version"])?.message == "0.1.0")
        #expect(CommandLineParsing.help().contains("probe"))
        #expect(CommandLineParsing.help("probe").contains("--scan <when>"))
        #expect(CommandLineParsing.completionScript(.bash).contains("_medialint"))
    }

    @Test func noColourWhenNotATerminal() throws {
        let result = try Medialint.run(["probe", "Media/no-such.mp4"])
        #expect(!result.stderr.contains("\u{1B}["))
    }
}

/// A container with nothing in it — no stream, or streams whose sample tables are empty — is not media `probe` can
/// describe: exit 2 with the reason, as for any input it cannot read, and a JSON failure document.
@Suite(.tags(.media), .notInFastRun) struct EmptyContainerProbeTests {
    @Test func aContainerWithNothingToReadIsExitTwo() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("empty-tables.mp4").path
        let made = try Medialint.runTool(
            "/usr/bin/env",
            ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=1", "-frames:v", "0", "-c:v", "libx264", path])
        try #require(made.status == 0)
        let text = try Medialint.run(["probe", path])
        #expect(text.status == 2 && text.stderr == "medialint: error: \(path): no stream: nothing to read\n", "\(text.stderr)")
        let json = try Medialint.run(["probe", path, "--format", "json"])
        #expect(json.status == 2 && json.stdout.contains("\"kind\": \"corrupt\"") && json.stdout.contains("no stream: nothing to read"))
    }
}
