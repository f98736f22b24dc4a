import Basics
import Findings
import Foundation
import Reports

/// `--baseline FILE` and `--write-baseline FILE` for one run: known findings left out of the results (and so of the
/// verdicts, the exit status and every report), and this run's findings written down as the next baseline. Files are
/// named relative to the working directory, so a baseline made in a repository's root works on any clone. Safe from
/// any thread.
final class BaselineRun: @unchecked Sendable {
    private let lock = NSLock()
    private var baseline: Baseline?
    private let baselinePath: String?
    private let writePath: String?
    private let options: VerdictOptions
    private var written: [Baseline.Entry] = []
    private(set) var known = 0
    private let base = FileManager.default.currentDirectoryPath

    init(_ options: VerdictOptions) throws {
        self.options = options
        baselinePath = options.baseline
        writePath = options.writeBaseline
        if let path = options.baseline { baseline = try Self.read(path) }
        // Refused before the run, and again before writing (the files found meanwhile).
        try options.refuseInputs()
    }

    /// The file `path`'s findings are filed under: relative to the working directory when inside it.
    func name(_ path: String) -> String {
        var name = reportPath(path.hasPrefix("/") ? path : base + "/" + path, base: base)
        while name.hasPrefix("./") { name.removeFirst(2) }
        return name
    }

    /// `results` without the findings the baseline knows (noting this run's findings for `--write-baseline` first,
    /// and counting those left out, unless `again`: results read a second time, for a report that reads them twice).
    func filter(_ results: [CheckResult], again: Bool = false) -> [CheckResult] {
        guard baseline != nil || writePath != nil else { return results }
        lock.lock()
        defer { lock.unlock() }
        if writePath != nil, !again { written += Baseline.entries(of: results, name: name) }
        guard baseline != nil else { return results }
        return results.map { result in
            let (filtered, count) = baseline!.filter(result, name: name)
            if !again { known += count }
            return filtered
        }
    }

    /// Says how many known findings were left out, and writes the new baseline (atomically).
    func finish() throws {
        if let baselinePath {
            Console.note("\(known) finding\(known == 1 ? "" : "s") known in \(baselinePath) left out")
        }
        guard let writePath else { return }
        try options.refuseInputs()
        var writer = JSONWriter(pretty: true)
        writer.beginObject()
        writer.key("tool"); writer.string("medialint")
        writer.key("baseline"); writer.integer(1)
        writer.key("findings")
        writer.beginArray()
        writer.lineBreakDepth = writer.openContainers
        for entry in Baseline(written).entries {
            writer.beginObject()
            writer.key("file"); writer.string(entry.file)
            writer.key("rule"); writer.string(entry.rule)
            writer.key("fingerprint"); writer.string(entry.fingerprint)
            writer.endObject()
        }
        writer.lineBreakDepth = .max
        writer.endArray()
        writer.endObject()
        writer.endLine()
        try OutputStream.write(to: writePath) { sink in writer.withBytes { sink.write($0) } }
        Console.note("\(written.count) finding\(written.count == 1 ? "" : "s") written to \(writePath) as the baseline")
    }

    /// A baseline file: `{"tool": "medialint", "baseline": 1, "findings": [{"file", "rule", "fingerprint"}…]}`.
    static func read(_ path: String) throws -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("\(path): no baseline file here (make one with --write-baseline)") }
        struct File: Decodable {
            var tool: String
            var findings: [Baseline.Entry]
        }
        guard let file = try? JSONDecoder().decode(File.self, from: data), file.tool == "medialint" else {
            throw CLIError("\(path): not a medialint baseline (expected {\"tool\": \"medialint\", \"findings\": [{\"file\", \"rule\", \"fingerprint\"}…]})")
        }
        return Baseline(file.findings)
    }
}
