import Foundation
import TestSupport
import TestTraits
import Testing

/// Inputs that are not regular files — FIFOs named like captions, sidecars or pages, devices — are refused
/// without being opened for a blocking read: a clear error, never a hang (every run here has a 60 s limit,
/// and would otherwise wait for a writer forever).
@Suite struct HostileInputTests {
    private let manager = FileManager.default

    /// A library folder with `clip.mp4` (speech) and the given FIFOs.
    private func library(fifos: [String]) throws -> URL {
        let directory = try Medialint.temporaryDirectory()
        try manager.copyItem(atPath: "Media/speech.mp4", toPath: directory.appendingPathComponent("clip.mp4").path)
        for name in fifos { #expect(mkfifo(directory.appendingPathComponent(name).path, 0o600) == 0) }
        return directory
    }

    @Test(arguments: [
        ["cues"], ["lint"], ["transcript"], ["convert", "-", "--to", "vtt"], ["shift", "--by", "1"],
        ["sync", "Media/speech.mp4"],
    ])
    func aFIFOCaptionFileIsRefusedAtOnce(command: [String]) throws {
        let directory = try library(fifos: ["clip.srt"])
        defer { try? manager.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("clip.srt").path
        // The FIFO goes where the command takes its caption file.
        let arguments =
            command[0] == "sync"
            ? ["sync", "Media/speech.mp4", fifo]
            : [command[0], fifo] + command.dropFirst()
        let result = try Medialint.run(arguments, timeout: 60)
        #expect(!result.timedOut)
        // A check fails on a file it cannot read (exit 1); a tool that cannot read its input stops (exit 2).
        #expect(result.status == (["lint", "sync"].contains(command[0]) ? 1 : 2))
        #expect(result.stderr.hasSuffix("\(fifo): not a regular file (a FIFO)\n"), "\(result.stderr)")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    /// `check` of a folder whose sidecars are FIFOs: the captions are an error result, the rest of the file is
    /// checked, the run ends.
    @Test func fifoSidecarsGiveAnErrorResultInCheck() throws {
        let directory = try library(fifos: ["clip.srt", "clip.en.vtt"])
        defer { try? manager.removeItem(at: directory) }
        let result = try Medialint.run(["check", directory.path, "--no-store", "--format", "json"], timeout: 120)
        #expect(!result.timedOut)
        #expect(result.status == 1)
        let clip = directory.appendingPathComponent("clip").path
        #expect(result.stdout.contains("\(clip).en.vtt: not a regular file (a FIFO)"))
        #expect(result.stdout.contains("\(clip).srt: not a regular file (a FIFO)"))
        #expect(result.stdout.contains("\"check\": \"flash\",\n      \"verdict\": \"pass\""), "the video is still checked")
        // With the results store too (it fingerprints sidecars): still no hang.
        let db = directory.appendingPathComponent("store.sqlite").path
        let stored = try Medialint.run(["check", directory.appendingPathComponent("clip.mp4").path, "--db", db], timeout: 120)
        #expect(!stored.timedOut && stored.status == 1)
    }

    @Test func fifoPagesAndConfigAreRefused() throws {
        let directory = try library(fifos: ["index.html", "settings.yml"])
        defer { try? manager.removeItem(at: directory) }
        let page = try Medialint.run(["autoplay", directory.appendingPathComponent("index.html").path], timeout: 60)
        #expect(!page.timedOut && page.status == 1)
        #expect(page.stdout.contains("not a regular file (a FIFO)") || page.stderr.contains("not a regular file (a FIFO)"))
        let config = directory.appendingPathComponent("settings.yml").path
        let lint = try Medialint.run(["lint", "Media/speech.srt", "--config", config], timeout: 60)
        #expect(!lint.timedOut && lint.status == 2)
        #expect(lint.stderr == "medialint: error: \(config): cannot be read: not a regular file (a FIFO)\n")
    }

    @Test func devicesAreRefusedAsInputs() throws {
        for arguments in [["cues", "/dev/zero"], ["probe", "/dev/zero"], ["flash", "/dev/urandom"], ["lint", "/dev/null"]] {
            let result = try Medialint.run(arguments, timeout: 60)
            #expect(!result.timedOut && result.status == (["cues", "probe"].contains(arguments[0]) ? 2 : 1), "\(arguments)")
            #expect(result.stderr.contains("not a regular file (a character device)"), "\(arguments): \(result.stderr)")
        }
    }
}

/// The time bound on reading one media file (MEDIALINT_MEDIA_TIME_LIMIT): past it the file is an error result,
/// and a library run goes on with the next file.
@Suite struct MediaTimeLimitTests {
    @Test func aFileOverItsTimeIsAnErrorResultAndTheRunGoesOn() throws {
        let flash = try Medialint.run(["flash", "Media/speech.mp4"], environment: ["MEDIALINT_MEDIA_TIME_LIMIT": "0+0"])
        #expect(flash.status == 1)
        #expect(
            flash.stdout
                == "Media/speech.mp4  ERROR  flash\n  ✗ reading took longer than the 0 s allowed for a file of this size (MEDIALINT_MEDIA_TIME_LIMIT)  [media.unreadable]\n"
        )
        let check = try Medialint.run(
            ["check", "Media/speech.mp4", "Media/speech.srt", "--no-store"],
            environment: ["MEDIALINT_MEDIA_TIME_LIMIT": "0+0"])
        #expect(check.status == 1)
        #expect(
            check.stdout.hasPrefix(
                """
                Media/speech.mp4  ERROR  media
                  ✗ reading took longer than the 0 s allowed for a file of this size (MEDIALINT_MEDIA_TIME_LIMIT)  [media.unreadable]

                Media/speech.srt  WARN  lint

                """), "the caption file is still checked")
        // The default allows the same file.
        #expect(try Medialint.run(["flash", "Media/speech.mp4"]).status == 0)
    }

    /// An HLS package gets one time for all its media, not one per file: ten thousand one-second runs (a
    /// discontinuity before each) with a 1-s limit end in about a second, said, for `check`, `cues` and `sync`.
    @Test(.tags(.media), .notInFastRun) func aPackageOfManyRunsSharesOneTime() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.path
        try ExternalTool.run(
            "ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", Medialint.media("speech.mp4"), "-t", "1", "-c", "copy", "-f", "mpegts", folder + "/segment.ts"])
        let runs = (0..<10_000).map { "\($0 == 0 ? "" : "#EXT-X-DISCONTINUITY\n")#EXTINF:1,\nsegment.ts\n" }.joined()
        try "#EXTM3U\n#EXT-X-TARGETDURATION:1\n\(runs)#EXT-X-ENDLIST\n".write(toFile: folder + "/video.m3u8", atomically: false, encoding: .utf8)
        try "#EXTM3U\n#EXT-X-TARGETDURATION:10000\n#EXTINF:10000,\nsubtitles.vtt\n#EXT-X-ENDLIST\n".write(
            toFile: folder + "/subtitles.m3u8", atomically: false, encoding: .utf8)
        try "WEBVTT\n\n00:00.000 --> 00:01.000\nHello.\n".write(toFile: folder + "/subtitles.vtt", atomically: false, encoding: .utf8)
        try """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English",LANGUAGE="en",URI="subtitles.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=100000,SUBTITLES="s"
        video.m3u8

        """.write(toFile: folder + "/master.m3u8", atomically: false, encoding: .utf8)
        let limit = ["MEDIALINT_MEDIA_TIME_LIMIT": "1"]
        for arguments in [["check", folder + "/master.m3u8", "--no-store"], ["cues", folder + "/master.m3u8"], ["sync", folder + "/master.m3u8"]] {
            // (The limit's message shows it stopped the reading; the timeout only keeps a hang from stalling the run.)
            let result = try Medialint.run(arguments, environment: limit, timeout: 300)
            #expect(!result.timedOut, "\(arguments)")
            #expect(result.status == (arguments[0] == "check" ? 1 : 2), "\(arguments)")
            let output = result.stdout + result.stderr
            #expect(output.contains("reading the package's media took longer than the 1.0"), "\(arguments): \(output)")
            #expect(output.contains("s allowed for its size (MEDIALINT_MEDIA_TIME_LIMIT)"), "\(arguments)")
        }
    }

