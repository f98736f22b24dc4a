import Basics
import Findings

/// Check results as one self-contained HTML page (no external assets, no script): the counts of files and of results
/// by verdict, the findings by rule, a table of the files with their verdicts (the worst first), and per file each
/// check's findings (each rule linked to its source, why it matters on hover) with SVG charts with labelled axes —
/// the range of luminance each moment swings through (0–1) and flashes a second against the limit, each on its own
/// scale, incidents shaded (flash); speech, captions as given and captions once corrected, a lane each (sync). The
/// charts' text stays readable on a phone (9 px or more at 390 px wide).
public struct HTMLReport: CheckReporter {
    public var title: String
    /// The rules findings may name, by id: their titles and sources (links).
    public var rules: [String: Rule]
    /// Why each rule matters, by id (shown on hover).
    public var help: [String: String]
    /// The files a stopped run (Ctrl-C) did not check: said under the headline. Nil: the run was not stopped.
    public var unchecked: [String]?

    public init(title: String = "MediaLint report", rules: [String: Rule] = [:], help: [String: String] = [:], unchecked: [String]? = nil) {
        self.title = title
        self.rules = rules
        self.help = help
        self.unchecked = unchecked
    }

    /// Writes the page, finding by finding.
    public func write(_ results: [CheckResult], to out: inout ByteWriter) {
        write(from: ResultArray(results, byFile: true), to: &out)
    }

