import Basics
import Findings
import Foundation
import Reports

/// `--baseline FILE` and `--write-baseline FILE` for one run: known findings left out of the results (and so of the
/// verdicts, the exit status and every report), and this run's findings written down as the next baseline. `check`
/// names each file relative to the path checked it was found under (a folder; a file given by name, by its name),
/// so a baseline matches from any working directory and on any clone; the other commands name files relative to the
/// working directory. `report`, which does not know the paths checked, also tries each shorter ending of a file's path
/// (`libb/a.srt`, then `a.srt`) and takes the first the baseline names. Safe from any thread.
final class BaselineRun: @unchecked Sendable {
    private let lock = NSLock()
    private var baseline: Baseline?
    private let baselinePath: String?
    private let writePath: String?
    private let options: VerdictOptions
    private var written: [Baseline.Entry] = []
    private(set) var known = 0
    private let base = FileManager.default.currentDirectoryPath
    /// The paths `check` was given (absolute, tidied), and whether each is a folder.
    private let roots: [(path: String, isFolder: Bool)]
    /// Whether names may be endings of the paths (`report`).
    private let matchesEndings: Bool

    /// `roots`: the paths `check` was given; `matchesEndings`: for `report`.
    init(_ options: VerdictOptions, roots: [String] = [], matchesEndings: Bool = false) throws {
        self.roots = roots.map { root in
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: root, isDirectory: &isFolder)
            return (ConfigDiscovery.absolute(root), exists && isFolder.boolValue)
        }
        self.matchesEndings = matchesEndings
        self.options = options
        baselinePath = options.baseline
        writePath = options.writeBaseline
        if let path = options.baseline { baseline = try Self.read(path) }
        // Refused before the run, and again before writing (the files found meanwhile).
        try options.refuseInputs()
    }

    /// The file `path`'s findings are filed under: relative to the path checked it is under (its folder for a file
    /// given by name), else to the working directory when inside it.
    func name(_ path: String) -> String {
        let absolute = ConfigDiscovery.absolute(path)
        let under = roots.filter { $0.isFolder ? ConfigDiscovery.isWithin(absolute, $0.path) : $0.path == absolute }
        if let root = under.max(by: { $0.path.count < $1.path.count }) {
            let folder = root.isFolder ? root.path : (root.path as NSString).deletingLastPathComponent
            if absolute != folder { return String(absolute.dropFirst(folder == "/" ? 1 : folder.count + 1)) }
        }
        var name = reportPath(path.hasPrefix("/") ? path : base + "/" + path, base: base)
        while name.hasPrefix("./") { name.removeFirst(2) }
        return name
    }

    /// The names the baseline may give `path`: its name, then (`report`) each shorter ending of it.
    func names(_ path: String) -> [String] {
        let first = name(path)
        guard matchesEndings else { return [first] }
        var names = [first]
        var rest = Substring(first)
        while let slash = rest.firstIndex(of: "/") {
            rest = rest[rest.index(after: slash)...]
            if !rest.isEmpty { names.append(String(rest)) }
        }
        return names
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
            let (filtered, count) = baseline!.filter(result, names: names)
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