    @Test func aMalformedLimitIsAUsageError() throws {
        let result = try Medialint.run(["probe", "Media/speech.mp4"], environment: ["MEDIALINT_MEDIA_TIME_LIMIT": "1e400"])
        #expect(result.status == 2)
        #expect(result.stderr == "medialint: error: MEDIALINT_MEDIA_TIME_LIMIT=1e400: expected seconds, or seconds+seconds-per-MB (e.g. 60 or 60+2)\n")
    }
}

/// Links that lead out of the root given are not followed: not by `autoplay` (media a page plays), not by
/// `check` (files and folders of the library). What lies outside is a FIFO here — opening it would hang.
@Suite struct OutsideTheRootTests {
    private let manager = FileManager.default

    /// `outside/` (a FIFO `secret.mp4`, a folder `private/` with a FIFO `clip.srt` and a real `clip.mp4`) beside
    /// `site/`, which links to them.
    private func layout() throws -> (directory: URL, site: String) {
        let directory = try Medialint.temporaryDirectory()
        let site = directory.appendingPathComponent("site").path, outside = directory.appendingPathComponent("outside").path
        try manager.createDirectory(atPath: site + "/media", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: outside + "/private", withIntermediateDirectories: true)
        #expect(mkfifo(outside + "/secret.mp4", 0o600) == 0)
        #expect(mkfifo(outside + "/private/clip.srt", 0o600) == 0)
        try manager.copyItem(atPath: "Media/speech.mp4", toPath: outside + "/private/clip.mp4")
        try manager.copyItem(atPath: "Media/speech.mp4", toPath: site + "/media/inside.mp4")
        try manager.createSymbolicLink(atPath: site + "/media/link.mp4", withDestinationPath: outside + "/secret.mp4")
        try manager.createSymbolicLink(atPath: site + "/media/passwd.mp4", withDestinationPath: "/etc/passwd")
        try manager.createSymbolicLink(atPath: site + "/linked", withDestinationPath: "../outside/private")
        try manager.createSymbolicLink(atPath: site + "/media/alias.mp4", withDestinationPath: "inside.mp4")  // inside: fine
        try """
        <video autoplay src="media/link.mp4"></video>
        <video autoplay src="media/passwd.mp4"></video>
        <video autoplay src="linked/clip.mp4"></video>
        <video autoplay muted src="media/alias.mp4"></video>
        """.write(toFile: site + "/index.html", atomically: false, encoding: .utf8)
        return (directory, site)
    }

