import Findings

/// Check results as one self-contained HTML page (no external assets, no script): a summary, a table of the
/// files with their verdicts, and per file each check's findings with SVG charts — luminance and flashes a second over time
/// with incidents marked (flash), caption cover against detected speech (sync).
public struct HTMLReport: CheckReporter {
    public var title: String

    public init(title: String = "MediaLint report") { self.title = title }

    /// Writes the page, finding by finding.
    public func write(_ results: [CheckResult], to out: inout ByteWriter) {
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
            .legend{font-size:13px;color:#555}
            </style>
            </head>
            <body>
            <main>
            <h1>
            """ as StaticString)
        out.append(xmlEscaped: title)
        out.append("</h1>\n" as StaticString)
        let files = Self.grouped(results)
        let counts = [Verdict.pass, .warn, .fail, .unverified, .error].map { verdict in (verdict, files.filter { Self.overall($0.results) == verdict }.count) }
        out.append(
            "<p>\(files.count) files, \(results.count) results: "
                + counts.filter { $0.1 > 0 }.map { "<span class=\"\($0.0.rawValue)\">\($0.1) \($0.0.rawValue)</span>" }.joined(separator: ", ")
                + " · \(ToolInfo.name) \(ToolInfo.version)</p>\n")
        out.append(
            "<table>\n<thead><tr><th scope=\"col\">File</th><th scope=\"col\">Verdict</th><th scope=\"col\">Checks</th><th scope=\"col\">Findings</th></tr></thead>\n<tbody>\n"
                as StaticString)
        for (index, file) in files.enumerated() {
            let verdict = Self.overall(file.results)
            let checks = file.results.map { "\($0.check.rawValue) <span class=\"\($0.verdict.rawValue)\">\($0.verdict.rawValue)</span>" }
            out.append(
                "<tr><td><a href=\"#f\(index)\">\(XMLText.escape(file.path))</a></td><td class=\"\(verdict.rawValue)\">\(verdict.rawValue)</td>"
                    + "<td>\(checks.joined(separator: " · "))</td><td>\(file.results.reduce(0) { $0 + $1.findingCount })</td></tr>\n")
            out.handOnIfFull()
        }
        out.append("</tbody>\n</table>\n" as StaticString)
        for (index, file) in files.enumerated() {
            let verdict = Self.overall(file.results)
            out.append("<section id=\"f\(index)\">\n<h2>\(XMLText.escape(file.path)) <span class=\"\(verdict.rawValue)\">\(verdict.rawValue)</span></h2>\n")
            for result in file.results {
                let flash = result.metrics(as: FlashMetrics.self), sync = result.metrics(as: SyncMetrics.self)
                let source = sync.map { " · " + XMLText.escape($0.captions) } ?? ""
                out.append("<h3>\(result.check.rawValue)\(source) <span class=\"\(result.verdict.rawValue)\">\(result.verdict.rawValue)</span></h3>\n")
                if result.findingCount > 0 {
                    out.append("<ul>\n" as StaticString)
                    for finding in result.allFindings { Self.writeItem(finding, to: &out) }
                    out.append("</ul>\n" as StaticString)
                }
                if let series = flash?.series, let chart = Self.flashChart(series, findings: result.allFindings) { out.append(chart) }
                if let timeline = sync?.timeline, let chart = Self.syncChart(timeline) { out.append(chart) }
                out.handOnIfFull()
            }
            out.append("</section>\n" as StaticString)
        }
        out.append("</main>\n</body>\n</html>\n" as StaticString)
    }

    /// One finding as a list item: its severity, where it is, its message and rule.
    private static func writeItem(_ finding: Finding, to out: inout ByteWriter) {
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
        out.append(" <code>" as StaticString)
        out.append(xmlEscaped: finding.rule)
        out.append("</code></li>\n" as StaticString)
        out.handOnIfFull()
    }

    /// Results by file, in the order files first appear.
    static func grouped(_ results: [CheckResult]) -> [(path: String, results: [CheckResult])] {
        var order: [String] = []
        var byFile: [String: [CheckResult]] = [:]
        for result in results {
            if byFile[result.file] == nil { order.append(result.file) }
            byFile[result.file, default: []].append(result)
        }
        return order.map { ($0, byFile[$0]!) }
    }

    /// A file's verdict: the most serious of its checks' (error, fail, warn, unverified, pass).
    static func overall(_ results: [CheckResult]) -> Verdict {
        let order: [Verdict] = [.error, .fail, .warn, .unverified, .pass]
        return order.first { verdict in results.contains { $0.verdict == verdict } } ?? .pass
    }

    static let width = 800.0, height = 160.0

    /// Luminance (0–1, grey line) and flashes a second (red line, 3 a second dashed) over time; incidents shaded.
    static func flashChart(_ series: FlashMetrics.Series, findings: FindingSequence) -> String? {
        let (bin, luminance, flashes) = (series.bin, series.luminance, series.flashesPerSecond)
        guard !luminance.isEmpty, bin > 0 else { return nil }
        let duration = Double(luminance.count) * bin
        let peak = max(5, flashes.max() ?? 0)
        func x(_ time: Double) -> String { format(time / duration * width) }
        var svg =
            "<svg role=\"img\" viewBox=\"0 0 \(format(width)) \(format(height + axisHeight))\" width=\"\(format(width))\" height=\"\(format(height + axisHeight))\">\n"
            + "<title>Luminance and flashes a second over \(format(duration)) s</title>\n"
        for finding in findings where finding.rule.hasPrefix("flash.") {
            guard let start = finding.start, let end = finding.end else { continue }
            svg +=
                "<rect x=\"\(x(start))\" y=\"0\" width=\"\(format(max(1, (end - start) / duration * width)))\" height=\"\(format(height))\" fill=\"#ffd6d6\"><title>\(XMLText.escape(finding.message))</title></rect>\n"
        }
        let threshold = height - 3 / peak * height
        svg += "<line x1=\"0\" y1=\"\(format(threshold))\" x2=\"\(format(width))\" y2=\"\(format(threshold))\" stroke=\"#b00020\" stroke-dasharray=\"4 4\" />\n"
        svg += polyline(luminance.map { height - $0 * height }, bin: bin, duration: duration, color: "#777")
        svg += polyline(flashes.map { height - $0 / peak * height }, bin: bin, duration: duration, color: "#b00020")
        svg += axis(duration: duration, at: height)
        svg +=
            "</svg>\n<p class=\"legend\">Grey: mean relative luminance (0–1). Red: flashes a second (dashed: 3 a second; top: \(format(peak))). Shaded: incidents.</p>\n"
        return svg
    }

    /// Speech (grey) and caption cover (blue) per bin, as given.
    static func syncChart(_ timeline: SyncMetrics.Timeline) -> String? {
        let (bin, speech, captions) = (timeline.bin, timeline.speech, timeline.captions)
        guard !speech.isEmpty, bin > 0 else { return nil }
        let duration = Double(speech.count) * bin
        let barWidth = width / Double(speech.count)
        var svg =
            "<svg role=\"img\" viewBox=\"0 0 \(format(width)) \(format(90 + axisHeight))\" width=\"\(format(width))\" height=\"\(format(90 + axisHeight))\">\n"
            + "<title>Captions against detected speech over \(format(duration)) s</title>\n"
        for (index, value) in speech.enumerated() where value > 0 {
            svg +=
                "<rect x=\"\(format(Double(index) * barWidth))\" y=\"\(format(40 - value * 35))\" width=\"\(format(barWidth))\" height=\"\(format(value * 35))\" fill=\"#888\" />\n"
        }
        for (index, value) in captions.enumerated() where value > 0 {
            svg +=
                "<rect x=\"\(format(Double(index) * barWidth))\" y=\"50\" width=\"\(format(barWidth))\" height=\"\(format(min(1, value) * 35))\" fill=\"#285a9c\" />\n"
        }
        svg += axis(duration: duration, at: 90)
        svg += "</svg>\n<p class=\"legend\">Top, grey: speech detected in the audio. Bottom, blue: caption cues as given (\(format(bin)) s a bar).</p>\n"
        return svg
    }

    static let axisHeight = 18.0

    /// A time axis below a chart: a rule and ticks at round seconds (about 8 of them).
    static func axis(duration: Double, at y: Double) -> String {
        guard duration > 0 else { return "" }
        let steps: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400]
        let step = steps.first { $0 >= duration / 8 } ?? duration / 8
        var svg = "<g font-size=\"11\" fill=\"#555\" stroke=\"#999\"><line x1=\"0\" y1=\"\(format(y))\" x2=\"\(format(width))\" y2=\"\(format(y))\" />\n"
        var tick = 0.0
        while tick <= duration + step / 1000 {
            let x = tick / duration * width
            let anchor = x < 20 ? "start" : x > width - 20 ? "end" : "middle"
            svg +=
                "<line x1=\"\(format(x))\" y1=\"\(format(y))\" x2=\"\(format(x))\" y2=\"\(format(y + 4))\" />"
                + "<text x=\"\(format(x))\" y=\"\(format(y + 15))\" text-anchor=\"\(anchor)\" stroke=\"none\">\(timeLabel(tick, minutes: duration >= 120))</text>\n"
            tick += step
        }
        return svg + "</g>\n"
    }

    /// `12.5 s`, or `m:ss` / `h:mm:ss` on long media.
    static func timeLabel(_ seconds: Double, minutes: Bool) -> String {
        guard minutes else { return format(seconds) + " s" }
        let total = Int(seconds.rounded()), h = total / 3600, m = total / 60 % 60, s = total % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    static func polyline(_ ys: [Double], bin: Double, duration: Double, color: String) -> String {
        let points = ys.enumerated().map { "\(format((Double($0.offset) + 0.5) * bin / duration * width)),\(format($0.element))" }.joined(separator: " ")
        return "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\" points=\"\(points)\" />\n"
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

extension HTMLReport {
    public func write(_ results: [CheckResult], to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        var out = ByteWriter(chunkHandler: output)
        write(results, to: &out)
        out.finish()
    }
}
