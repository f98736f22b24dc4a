import CaptionQuality
import Captions
import FlashDetection
import Foundation
import MediaIO
import Reports

/// Everything that applies to each file of a library: media get captions present, caption timing and
/// flashing; caption files their quality rules; pages the autoplay check. Files are checked in parallel,
/// at most `jobs` at once.
public struct LibraryChecker: Sendable {
    public var flash: FlashCheck
    public var sync: SyncCheck
    public var lint: LintCheck
    public var autoplay: AutoplayCheck
    public var jobs: Int
    /// The most memory one file may take to check, in bytes (see `MemoryEstimate`): a file that would need more
    /// becomes an error result before it is read, and the run goes on.
    public var memoryLimitPerFile: Int64 = 2048 << 20

    public init(flash: FlashCheck = FlashCheck(configuration: .profile("wcag")!), sync: SyncCheck = SyncCheck(),
                lint: LintCheck = LintCheck(linter: CaptionLinter()), autoplay: AutoplayCheck = AutoplayCheck(),
                jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.flash = flash
        // Several files at once keep the cores busy between them: one decoder thread each.
        if jobs > 1 { self.flash.decodeThreads = 1 }
        self.sync = sync
        self.lint = lint
        self.autoplay = autoplay
        self.jobs = max(1, jobs)
    }

    /// Checks every item; results come back in item order. `finished` is told of each item's results as it
    /// completes (from any thread).
    public func run(_ items: [LibraryItem], finished: (@Sendable (Int, [CheckResult]) -> Void)? = nil) -> [CheckResult] {
        runEach(items, finished: finished).flatMap { $0 }
    }

    /// Checks every item; each item's results, in item order. Once `stop` says so, no new item is started
    /// (the ones being checked finish) and the items never started have no results.
    public func runEach(_ items: [LibraryItem], stop: (@Sendable () -> Bool)? = nil,
                        finished: (@Sendable (Int, [CheckResult]) -> Void)? = nil) -> [[CheckResult]] {
        let slots = ResultSlots(count: items.count)
        let next = Counter()
        let workers = min(jobs, max(1, items.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while stop?() != true, let index = next.take(below: items.count) {
                let results = check(items[index])
                slots.set(index, results)
                finished?(index, results)
            }
        }
        return slots.all
    }

    /// The results for one file.
    public func check(_ item: LibraryItem) -> [CheckResult] {
        if item.kind != .media, let size = try? FileManager.default.attributesOfItem(atPath: item.path)[.size] as? Int64,
           let refusal = MemoryEstimate.refusal(needing: MemoryEstimate.text(size: size, kind: item.kind), limit: memoryLimitPerFile) {
            return [CheckResult(file: item.path, check: item.kind == .page ? "autoplay" : "lint", verdict: .error,
                                findings: [Finding(rule: "check.memory-limit", severity: .error, message: refusal)])]
        }
        switch item.kind {
        case .captions:
            do {
                return [lint.run(try CaptionFile.read(item.path), path: item.path)]
            } catch {
                return [CheckResult(file: item.path, check: "lint", verdict: .error,
                                    findings: [Finding(rule: "captions.parse", severity: .error, message: error.message)])]
            }
        case .page:
            return [autoplay.run(page: item.path, root: item.root)]
        case .media:
            return checkMedia(item.path)
        }
    }

    func checkMedia(_ path: String) -> [CheckResult] {
        let info: MediaInfo
        do {
            info = try MediaProbe.probe(path)
        } catch {
            return [CheckResult(file: path, check: "media", verdict: .error,
                                findings: [Finding(rule: "media.unreadable", severity: .error, message: error.reason)])]
        }
        if let refusal = MemoryEstimate.refusal(needing: MemoryEstimate.media(info), limit: memoryLimitPerFile) {
            return [CheckResult(file: path, check: "media", verdict: .error, findings: [Finding(rule: "check.memory-limit", severity: .error, message: refusal)])]
        }
        // A file with no audio or video stream (a header cut short, say) cannot pass anything.
        guard info.streams.contains(where: { $0.kind == .video || $0.kind == .audio }) else {
            let stated = info.duration.map { " (the container states \(String(format: "%.3f", $0)) s)" } ?? ""
            return [CheckResult(file: path, check: "media", verdict: .error,
                                findings: [Finding(rule: "media.unreadable", severity: .error, message: "no audio or video stream could be read\(stated)")])]
        }
        var results: [CheckResult] = []
        // Caption sources: sidecar files and embedded text tracks.
        let sources = CaptionSource.all(for: path, media: info)
        var findings = sources.compactMap { source in
            source.problem.map { Finding(rule: "captions.parse", severity: .error, message: $0) }
        }
        let readable = sources.compactMap { source in source.document.map { (source.label, $0) } }
        var speech: MediaSpeech?
        var speechError: MediaError?
        if !info.streams(of: .audio).isEmpty {
            do { speech = try MediaSpeech.detect(path: path) } catch { speechError = error }
        }
        // Inventory of accessibility assets.
        let captionTracks = info.textSubtitleTracks + info.streams(of: .subtitle).filter { $0.subtitle?.isText != true }
        let descriptions = info.streams(of: .audio).filter { $0.dispositions.contains("visual_impaired") || $0.dispositions.contains("descriptions") }
        let transcripts = Self.transcripts(for: path)
        var inventory: [(String, JSONValue)] = [
            ("captionFiles", .array(sources.compactMap { if case .file(let file) = $0.origin { .string(file) } else { nil } })),
            ("captionTracks", .array(captionTracks.map { track in
                .object([("index", .integer(Int64(track.index))), ("language", track.language.map { .string($0) } ?? .null),
                         ("hearingImpaired", .bool(track.dispositions.contains("hearing_impaired"))), ("text", .bool(track.subtitle?.isText == true))])
            })),
            ("audioDescriptionTracks", .array(descriptions.map { .integer(Int64($0.index)) })),
            ("transcripts", .array(transcripts.map { .string($0) })),
        ]
        if let speech { inventory.append(("speechSeconds", .number((speech.timeline.totalSpeech * 10).rounded() / 10))) }
        if let speechError {
            findings.append(Finding(rule: "media.unreadable", severity: .error, message: "the audio cannot be decoded: \(speechError.reason)"))
        }
        // Cover art is a picture, not video.
        let hasVideo = info.streams(of: .video).contains { !$0.dispositions.contains("attached_pic") }
        if let speech, speech.timeline.totalSpeech >= 1 {
            let seconds = String(format: "%.1f", speech.timeline.totalSpeech)
            if hasVideo, readable.isEmpty {
                findings.append(CaptionPresence.missingCaptions(speechSeconds: speech.timeline.totalSpeech))
            } else if !hasVideo, readable.isEmpty, transcripts.isEmpty {
                findings.append(Finding(rule: "transcript.missing", severity: .error,
                                        message: "\(seconds) s of speech in audio-only media and no transcript or captions next to it (name.txt, name.vtt …)",
                                        guidelines: ["WCAG 1.2.1"]))
            }
        }
        if hasVideo, descriptions.isEmpty {
            findings.append(Finding(rule: "captions.audio-description", severity: .info, message: "no audio-description track (an audio stream marked visual_impaired or descriptions)",
                                    guidelines: ["WCAG 1.2.5"]))
        }
        results.append(CheckResult(file: path, check: "captions", findings: findings, metrics: .object(inventory)))
        for (label, document) in readable {
            results.append(sync.check(path: path, media: info, speech: speech, captions: document, source: label).result)
        }
        if hasVideo {
            do { results.append(try flash.run(path: path)) } catch {
                results.append(CheckResult(file: path, check: "flash", verdict: .error,
                                           findings: [Finding(rule: "media.unreadable", severity: .error, message: error.reason)]))
            }
        }
        return results
    }

    /// Transcript files next to a media file: `name.txt`, `name.transcript.*`, `name.md`, `name.html`.
    static func transcripts(for path: String) -> [String] {
        let stem = (path as NSString).deletingPathExtension
        return ["\(stem).txt", "\(stem).md", "\(stem).transcript.txt", "\(stem).transcript.md", "\(stem).transcript.html", "\(stem).html"]
            .filter { FileManager.default.fileExists(atPath: $0) }
    }
}

/// Results written by concurrent workers, each to its own slot.
final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [[CheckResult]]
    init(count: Int) { slots = Array(repeating: [], count: count) }
    func set(_ index: Int, _ results: [CheckResult]) { lock.withLock { slots[index] = results } }
    var all: [[CheckResult]] { lock.withLock { slots } }
}

