import Basics
import Captions
import Findings
import Foundation
import MediaIO
import SyncAnalysis

/// Where speech is in one media file's audio: decoded once, shared by every caption source checked against it.
public struct MediaSpeech: Sendable {
    public var timeline: SpeechTimeline
    /// The audio stream that was analysed.
    public var stream: StreamInfo
    /// Packets the decoder rejected.
    public var decodeErrors: Int
    /// The decoded audio (16 kHz mono), when it was asked to be kept and could be: what `AccuracyCheck` reads instead
    /// of decoding the media again.
    public var audio: AudioSpool?

    /// Decodes audio stream `streamIndex` (nil: the main one) of `path` to 16 kHz mono and finds the speech;
    /// `keepAudio` keeps the decoded audio in a temporary file as well (`audio`). `progress` is told the seconds
    /// decoded so far.
    public static func detect(
        path: String, streamIndex: Int? = nil, keepAudio: Bool = false,
        progress: ((Double) -> Void)? = nil
    ) throws(MediaError) -> MediaSpeech {
        // Decoding and resampling run on a thread of their own, the detector on this one.
        let reader = try AudioSampleStream(
            path: path,
            options: .init(
                streamIndex: streamIndex, sampleRate: 16_000,
                resamplingFilterSize: 8))
        var detector = SpeechDetector(sampleRate: 16_000)
        let spool = keepAudio ? AudioSpoolWriter() : nil
        while let chunk = try reader.nextChunk() {
            detector.add(chunk.samples, at: chunk.time)
            spool?.append(chunk)
            progress?(chunk.time)
        }
        return MediaSpeech(
            timeline: detector.finish(), stream: reader.stream, decodeErrors: reader.decodeErrorCount, audio: spool?.finish())
    }
}

/// Checks a caption document's timing against its media: cues past the end, then (when there is audio) the
/// offset and drift of the whole file, breaks, speech without captions and cues over silence. Produces the
/// `sync` check result and the timing edit that would put the captions on the speech.
public struct SyncCheck: Sendable {
    /// An offset (or the drift accumulated by the end) above this is a warning; above `failTolerance`, an error.
    public var tolerance: Double
    public var failTolerance: Double
    /// A single cue whose start is further than this from its own speech onset, once the file's timing is
    /// corrected, is reported (`sync.cue-offset`). Wider than the file's tolerance: one onset is found less
    /// precisely than the timing of a whole file.
    public var cueTolerance = 0.3
    public var aligner = SyncAligner()

    public init(tolerance: Double = 0.1, failTolerance: Double? = nil) {
        self.tolerance = tolerance
        self.failTolerance = max(failTolerance ?? 0.25, tolerance)
        aligner.tolerance = tolerance
    }

    /// The outcome for one caption source.
    public struct Outcome: Sendable {
        public var result: CheckResult
        /// The retiming that puts the captions on the speech, part by part (nil when the timing could not be
        /// verified).
        public var fix: SyncFix?
        public var report: SyncReport?
    }

    static let guidelines = ["WCAG 1.2.2", "KWCAG 1.2"]

    /// Checks `captions` (named `source` in the result) against the media at `path`, described by `media`, with
    /// its speech (nil: the media has no audio to check against).
    public func check(
        path: String, media: MediaInfo, speech: MediaSpeech?, captions: CaptionDocument,
        source: String
    ) -> Outcome {
        check(
            path: path, duration: media.duration ?? speech?.stream.duration, mediaStart: media.startTime ?? 0,
            speech: speech.map { ($0.timeline, $0.stream.index) }, captions: captions, source: source,
            silence: "no speech was found in the audio", noAudio: "the media has no audio stream")
    }

    /// Checks `captions` (named `source`, the result's file `path`) against `reference`, a caption file already in
    /// time — the original a translation was made from, say — without audio: its dialogue cues stand for the speech.
    public func check(reference: CaptionDocument, path: String, captions: CaptionDocument, source: String) -> Outcome {
        let cues = DialogueCues.of(reference)
        let end = max(cues.map(\.end).max() ?? 0, captions.cues.map(\.end.seconds).max() ?? 0)
        let frames = Int((end * SpeechTimeline.framesPerSecond).rounded(.up)) + 1
        var mask = [UInt8](repeating: 0, count: frames)
        for cue in cues {
            let from = max(0, Int((cue.start * SpeechTimeline.framesPerSecond).rounded()))
            let to = min(frames, Int((cue.end * SpeechTimeline.framesPerSecond).rounded()))
            if from < to { for frame in from..<to { mask[frame] = 1 } }
        }
        let timeline = SpeechTimeline(start: 0, mask: mask, onsets: cues.map(\.start))
        return check(
            path: path, duration: nil, mediaStart: 0, speech: (timeline, nil), captions: captions, source: source,
            silence: "the reference has no dialogue cues", noAudio: "")
    }

