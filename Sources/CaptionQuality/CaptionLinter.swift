import Basics
import Captions
import Findings
import Foundation

/// The caption quality rules over a document: reading speed, line length and count, durations, gaps,
/// overlaps, empty cues, bad timings, markup, encoding, and cues past the media's end.
public struct CaptionLinter: Sendable {
    /// Every rule the linter knows.
    public static let rules: [Rule] = [
        .lintReadingSpeed, .lintLineLength, .lintMaxLines, .lintMinDuration, .lintMaxDuration, .lintMinGap,
        .lintOverlap, .lintEmpty, .lintNegativeDuration, .lintMarkup, .lintEncoding, .lintAfterEnd, .lintSyntax,
    ]

    public var profile: QualityProfile
    /// Frame rate for the frame-based rules.
    public var framesPerSecond: Double
    /// The media's duration, when known (for `lint.after-end`).
    public var mediaDuration: Double?
    /// Rules turned off for every file (config or options); files can turn rules off with NOTE comments.
    public var disabled: Set<String>

    public init(
        profile: QualityProfile = .netflix, framesPerSecond: Double = 24, mediaDuration: Double? = nil,
        disabled: Set<String> = []
    ) {
        self.profile = profile
        self.framesPerSecond = framesPerSecond
        self.mediaDuration = mediaDuration
        self.disabled = disabled
    }

    /// The problems in `document`, in file order.
    public func lint(_ document: CaptionDocument) -> [Finding] {
        let suppressions = Suppressions(document)
        var findings = documentFindings(document, suppressions: suppressions)
        findings += lintCuesInSlices(
            document, 0..<document.cues.count, latestEnd: nil, screen: ScreenNeighbours(document.cues), suppressions: suppressions)
        return findings
    }

    /// The problems in `document` a window of cues at a time, for results too large to hold at once: window 0 holds
    /// the file's own problems, each later one a run of cues; together, in order, what `lint` gives.
    public func windows(of document: CaptionDocument, cuesPerWindow: Int = 65_536) -> LintWindows {
        let cues = document.cues
        let bounds = Array(stride(from: 0, to: cues.count, by: max(1, cuesPerWindow))) + [cues.count]
        var entering: [(time: CaptionTime, cue: Int)?] = [nil]
        var latest: (time: CaptionTime, cue: Int)?
        for window in 1..<max(1, bounds.count - 1) {
            for index in bounds[window - 1]..<bounds[window] where latest == nil || cues[index].end > latest!.time {
                latest = (cues[index].end, index)
            }
            entering.append(latest)
        }
        return LintWindows(
            linter: self, document: document, suppressions: Suppressions(document), bounds: bounds, entering: entering,
            screen: ScreenNeighbours(cues))
    }

    /// The problems of the file itself: its syntax diagnostics and encoding.
    func documentFindings(_ document: CaptionDocument, suppressions: Suppressions) -> [Finding] {
        var findings: [Finding] = []
        func add(_ rule: Rule, _ severity: Severity, _ message: String, guideline: String = "") {
            guard !disabled.contains(rule.id), !suppressions.disables(rule.id, cue: -1) else { return }
            findings.append(rule.finding(severity: severity, message: message, guidelines: guideline.isEmpty ? [] : [guideline]))
        }
        for diagnostic in document.diagnostics where diagnostic.severity != .info {
            guard !disabled.contains(Rule.lintSyntax.id) else { break }
            findings.append(
                Rule.lintSyntax.finding(
                    severity: diagnostic.severity == .error ? .error : .warning,
                    message: "\(diagnostic.message) [\(diagnostic.rule)]", line: diagnostic.line > 0 ? diagnostic.line : nil,
                    guidelines: [document.format == .srt ? "SubRip" : document.format == .scc ? "CEA-608" : document.format.displayName]))
        }
        // SCC is ASCII by definition (its characters are 608 codes).
        if document.encoding != "utf-8" && document.format != .scc {
            add(
                .lintEncoding, .warning, "the file is \(document.encoding), not UTF-8: players and browsers may show it wrongly; save it as UTF-8",
                guideline: document.format.markup == .webvtt ? "WebVTT" : "")
        }
        return findings
    }