    @Test func autoplayRefusesMediaBehindLinksOutOfTheRoot() throws {
        let (directory, site) = try layout()
        defer { try? manager.removeItem(at: directory) }
        let outside = PathContainment(directory.appendingPathComponent("outside").path)
        let result = try Medialint.run(["autoplay", site], timeout: 60)
        #expect(!result.timedOut && result.status == 1)
        #expect(
            result.stdout.contains(
                "✗ line 1  <video> source media/link.mp4 is a link that leads outside the checked root (to \(outside)/secret.mp4): not read (WCAG 1.4.2)  [media.outside-root]"
            ), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "✗ line 2  <video> source media/passwd.mp4 is a link that leads outside the checked root (to /etc/passwd): not read (WCAG 1.4.2)  [media.outside-root]"
            ))
        #expect(
            result.stdout.contains(
                "✗ line 3  <video> source linked/clip.mp4 is a link that leads outside the checked root (to \(outside)/private/clip.mp4): not read (WCAG 1.4.2)  [media.outside-root]"
            ))
        #expect(result.stdout.contains("line 4  <video> autoplays muted: no sound"))
        #expect(
            result.stderr == "medialint: error: \(site)/linked: a link that leads outside the checked root (to \(outside)/private): not read\n"
                + "medialint: error: \(site)/index.html: <video> source media/link.mp4 is a link that leads outside the checked root (to \(outside)/secret.mp4): not read\n",
            "exit 2 says why on standard error")
        #expect(
            result.stdout.contains(
                "\(site)/linked  ERROR  autoplay\n  ✗ a link that leads outside the checked root (to \(outside)/private): not read  [media.outside-root]"))
    }

    @Test func checkDoesNotWalkOrReadOutOfTheRoot() throws {
        let (directory, site) = try layout()
        defer { try? manager.removeItem(at: directory) }
        let outside = PathContainment(directory.appendingPathComponent("outside").path)
        let result = try Medialint.run(["check", site, "--no-store", "--format", "jsonl"], timeout: 120)
        #expect(!result.timedOut)
        let files = Set(
            result.stdout.split(separator: "\n").compactMap { line in
                line.range(of: "\"file\":\"").map { String(line[$0.upperBound...].prefix { $0 != "\"" }) }
            })
        #expect(
            files == [
                site + "/index.html", site + "/linked", site + "/media/alias.mp4", site + "/media/inside.mp4",
                site + "/media/link.mp4", site + "/media/passwd.mp4",
            ])
        #expect(
            result.stdout.contains(
                "{\"file\":\"\(site)/media/passwd.mp4\",\"check\":\"media\",\"verdict\":\"error\",\"findings\":[{\"rule\":\"media.outside-root\",\"severity\":\"error\",\"message\":\"a link that leads outside the checked root (to /etc/passwd): not read\""
            ))
        #expect(result.stderr.contains("\(site)/linked: a link that leads outside the checked root (to \(outside)/private): not read\n"))
    }
}

