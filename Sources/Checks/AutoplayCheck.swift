import Autoplay
import Basics
import FileAccess
import Findings
import Foundation
import MediaIO

/// Decodes media files to find when they make sound, each file once however many pages point to it.
public final class AudioActivityCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: Result<AudioActivity, MediaError>] = [:]
    /// Decodes done so far (for tests and reports: a file is decoded once).
    public private(set) var decodes = 0
    /// Above this level (dBFS, RMS over 10 ms) there is sound.
    public let threshold: Double

    public init(threshold: Double = -50) { self.threshold = threshold }

    /// The activity of the media at `path` (an absolute, standardized path).
    public func activity(of path: String) -> Result<AudioActivity, MediaError> {
        if let cached = lock.withLock({ entries[path] }) { return cached }
        let result = Result { () throws(MediaError) -> AudioActivity in try Self.measure(path, threshold: threshold) }
        lock.withLock {
            entries[path] = result
            decodes += 1
        }
        return result
    }

    /// Decodes the main audio stream to 16 kHz mono and measures each 10 ms.
    public static func measure(_ path: String, threshold: Double = -50) throws(MediaError) -> AudioActivity {
        let info = try MediaProbe.probe(path)
        guard !info.streams(of: .audio).isEmpty else {
            return AudioActivity(duration: info.duration ?? 0, hasAudio: false, audible: [])
        }
        let stream = try AudioSampleStream(path: path, options: .init(sampleRate: 16_000, resamplingFilterSize: 8))
        var meter = AudioLevelMeter(sampleRate: 16_000)
        while let chunk = try stream.nextChunk() { meter.add(chunk.samples, at: chunk.time) }
        return meter.finish(duration: info.duration, threshold: threshold)
    }
}

/// The autoplay check of one HTML page: every autoplaying `<audio>`/`<video>` judged by how long it makes
/// sound, and what the page alone cannot tell (remote media, script, iframes) reported as unverified.
public struct AutoplayCheck: Sendable {
    public var rules: AutoplayRules
    public let cache: AudioActivityCache

    public init(rules: AutoplayRules = AutoplayRules(), cache: AudioActivityCache = AudioActivityCache()) {
        self.rules = rules
        self.cache = cache
    }