    /// Writes the page of the results `source` holds, a unit a file: one pass for the counts and the files' table
    /// (`HTMLPageSurvey`), then the sections of the files with something to say, the worst first (only their units
    /// are read again).
    public func write<Source: ResultSource>(from source: Source, to out: inout ByteWriter) throws(Source.Failure) {
        let survey = try HTMLPageSurvey(source)
        out.append(
            """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <title>
            """ as StaticString)
        out.append(xmlEscaped: title)
        out.append(
            """
            </title>
            <style>
            body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1a1a1a}
            table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .6rem;border-bottom:1px solid #ddd}
            .pass{color:#176f2c}.warn{color:#8a5a00}.fail{color:#b00020;font-weight:600}.error{color:#b00020}.unverified{color:#285a9c}
            section{margin:2rem 0;border-top:2px solid #eee}svg{background:#fafafa;border:1px solid #ddd;max-width:100%;height:auto}
            .legend{font-size:13px;color:#555}td,li,h2,h3{overflow-wrap:anywhere}td.n{text-align:right}
            .rules th,.rules td{padding:.3rem .4rem}
            @media (max-width:600px){.rules th:nth-child(2),.rules td:nth-child(2){display:none}th,td{padding:.25rem .3rem;font-size:14px}}
            th{overflow-wrap:anywhere}.folders{table-layout:fixed}.folders th:first-child{width:34%}
            .lazy .block{content-visibility:auto;contain-intrinsic-size:auto 9000px}.lazy section.f{content-visibility:auto;contain-intrinsic-size:auto 500px}
            .files{table-layout:fixed}.files th:nth-child(1){width:40%}.files th:nth-child(2){width:12%}.files th:nth-child(4){width:12%}
            input.filter{position:absolute;opacity:0;width:1px;height:1px}.filters label{display:inline-block;margin:.1rem .4rem;padding:0 .4rem;border:1px solid #bbb;border-radius:.3rem;cursor:pointer}
            input.filter:focus-visible{outline:none}
            """ as StaticString)
        // Files and rules in the page's order, found once: the filters' style and the page both use them.
        let order = survey.worstFirst
        let files = order.map { survey.files[$0] }
        let ruleOrder = survey.rulesByErrors
        out.append(Self.filterRules(ruleOrder))
        out.append(
            """
            </style>
            </head>

            """ as StaticString)
        // A catalogue's rows and sections are drawn as they come into view; a report of a few files, all at once.
        out.append(files.count > Self.lazyFiles ? "<body class=\"lazy\">\n" as StaticString : "<body>\n" as StaticString)
        out.append(Self.filterInputs(survey, rules: ruleOrder))
        out.append(
            """
            <main>
            <h1>
            """ as StaticString)
        out.append(xmlEscaped: title)
        out.append("</h1>\n" as StaticString)
        out.append(Self.headline(survey))
        if let unchecked {
            out.append("<p class=\"stopped\"><strong>Incomplete:</strong> " as StaticString)
            out.append(xmlEscaped: SARIFReport.stoppedMessage(unchecked) + ".")
            out.append("</p>\n" as StaticString)
        }
        out.append(byRule(survey))
        out.append(Self.byFolder(survey.files))
        // Each file's verdict and rules as classes: the filters show only the files they name (CSS, no script).
        func classes(_ file: HTMLPageSurvey.File) -> String {
            "f v-\(file.verdict.rawValue)" + file.rules.map { " r-" + Self.token($0) }.joined()
        }
        // A file has a section when there is something to say: findings, a verdict other than pass, or charts (those of
        // the `chartFiles` worst files: a catalogue of thousands stays a page that opens at once).
        let sectioned = files.indices.map { index in index < Self.chartFiles || files[index].remarkable }
        out.append(Self.filters(survey, rules: ruleOrder))
        out.append("<h2>Files, the worst first</h2>\n" as StaticString)
        let header =
            "<table class=\"files\">\n<thead><tr><th scope=\"col\">File</th><th scope=\"col\">Verdict</th><th scope=\"col\">Checks</th><th scope=\"col\">Findings</th></tr></thead>\n<tbody>\n"
        // In blocks of rows drawn as they come into view.
        for (index, file) in files.enumerated() {
            if index % Self.rowsPerBlock == 0 {
                out.append((index == 0 ? "<div class=\"block\">" : "</tbody>\n</table>\n</div>\n<div class=\"block\">") + header)
            }
            let checks = file.checks.map { "\($0.check.rawValue) <span class=\"\($0.verdict.rawValue)\">\($0.verdict.rawValue)</span>" }
            let name = sectioned[index] ? "<a href=\"#f\(index)\">\(XMLText.escape(file.path))</a>" : XMLText.escape(file.path)
            out.append(
                "<tr class=\"\(classes(file))\"><td>\(name)</td><td class=\"\(file.verdict.rawValue)\">\(file.verdict.rawValue)</td>"
                    + "<td>\(checks.joined(separator: " · "))</td><td>\(file.findings)</td></tr>\n")
            out.handOnIfFull()
        }
        if !files.isEmpty { out.append("</tbody>\n</table>\n</div>\n" as StaticString) }
        if files.count > Self.chartFiles {
            out.append("<p class=\"legend\">Charts are drawn for the \(Self.chartFiles) worst files; every file's figures are in the JSON report.</p>\n")
        }
        // The sections: only their files' results are read again, in the page's order.
        let shown = files.count > Self.lazyFiles ? Self.catalogueFindings : Int.max
        var indexOf = [Int](repeating: 0, count: order.count)
        for (index, position) in order.enumerated() { indexOf[position] = index }
        try source.read(files.indices.filter { sectioned[$0] }.map { order[$0] }) { position, results in
            let index = indexOf[position], file = files[index]
            out.append(
                "<section id=\"f\(index)\" class=\"\(classes(file))\">\n<h2>\(XMLText.escape(file.path)) <span class=\"\(file.verdict.rawValue)\">\(file.verdict.rawValue)</span></h2>\n"
            )
            for result in results { writeSection(of: result, charts: index < Self.chartFiles, findingsShown: shown, to: &out) }
            out.append("</section>\n" as StaticString)
        }
        out.append("</main>\n</body>\n</html>\n" as StaticString)
    }

    /// A result's part of its file's section: its check and verdict, its first `findingsShown` findings, and its
    /// charts when `charts`.
    private func writeSection(of result: CheckResult, charts: Bool, findingsShown shown: Int, to out: inout ByteWriter) {
        let flash = result.check == .flash ? result.metrics(as: FlashMetrics.self) : nil
        let sync = result.check == .sync ? result.metrics(as: SyncMetrics.self) : nil
        let source = sync.map { " · " + XMLText.escape($0.captions) } ?? ""
        out.append("<h3>\(result.check.rawValue)\(source) <span class=\"\(result.verdict.rawValue)\">\(result.verdict.rawValue)</span></h3>\n")
        if result.findingCount > 0 {
            // A catalogue lists a file's first findings (the rest are counted): the page stays quick to open.
            out.append("<ul>\n" as StaticString)
            for (number, finding) in result.allFindings.enumerated() {
                guard number < shown else { break }
                writeItem(finding, to: &out)
            }
            if result.findingCount > shown {
                out.append("<li>… and \(result.findingCount - shown) more (every finding is in the JSON report)</li>\n")
            }
            out.append("</ul>\n" as StaticString)
        }
        if charts, let flash, let series = flash.series, let chart = Self.flashCharts(series, limit: flash.flashLimit, findings: result.allFindings) {
            out.append(chart)
        }
        if charts, let sync, let timeline = sync.timeline, let chart = Self.syncChart(timeline, fix: sync.fix) { out.append(chart) }
        out.handOnIfFull()
    }