/// The real path of a test directory (the temporary directory may itself be behind a link).
private func PathContainment(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().path
}

/// Extreme numbers in options and settings are usage errors (exit 2, one message), never a trap (exit 132). Options
/// checked when the command line is parsed are tested in this process; those checked once the settings files are
/// merged with them, through the binary.
@Suite struct NumberRangeTests {
    @Test(
        arguments: [
            (["shift", "Media/speech.srt", "--by=1e19"], "Error: --by (seconds) must be a number from -1000000000 to 1000000000 (got 1e+19)."),
            (["shift", "Media/speech.srt", "--by=-1e308"], "Error: --by (seconds) must be a number from -1000000000 to 1000000000 (got -1e+308)."),
            (["shift", "Media/speech.srt", "--scale=1e308"], "Error: --scale must be a number from 0.001 to 1000 (got 1e+308)."),
            (["transcript", "Media/speech.srt", "--pause=1e308"], "Error: --pause (seconds) must be a number above 0 and at most 86400 (got 1e+308)."),
            (["check", "Media/speech.srt", "--jobs=99999999"], "Error: --jobs must be a whole number from 1 to 1024 (got 99999999)."),
        ] as [([String], String)])
    func extremeOptionsAreRefusedWhenParsed(arguments: [String], message: String) throws {
        let refusal = try #require(CommandLineParsing.refusal(arguments))
        #expect(refusal.status == 2)
        #expect(refusal.message.hasPrefix(message), "\(refusal.message)")
    }

    @Test(
        arguments: [
            (
                ["flash", "Media/flashing.mp4", "--max-flashes=inf"],
                "Error: The most flashes a second (--max-flashes, flash.max-flashes) must be a number above 0 and at most 1000 (got inf)."
            ),
            (
                ["flash", "Media/flashing.mp4", "--max-flashes=1e308"],
                "Error: The most flashes a second (--max-flashes, flash.max-flashes) must be a number above 0 and at most 1000 (got 1e+308)."
            ),
            (
                ["flash", "Media/flashing.mp4", "--block-size=99999999"],
                "Error: The block size (--block-size, flash.block-size) must be a whole number from 1 to 4096 (got 99999999)."
            ),
            (["lint", "Media/speech.srt", "--max-cps=1e308"], "Error: --max-cps (lint.max-cps) must be a number above 0 and at most 1000 (got 1e+308)."),
            (
                ["sync", "Media/speech.mp4", "--tolerance=1e308"],
                "Error: The sync tolerance (--tolerance, sync.tolerance) must be a number above 0 and at most 60 (got 1e+308)."
            ),
        ] as [([String], String)])
    func extremeOptionsAreUsageErrors(arguments: [String], message: String) throws {
        let result = try Medialint.run(arguments)
        #expect(result.status == 2 && !result.signalled)
        #expect(result.stderr.hasPrefix(message + "\n"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: ["1e308", ".inf", "-.inf", ".nan"])
    func extremeSettingsAreUsageErrors(value: String) throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("medialint.yml").path
        try "flash:\n  max-flashes: \(value)\n".write(toFile: config, atomically: false, encoding: .utf8)
        let result = try Medialint.run(["flash", "Media/flashing.mp4", "--config", config])
        #expect(result.status == 2 && !result.signalled)
        #expect(result.stderr.hasPrefix("Error: The most flashes a second (--max-flashes, flash.max-flashes) must be a number above 0 and at most 1000 (got "))
    }
}

/// A file that could not be checked fails the run (exit 1), with its reason on standard error, whatever the report
/// format; a path named that does not exist is exit 2.
@Suite struct ExitTwoSaysWhyTests {
    @Test(arguments: ["text", "json", "jsonl", "sarif"])
    func checkSaysWhichFilesCouldNotBeChecked(format: String) throws {
        let result = try Medialint.run(["check", "Media/corrupt-header.mp4", "Media/speech.srt", "--no-store", "--format", format])
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix("medialint: error: Media/corrupt-header.mp4: truncated or corrupt QuickTime / MOV data (FFmpeg: moov atom not found)\n"))
    }
}

