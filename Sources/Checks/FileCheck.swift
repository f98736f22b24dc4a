import CaptionQuality
import Captions
import Findings
import Foundation
import MediaIO
import Streaming
import SyncAnalysis

/// What kind of file a path is, and so which checks it gets.
public enum FileKind: String, Sendable {
    case media, captions, page
    /// An HLS playlist (`.m3u8`): a package with its multivariant playlist, or a media playlist of its own.
    case package
}

/// Every check that applies to one file, composed: media get captions present, caption timing and flashing; caption
/// files their quality rules; pages the autoplay check; HLS packages their playlists' rules and the checks of their
/// renditions. What a library run does per file and what the single-file commands share.
public struct FileCheck: Sendable {
    /// The most findings of one severity a caption file's `lint` result keeps (the rest are counted): a library's
    /// results stay in memory and in the store, a file with a million findings must not fill them.
    public static let findingLimit = 1000

    public var flash: FlashCheck
    public var sync: SyncCheck
    public var lint: LintCheck
    public var autoplay: AutoplayCheck
    public var captions = CaptionsCheck()
    /// Each caption source's words against the speech, when asked (nil: not checked).
    public var accuracy: AccuracyCheck?
    /// Fixes a caption file before its rules are checked (`check --fix`): given its path and document, and the linter,
    /// returns the document to check (the fixed file read again). Nil: files are not changed.
    public var fixCaptions: (@Sendable (_ path: String, _ document: CaptionDocument, _ linter: CaptionLinter) throws -> CaptionDocument)?
    /// The most memory one file may take to check, in bytes (see `MemoryEstimate`): a file that would need more
    /// becomes an error result before it is read.
    public var memoryLimit: Int64 = 2048 << 20

    public init(flash: FlashCheck = FlashCheck(), sync: SyncCheck = SyncCheck(), lint: LintCheck = LintCheck(), autoplay: AutoplayCheck = AutoplayCheck()) {
        self.flash = flash
        self.sync = sync
        self.lint = lint
        self.autoplay = autoplay
    }

    /// The results for the file at `path` of `kind`. `root`: the folder a page's media must stay in; `captionFiles`:
    /// caption files named for a media file (instead of its sidecars); `progress`: how much of a media file is done
    /// (0–1), told from the thread checking it.
    public func check(
        _ path: String, kind: FileKind, root: String, captionFiles: [String]? = nil, progress: (@Sendable (Double) -> Void)? = nil
    ) -> [CheckResult] {
        if kind != .media, let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64,
            let refusal = MemoryEstimate.refusal(needing: MemoryEstimate.text(size: size, page: kind == .page), limit: memoryLimit)
        {
            return [.unreadable(file: path, check: kind == .page ? .autoplay : .lint, reason: refusal, rule: .checkMemoryLimit)]
        }
        switch kind {
        case .captions:
            return [
                CheckResult.timed {
                    do throws(CaptionError) {
                        var document = try CaptionFile.read(path)
                        if let fixCaptions {
                            do { document = try fixCaptions(path, document, lint.linter) } catch {
                                return CheckResult.unreadable(file: path, check: .lint, reason: "\(error)", rule: .captionsParse)
                            }
                        }
                        return lint.run(document, path: path, keepingAtMost: Self.findingLimit)
                    } catch {
                        return CheckResult.unreadable(file: path, check: .lint, reason: error.message, rule: .captionsParse)
                    }
                }
            ]
        case .page:
            return [CheckResult.timed { autoplay.run(page: path, root: root) }]
        case .media:
            return media(path, captionFiles: captionFiles, progress: progress)
        case .package:
            return package(path)
        }
    }

    /// An HLS package: the `captions` result of its playlists, the lint and sync of each subtitle rendition's joined
    /// timeline (named by the rendition's playlist), and the flash check of its video. A subtitle playlist on its own
    /// is linted; another media playlist on its own gets nothing.
    public func package(_ path: String) -> [CheckResult] {
        let package: HLSPackage
        do {
            package = try HLSPackage.load(path)
        } catch {
            return [CheckResult.unreadable(file: path, check: .captions, reason: error.message, rule: .captionsParse)]
        }
        return package.readDeadline.bind { results(of: package) }
    }