    /// The per-cue rules over `range`, `latestEnd` being the latest end of the cues before it. Many cues are linted
    /// in slices on all cores; each slice starts from the latest end before it (for overlaps and gaps), so the
    /// result is the same as one pass.
    func lintCuesInSlices(
        _ document: CaptionDocument, _ range: Range<Int>, latestEnd entering: (time: CaptionTime, cue: Int)?,
        screen: ScreenNeighbours, suppressions: Suppressions
    ) -> [Finding] {
        let cues = document.cues
        let slices = ParallelSlices.count(for: range.count, minimum: ParallelSlices.minimumCues)
        guard slices > 1 else { return lintCues(document, range, latestEnd: entering, screen: screen, suppressions: suppressions) }
        let bounds = ParallelSlices.bounds(of: range, slices: slices)
        var starts: [(time: CaptionTime, cue: Int)?] = [entering]
        var latest = entering
        for slice in bounds.dropLast() {
            for index in slice where latest == nil || cues[index].end > latest!.time {
                latest = (cues[index].end, index)
            }
            starts.append(latest)
        }
        let sliced = ParallelSlices.map(slices) { slice in
            lintCues(document, bounds[slice], latestEnd: starts[slice], screen: screen, suppressions: suppressions)
        }
        var findings: [Finding] = []
        findings.reserveCapacity(sliced.reduce(0) { $0 + $1.count })
        for slice in sliced { findings.append(contentsOf: slice) }  // slice by slice: whole arrays, not element by element
        return findings
    }

    /// The per-cue rules over `range`, `latestEnd` being the latest end of the cues before it.
    private func lintCues(
        _ document: CaptionDocument, _ range: Range<Int>, latestEnd entering: (time: CaptionTime, cue: Int)?,
        screen: ScreenNeighbours, suppressions: Suppressions
    ) -> [Finding] {
        var findings: [Finding] = []
        let guideline = profile.guideline
        // One guideline array per guideline, shared by every finding that cites it.
        let guidelines: [String: [String]] = [guideline: [guideline], "WebVTT": ["WebVTT"], "WCAG 1.2.2": ["WCAG 1.2.2"], "": []]
        func add(
            _ rule: Rule, _ severity: Severity, _ message: @autoclosure () -> String, cue index: Int,
            guideline: String = "", measured: Double? = nil, limit: Double? = nil
        ) {
            guard !disabled.contains(rule.id), suppressions.isEmpty || !suppressions.disables(rule.id, cue: index) else { return }
            let cue = document.cues[index]
            var data: [(String, JSONValue)] = [("cue", .integer(Int64(index + 1)))]
            if !cue.identifier.isEmpty { data.append(("id", .string(cue.identifier))) }
            if let measured { data.append(("measured", .number(NumberText.rounded(measured)))) }
            if let limit { data.append(("limit", .number(NumberText.rounded(limit)))) }
            let place = cue.identifier.isEmpty || cue.identifier == String(index + 1) ? "cue \(index + 1): " : "cue \(index + 1) (\(cue.identifier)): "
            findings.append(
                rule.finding(
                    severity: severity, message: place + message(), start: cue.start.seconds, end: cue.end.seconds,
                    line: cue.line > 0 ? Int(cue.line) : nil, guidelines: guidelines[guideline] ?? [guideline],
                    data: .object(data)))
        }
        let frame = 1 / framesPerSecond
        let readingSpeedTail = " characters a second (at most \(Self.number(profile.maxCharactersPerSecond ?? 0))): shorten the text or give it more time"
        var latestEnd = entering
        for index in range {
            let cue = document.cues[index]
            let duration = Double(cue.end.milliseconds - cue.start.milliseconds) / 1000
            let text = CueReading(cue, format: document.format, maxLineLength: profile.maxCharactersPerLine)

            if cue.end <= cue.start {
                add(
                    .lintNegativeDuration, .error,
                    cue.end == cue.start
                        ? "the cue starts and ends at \(cue.start): it is never shown"
                        : "the cue ends (\(cue.end)) before it starts (\(cue.start))", cue: index)
            }
            if text.isEmpty {
                add(.lintEmpty, .error, "the cue has no text: remove it, or give it words", cue: index)
            }
            if let problem = text.markupProblem {
                add(.lintMarkup, .warning, problem, cue: index, guideline: document.format.markup == .webvtt ? "WebVTT" : "")
            }
            // Measured against the latest-ending cue shown before it in the same place (ScreenNeighbours).
            let shownBefore = screen.latest(before: index, in: document.cues, running: latestEnd)
            if let latest = shownBefore, cue.start < latest.time {
                add(
                    .lintOverlap, .error, "the cue starts at \(cue.start), before cue \(latest.cue + 1) ends (\(latest.time)): two captions on screen at once",
                    cue: index)
            } else if let latest = shownBefore, let gapFrames = profile.minGapFrames, cue.start >= latest.time {
                let gap = Double(cue.start.milliseconds - latest.time.milliseconds) / 1000
                if gap > 0, gap < gapFrames * frame - 0.0005 {
                    add(
                        .lintMinGap, .warning,
                        "only \(Self.frames(gap, frame)) after cue \(latest.cue + 1): leave at least \(Self.number(gapFrames)) frames, or close the gap",
                        cue: index, guideline: guideline, measured: gap, limit: gapFrames * frame)
                }
            }
            if let mediaDuration, cue.start.seconds >= mediaDuration {
                add(
                    .lintAfterEnd, .error, "the cue starts at \(cue.start), after the media ends (\(CaptionTime(seconds: mediaDuration)))",
                    cue: index, guideline: "WCAG 1.2.2")
            }
            if duration > 0, !text.isEmpty {
                if let minimum = profile.minDuration, duration < minimum - 0.0005 {
                    add(
                        .lintMinDuration, .warning, "on screen \(Self.seconds(duration)), shorter than \(Self.seconds(minimum)): too short to read",
                        cue: index, guideline: guideline, measured: duration, limit: minimum)
                }
                if let maximum = profile.maxDuration, duration > maximum + 0.0005 {
                    add(
                        .lintMaxDuration, .warning, "on screen \(Self.seconds(duration)), longer than \(Self.seconds(maximum)): split it",
                        cue: index, guideline: guideline, measured: duration, limit: maximum)
                }
                if let maximum = profile.maxCharactersPerSecond {
                    let rate = Double(text.readingCharacters) / duration
                    if rate > maximum + 0.005 {
                        add(
                            .lintReadingSpeed, .warning, Self.number(rate) + readingSpeedTail,
                            cue: index, guideline: guideline, measured: rate, limit: maximum)
                    }
                }
                if let maximum = profile.maxWordsPerMinute {
                    let rate = Double(text.words) / duration * 60
                    let hard = profile.hardMaxWordsPerMinute
                    if rate > maximum + 0.05 {
                        let severity: Severity = hard.map { rate > $0 + 0.05 } == true ? .error : .warning
                        add(
                            .lintReadingSpeed, severity,
                            "\(Int(saturating: rate.rounded())) words a minute (at most \(Self.number(maximum))): shorten the text or give it more time",
                            cue: index, guideline: guideline, measured: rate, limit: severity == .error ? hard : maximum)
                    }
                }
            }
            if let maximum = profile.maxLines, text.lineCount > maximum {
                add(
                    .lintMaxLines, .warning, "\(text.lineCount) lines (at most \(maximum)): split the cue", cue: index,
                    guideline: guideline, measured: Double(text.lineCount), limit: Double(maximum))
            }
            if let maximum = profile.maxCharactersPerLine {
                for (number, length) in text.longLines {
                    add(
                        .lintLineLength, .warning, "line \(number + 1) has \(length) characters (at most \(maximum)): break it differently",
                        cue: index, guideline: guideline, measured: Double(length), limit: Double(maximum))
                }
            }
            if latestEnd == nil || cue.end > latestEnd!.time { latestEnd = (cue.end, index) }
        }
        return findings
    }