/// `check --max-file-memory`: a file that would need more memory than a file may take is an error result,
/// before it is read, and the rest of the library is checked.
@Suite struct FileMemoryLimitTests {
    @Test(.tags(.media), .notInFastRun) func filesOverTheLimitAreErrorResultsAndTheRunGoesOn() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A one-frame 4000×4000 video (tiny on disk, 576 MB to decode the way check holds pictures).
        let huge = directory.appendingPathComponent("huge.mp4").path
        try TestMediaCache.copy(
            try TestMediaCache.ffmpeg(
                "huge.mp4",
                ["-f", "lavfi", "-i", "color=c=gray:s=4000x4000:d=0.04", "-frames:v", "1", "-c:v", "mpeg4", "-pix_fmt", "yuv420p", TestMediaCache.output]),
            to: URL(fileURLWithPath: huge))
        // A 6 MB caption file (about 19 MB once parsed).
        let captions = directory.appendingPathComponent("long.srt").path
        var text = ""
        for index in 0..<120_000 { text += "\(index + 1)\n00:00:01,000 --> 00:00:02,000\nA line of text.\n\n" }
        try text.write(toFile: captions, atomically: false, encoding: .utf8)
        let parsed = (text.utf8.count * 3 + (1 << 20) - 1) >> 20
        try FileManager.default.copyItem(atPath: "Media/speech.srt", toPath: directory.appendingPathComponent("small.srt").path)

        let result = try Medialint.run(["check", directory.path, "--no-store", "--max-file-memory", "16"])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                """
                \(huge)  ERROR  media
                  ✗ would need about 550 MB of memory to check, more than the 16 MB a file may take (--max-file-memory): not read  [check.memory-limit]
                """), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                """
                \(captions)  ERROR  lint
                  ✗ would need about \(parsed) MB of memory to check, more than the 16 MB a file may take (--max-file-memory): not read  [check.memory-limit]
                """))
        #expect(result.stdout.contains("\(directory.path)/small.srt  WARN  lint"), "the rest is checked")
        // Within the default limit, both are checked.
        let roomy = try Medialint.run(["check", directory.path, "--no-store"])
        #expect(!roomy.stdout.contains("check.memory-limit"))
    }
}

/// `--allow-playlists`: an HLS playlist (named like video) is read with the segments it names inside the folder
/// checked; a segment outside it, or a FIFO, is never opened; without the option the playlist is refused.
@Suite struct AllowPlaylistsTests {
    @Test(.tags(.media), .notInFastRun) func playlistsAreReadOnlyInsideTheRootAndOnlyWhenAllowed() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let site = directory.appendingPathComponent("site").path
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ffmpeg.arguments = [
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-i", "Media/speech.mp4", "-c", "copy", "-f", "hls", "-hls_time", "4",
            "-hls_list_size", "0", site + "/stream.m3u8",
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        #expect(ffmpeg.terminationStatus == 0)
        let playlist = try String(contentsOfFile: site + "/stream.m3u8", encoding: .utf8)
        #expect(playlist.contains("stream1.ts"))
        try playlist.write(toFile: site + "/video.mp4", atomically: false, encoding: .utf8)
        // The same playlist with its last segment outside the site (a FIFO: opening it would hang).
        #expect(mkfifo(directory.appendingPathComponent("outside.ts").path, 0o600) == 0)
        try playlist.replacingOccurrences(of: "stream1.ts", with: "../outside.ts").write(toFile: site + "/leaky.mp4", atomically: false, encoding: .utf8)

        let refused = try Medialint.run(["flash", site + "/video.mp4"], timeout: 60)
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "medialint: error: \(site)/video.mp4: Apple HTTP Live Streaming: a playlist or manifest that names other files, not a single media file; only single files are read\n"
        )

        let allowed = try Medialint.run(["flash", site + "/video.mp4", "--allow-playlists"], timeout: 60)
        #expect(allowed.status == 0)
        #expect(
            allowed.stdout
                == "\(site)/video.mp4  PASS  flash\n  300 frames · 25 fps (shows at most 12.5 flashes/s) · most flashes in a second: 0 · profile wcag\n")

        let leaky = try Medialint.run(["probe", site + "/leaky.mp4", "--allow-playlists"], timeout: 60)
        #expect(!leaky.timedOut && leaky.status == 2)
        #expect(leaky.stderr == "medialint: error: \(site)/leaky.mp4: refers to \(site)/../outside.ts, which is not read: outside the checked root\n")

        let check = try Medialint.run(["check", site, "--no-store", "--allow-playlists", "--format", "jsonl"], timeout: 120)
        #expect(!check.timedOut)
        #expect(check.stdout.contains("{\"file\":\"\(site)/video.mp4\",\"check\":\"flash\",\"verdict\":\"pass\""))
        #expect(check.stdout.contains("{\"file\":\"\(site)/leaky.mp4\",\"check\":\"media\",\"verdict\":\"error\""))
    }
}

