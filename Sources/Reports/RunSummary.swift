import Basics
import Findings

/// What a run of a check command came to: how many files and results, the results by verdict, and the exit status.
/// The last line of a JSON Lines report; `check` says it in words on standard error.
public struct RunSummary: Sendable, Equatable {
    /// Files looked at (`check` counts each file once, however many results it has); nil when not counted.
    public var files: Int?
    public var results: Int
    /// Results by verdict, in the order pass, warn, fail, unverified, error (verdicts with none left out).
    public var verdicts: [Verdict: Int]
    public var exitStatus: Int32
    /// The files a stopped run did not check (nil: the run was not stopped): the report covers only the others.
    public var unchecked: [String]?

    public init(results: [CheckResult], files: Int? = nil, exitStatus: Int32, unchecked: [String]? = nil) {
        var tally = ResultTally()
        tally.add(results)
        self.init(tally: tally, files: files, exitStatus: exitStatus, unchecked: unchecked)
    }

    public init(tally: ResultTally, files: Int? = nil, exitStatus: Int32, unchecked: [String]? = nil) {
        self.files = files
        self.results = tally.results
        self.verdicts = tally.verdicts
        self.exitStatus = exitStatus
        self.unchecked = unchecked
    }

    /// Whether the run checked everything it set out to (it was not stopped).
    public var isComplete: Bool { unchecked == nil }

    static let order: [Verdict] = [.pass, .warn, .fail, .unverified, .error]

    /// `12 files · 20 results: 14 pass, 3 warn, 2 fail, 1 error`.
    public var text: String {
        let counts = Self.order.compactMap { verdict in verdicts[verdict].map { "\($0) \(verdict.rawValue)" } }
        let resultsText = "\(results) result\(results == 1 ? "" : "s")" + (counts.isEmpty ? "" : ": " + counts.joined(separator: ", "))
        guard let files else { return resultsText }
        return "\(files) file\(files == 1 ? "" : "s") · " + resultsText
    }

    /// `{"summary": {"files", "results", "pass", …, "exitStatus"}, "tool", "version"}`.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("summary")
        writer.beginObject()
        if let files {
            writer.key("files"); writer.integer(Int64(files))
        }
        writer.key("results"); writer.integer(Int64(results))
        for verdict in Self.order {
            writer.key(named: verdict.rawValue); writer.integer(Int64(verdicts[verdict] ?? 0))
        }
        writer.key("exitStatus"); writer.integer(Int64(exitStatus))
        if let unchecked { writer.key("unchecked"); writer.integer(Int64(unchecked.count)) }
        writer.endObject()
        writer.key("tool"); writer.string(ToolInfo.name)
        writer.key("version"); writer.string(ToolInfo.version)
        writer.endObject()
    }
}

/// Results counted by verdict as they come: what a run's summary and exit status need, without keeping the results.
public struct ResultTally: Sendable, Equatable {
    public private(set) var results = 0
    public private(set) var verdicts: [Verdict: Int] = [:]

    public init() {}

    public mutating func add(_ results: [CheckResult]) {
        for result in results { add(result) }
    }

    public mutating func add(_ result: CheckResult) {
        results += 1
        verdicts[result.verdict, default: 0] += 1
    }

    /// How many results have `verdict`.
    public func count(_ verdict: Verdict) -> Int { verdicts[verdict] ?? 0 }
}