    /// The text of a page: UTF-16 (with a byte order mark, or ASCII markup with every other byte 0) or UTF-8;
    /// nil for binary data.
    static func pageText(_ bytes: [UInt8]) -> String? {
        func utf16(from start: Int, bigEndian: Bool) -> String {
            var units: [UInt16] = []
            units.reserveCapacity((bytes.count - start) / 2)
            var index = start
            while index + 1 < bytes.count {
                let (high, low) = bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
                units.append(UInt16(high) << 8 | UInt16(low))
                index += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
        if bytes.starts(with: [0xFF, 0xFE]) { return utf16(from: 2, bigEndian: false) }
        if bytes.starts(with: [0xFE, 0xFF]) { return utf16(from: 2, bigEndian: true) }
        let head = bytes.prefix(4096)
        guard head.contains(0) else { return String(decoding: bytes, as: UTF8.self) }
        // No mark: UTF-16 when most odd (little-endian) or even (big-endian) bytes are 0 — the high bytes of ASCII
        // markup — and almost none of the others are.
        let pairs = head.count / 2
        guard pairs >= 2 else { return nil }
        var zeroEven = 0, zeroOdd = 0
        for pair in 0..<pairs {
            if head[head.startIndex + 2 * pair] == 0 { zeroEven += 1 }
            if head[head.startIndex + 2 * pair + 1] == 0 { zeroOdd += 1 }
        }
        if zeroOdd * 2 >= pairs, zeroEven * 20 < pairs { return utf16(from: 0, bigEndian: false) }
        if zeroEven * 2 >= pairs, zeroOdd * 20 < pairs { return utf16(from: 0, bigEndian: true) }
        return nil
    }

    /// The result for a media file on its own (`autoplay --media`): its length and audible seconds, the first and last
    /// audible time; an error result when it could not be read.
    public static func mediaResult(_ path: String, activity: Result<AudioActivity, MediaError>) -> CheckResult {
        switch activity {
        case .failure(let error):
            return CheckResult.unreadable(file: path, check: .autoplay, reason: error.reason)
        case .success(let activity):
            let metrics = AutoplayMediaMetrics(
                duration: activity.duration, hasAudio: activity.hasAudio, audibleSeconds: activity.audibleSeconds(from: 0, to: .infinity),
                firstAudible: activity.audible.first?.lowerBound, lastAudible: activity.audible.last?.upperBound)
            return CheckResult(file: path, findings: [], metrics: metrics)
        }
    }

    /// The largest page read (bigger ones are an error result, not a memory spike).
    public static let pageSizeLimit = 256 << 20

    /// Checks the page at `path`; media paths must stay inside `root`.
    public func run(page path: String, root: String) -> CheckResult {
        let data: [UInt8]
        do {
            data = try RegularFile(path: path).readAll(limit: Self.pageSizeLimit)
        } catch {
            return CheckResult.unreadable(file: path, check: .autoplay, reason: "the page cannot be read: \(error.reason)")
        }
        // Text has no NUL bytes (but UTF-16 has them in every other byte): binary data is not a page.
        guard let html = Self.pageText(data) else {
            return CheckResult.unreadable(
                file: path, check: .autoplay, reason: "not an HTML page: binary data (a media file? `medialint autoplay --media FILE` measures its sound)")
        }
        let (elements, reviews) = PageScanner.scan(html)
        var findings: [Finding] = []
        let pageDirectory = URL(fileURLWithPath: path).deletingLastPathComponent()
        let rootURL = URL(fileURLWithPath: root).standardizedFileURL
        for element in elements {
            findings.append(judge(element, pageDirectory: pageDirectory, root: rootURL))
        }
        for review in reviews {
            let what =
                switch review.kind {
                case "iframe": "an embedded player asks to autoplay (\(review.detail)): its sound cannot be checked from the page"
                case "bgsound": "<bgsound> plays background sound (\(review.detail)): obsolete, and its sound cannot be checked"
                default: "a script starts playback (.play()): check by hand that it cannot play sound for more than \(NumberText.short(rules.allowed)) s"
                }
            findings.append(
                Rule.autoplayUnverified.finding(
                    severity: .info, message: what, line: review.line, guidelines: [rules.guideline],
                    data: .object([("kind", .string(review.kind)), ("src", .string(review.detail))])))
        }
        findings.sort { ($0.line ?? 0) < ($1.line ?? 0) }
        let verdict: Verdict
        if findings.contains(where: { $0.rule == Rule.autoplayAudio.id && $0.severity == .error }) {
            verdict = .fail
        } else if findings.contains(where: { $0.severity == .error }) {
            verdict = .error
        } else if findings.contains(where: { $0.rule == Rule.autoplayUnverified.id }) {
            verdict = .unverified
        } else {
            verdict = Verdict(findings: findings)
        }
        return CheckResult(
            file: path, verdict: verdict, findings: findings, metrics: AutoplayPageMetrics(elements: elements.count, profile: rules.profile.rawValue))
    }

    /// One element: each source judged, the worst counts.
    func judge(_ element: AutoplayElement, pageDirectory: URL, root: URL) -> Finding {
        let attributes: [(String, JSONValue)] = [
            ("autoplay", .string(element.autoplayValue)), ("muted", .bool(element.muted)),
            ("loop", .bool(element.loop)), ("controls", .bool(element.controls)),
        ]
        let valueNote =
            ["", "autoplay"].contains(element.autoplayValue.lowercased())
            ? ""
            : " (autoplay=\"\(element.autoplayValue)\" still autoplays: the attribute's presence is what counts)"
        func finding(_ rule: Rule, _ severity: Severity, _ message: String, _ extra: [(String, JSONValue)] = []) -> Finding {
            rule.finding(
                severity: severity, message: "<\(element.kind.rawValue)> " + message + valueNote, line: element.line,
                guidelines: [rules.guideline], data: .object(attributes + extra))
        }
        if element.muted { return finding(.autoplayAudio, .info, "autoplays muted: no sound") }
        guard !element.sources.isEmpty else { return finding(.autoplayAudio, .info, "autoplays but has no source") }

        var worst: (seconds: Double, source: String, activity: AudioActivity, window: (Double, Double))?
        var problems: [Finding] = []
        let realRoot = PathContainment.realPath(root.path)
        for source in element.sources {
            let (path, start, end) = MediaFragment.split(source)
            let lowered = path.lowercased()
            if lowered.contains("://") || lowered.hasPrefix("//") || lowered.hasPrefix("data:") || lowered.hasPrefix("blob:") {
                problems.append(
                    finding(
                        .autoplayUnverified, .info, "plays remote media (\(source)), which is not fetched: check it by hand",
                        [("src", .string(source))]))
                continue
            }
            let decoded = path.removingPercentEncoding ?? path
            let url = decoded.hasPrefix("/") ? root.appendingPathComponent(String(decoded.dropFirst())) : pageDirectory.appendingPathComponent(decoded)
            let resolved = url.standardizedFileURL
            guard PathContainment.isWithin(resolved.path, root: root.path) else {
                problems.append(
                    finding(
                        .mediaOutsideRoot, .error, "source \(source) leaves the checked root (\(root.path)): not read",
                        [("src", .string(source))]))
                continue
            }
            // The name is inside; where it leads (links followed) must be too.
            if let real = PathContainment.realPath(resolved.path), let realRoot,
                !PathContainment.isWithin(real, root: realRoot)
            {
                problems.append(
                    finding(
                        .mediaOutsideRoot, .error, "source \(source) is a link that leads outside the checked root (to \(real)): not read",
                        [("src", .string(source))]))
                continue
            }
            switch cache.activity(of: PathContainment.realPath(resolved.path) ?? resolved.path) {
            case .failure(let error):
                problems.append(finding(.mediaUnreadable, .error, "source \(source): \(error.reason)", [("src", .string(source))]))
            case .success(let activity):
                let from = min(max(0, start ?? 0), activity.duration)
                let to = min(max(from, end ?? activity.duration), activity.duration)
                var seconds = activity.audibleSeconds(from: from, to: to)
                if element.loop, seconds > 0 { seconds = .infinity }
                if worst == nil || seconds > worst!.seconds { worst = (seconds, source, activity, (from, to)) }
            }
        }
        guard let worst else {
            return problems.first { $0.severity == .error } ?? problems.first ?? finding(.autoplayAudio, .info, "no playable source")
        }
        if let error = problems.first(where: { $0.severity == .error }) { return error }
        let extra: [(String, JSONValue)] = [
            ("src", .string(worst.source)), ("window", .array([.number(worst.window.0), .number(worst.window.1)])),
            ("duration", .number(NumberText.rounded(worst.activity.duration))),
            ("audibleSeconds", worst.seconds.isInfinite ? .string("endless") : .number(NumberText.rounded(worst.seconds))),
        ]
        let amount = worst.seconds.isInfinite ? "sound without end (loop)" : "\(NumberText.short(worst.seconds)) s of sound"
        if !worst.activity.hasAudio { return finding(.autoplayAudio, .info, "autoplays \(worst.source): no audio stream", extra) }
        if worst.seconds == 0 { return finding(.autoplayAudio, .info, "autoplays \(worst.source): silent", extra) }
        if rules.fails(audibleSeconds: worst.seconds, controls: element.controls) {
            let why =
                rules.profile == .wcag
                ? "more than \(NumberText.short(rules.allowed)) s with no control to stop it"
                : "\(NumberText.short(rules.allowed)) s or more (controls do not make autoplaying sound acceptable here)"
            return finding(.autoplayAudio, .error, "autoplays \(worst.source) with \(amount): \(why)", extra)
        }
        let why = element.controls && worst.seconds > rules.allowed ? "its controls can stop it" : "at most \(NumberText.short(rules.allowed)) s"
        return finding(.autoplayAudio, .info, "autoplays \(worst.source) with \(amount): \(why)", extra)
    }
}
