import CaptionQuality
import Captions
import Checks
import Findings
import Foundation
import Library
import Reports

/// Issue 13: captions from the wild — end-to-end throughput beside ffmpeg, file shapes that used to be quadratic
/// or to blow up memory, and every report format at half a million findings.
extension Benchmarks {
    /// What issue 13 measured before the work, for the report (same machine kind, other day).
    static let before13 = [
        "before (issue 13): convert SRT→WebVTT 5.25 s (10 MB/s, 383 MB), WebVTT→SRT 1.31 s, shift 0.69 s;",
        "  cues --format json 39 s at 50,000 cues (quadratic); CR-only SRT 17.3 s at 120,000 cues (LF 0.38 s at 30,000);",
        "  one 100 MB line 2.5 GB; lint --format json 139 s at 100,000 cues; store of a 25,000-cue SRT 9.9 s",
    ]

    static var medialintPath: String {
        URL(fileURLWithPath: selfPath).deletingLastPathComponent().appendingPathComponent("medialint").path
    }

    /// The best wall time and the highest peak memory of `runs` runs; `removing` lists the files a run writes,
    /// removed before each run (freeing an old output's blocks is the file system's work, not the tool's).
    static func best(
        of runs: Int, _ executable: String, _ arguments: [String], allowedStatuses: Set<Int32> = [0],
        removing outputs: [String] = []
    ) throws -> ProcessRun {
        var best = ProcessRun(seconds: .infinity, peakMemoryMiB: 0)
        for _ in 0..<runs {
            for output in outputs { unlink(output) }
            let run = try Measure.run(executable, arguments, allowedStatuses: allowedStatuses)
            best = ProcessRun(seconds: min(best.seconds, run.seconds), peakMemoryMiB: max(best.peakMemoryMiB, run.peakMemoryMiB))
        }
        return best
    }

    static func fileSize(_ path: String) -> Double {
        Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
    }