    /// One finding as a list item: its severity, where it is, its message and rule.
    private func writeItem(_ finding: Finding, to out: inout ByteWriter) {
        out.append("<li><span class=\"" as StaticString)
        out.append(finding.severity == .error ? "fail" : finding.severity == .warning ? "warn" : "unverified" as StaticString)
        out.append("\">" as StaticString)
        out.append(finding.severity.rawValue)
        out.append("</span> " as StaticString)
        if let start = finding.start {
            out.append(seconds: start)
            if let end = finding.end {
                out.append(" s–" as StaticString)
                out.append(seconds: end)
            }
            out.append(" s: " as StaticString)
        } else if let line = finding.line {
            out.append("line " as StaticString)
            out.append(integer: line)
            out.append(": " as StaticString)
        }
        out.append(xmlEscaped: finding.message)
        out.append(" " as StaticString)
        out.append(ruleLink(finding.rule))
        out.append("</li>\n" as StaticString)
        out.handOnIfFull()
    }

    /// A rule's id, linked to its source, why it matters on hover (its id alone when the rule is not known).
    func ruleLink(_ id: String) -> String {
        guard let rule = rules[id] else { return "<code>\(XMLText.escape(id))</code>" }
        let title = help[id].map { " title=\"\(XMLText.escape($0))\"" } ?? ""
        return "<a href=\"\(XMLText.escape(rule.helpURL))\"\(title)><code>\(XMLText.escape(id))</code></a>"
    }