/// The exit status table of docs/cli.md: 0 nothing failed (warnings pass), 1 a check failed or a file could not be
/// checked, 2 a usage error or a named path that does not exist; `--strict` makes warnings fail.
@Suite struct ExitStatusTableTests {
    @Test func warningsPassUnlessStrict() throws {
        let lint = try Medialint.run(["lint", "Media/speech.srt"])
        #expect(lint.status == 0 && lint.stdout.hasPrefix("Media/speech.srt  WARN  lint\n"))
        #expect(try Medialint.run(["lint", "Media/speech.srt", "--strict"]).status == 1)
        let check = try Medialint.run(["check", "Media/speech.srt", "--no-store", "--strict", "--format", "jsonl"])
        #expect(check.status == 1)
        #expect(
            check.stdout.hasSuffix(
                #"{"summary":{"files":1,"results":1,"pass":0,"warn":1,"fail":0,"unverified":0,"error":0,"exitStatus":1},"tool":"medialint","version":"0.1.0"}"#
                    + "\n"))
        #expect(check.stderr == "1 file · 1 result: 1 warn\n")
    }

    @Test func aMissingPathIsTwoAndStillAReport() throws {
        for arguments in [["check", "Media/missing.mp4", "--no-store"], ["flash", "Media/missing.mp4"], ["lint", "Media/missing.srt"]] {
            let result = try Medialint.run(arguments + ["--format", "json"])
            #expect(result.status == 2, "\(arguments)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(arguments)")
            #expect(report["tool"] as? String == "medialint" && (report["results"] as? [[String: Any]])?.first?["verdict"] as? String == "error")
        }
        // A corrupt file is a failing result, not a usage error.
        #expect(try Medialint.run(["check", "Media/corrupt-header.mp4", "--no-store"]).status == 1)
    }
}

/// An HLS package as a hostile or broken library holds it: a media segment that is a FIFO (opening it to read would
/// block), a subtitle segment that is a link out of the library. Nothing hangs, nothing outside is read; each is said
/// where it belongs, and what could not be seen leaves sync and flash unverified.
@Suite struct HostileHLSPackageTests {
    @Test(.tags(.media), .notInFastRun) func aFIFOSegmentAndALinkOutAreSaidNotRead() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let package = directory.appendingPathComponent("package")
        try HLSTestPackage.build(in: package, subtitles: [("Media/speech.vtt", "en")])
        let fifo = package.appendingPathComponent("stream_0_01.ts").path
        try FileManager.default.removeItem(atPath: fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        let link = package.appendingPathComponent("stream_00.vtt").path
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/etc/hostname")
        let check = try Medialint.run(["check", directory.path, "--no-store"], timeout: 120)
        #expect(!check.timedOut && check.status == 1)
        let master = package.appendingPathComponent("master.m3u8").path
        #expect(
            check.stdout.contains(
                "\(master)  FAIL  captions\n  ✗ line 4  variant stream_0.m3u8: stream_0_01.ts: not a regular file (a FIFO): left out (RFC 8216)  [hls.segment]\n  ✗ subtitles \"subtitle_0\": stream_00.vtt: a link that leads outside the package's folder (RFC 8216)  [hls.reference]\n"
            ), "\(check.stdout)")
        #expect(
            check.stdout.contains("\(link)  ERROR  media\n  ✗ a link that leads outside the checked root (to /etc/hostname): not read  [media.outside-root]"))
        #expect(
            check.stdout.contains("\(master)  UNVERIFIED  sync")
                && check.stdout.contains("! segment stream_0_01.ts of the audio could not be read: the speech in it was not heard  [sync.unverified]"))
        #expect(
            check.stdout.contains(
                "\(master)  UNVERIFIED  flash\n  ! segment stream_0_01.ts of the video could not be read: flashing in it was not checked  [flash.unverified]"))
        #expect(!check.stdout.contains("lint.syntax"), "the segments' problems are the package's result's, not the lint's")
    }
}