    /// A number with at most one decimal: `47`, `23.3` (integer arithmetic: this is on the hot path).
    static func number(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return String(value) }
        let tenths = Int(saturating: (value * 10).rounded())
        let whole = String(tenths / 10)
        return tenths % 10 == 0 ? whole : (tenths < 0 && tenths / 10 == 0 ? "-" : "") + whole + "." + String(abs(tenths % 10))
    }

    /// Seconds with up to three decimals: `0.833 s`, `2 s`.
    static func seconds(_ value: Double) -> String {
        var text = String(Double((value * 1000).rounded()) / 1000)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text + " s"
    }

    static func frames(_ gap: Double, _ frame: Double) -> String {
        let count = gap / frame
        return "\(number((count * 10).rounded() / 10)) frame\(abs(count - 1) < 0.05 ? "" : "s") (\(Int(saturating: (gap * 1000).rounded())) ms)"
    }
}

/// A document's problems in windows (see `CaptionLinter.windows(of:)`): each window linted when asked, the same
/// problems every time.
public struct LintWindows: Sendable {
    let linter: CaptionLinter
    let document: CaptionDocument
    let suppressions: Suppressions
    /// Cue bounds: window k (from 1) covers cues bounds[k-1]..<bounds[k].
    let bounds: [Int]
    let entering: [(time: CaptionTime, cue: Int)?]
    let screen: ScreenNeighbours

    /// The number of windows, the file's own problems included.
    public var count: Int { bounds.count }

    /// The findings of window `index`, in file order.
    public func findings(in index: Int) -> [Finding] {
        if index == 0 { return linter.documentFindings(document, suppressions: suppressions) }
        return linter.lintCuesInSlices(
            document, bounds[index - 1]..<bounds[index], latestEnd: entering[index - 1], screen: screen, suppressions: suppressions)
    }
}