    /// Writes `bytes` to `name` in the benchmark folder unless it is there; returns its path.
    static func generatedBytes(_ name: String, _ description: String, _ make: () -> [UInt8]) throws -> String {
        let url = mediaDirectory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path) { return url.path }
        try FileManager.default.createDirectory(at: mediaDirectory, withIntermediateDirectories: true)
        print("generating \(name): \(description) …")
        try Data(make()).write(to: URL(fileURLWithPath: url.path + ".partial"))
        try FileManager.default.moveItem(atPath: url.path + ".partial", toPath: url.path)
        return url.path
    }

    // MARK: - Throughput

    /// convert both ways, shift and cues --format json on the 500k-cue files at ≥ 100 MB/s end to end, peak memory
    /// < 3× the file; ffmpeg converting the same files in the same run.
    static func convert() throws -> BenchmarkReport {
        var report = BenchmarkReport(title: "Captions end to end (read, transform, write) on 500,000 cues — issue 13")
        let srt = try captionFile500k(.srt), vtt = try captionFile500k(.webvtt)
        let out = mediaDirectory.appendingPathComponent("end-to-end-out").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let jobs: [(name: String, input: String, arguments: [String], reference: [String]?)] = [
            ("convert SRT → WebVTT", srt, ["convert", srt, out + "/a.vtt"], ["-i", srt, "-y", out + "/ffmpeg.vtt"]),
            ("convert WebVTT → SRT", vtt, ["convert", vtt, out + "/a.srt"], ["-i", vtt, "-y", out + "/ffmpeg.srt"]),
            ("shift SRT", srt, ["shift", srt, "--by", "1.5", "-o", out + "/shifted.srt"], nil),
            ("shift WebVTT", vtt, ["shift", vtt, "--by", "1.5", "-o", out + "/shifted.vtt"], nil),
            ("cues --format json SRT", srt, ["cues", srt, "--format", "json", "-o", out + "/cues-srt.json"], nil),
            ("cues --format json WebVTT", vtt, ["cues", vtt, "--format", "json", "-o", out + "/cues-vtt.json"], nil),
        ]
        let outputs = ["a.vtt", "ffmpeg.vtt", "a.srt", "ffmpeg.srt", "shifted.srt", "shifted.vtt", "cues-srt.json", "cues-vtt.json"].map { out + "/" + $0 }
        for job in jobs {
            let megabytes = fileSize(job.input) / 1_000_000, mebibytes = fileSize(job.input) / 1_048_576
            let ours: ProcessRun
            var line: String
            if let reference = job.reference {
                let (o, r) = try Measure.compare(
                    ours: (medialintPath, job.arguments),
                    reference: ("ffmpeg", ["-nostdin", "-v", "error"] + reference), repetitions: 5,
                    removing: outputs)
                ours = o
                line =
                    "\(job.name): \(format(o.seconds)) s, \(Int(megabytes / o.seconds)) MB/s, peak \(mib(o.peakMemoryMiB)) "
                    + "(\(format1(o.peakMemoryMiB / mebibytes))× file); ffmpeg \(format(r.seconds)) s, \(format1(megabytes / r.seconds)) MB/s, "
                    + "peak \(mib(r.peakMemoryMiB)): \(Int((r.seconds / o.seconds).rounded()))× faster"
            } else {
                ours = try best(of: 5, medialintPath, job.arguments, removing: outputs)
                line =
                    "\(job.name): \(format(ours.seconds)) s, \(Int(megabytes / ours.seconds)) MB/s, peak \(mib(ours.peakMemoryMiB)) "
                    + "(\(format1(ours.peakMemoryMiB / mebibytes))× file)"
            }
            report.lines.append(line)
            report.check("\(job.name) \(Int(megabytes / ours.seconds)) MB/s ≥ 100", megabytes / ours.seconds >= 100)
            report.check("\(job.name) peak \(mib(ours.peakMemoryMiB)) < 3 × file (\(mib(3 * mebibytes)))", ours.peakMemoryMiB < 3 * mebibytes)
        }
        // Issue 36: the broadcast writers in flat memory (SCC held every pair and the whole output: a 1M-cue SRT took
        // 1.66 GB and 25.7 s; SRT → TTML 537 MB for 70 MB), and TTML read back into SCC.
        let ttml = out + "/a.ttml"
        for (name, input, arguments) in [
            ("convert SRT → SCC", srt, ["convert", srt, out + "/a.scc"]), ("convert SRT → TTML", srt, ["convert", srt, ttml]),
            ("convert TTML → SCC", ttml, ["convert", ttml, out + "/b.scc"]),
        ] {
            let run = try best(of: 3, medialintPath, arguments, removing: [out + "/a.scc", out + "/b.scc"] + (input == ttml ? [] : [ttml]))
            let mebibytes = fileSize(input) / 1_048_576
            report.lines.append(
                "\(name): \(format(run.seconds)) s, \(Int(fileSize(input) / 1_000_000 / run.seconds)) MB/s, peak \(mib(run.peakMemoryMiB)) "
                    + "(\(format1(run.peakMemoryMiB / mebibytes))× the \(format1(fileSize(input) / 1_000_000)) MB input)")
            report.check("\(name) peak \(mib(run.peakMemoryMiB)) < 3 × file (\(mib(3 * mebibytes)))", run.peakMemoryMiB < 3 * mebibytes)
        }
        report.lines += before13
        try? FileManager.default.removeItem(atPath: out)
        return report
    }

    // MARK: - Shapes

    /// CR-only line endings at the speed of LF; one 100 MB line and a million nested tags in flat memory.
    static func shapes() throws -> BenchmarkReport {
        var report = BenchmarkReport(title: "Caption files of every shape: line endings, one 100 MB line, a million nested tags — issue 13")
        // 480,000 cues with LF, and the same with CR only (old Mac files).
        let lf = try generatedBytes("cues-480k-lf.srt", "480,000 cues, LF line endings") {
            var document = CaptionDocument(format: .srt)
            for i in 0..<480_000 {
                document.cues.append(
                    Cue(
                        identifier: String(i + 1), start: CaptionTime(milliseconds: Int64(i) * 2000),
                        end: CaptionTime(milliseconds: Int64(i) * 2000 + 1500), text: "caption number \(i + 1)\nsecond line"))
            }
            return CaptionFile.encode(document, as: .srt).bytes
        }
        let cr = try generatedBytes("cues-480k-cr.srt", "the same with CR-only line endings") {
            ((try? CaptionFile.readBytes(lf)) ?? []).map { $0 == 0x0A ? 0x0D : $0 }
        }
        var lfBest = Double.infinity, crBest = Double.infinity, cues = 0.0
        for _ in 0..<5 {
            let l = try Measure.runCapturing(selfPath, ["parse-captions", lf]).output.split(separator: " ").compactMap { Double($0) }
            let c = try Measure.runCapturing(selfPath, ["parse-captions", cr]).output.split(separator: " ").compactMap { Double($0) }
            guard l.count == 3, c.count == 3 else { throw BenchError("unexpected worker output") }
            lfBest = min(lfBest, l[0])
            crBest = min(crBest, c[0])
            cues = c[2]
        }
        report.lines.append(
            "480,000 cues (\(format1(fileSize(lf) / 1_000_000)) MB): LF read in \(format(lfBest)) s, CR-only in \(format(crBest)) s "
                + "(\(Int(cues)) cues; before: 17.3 s at 120,000 cues, a 4 MB file > 100 s)")
        report.check("CR-only read \(format(crBest / lfBest))× the LF time ≤ 1.25×", crBest / lfBest <= 1.25)
        report.check("CR-only read every cue (\(Int(cues)))", Int(cues) == 480_000)

        // One line of 100 MB.
        let line = try generatedBytes("one-100mb-line.srt", "one cue whose one line is 12.5 million <b>a</b> (100 MB)") {
            Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8) + Array(repeating: Array("<b>a</b>".utf8), count: 12_500_000).flatMap { $0 } + [0x0A]
        }
        let lineMiB = fileSize(line) / 1_048_576
        let out = mediaDirectory.appendingPathComponent("shapes-out").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        for (name, arguments) in [
            ("cues", ["cues", line, "-o", out + "/cues.txt"]), ("cues --format json", ["cues", line, "--format", "json", "-o", out + "/cues.json"]),
            ("convert", ["convert", line, out + "/line.vtt"]), ("shift", ["shift", line, "--by", "1", "-o", out + "/line.srt"]),
            // Issue 36: SCC laid the whole text out (a 100 MB one-cue file: 1.34 GB).
            ("convert to SCC", ["convert", line, out + "/line.scc"]),
        ] {
            let run = try best(of: 2, medialintPath, arguments, removing: [arguments.last!])
            report.lines.append(
                "one 100 MB line: \(name) \(format(run.seconds)) s, peak \(mib(run.peakMemoryMiB)) (\(format1(run.peakMemoryMiB / lineMiB))× file; before: 2.5 GB)"
            )
            report.check("one 100 MB line: \(name) peak \(mib(run.peakMemoryMiB)) < 3 × file (\(mib(3 * lineMiB)))", run.peakMemoryMiB < 3 * lineMiB)
        }

        // A million nested tags, and a quarter of that: linear time, flat memory.
        func nested(_ depth: Int, webVTT: Bool) -> [UInt8] {
            let (open, close): (String, String) = webVTT ? ("<b>", "</b>") : ("<i>", "</i>")
            let head = webVTT ? "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n" : "1\n00:00:01,000 --> 00:00:02,000\n"
            return Array(head.utf8) + Array(repeating: Array(open.utf8), count: depth).flatMap { $0 } + Array("deep".utf8)
                + Array(repeating: Array(close.utf8), count: depth).flatMap { $0 } + [0x0A]
        }
        for webVTT in [true, false] {
            let ext = webVTT ? "vtt" : "srt"
            let small = try generatedBytes("nested-250k.\(ext)", "250,000 nested tags") { nested(250_000, webVTT: webVTT) }
            let big = try generatedBytes("nested-1m.\(ext)", "1,000,000 nested tags") { nested(1_000_000, webVTT: webVTT) }
            let smallRun = try best(of: 3, medialintPath, ["convert", small, out + "/nested.\(webVTT ? "srt" : "vtt")"])
            let bigRun = try best(of: 3, medialintPath, ["convert", big, out + "/nested.\(webVTT ? "srt" : "vtt")"])
            let text = try Measure.runCapturing(medialintPath, ["cues", big]).output
            report.lines.append(
                "1,000,000 nested tags (\(ext), \(format1(fileSize(big) / 1_000_000)) MB): convert \(format(bigRun.seconds)) s, peak \(mib(bigRun.peakMemoryMiB)); "
                    + "250,000: \(format(smallRun.seconds)) s, peak \(mib(smallRun.peakMemoryMiB))")
            report.check("\(ext): a million nested tags give one cue", text.hasPrefix("1 cue ·"))
            // Four times the input: about four times the time above the process's start (flat: no more).
            report.check(
                "\(ext): 4× the nesting in \(format(bigRun.seconds / smallRun.seconds))× the time ≤ 4× (linear)", bigRun.seconds <= 4 * smallRun.seconds)
            report.check(
                "\(ext): peak memory with 4× the nesting \(mib(bigRun.peakMemoryMiB)) ≤ 1.25 × \(mib(smallRun.peakMemoryMiB)) + 4 × 7 MB (flat)",
                bigRun.peakMemoryMiB <= 1.25 * smallRun.peakMemoryMiB + 28)
        }
        try? FileManager.default.removeItem(atPath: out)
        return report
    }

    // MARK: - Reports

    /// 500,000 findings: `medialint lint --format F` end to end in at most 2× the text time for every format
    /// (as the issue measured it), with rendering alone shown beside; the results store with a 25,000-cue SRT.
    static func reports() throws -> BenchmarkReport {
        var report = BenchmarkReport(title: "Reports at 500,000 findings, and the results store — issue 13")
        let lintInput = try generatedBytes("lint-250k.srt", "250,000 cues, two lines each") {
            (try? CaptionFile.readBytes(captionFile500k(.srt)).prefix(27_000_000)).map(Array.init) ?? []
        }
        let lintOptions = ["--max-chars-per-line", "10", "--disable", Rule.lintReadingSpeed.id]
        let rendered = try Measure.runCapturing(selfPath, ["render-findings", lintInput] + lintOptions).output
        var times: [String: Double] = [:], sizes: [String: Double] = [:]
        var findings = 0
        for line in rendered.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.first == "findings", fields.count == 2 { findings = Int(fields[1]) ?? 0 }
            if fields.count == 3, let seconds = Double(fields[1]), let bytes = Double(fields[2]) {
                times[String(fields[0])] = seconds
                sizes[String(fields[0])] = bytes
            }
        }
        guard let text = times["text"] else { throw BenchError("unexpected worker output: \(rendered)") }
        // Rendering alone, for the record: the formats write 1–7× as many bytes as the text does.
        report.lines.append("\(findings) findings of one result, rendered in-process (best of 3, output discarded):")
        for format in ReportFormat.allCases {
            guard let seconds = times[format.rawValue], let bytes = sizes[format.rawValue] else { continue }
            report.lines.append(
                "  \(format.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)) \(Self.format(seconds)) s  "
                    + "\(format1(bytes / 1_000_000)) MB  \(Int(bytes / 1_000_000 / seconds)) MB/s  \(Self.format(seconds / text))× the text time")
        }
        report.check("\(findings) findings ≥ 500,000", findings >= 500_000)
        // End to end: lint and render, to a file.
        let out = mediaDirectory.appendingPathComponent("reports-out").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var endToEnd: [String] = []
        var textEnd = Double.nan
        for format in ReportFormat.allCases {
            let run = try best(
                of: 2, medialintPath, ["lint", lintInput] + lintOptions + ["--format", format.rawValue, "-o", out + "/lint." + format.rawValue])
            if format == .text { textEnd = run.seconds }
            endToEnd.append("\(format.rawValue) \(Self.format(run.seconds)) s")
            report.check("medialint lint --format \(format.rawValue) end to end \(Self.format(run.seconds / textEnd))× text ≤ 2×", run.seconds <= 2 * textEnd)
        }
        report.lines.append("end to end (medialint lint … --format F -o FILE): " + endToEnd.joined(separator: ", ") + "; before: json 139 s at 100,000 cues")
        // The results store with a 25,000-cue SRT.
        let folder = mediaDirectory.appendingPathComponent("store-25k").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store25k = folder + "/captions-25k.srt"
        if !FileManager.default.fileExists(atPath: store25k) {
            try Data(try CaptionFile.readBytes(captionFile500k(.srt)).prefix(2_600_000)).write(to: URL(fileURLWithPath: store25k))
        }
        let noStore = try best(of: 3, medialintPath, ["check", folder, "--no-store"])
        var stored = Double.infinity, again = Double.infinity
        for _ in 0..<3 {
            try? FileManager.default.removeItem(atPath: out + "/store.sqlite")
            stored = min(stored, try Measure.run(medialintPath, ["check", folder, "--db", out + "/store.sqlite"]).seconds)
            again = min(again, try Measure.run(medialintPath, ["check", folder, "--db", out + "/store.sqlite"]).seconds)
        }
        report.lines.append(
            "check of a 26,000-cue SRT: \(format(noStore.seconds)) s with --no-store, \(format(stored)) s storing its result, "
                + "\(format(again)) s from the store (before: 9.9 s storing)")
        report.check("storing the result \(format(stored / noStore.seconds))× the run without the store ≤ 2×", stored <= 2 * noStore.seconds)
        try? FileManager.default.removeItem(atPath: out)
        return report
    }
}