/// Values at the edges of what numbers hold — a TTML fraction of hundreds of digits, end times at the largest
/// millisecond, a line setting no integer holds, a segment said to last 1e308 s, a timestamp map a billion hours in —
/// never crash a command: each gives its documented exit status and a file where one is asked for.
@Suite struct HostileValuesTests {
    static let files: [String: String] = [
        "big.vtt": "WEBVTT\n\n00:00:01.000 --> 2562047788015:12:55.296\nhello\n\n00:00:02.000 --> 00:00:03.000\nthere\n",
        "big.srt": "1\n00:00:01,000 --> 2562047788015:12:55,296\nhello\n\n2\n00:00:02,000 --> 00:00:03,000\nthere\n",
        "line.vtt":
            "WEBVTT\n\n00:00:01.000 --> 00:00:02.000 line:100000000000000000000\nhello\n\n00:00:03.000 --> 00:00:04.000 line:-100000000000000000000\nthere\n",
        "times.ttml":
            "<?xml version=\"1.0\"?><tt xmlns=\"http://www.w3.org/ns/ttml\"><body><div><p begin=\"0." + String(repeating: "9", count: 400)
            + "s\" end=\"2s\">x</p><p begin=\"3s\" end=\"99999999999999999999h\">y</p><p begin=\"4s\" end=\"9223372036854775807ms\">z</p></div></body></tt>",
        "pkg/master.m3u8":
            "#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"en\",LANGUAGE=\"en\",URI=\"subs.m3u8\"\n#EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES=\"s\"\nvideo.m3u8\n",
        "pkg/subs.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.vtt\n#EXTINF:1e308,\nb.vtt\n#EXTINF:4,\nc.vtt\n#EXT-X-ENDLIST\n",
        "pkg/video.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nv.ts\n#EXT-X-ENDLIST\n",
        "pkg/a.vtt": "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\na\n",
        "pkg/b.vtt": "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:9999999999999:00:00.000\n\n00:00:01.000 --> 00:00:02.000\nb\n",
        "pkg/c.vtt": "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nc\n",
    ]

    @Test func edgeValuesNeverCrash() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("pkg"), withIntermediateDirectories: true)
        for (name, text) in Self.files { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        // (arguments, expected status): the tools 0, the checks 0 or 1 (docs/cli.md's table).
        let runs: [([String], Set<Int32>)] = [
            (["cues", "big.vtt"], [0]), (["lint", "big.vtt"], [0, 1]), (["shift", "big.vtt", "--by", "1", "-o", "s1.vtt"], [0]),
            (["check", "big.vtt", "--no-store"], [0, 1]), (["lint", "big.srt"], [0, 1]), (["shift", "big.srt", "--by", "1", "-o", "s2.srt"], [0]),
            (["transcript", "big.srt"], [0]), (["cues", "times.ttml"], [0]), (["lint", "times.ttml"], [0, 1]),
            (["check", "times.ttml", "--no-store"], [0, 1]), (["convert", "times.ttml", "c1.srt"], [0]), (["convert", "line.vtt", "c2.ttml"], [0]),
            (["convert", "line.vtt", "c3.scc"], [0]), (["convert", "big.vtt", "c4.scc"], [0]), (["convert", "big.vtt", "c5.ttml"], [0]),
            (["cues", "pkg/master.m3u8"], [0]), (["cues", "pkg/subs.m3u8"], [0]), (["lint", "pkg/master.m3u8"], [0, 1]),
            (["check", "pkg/master.m3u8", "--no-store"], [0, 1]),
        ]
        for (arguments, statuses) in runs {
            let result = try Medialint.run(arguments, timeout: 60, in: directory)
            #expect(statuses.contains(result.status), "\(arguments): \(result.status) \(result.stderr.prefix(300))")
        }
        for output in ["s1.vtt", "s2.srt", "c1.srt", "c2.ttml", "c3.scc", "c4.scc", "c5.ttml"] {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(output).path), "\(output)")
        }
        // The 400-digit fraction is a second; the saturated end is the largest time WebVTT writes.
        let cues = try Medialint.run(["cues", "times.ttml"], in: directory)
        #expect(cues.stdout.contains("00:00:01.000 → 00:00:02.000  x"), "\(cues.stdout)")
    }
}