    /// The findings by rule, most errors first: how many of each severity, in how many files.
    func byRule(_ survey: HTMLPageSurvey) -> String {
        let order = survey.rulesBySeverity
        guard !order.isEmpty else { return "" }
        var html =
            "<h2>Findings by rule</h2>\n<table class=\"rules\">\n<thead><tr><th scope=\"col\">Rule</th><th scope=\"col\">What</th>"
            + "<th scope=\"col\">Errors</th><th scope=\"col\">Warnings</th><th scope=\"col\">Notes</th><th scope=\"col\">Files</th></tr></thead>\n<tbody>\n"
        for (id, count) in order {
            html +=
                "<tr><td>\(ruleLink(id))</td><td>\(XMLText.escape(rules[id]?.title ?? ""))</td><td class=\"n\(count.errors > 0 ? " fail" : "")\">\(count.errors)</td>"
                + "<td class=\"n\(count.warnings > 0 ? " warn" : "")\">\(count.warnings)</td><td class=\"n\">\(count.notes)</td><td class=\"n\">\(count.files)</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    /// The most files whose charts are drawn (the worst first), and the rows of the files' table in a block.
    static let chartFiles = 100, rowsPerBlock = 250
    /// From how many files on the page's parts are drawn as they come into view, and each result lists only its
    /// first findings.
    static let lazyFiles = 500, catalogueFindings = 5

    /// A rule id as a class name: `lint.line-length` → `lint_line-length`.
    static func token(_ id: String) -> String {
        String(id.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
    }

    /// The filters' radio buttons, by verdict and by rule: siblings before `main`, so that a checked one can hide the
    /// files without it (`filterRules`: no script); their labels are in `filters`, where they are read.
    static func filterInputs(_ survey: HTMLPageSurvey, rules: [String]) -> String {
        guard survey.files.count > 1 else { return "" }
        let verdicts = survey.fileVerdicts
        var html = "<input class=\"filter\" type=\"radio\" name=\"verdict\" id=\"v-all\" checked=\"checked\" aria-label=\"all verdicts\" />"
        for verdict in verdicts {
            html += "<input class=\"filter\" type=\"radio\" name=\"verdict\" id=\"v-\(verdict.rawValue)\" aria-label=\"\(verdict.rawValue)\" />"
        }
        if !rules.isEmpty {
            html += "<input class=\"filter\" type=\"radio\" name=\"rule\" id=\"r-all\" checked=\"checked\" aria-label=\"all rules\" />"
            for rule in rules {
                html += "<input class=\"filter\" type=\"radio\" name=\"rule\" id=\"r-\(token(rule))\" aria-label=\"\(XMLText.escape(rule))\" />"
            }
        }
        return html + "\n"
    }

    /// The filters' labels: show files by verdict, by rule (each label checks its radio button).
    static func filters(_ survey: HTMLPageSurvey, rules: [String]) -> String {
        guard survey.files.count > 1 else { return "" }
        let verdicts = survey.fileVerdicts
        var html = "<div class=\"filters\"><p><strong>Show files by verdict:</strong> <label for=\"v-all\">all</label>"
        for verdict in verdicts { html += " <label for=\"v-\(verdict.rawValue)\">\(verdict.rawValue)</label>" }
        html += "</p>\n"
        if !rules.isEmpty {
            html += "<p><strong>Show files by rule:</strong> <label for=\"r-all\">all</label>"
            for rule in rules { html += " <label for=\"r-\(token(rule))\"><code>\(XMLText.escape(rule))</code></label>" }
            html += "</p>\n"
        }
        return html + "</div>\n"
    }

    /// The filters' CSS for the rules found (`rulesByErrors`): a checked verdict or rule hides the files without it.
    static func filterRules(_ rules: [String]) -> String {
        // The chosen filter, and the one the keyboard is on, stand out.
        let ids =
            ["v-all", "r-all"] + verdictsWorstFirst.map { "v-" + $0.rawValue } + rules.map { "r-" + token($0) }
        var css =
            ids.map {
                "#\($0):checked~main label[for=\($0)]{background:#1a1a1a;color:#fff}#\($0):focus-visible~main label[for=\($0)]{outline:2px solid #285a9c}"
            }
            .joined(separator: "\n") + "\n"
        for verdict in verdictsWorstFirst {
            css += "#v-\(verdict.rawValue):checked~main .f:not(.v-\(verdict.rawValue)){display:none}\n"
        }
        for rule in rules {
            let id = "r-" + token(rule)
            css += "#\(id):checked~main .f:not(.\(id)){display:none}\n"
        }
        return css
    }

    /// Files by folder, the folders with the most failing files first: how many of each verdict.
    static func byFolder(_ files: [HTMLPageSurvey.File]) -> String {
        var counts: [String: [Verdict: Int]] = [:]
        for file in files {
            let folder = file.path.lastIndex(of: "/").map { String(file.path[..<$0]) } ?? "."
            counts[folder, default: [:]][file.verdict, default: 0] += 1
        }
        guard counts.count > 1 else { return "" }
        let order = verdictsWorstFirst
        let sorted = counts.sorted { a, b in
            let (x, y) = (order.map { a.value[$0] ?? 0 }, order.map { b.value[$0] ?? 0 })
            return x.lexicographicallyPrecedes(y) ? false : (y.lexicographicallyPrecedes(x) ? true : a.key < b.key)
        }
        var html = "<h2>Files by folder</h2>\n<div class=\"block\"><table class=\"folders\">\n<thead><tr><th scope=\"col\">Folder</th>"
        for verdict in order { html += "<th scope=\"col\">\(verdict.rawValue)</th>" }
        html += "</tr></thead>\n<tbody>\n"
        for (folder, count) in sorted {
            html += "<tr><td>\(XMLText.escape(folder))</td>"
            for verdict in order {
                let n = count[verdict] ?? 0
                html += "<td class=\"n\(n > 0 && verdict != .pass ? " " + verdict.rawValue : "")\">\(n)</td>"
            }
            html += "</tr>\n"
        }
        return html + "</tbody>\n</table></div>\n"
    }

    /// A file's verdict: the most serious of its checks' (error, fail, warn, unverified, pass).
    static func overall(_ verdicts: [Verdict]) -> Verdict {
        verdictsWorstFirst.first { verdicts.contains($0) } ?? .pass
    }

    /// The verdicts, the most serious first: the order of the files, the filters and the folders' columns.
    static let verdictsWorstFirst: [Verdict] = [.error, .fail, .warn, .unverified, .pass]

    /// The counts at the top, each labelled with what it counts: files by their overall verdict (a file's worst
    /// check), then results (one per check of a file) by verdict.
    static func headline(_ survey: HTMLPageSurvey) -> String {
        let order: [Verdict] = [.pass, .warn, .fail, .unverified, .error]
        func counts(_ count: (Verdict) -> Int) -> String {
            order.compactMap { verdict in
                let count = count(verdict)
                return count > 0 ? "<span class=\"\(verdict.rawValue)\">\(count) \(verdict.rawValue)</span>" : nil
            }.joined(separator: ", ")
        }
        var fileVerdicts: [Verdict: Int] = [:]
        for file in survey.files { fileVerdicts[file.verdict, default: 0] += 1 }
        let (files, results) = (survey.files.count, survey.results.results)
        return "<p class=\"headline\"><strong>\(files) file\(files == 1 ? "" : "s")</strong> by their worst check: "
            + counts { fileVerdicts[$0] ?? 0 }
            + ". <strong>\(results) result\(results == 1 ? "" : "s")</strong> (one per check of a file): "
            + counts(survey.results.count) + ". \(ToolInfo.name) \(ToolInfo.version)</p>\n"
    }

    /// The charts' size: the plot right of a margin for the y-axis title (turned upright) and tick labels. Drawn at
    /// 520 units with 14-unit text, a chart scaled to a phone's 358 px keeps its text at 9.6 px.
    static let width = 520.0, left = 80.0, fontSize = 14.0
    static var plotWidth: Double { width - left }

    /// The x of `time` on a chart of `duration` seconds.
    static func x(_ time: Double, _ duration: Double) -> Double { left + time / duration * plotWidth }

    /// Flashing on two charts, each with its own labelled scale: the mean relative luminance (0–1), and flashes a
    /// second (from 0, past the limit) with the limit drawn and named; incidents shaded on both.
    static func flashCharts(_ series: FlashMetrics.Series, limit: Double?, findings: FindingSequence) -> String? {
        let (bin, luminance, flashes) = (series.bin, series.luminance, series.flashesPerSecond)
        guard !luminance.isEmpty, bin > 0 else { return nil }
        let duration = Double(luminance.count) * bin
        let limit = limit ?? 3
        let top = niceCeiling(max(limit + 1, flashes.max() ?? 0))
        var incidents = ""
        for finding in findings where finding.rule.hasPrefix("flash.") {
            guard let start = finding.start, let end = finding.end else { continue }
            incidents +=
                "<rect x=\"\(format(x(start, duration)))\" y=\"0\" width=\"\(format(max(1, (end - start) / duration * plotWidth)))\" height=\"HEIGHT\" fill=\"#ffd6d6\"><title>\(XMLText.escape(finding.message))</title></rect>\n"
        }
        let height = 120.0
        var light = chartStart(height: height, title: "Relative luminance, darkest to brightest frame, over \(format(duration)) s")
        light += incidents.replacingOccurrences(of: "HEIGHT", with: format(height))
        light += yAxis(label: "luminance", ticks: [0, 0.5, 1], top: 1, height: height)
        if let low = series.luminanceMin, let high = series.luminanceMax, low.count == luminance.count, high.count == luminance.count {
            // The range each moment swings through: flashing shows as a band from dark to bright, which a mean hides.
            light += envelope(low: low.map { height - $0 * height }, high: high.map { height - $0 * height }, bin: bin, duration: duration)
        } else {
            light += polyline(luminance.map { height - $0 * height }, bin: bin, duration: duration, color: "#555")
        }
        light += axis(duration: duration, at: height) + "</svg>\n"
        var rate = chartStart(height: height, title: "Flashes a second over \(format(duration)) s, against the limit of \(format(limit))")
        rate += incidents.replacingOccurrences(of: "HEIGHT", with: format(height))
        rate += yAxis(label: "flashes/s", ticks: ticks(upTo: top), top: top, height: height)
        let limitY = height - limit / top * height
        rate +=
            "<line x1=\"\(format(left))\" y1=\"\(format(limitY))\" x2=\"\(format(width))\" y2=\"\(format(limitY))\" stroke=\"#b00020\" stroke-dasharray=\"4 4\" />"
            + "<text x=\"\(format(width - 4))\" y=\"\(format(limitY - 3))\" font-size=\"\(format(fontSize))\" fill=\"#b00020\" text-anchor=\"end\">limit \(format(limit))/s</text>\n"
        rate += polyline(flashes.map { height - min($0, top) / top * height }, bin: bin, duration: duration, color: "#b00020")
        rate += axis(duration: duration, at: height) + "</svg>\n"
        return light + rate
            + "<p class=\"legend\">Top: relative luminance (0 black – 1 white), from the darkest to the brightest frame of each moment: flashing shows as a wide band. Below: flashes in the second before each moment; dashed, the most allowed (\(format(limit)) a second). Shaded: incidents.</p>\n"
    }

    /// Speech, caption cover as given and, when a fix was found, the caption cover once corrected — one lane each,
    /// named on the left — per bin.
    static func syncChart(_ timeline: SyncMetrics.Timeline, fix: SyncMetrics.Fix? = nil) -> String? {
        let (bin, speech, captions) = (timeline.bin, timeline.speech, timeline.captions)
        guard !speech.isEmpty, bin > 0 else { return nil }
        let duration = Double(speech.count) * bin
        let barWidth = plotWidth / Double(speech.count)
        var lanes: [(label: String, values: [Double], color: String)] = [("speech", speech, "#888"), ("captions", captions, "#285a9c")]
        if let fix, abs(fix.offset) >= 0.001 || abs(fix.scale - 1) >= 1e-6 || fix.parts != nil {
            // Where each bin's captions land once the fix (new = old × scale + offset, part by part) is applied: the
            // caption time that lands in the middle of the bin, in the part whose caption times it falls in.
            let parts = fix.parts ?? [SyncMetrics.Fix.Part(from: 0, offset: fix.offset)]
            let corrected = (0..<captions.count).map { index -> Double in
                let media = (Double(index) + 0.5) * bin
                for (number, part) in parts.enumerated() {
                    let source = (media - part.offset) / fix.scale
                    let inPart = (number == 0 || source >= part.from) && (number + 1 == parts.count || source < parts[number + 1].from)
                    guard inPart else { continue }
                    let from = Int((source / bin).rounded(.down))
                    return from >= 0 && from < captions.count ? captions[from] : 0
                }
                return 0
            }
            lanes.append(("corrected", corrected, "#176f2c"))
        }
        let laneHeight = 30.0, gap = 8.0
        let height = Double(lanes.count) * (laneHeight + gap)
        var svg = chartStart(height: height, title: "Captions against detected speech over \(format(duration)) s")
        for (row, lane) in lanes.enumerated() {
            let bottom = Double(row) * (laneHeight + gap) + laneHeight
            svg +=
                "<text x=\"\(format(left - 6))\" y=\"\(format(bottom - laneHeight / 2 + 4))\" font-size=\"\(format(fontSize))\" fill=\"#555\" text-anchor=\"end\">\(lane.label)</text>\n"
            for (index, value) in lane.values.enumerated() where value > 0 {
                let barHeight = min(1, value) * laneHeight
                svg +=
                    "<rect x=\"\(format(left + Double(index) * barWidth))\" y=\"\(format(bottom - barHeight))\" width=\"\(format(barWidth))\" height=\"\(format(barHeight))\" fill=\"\(lane.color)\" />\n"
            }
        }
        svg += axis(duration: duration, at: height) + "</svg>\n"
        let correctedNote = lanes.count > 2 ? " Green: the captions once corrected by the fix found." : ""
        return svg
            + "<p class=\"legend\">Grey: speech detected in the audio. Blue: caption cues as given (\(format(bin)) s a bar).\(correctedNote)</p>\n"
    }

    /// An SVG chart's opening: its size (the plot, then the time axis below) and its title.
    static func chartStart(height: Double, title: String) -> String {
        "<svg role=\"img\" viewBox=\"0 0 \(format(width)) \(format(height + axisHeight))\" width=\"\(format(width))\" height=\"\(format(height + axisHeight))\">\n"
            + "<title>\(XMLText.escape(title))</title>\n"
    }

    /// A y-axis on the left: a rule, ticks with their values, and what is measured.
    static func yAxis(label: String, ticks: [Double], top: Double, height: Double) -> String {
        var svg =
            "<g font-size=\"\(format(fontSize))\" fill=\"#555\" stroke=\"#999\"><line x1=\"\(format(left))\" y1=\"0\" x2=\"\(format(left))\" y2=\"\(format(height))\" />\n"
        for tick in ticks {
            let y = height - tick / top * height
            svg +=
                "<line x1=\"\(format(left - 4))\" y1=\"\(format(y))\" x2=\"\(format(left))\" y2=\"\(format(y))\" />"
                + "<text x=\"\(format(left - 6))\" y=\"\(format(max(fontSize - 1, y + 5)))\" text-anchor=\"end\" stroke=\"none\">\(format(tick))</text>\n"
        }
        // The title upright along the axis, clear of the tick labels.
        svg +=
            "<text transform=\"translate(\(format(fontSize + 2)) \(format(height / 2))) rotate(-90)\" text-anchor=\"middle\" stroke=\"none\" font-weight=\"600\">\(label)</text>\n"
        return svg + "</g>\n"
    }

    /// The smallest of 5, 10, 20, 50 … at least `value`.
    static func niceCeiling(_ value: Double) -> Double {
        var top = 5.0
        var step = 0
        while top < value {
            top *= step % 3 == 2 ? 2.5 : 2  // 5, 10, 20, 50, 100, 200, 500 …
            step += 1
        }
        return top
    }

    /// Ticks from 0 to `top` (3 to 5 of them, at 1, 2, 5 × a power of ten: their labels stay apart on a chart).
    static func ticks(upTo top: Double) -> [Double] {
        let step = [1.0, 2, 5, 10, 20, 50, 100, 200, 500].first { top / $0 <= 4 } ?? top / 4
        return stride(from: 0, through: top + step / 1000, by: step).map { $0 }
    }

    static let axisHeight = 22.0

    /// A time axis below a chart: a rule and ticks at round seconds (about 8 of them).
    static func axis(duration: Double, at y: Double) -> String {
        guard duration > 0 else { return "" }
        let steps: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400]
        // Ticks far enough apart that their labels (about 0.6 em a character) never meet, the last one (flush right)
        // included.
        let label = Double(timeLabel(duration, minutes: duration >= 120).count) * fontSize * 0.6
        let step = steps.first { $0 / duration * plotWidth >= 1.6 * label + 6 } ?? duration
        var svg =
            "<g font-size=\"\(format(fontSize))\" fill=\"#555\" stroke=\"#999\"><line x1=\"\(format(left))\" y1=\"\(format(y))\" x2=\"\(format(width))\" y2=\"\(format(y))\" />\n"
        var tick = 0.0
        while tick <= duration + step / 1000 {
            let x = Self.x(tick, duration)
            let anchor = x < left + 20 ? "start" : x > width - 20 ? "end" : "middle"
            svg +=
                "<line x1=\"\(format(x))\" y1=\"\(format(y))\" x2=\"\(format(x))\" y2=\"\(format(y + 4))\" />"
                + "<text x=\"\(format(x))\" y=\"\(format(y + 18))\" text-anchor=\"\(anchor)\" stroke=\"none\">\(timeLabel(tick, minutes: duration >= 120))</text>\n"
            tick += step
        }
        return svg + "</g>\n"
    }

    /// `12.5 s`, or `m:ss` / `h:mm:ss` on long media.
    static func timeLabel(_ seconds: Double, minutes: Bool) -> String {
        guard minutes else { return format(seconds) + " s" }
        let total = Int(saturating: seconds.rounded()), h = total / 3600, m = total / 60 % 60, s = total % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    /// A band between `low` and `high` (y values per bin): the brightest edge left to right, the darkest back.
    static func envelope(low: [Double], high: [Double], bin: Double, duration: Double) -> String {
        func point(_ index: Int, _ y: Double) -> String { "\(format(x((Double(index) + 0.5) * bin, duration))),\(format(y))" }
        let upper = high.indices.map { point($0, min(high[$0], low[$0] - 1)) }
        let lower = low.indices.reversed().map { point($0, low[$0]) }
        return "<polygon fill=\"#777\" fill-opacity=\"0.55\" stroke=\"#555\" stroke-width=\"1\" points=\"\((upper + lower).joined(separator: " "))\" />\n"
    }

    static func polyline(_ ys: [Double], bin: Double, duration: Double, color: String) -> String {
        let points = ys.enumerated().map { "\(format(x((Double($0.offset) + 0.5) * bin, duration))),\(format($0.element))" }.joined(separator: " ")
        return "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\" points=\"\(points)\" />\n"
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

extension HTMLReport {
    public func write(_ results: [CheckResult], to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        write(from: ResultArray(results, byFile: true), to: output)
    }

    public var readsFiles: Bool { true }

    /// Writes the page of `source`'s results; its units must be files (each file's results together, once).
    public func write<Source: ResultSource>(from source: Source, to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) throws(Source.Failure) {
        var out = ByteWriter(chunkHandler: output)
        try write(from: source, to: &out)
        out.finish()
    }
}