    /// The results of a package read (see `package(_:)`), its media read by its deadline.
    private func results(of package: HLSPackage) -> [CheckResult] {
        let path = package.path
        switch package.playlist {
        case .media(let media):
            guard media.segments.contains(where: { ["vtt", "webvtt"].contains(($0.uri as NSString).pathExtension.lowercased()) }) else { return [] }
            return [
                CheckResult.timed {
                    (try? package.subtitles()).map { lint.run($0, path: path, keepingAtMost: Self.findingLimit) }
                        ?? CheckResult(file: path, check: .lint, findings: [])
                }
            ]
        case .multivariant:
            // Each rendition's segments are read and joined once, for the package's result, its lint and its sync; what
            // is wrong with the segments is the package's result's to say, not the lint's.
            let timelines = package.subtitleTimelines()
            var results = [CheckResult.timed { HLSPackageCheck().run(package, timelines: timelines) }]
            for timeline in timelines {
                results.append(CheckResult.timed { lint.run(timeline.document, path: package.label(of: timeline), keepingAtMost: Self.findingLimit) })
            }
            let clock = ContinuousClock(), started = clock.now
            let syncOutcomes = sync.check(package: package, timelines: timelines)
            var synced = syncOutcomes.map(\.result)
            // One decoding of the package's audio serves every rendition: its time is shared out.
            for index in synced.indices { synced[index].seconds = (clock.now - started).inSeconds / Double(synced.count) }
            results += synced
            // Each rendition's words against the speech, where its sync fit puts them (when asked).
            if let accuracy {
                let started = clock.now
                var checked = accuracy.check(package: package, timelines: timelines, fixes: syncOutcomes.map(\.fix)).map(\.result)
                for index in checked.indices { checked[index].seconds = (clock.now - started).inSeconds / Double(checked.count) }
                results += checked
            }
            // The video's flashing, across its segments (the first variant's).
            let video = package.videoFiles
            if !video.segments.isEmpty {
                results.append(
                    CheckResult.timed {
                        // The same memory bound as a single file's: its pictures' size, from the first segment.
                        if let info = video.runs.first?.probeFirstSegment(),
                            let refusal = MemoryEstimate.refusal(needing: MemoryEstimate.media(info), limit: memoryLimit)
                        {
                            return CheckResult.unreadable(file: path, check: .flash, reason: refusal, rule: .checkMemoryLimit)
                        }
                        do throws(MediaError) {
                            return try flash.run(package: package)
                        } catch {
                            return CheckResult.unreadable(file: path, check: .flash, reason: error.reason)
                        }
                    })
            }
            return results
        }
    }