/// The report formats, as `--format` names them.
enum ReportFormat: String, CaseIterable {
    case text, json, jsonl, sarif, junit, html

    /// The reporter `medialint` writes this format with (text with a summary line under the result).
    var reporter: any CheckReporter {
        switch self {
        case .text: TextReport(summaryLine: { _ in "cues and profile" })
        case .json: JSONReport()
        case .jsonl: JSONLinesReport()
        case .sarif: SARIFReport(rules: RuleCatalogue.byID)
        case .junit: JUnitReport()
        case .html: HTMLReport()
        }
    }
}

/// The worker of `reports`: lints a caption file as `medialint lint` does, then renders the result in every
/// format three times each into a writer that discards its chunks; prints `findings N`, then `format seconds bytes`.
extension CaptionBench {
    static func renderFindings(path: String, options: [String]) throws {
        var profile = QualityProfile.netflix
        var disabled: Set<String> = []
        var index = 0
        while index + 1 < options.count {
            if options[index] == "--max-chars-per-line" { profile.maxCharactersPerLine = Int(options[index + 1]) }
            if options[index] == "--disable" { disabled.formUnion(options[index + 1].split(separator: ",").map(String.init)) }
            index += 2
        }
        let document = try CaptionFile.read(path)
        let result = LintCheck(linter: CaptionLinter(profile: profile, disabled: disabled)).run(document, path: path)
        print("findings", result.findings.count)
        let results = [result]
        for format in ReportFormat.allCases {
            var best = Double.infinity
            var bytes = 0
            for _ in 0..<3 {
                var written = 0
                let start = Measure.now()
                format.reporter.write(results) { written += $0.count }
                best = min(best, Measure.now() - start)
                bytes = written
            }
            print(format.rawValue, best, bytes)
        }
    }
}