/// `--allow-playlists` with the playlists whose demuxers open files themselves: every file an ffconcat script names is
/// admitted before FFmpeg opens it (outside the folder — absolute, `../`, a link — a FIFO, a script in a script, an
/// `option` line: refused), and DASH is never followed (its `BaseURL` could lead anywhere). Under strace, nothing in
/// the folder beside the one checked is opened.
@Suite struct PlaylistEscapeTests {
    @Test func ffconcatAndDASHOpenNothingOutsideTheFolder() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let site = directory.appendingPathComponent("site").path, outside = directory.appendingPathComponent("outside").path
        for folder in [site, outside] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: Medialint.media("gray-ramp-10bit.mkv"), toPath: site + "/clip.mkv")
        try FileManager.default.copyItem(atPath: Medialint.media("gray-ramp-10bit.mkv"), toPath: outside + "/secret.mkv")
        try FileManager.default.createSymbolicLink(atPath: site + "/link.mkv", withDestinationPath: outside + "/secret.mkv")
        #expect(mkfifo(site + "/fifo.mkv", 0o600) == 0)
        let scripts: [(name: String, lines: String, reason: String)] = [
            ("absolute", "file '\(outside)/secret.mkv'", "refers to \(outside)/secret.mkv, which is not read: outside the checked root"),
            ("parent", "file ../outside/secret.mkv", "refers to \(site)/../outside/secret.mkv, which is not read: outside the checked root"),
            ("link", "file link.mkv", "refers to \(site)/link.mkv, which is not read: outside the checked root"),
            ("fifo", "file fifo.mkv", "refers to \(site)/fifo.mkv, which is not read: not a regular file"),
            ("nested", "file absolute.mp4", "refers to \(site)/absolute.mp4, which is not read: an ffconcat script in an ffconcat script"),
            (
                "option", "file clip.mkv\noption protocol_whitelist file,http",
                "an ffconcat script with 'option' lines (they change how files are opened): not read"
            ),
        ]
        for script in scripts {
            try "ffconcat version 1.0\n\(script.lines)\n".write(toFile: "\(site)/\(script.name).mp4", atomically: false, encoding: .utf8)
        }
        try "ffconcat version 1.0\nfile clip.mkv\nfile 'clip.mkv'\n".write(toFile: site + "/twice.mp4", atomically: false, encoding: .utf8)
        try """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" type="static" mediaPresentationDuration="PT1S">
          <BaseURL>../outside/</BaseURL>
          <Period><AdaptationSet><Representation id="0" bandwidth="1"><SegmentTemplate initialization="secret.mkv" media="secret.mkv"/></Representation></AdaptationSet></Period>
        </MPD>
        """.write(toFile: site + "/manifest.mpd", atomically: false, encoding: .utf8)

        for script in scripts {
            let probe = try Medialint.run(["probe", "\(site)/\(script.name).mp4", "--allow-playlists"], timeout: 30)
            #expect(!probe.timedOut && probe.status == 2, "\(script.name)")
            #expect(probe.stderr == "medialint: error: \(site)/\(script.name).mp4: \(script.reason)\n")
        }
        let dash = try Medialint.run(["probe", site + "/manifest.mpd", "--allow-playlists"], timeout: 30)
        #expect(dash.status == 2)
        #expect(
            dash.stderr
                == "medialint: error: \(site)/manifest.mpd: Dynamic Adaptive Streaming over HTTP: names other files that FFmpeg would open itself, where they cannot be kept inside the folder; of playlists only HLS and ffconcat are followed\n"
        )
        let twice = try Medialint.run(["probe", site + "/twice.mp4", "--allow-playlists", "--format", "json"], timeout: 30)
        #expect(twice.status == 0)
        #expect(twice.stdout.contains("\"format\": \"concat\""))

        // A check of the whole folder: each script said, nothing outside opened (strace, when it can trace here).
        let traced = try Medialint.runTool("/usr/bin/env", ["strace", "-f", "-o", "/dev/null", "true"])
        let log = directory.appendingPathComponent("opened.log").path
        let arguments = ["check", site, "--no-store", "--allow-playlists", "--format", "jsonl"]
        let check =
            traced.status == 0
            ? try Medialint.runTool(
                "/usr/bin/env", ["strace", "-f", "-qq", "-e", "trace=open,openat,openat2", "-o", log, Medialint.executable.path] + arguments, timeout: 120)
            : try Medialint.run(arguments, timeout: 120)
        #expect(!check.timedOut)
        for script in scripts {
            #expect(check.stdout.contains("{\"file\":\"\(site)/\(script.name).mp4\",\"check\":\"media\",\"verdict\":\"error\""), "\(script.name)")
        }
        if traced.status == 0 {
            let opened = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            #expect(opened.contains { $0.contains("/site/clip.mkv") }, "the trace saw the files read")
            #expect(opened.filter { $0.contains("/outside/") || $0.contains("fifo.mkv") }.isEmpty)
        }
    }
}