/// Hands out indices to workers.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func take(below limit: Int) -> Int? {
        lock.withLock {
            guard value < limit else { return nil }
            defer { value += 1 }
            return value
        }
    }
}

/// What checking one file is expected to hold in memory, from what is known before it is read: a caption file about
/// three times its size once parsed, a page (its text, tags and attributes) about eight; media its largest decoded picture times the frames held at
/// once (the decoder's references and threads, the analysis queue) — a header claiming a 30,000-pixel-wide picture
/// is refused before a decoder allocates for it.
public enum MemoryEstimate {
    /// Decoded pictures in memory at once for one video stream (references, threads, queue), with room to spare.
    static let picturesHeld: Int64 = 24

    public static func text(size: Int64, kind: LibraryItem.Kind) -> Int64 { size * (kind == .page ? 8 : 3) }

    public static func media(_ info: MediaInfo) -> Int64 {
        let pictures = info.streams.compactMap(\.video).map { video -> Int64 in
            // Bytes a pixel: 4:2:0 at 8 bits is 1.5; more bits take two bytes a sample; 4:4:4 takes three samples.
            let wide = (video.bitDepth ?? 8) > 8 ? 2.0 : 1.0
            let samples = (video.pixelFormat ?? "").contains("444") || (video.pixelFormat ?? "").contains("rgb") ? 3.0 : 1.5
            return Int64(Double(max(0, video.width)) * Double(max(0, video.height)) * wide * samples)
        }
        return (pictures.max() ?? 0) * picturesHeld
    }

    /// The message for a file that would need more than `limit`, else nil.
    public static func refusal(needing bytes: Int64, limit: Int64) -> String? {
        guard bytes > limit else { return nil }
        return "would need about \(megabytes(bytes)) MB of memory to check, more than the \(megabytes(limit)) MB a file may take (--max-file-memory): not read"
    }

    private static func megabytes(_ bytes: Int64) -> Int64 { (bytes + (1 << 20) - 1) >> 20 }
}
