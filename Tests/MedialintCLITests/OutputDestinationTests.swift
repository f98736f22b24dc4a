import Foundation
import Testing

/// Outputs named with -o, --fix, --in-place and convert's OUT: devices, FIFOs and links to them are written
/// through, links to regular files keep being links, directories are refused, inputs are never written over,
/// and no temporary file outlives the command (docs/cli.md, "Output").
@Suite struct OutputDestinationTests {
    private let manager = FileManager.default

    private func fileType(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    private func linkTarget(_ path: String) -> String? { try? manager.destinationOfSymbolicLink(atPath: path) }

    @Test func linkToARegularFileStaysALinkAndItsTargetIsReplaced() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? manager.removeItem(at: directory) }
        let target = directory.appendingPathComponent("real.vtt").path, link = directory.appendingPathComponent("link.vtt").path
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        chmod(target, 0o640)
        try manager.createSymbolicLink(atPath: link, withDestinationPath: "real.vtt")
        let result = try Medialint.run(["convert", "Media/speech.srt", link])
        #expect(result.status == 0)
        #expect(fileType(link) == S_IFLNK && linkTarget(link) == "real.vtt")
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("WEBVTT\n\n1\n00:00:00.500 --> 00:00:02.824\n"))
        #expect((try manager.attributesOfItem(atPath: target)[.posixPermissions] as? Int) == 0o640, "the replaced file keeps its mode")
        #expect(try manager.contentsOfDirectory(atPath: directory.path).sorted() == ["link.vtt", "real.vtt"])

        // A link whose target does not exist yet: the target is created, the link stays.
        let dangling = directory.appendingPathComponent("dangling.json").path
        try manager.createSymbolicLink(atPath: dangling, withDestinationPath: "made.json")
        #expect(try Medialint.run(["cues", "Media/speech.srt", "--format", "json", "-o", dangling]).status == 0)
        #expect(fileType(dangling) == S_IFLNK)
        #expect(try String(contentsOfFile: directory.appendingPathComponent("made.json").path, encoding: .utf8).hasPrefix("{"))
    }

    @Test func shiftInPlaceThroughALinkRewritesTheFileNotTheLink() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? manager.removeItem(at: directory) }
        let target = directory.appendingPathComponent("talk.srt").path, link = directory.appendingPathComponent("talk-link.srt").path
        try manager.copyItem(atPath: "Media/speech.srt", toPath: target)
        try manager.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(try Medialint.run(["shift", link, "--by", "1", "--in-place"]).status == 0)
        #expect(fileType(link) == S_IFLNK && linkTarget(link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("1\n00:00:01,500 --> 00:00:03,824\n"))
    }

    @Test func aFIFOIsWrittenThroughAndStaysAFIFO() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? manager.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("out.srt").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = FIFOReader(path: fifo)
        let result = try Medialint.run(["convert", "Media/speech.vtt", fifo], timeout: 60)
        #expect(result.status == 0 && !result.timedOut)
        #expect(reader.wait().hasPrefix("1\n00:00:00,500 --> 00:00:02,824\nWelcome"))
        #expect(fileType(fifo) == S_IFIFO)
        #expect(try manager.contentsOfDirectory(atPath: directory.path) == ["out.srt"])
    }

    /// A character device (made with mknod when running as root, else /dev/null itself) is written through:
    /// still the same device afterwards, never a regular file in its place.
    @Test(arguments: ["cues", "convert", "shift", "lint", "transcript", "probe", "sync-fix"])
    func aDeviceIsWrittenThroughNeverReplaced(command: String) throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? manager.removeItem(at: directory) }
        var device = directory.appendingPathComponent("null.srt").path
        if getuid() != 0 || mknod(device, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) != 0 { device = "/dev/null" }
        var before = stat()
        #expect(stat(device, &before) == 0 && before.st_mode & S_IFMT == S_IFCHR)
        let arguments: [String] =
            switch command {
            case "convert": ["convert", "Media/speech.vtt", device, "--to", "srt"]
            case "shift": ["shift", "Media/speech.srt", "--by", "1", "-o", device]
            case "probe": ["probe", "Media/speech.mp4", "-o", device]
            case "sync-fix": ["sync", "Media/speech.mp4", "Media/speech.srt", "--fix", device]
            default: [command, "Media/speech.srt", "-o", device]
            }
        let result = try Medialint.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        var after = stat()
        #expect(stat(device, &after) == 0 && after.st_mode & S_IFMT == S_IFCHR && after.st_rdev == before.st_rdev && after.st_ino == before.st_ino)
        #expect(try manager.contentsOfDirectory(atPath: directory.path) == (device.hasPrefix(directory.path) ? ["null.srt"] : []))
    }

    @Test func aLinkToStandardOutputPrintsAndStaysALink() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? manager.removeItem(at: directory) }
        let link = directory.appendingPathComponent("out.txt").path
        try manager.createSymbolicLink(atPath: link, withDestinationPath: "/proc/self/fd/1")
        let result = try Medialint.run(["transcript", "Media/speech.srt", "-o", link])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Welcome to the media accessibility demo."))
        #expect(fileType(link) == S_IFLNK && linkTarget(link) == "/proc/self/fd/1")
        let dash = try Medialint.run(["transcript", "Media/speech.srt", "-o", "/dev/stdout"])
        #expect(dash.stdout == result.stdout)
    }

    @Test func aDirectoryIsRefused() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? manager.removeItem(at: directory) }
        let result = try Medialint.run(["cues", "Media/speech.srt", "-o", directory.path])
        #expect(result.status == 2)
        #expect(result.stderr == "medialint: error: cannot write \(directory.path): is a directory\n")
        #expect(try manager.contentsOfDirectory(atPath: directory.path).isEmpty)
        let missing = try Medialint.run(["convert", "Media/speech.srt", directory.path + "/no/such/out.vtt"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "medialint: error: cannot write \(directory.path)/no/such/out.vtt: no such directory \(directory.path)/no/such\n")
    }

    /// --fix onto its own captions, by name, link or hard link: refused before anything is analysed or printed.
    @Test func fixOntoItsOwnInputIsRefusedFirst() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? manager.removeItem(at: directory) }
        let captions = directory.appendingPathComponent("late.srt").path
        try manager.copyItem(atPath: "Media/speech.srt", toPath: captions)
        let link = directory.appendingPathComponent("link.srt").path, hard = directory.appendingPathComponent("hard.srt").path
        try manager.createSymbolicLink(atPath: link, withDestinationPath: captions)
        #expect(Foundation.link(captions, hard) == 0)
        let original = try Data(contentsOf: URL(fileURLWithPath: captions))
        for out in [captions, link, hard] {
            let result = try Medialint.run(["sync", "Media/speech.mp4", captions, "--fix", out])
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "medialint: error: \(out) is the input file \(captions); write elsewhere (or use --in-place where offered)\n")
        }
        let track = try Medialint.run(["sync", "Media/speech.mp4", "--track", "0", "--fix", "Media/speech.mp4"])
        #expect(track.status == 2 && track.stderr.contains("is the input file Media/speech.mp4"))
        // A report never replaces what it reports on either.
        for arguments in [
            ["cues", captions, "-o", link], ["lint", captions, "-o", hard], ["transcript", captions, "-o", captions],
            ["sync", "Media/speech.mp4", captions, "-o", link],
        ] {
            let result = try Medialint.run(arguments)
            #expect(result.status == 2 && result.stdout.isEmpty)
            #expect(result.stderr == "medialint: error: \(arguments.last!) is the input file \(captions); write elsewhere (or use --in-place where offered)\n")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: captions)) == original)
        #expect(fileType(link) == S_IFLNK)
        let media = directory.appendingPathComponent("clip.mp4").path
        try manager.copyItem(atPath: "Media/flashing.mp4", toPath: media)
        for arguments in [["probe", media, "-o", media], ["flash", media, "--frames-csv", media]] {
            #expect(
                try Medialint.run(arguments).stderr
                    == "medialint: error: \(media) is the input file \(media); write elsewhere (or use --in-place where offered)\n")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: media)) == (try Data(contentsOf: URL(fileURLWithPath: "Media/flashing.mp4"))))
    }

    /// SIGTERM while the output is being written: the command ends by the signal and leaves no temporary file.
    /// A temporary file left by a process killed with SIGKILL is removed by the next write of that output.
    @Test func signalsLeaveNoTemporaryFile() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? manager.removeItem(at: directory) }
        let big = directory.appendingPathComponent("big.srt").path, out = directory.appendingPathComponent("big.json").path
        var text = ""
        for index in 0..<200_000 { text += "\(index + 1)\n00:00:01,000 --> 00:00:02,000\nLine number \(index) of a long file.\n\n" }
        try text.write(toFile: big, atomically: false, encoding: .utf8)
        let result = try Medialint.run(["cues", big, "--format", "json", "-o", out]) { process in
            // Signalled once its temporary file exists, i.e. while it writes.
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline,
                !((try? manager.contentsOfDirectory(atPath: directory.path)) ?? []).contains(where: { $0.hasPrefix(".big.json.medialint-") })
            {
                usleep(500)
            }
            process.terminate()
        }
        #expect(result.signalled && result.status == SIGTERM, "ended by the signal while writing: \(result)")
        #expect(try manager.contentsOfDirectory(atPath: directory.path).sorted() == ["big.srt"])

        let stale = directory.appendingPathComponent(".big.json.medialint-999999999-AbCdEf").path
        try "partial".write(toFile: stale, atomically: false, encoding: .utf8)
        let mine = directory.appendingPathComponent(".big.json.medialint-\(getpid())-AbCdEf").path
        try "a live process's".write(toFile: mine, atomically: false, encoding: .utf8)
        #expect(try Medialint.run(["cues", "Media/speech.srt", "--format", "json", "-o", out]).status == 0)
        #expect(try manager.contentsOfDirectory(atPath: directory.path).sorted() == [".big.json.medialint-\(getpid())-AbCdEf", "big.json", "big.srt"])
    }
}