    /// The check against a speech timeline (and the audio stream it came from); `silence` and `noAudio` say why the
    /// timing is not verified when the timeline has no speech, or there is none.
    func check(
        path: String, duration: Double?, mediaStart: Double, speech: (timeline: SpeechTimeline, stream: Int?)?,
        captions: CaptionDocument, source: String, silence: String, noAudio: String
    ) -> Outcome {
        var findings: [Finding] = []
        let captions = duration.map { captions.endingPresentation(at: mediaStart + $0) } ?? captions
        if let duration {
            for (index, cue) in captions.cues.enumerated() where cue.start.seconds >= mediaStart + duration {
                findings.append(
                    Rule.syncCueAfterEnd.finding(
                        severity: .error,
                        message: "cue \(index + 1) starts at \(Self.time(cue.start.seconds)), after the media ends at \(Self.time(mediaStart + duration))",
                        start: cue.start.seconds, end: cue.end.seconds, line: Self.line(of: cue), guidelines: Self.guidelines,
                        data: .object([("cue", .integer(Int64(index + 1))), ("text", .string(cue.plainText(in: captions.format)))])))
            }
            for (index, cue) in captions.cues.enumerated() where mediaStart > 0 && cue.end.seconds <= mediaStart {
                findings.append(
                    Rule.syncCueBeforeStart.finding(
                        severity: .error,
                        message: "cue \(index + 1) ends at \(Self.time(cue.end.seconds)), before the media starts at \(Self.time(mediaStart))",
                        start: cue.start.seconds, end: cue.end.seconds, line: Self.line(of: cue), guidelines: Self.guidelines,
                        data: .object([("cue", .integer(Int64(index + 1)))])))
            }
        }
        var metrics = SyncMetrics(captions: source, mediaDuration: duration)

        let dialogue = DialogueCues.of(captions)
        func unverified(_ reason: String) -> Outcome {
            findings.append(Rule.syncUnverified.finding(severity: .info, message: "timing not verified: \(reason)"))
            metrics.dialogueCues = dialogue.count
            let verdict: Verdict = findings.contains { $0.severity == .error } ? .fail : .unverified
            return Outcome(result: CheckResult(file: path, verdict: verdict, findings: findings, metrics: metrics), fix: nil, report: nil)
        }
        guard let speech else { return unverified(noAudio) }
        metrics.audioStream = speech.stream
        guard dialogue.count >= 3 else {
            return unverified("\(dialogue.count) cue\(dialogue.count == 1 ? "" : "s") with dialogue (at least 3 are needed)")
        }
        guard speech.timeline.totalSpeech >= 1 else { return unverified(silence) }

        let sounds = DialogueCues.sounds(of: captions)
        let report = aligner.align(cues: dialogue.map { ($0.start, $0.end) }, sounds: sounds.map { ($0.start, $0.end) }, speech: speech.timeline)
        metrics.setFit(confidence: report.confidence, matchedCues: report.matchedCues, noiseFloorDecibels: speech.timeline.noiseFloorDecibels)
        if report.matchedCues < 3 || report.confidence < 0.3 {
            var result = unverified(
                "only \(report.matchedCues) of \(report.dialogueCues) dialogue cues start on speech at the best fit (chance alone would put \(Int((report.chanceShare * 100).rounded()))% there), with \(Int((report.overlapScore * 100).rounded()))% of cue time on speech"
            )
            result.report = report
            return result
        }
        metrics.setTiming(
            offset: report.offsetSeconds, drift: report.driftRatio, speechCoverage: report.speechCoverage,
            captionCoverage: report.captionCoverage, onTimeFraction: report.onTimeFraction)
        metrics.dialogueCues = report.dialogueCues
        var residualByCue: [Int: Double] = [:]
        for entry in report.residuals { residualByCue[entry.cue] = entry.residual }
        metrics.cues = dialogue.indices.map { i in
            SyncMetrics.Cue(cue: dialogue[i].index + 1, start: dialogue[i].start, residual: residualByCue[i], speech: report.cueSpeechCoverage[i])
        }
        metrics.timeline = Self.timeline(
            speech: speech.timeline, cues: dialogue.map { ($0.start, $0.end) }, duration: duration ?? speech.timeline.duration)
        let fix = SyncFix(report, dialogue: dialogue.map(\.index))
        let fixMetrics = SyncMetrics.Fix(
            offset: report.shift, scale: report.scale,
            parts: report.parts.count > 1 ? fix.parts.map { SyncMetrics.Fix.Part(from: $0.from.isFinite ? $0.from : 0, offset: $0.edit.offset) } : nil)
        metrics.fix = fixMetrics
        findings += timingFindings(
            report, duration: duration ?? speech.timeline.duration, fix: fixMetrics, cueNumbers: dialogue.map { $0.index + 1 })
        for gap in report.uncaptionedSpeech {
            findings.append(
                Rule.syncUncaptionedSpeech.finding(
                    severity: .warning,
                    message: "\(Self.seconds(gap.end - gap.start)) of speech from \(Self.time(gap.start)) has no caption",
                    start: NumberText.rounded(gap.start), end: NumberText.rounded(gap.end), guidelines: Self.guidelines))
        }
        let corrected = !fix.main.isIdentity(within: tolerance) || report.parts.count > 1
        let end = duration.map { mediaStart + $0 } ?? .infinity
        // No speech under a dialogue cue: over silence, or over music or a sound that is not a word — unless the cue is
        // a sung line (`♪ … ♪`), whose voice is the music's.
        let overMusic = Set(
            report.cuesOverMusic.filter { index in
                !captions.cues[dialogue[index].index].plainText(in: captions.format).contains { "♪♫♬♩".contains($0) }
            })
        for index in (report.cuesOverSilence + overMusic).sorted() {
            let cue = captions.cues[dialogue[index].index]
            guard cue.start.seconds < end else { continue }
            let under = overMusic.contains(index) ? ", only music or other sound" : ""
            findings.append(
                Rule.syncCueOverSilence.finding(
                    severity: .warning,
                    message:
                        "cue \(dialogue[index].index + 1) (\(Self.time(cue.start.seconds))) has no speech under it\(under)\(corrected ? " once the timing is corrected" : "")",
                    start: cue.start.seconds, end: cue.end.seconds, line: Self.line(of: cue), guidelines: Self.guidelines,
                    data: .object([
                        ("cue", .integer(Int64(dialogue[index].index + 1))),
                        ("text", .string(cue.plainText(in: captions.format))),
                    ])))
        }
        // Cues off the onset of their own speech once the file's timing is corrected: a late captioner, an early cue.
        for (index, target) in report.onsets.enumerated() {
            guard let target, abs(target.offset) > cueTolerance else { continue }
            let cue = captions.cues[dialogue[index].index]
            findings.append(
                Rule.syncCueOffset.finding(
                    severity: .warning,
                    message:
                        "cue \(dialogue[index].index + 1) starts \(Self.seconds(abs(target.offset))) \(target.offset > 0 ? "after" : "before") its speech at \(Self.time(target.onset))\(corrected ? " once the timing is corrected" : "") (sync --fix --snap moves it there)",
                    start: cue.start.seconds, end: cue.end.seconds, line: Self.line(of: cue), guidelines: Self.guidelines,
                    data: .object([
                        ("cue", .integer(Int64(dialogue[index].index + 1))),
                        ("offsetSeconds", .number(NumberText.rounded(target.offset))),
                        ("onset", .number(NumberText.rounded(target.onset))),
                    ])))
        }
        findings.sort { ($0.start ?? -1, $0.rule) < ($1.start ?? -1, $1.rule) }
        return Outcome(
            result: CheckResult(file: path, findings: findings, metrics: metrics),
            fix: fix, report: report)
    }