    /// A media file. Each result timed: `captions` with the reading of the media's description, caption sources and
    /// speech it needs (shared with sync), each `sync` its alignment, `flash` its decoding and analysis.
    public func media(_ path: String, captionFiles: [String]? = nil, progress: (@Sendable (Double) -> Void)? = nil) -> [CheckResult] {
        let clock = ContinuousClock()
        let start = clock.now
        let info: MediaInfo
        do {
            info = try MediaProbe.probe(path, closedCaptions: true)
        } catch {
            return [CheckResult.unreadable(file: path, check: .media, reason: error.reason)]
        }
        if let refusal = MemoryEstimate.refusal(needing: MemoryEstimate.media(info), limit: memoryLimit) {
            return [CheckResult.unreadable(file: path, check: .media, reason: refusal, rule: .checkMemoryLimit)]
        }
        // A file with no audio or video stream (a header cut short, say) cannot pass anything.
        guard info.streams.contains(where: { $0.kind == .video || $0.kind == .audio }) else {
            let stated = info.duration.map { " (the container states \(String(format: "%.3f", $0)) s)" } ?? ""
            return [CheckResult.unreadable(file: path, check: .media, reason: "no audio or video stream could be read\(stated)")]
        }
        // Caption sources (sidecar files and embedded text tracks) and the speech in the audio, each read once.
        let sources = CaptionSource.all(for: path, media: info, files: captionFiles)
        var speech: MediaSpeech?
        var speechError: MediaError?
        if !info.streams(of: .audio).isEmpty {
            let total = info.duration ?? 0
            // Decoding audio is a fifth of the work when there is video to decode too.
            let share = info.hasPictureVideo ? 0.2 : 1.0
            let report = progress.map { report in { @Sendable (seconds: Double) in report(total > 0 ? min(1, seconds / total) * share : 0) } }
            // Accuracy reads the audio again: kept when there are captions it will check.
            let keepAudio = accuracy != nil && sources.contains { $0.document != nil }
            do { speech = try MediaSpeech.detect(path: path, keepAudio: keepAudio, progress: report) } catch { speechError = error }
        }
        var presence = captions.run(path: path, media: info, sources: sources, speech: speech, speechError: speechError)
        presence.seconds = (clock.now - start).inSeconds
        var results = [presence]
        for source in sources {
            guard let document = source.document else { continue }
            var fix: SyncFix?
            results.append(
                CheckResult.timed {
                    let outcome = sync.check(path: path, media: info, speech: speech, source: source)
                    fix = outcome.fix
                    return outcome.result
                })
            // The words where the timing puts them: after the sync fit.
            guard let accuracy, speech != nil else { continue }
            results.append(
                CheckResult.timed {
                    do throws(MediaError) {
                        return try accuracy.check(
                            path: path, media: info, captions: document, source: source.label, fix: fix, language: source.language, speech: speech
                        ).result
                    } catch {
                        return CheckResult.unreadable(file: path, check: .accuracy, reason: error.reason)
                    }
                })
        }
        if info.hasPictureVideo {
            results.append(
                CheckResult.timed {
                    let start = info.streams(of: .audio).isEmpty ? 0.0 : 0.2
                    let report = progress.map { report in
                        { (done: Double, total: Double?, _: Int) in report(start + (1 - start) * min(1, done / max(total ?? 0, 0.001))) }
                    }
                    do throws(MediaError) { return try flash.run(path: path, progress: report) } catch {
                        return CheckResult.unreadable(file: path, check: .flash, reason: error.reason)
                    }
                })
        }
        return results
    }
}

/// What checking one file is expected to hold in memory, from what is known before it is read: a caption file about
/// three times its size once parsed, a page (its text, tags and attributes) about eight; media its largest decoded
/// picture times the frames held at once (the decoder's references and threads, the analysis queue) — a header
/// claiming a 30,000-pixel-wide picture is refused before a decoder allocates for it.
package enum MemoryEstimate {
    /// Decoded pictures in memory at once for one video stream (references, threads, queue), with room to spare.
    static let picturesHeld: Int64 = 24

    package static func text(size: Int64, page: Bool) -> Int64 { size * (page ? 8 : 3) }

    package static func media(_ info: MediaInfo) -> Int64 {
        let pictures = info.streams.compactMap(\.video).map { video -> Int64 in
            // Bytes a pixel: 4:2:0 at 8 bits is 1.5; more bits take two bytes a sample; 4:4:4 takes three samples.
            let wide = (video.bitDepth ?? 8) > 8 ? 2.0 : 1.0
            let samples = (video.pixelFormat ?? "").contains("444") || (video.pixelFormat ?? "").contains("rgb") ? 3.0 : 1.5
            return Int64(Double(max(0, video.width)) * Double(max(0, video.height)) * wide * samples)
        }
        return (pictures.max() ?? 0) * picturesHeld
    }

    /// The message for a file that would need more than `limit`, else nil.
    package static func refusal(needing bytes: Int64, limit: Int64) -> String? {
        guard bytes > limit else { return nil }
        return "would need about \(megabytes(bytes)) MB of memory to check, more than the \(megabytes(limit)) MB a file may take (--max-file-memory): not read"
    }

    private static func megabytes(_ bytes: Int64) -> Int64 { (bytes + (1 << 20) - 1) >> 20 }
}