/// Reads a FIFO to its end on a thread of its own (opening it blocks until a writer comes).
final class FIFOReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(path: String) {
        Thread.detachNewThread { [self] in
            if let handle = FileHandle(forReadingAtPath: path) {
                data = handle.readDataToEndOfFile()
                try? handle.close()
            }
            done.signal()
        }
    }

    func wait() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}

/// Every file a run reads is an input, whatever option or folder named it: an HLS package's members, a library's own
/// files, the results store, a discovered sidecar, the `--media` of `lint` — a report or output onto one is refused
/// (exit 2) and the file is left as it was.
@Suite struct EveryInputIsRefusedAsOutputTests {
    @Test func outputsOntoFilesTheRunReadsAreRefused() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let package = directory.appendingPathComponent("pkg")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        let files: [String: String] = [
            "pkg/master.m3u8":
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"en\",LANGUAGE=\"en\",URI=\"subs.m3u8\"\n#EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES=\"s\"\nvideo.m3u8\n",
            "pkg/subs.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.vtt\n#EXT-X-ENDLIST\n",
            "pkg/video.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nv.ts\n#EXT-X-ENDLIST\n",
            "pkg/a.vtt": "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\na\n",
            "lib/talk.srt": "1\n00:00:01,000 --> 00:00:03,000\nHello.\n",
        ]
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("lib"), withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        try FileManager.default.copyItem(atPath: "Media/speech.mp4", toPath: directory.appendingPathComponent("lib/talk.mp4").path)
        let runs: [[String]] = [
            ["cues", "pkg/master.m3u8", "-o", "pkg/a.vtt"], ["cues", "pkg/master.m3u8", "-o", "pkg/subs.m3u8"],
            ["lint", "pkg/master.m3u8", "-o", "pkg/a.vtt"], ["check", "pkg/master.m3u8", "--no-store", "-o", "pkg/video.m3u8"],
            ["check", "lib", "--no-store", "-o", "lib/talk.srt"], ["check", "lib", "--db", "lib.sqlite", "-o", "lib.sqlite"],
            ["sync", "lib/talk.mp4", "-o", "lib/talk.srt"], ["lint", "lib/talk.srt", "--media", "lib/talk.mp4", "-o", "lib/talk.mp4"],
        ]
        let before = try files.keys.map { try Data(contentsOf: directory.appendingPathComponent($0)) }
        for arguments in runs {
            let result = try Medialint.run(arguments, in: directory)
            #expect(result.status == 2 && result.stderr.contains("write elsewhere"), "\(arguments): \(result.status) \(result.stderr)")
        }
        #expect(try files.keys.map { try Data(contentsOf: directory.appendingPathComponent($0)) } == before)
    }
}