    /// The line of a cue in its caption file (its timing line), for findings about it; nil for an embedded track's.
    static func line(of cue: Cue) -> Int? { cue.line > 0 ? Int(cue.line) : nil }

    /// Speech and caption cover per bin (at most 600 bins) over the media, as given (for charts).
    static func timeline(speech: SpeechTimeline, cues: [(Double, Double)], duration: Double) -> SyncMetrics.Timeline {
        let bin = NumberText.chartBin(duration: duration)
        let count = max(1, Int((duration / bin).rounded(.up)))
        var captions = [Double](repeating: 0, count: count)
        for (start, end) in cues where end > start {
            var index = max(0, Int(start / bin))
            while index < count, Double(index) * bin < end {
                let from = max(start, Double(index) * bin), to = min(end, Double(index + 1) * bin)
                captions[index] += max(0, to - from) / bin
                index += 1
            }
        }
        let speechCover = (0..<count).map { speech.speech(from: Double($0) * bin, to: Double($0 + 1) * bin) / bin }
        return SyncMetrics.Timeline(bin: bin, speech: speechCover, captions: captions)
    }

    /// Offset, drift, breaks and stray cues, against the tolerances; offset and drift findings carry `fix`.
    /// `cueNumbers` are the document's numbers of the report's dialogue cues.
    private func timingFindings(_ report: SyncReport, duration: Double, fix: SyncMetrics.Fix, cueNumbers: [Int]) -> [Finding] {
        var findings: [Finding] = []
        let offset = report.offsetSeconds
        let fixData = (try? JSONValueEncoder().encode(fix)) ?? .null
        if abs(offset) > tolerance {
            let direction = offset > 0 ? "late" : "early"
            findings.append(
                Rule.syncOffset.finding(
                    severity: abs(offset) > failTolerance ? .error : .warning,
                    message: "captions are \(Self.seconds(abs(offset))) \(direction): move them by \(Self.signed(report.shift))",
                    guidelines: Self.guidelines,
                    data: .object([("offsetSeconds", .number(NumberText.rounded(offset))), ("fix", fixData)])))
        }
        let driftSeconds = abs(report.scale - 1) * duration
        if driftSeconds > tolerance {
            let ratio = report.driftRatio
            let known = Self.knownRatio(ratio).map { " (\($0))" } ?? ""
            findings.append(
                Rule.syncDrift.finding(
                    severity: driftSeconds > failTolerance ? .error : .warning,
                    message:
                        "captions drift: their clock runs at \(String(format: "%.4f", ratio))× the media's\(known), \(Self.seconds(driftSeconds)) apart by the end; stretch them by \(String(format: "%.6f", report.scale))",
                    guidelines: Self.guidelines,
                    data: .object([
                        ("driftRatio", .number((ratio * 1_000_000).rounded() / 1_000_000)),
                        ("driftSeconds", .number(NumberText.rounded(driftSeconds))), ("fix", fixData),
                    ])))
        }
        for step in report.breaks {
            findings.append(
                Rule.syncBreak.finding(
                    severity: .error,
                    message:
                        "the offset changes at \(Self.time(step.time)) from \(Self.signed(step.before)) to \(Self.signed(step.after)) (an edit or a cut the captions do not follow): --fix moves each part by its own offset",
                    start: NumberText.rounded(step.time), guidelines: Self.guidelines,
                    data: .object([
                        ("offsetBefore", .number(NumberText.rounded(step.before))),
                        ("offsetAfter", .number(NumberText.rounded(step.after))), ("cue", .integer(Int64(cueNumbers[step.cue]))),
                    ])))
        }
        return findings
    }

    /// The name of a frame-rate ratio the drift matches, if any.
    static func knownRatio(_ ratio: Double) -> String? {
        let known: [(Double, String)] = [
            (25 / 23.976, "25/23.976: a PAL speed-up"), (23.976 / 25, "23.976/25: a PAL slow-down"),
            (25.0 / 24, "25/24: a PAL speed-up"), (24.0 / 25, "24/25: a PAL slow-down"),
            (1001.0 / 1000, "1001/1000: NTSC"), (1000.0 / 1001, "1000/1001: NTSC"),
        ]
        return known.first { abs($0.0 - ratio) < 0.0003 }?.1
    }

    static func seconds(_ value: Double) -> String { String(format: "%.2f s", value) }
    static func signed(_ value: Double) -> String { String(format: "%+.2f s", value) }
    static func time(_ seconds: Double) -> String { CaptionTime(seconds: max(0, seconds)).webVTTString }
}

extension TimingEdit {
    /// Whether the edit moves no time by more than `tolerance` within the first hour.
    func isIdentity(within tolerance: Double) -> Bool { abs(offset) <= tolerance && abs(scale - 1) * 3600 <= tolerance }
}
