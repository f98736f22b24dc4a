import Captions
import Foundation
import SyncAnalysis

/// What the sync check finds for one caption file against one speech timeline, as a user reads it: the offset and
/// drift, the breaks with the offsets either side, the speech left uncaptioned and where the fix puts every cue. Two
/// outcomes for the same captions on audio that differs in nothing anyone can hear must agree (`differences`).
package struct SyncOutcome: Sendable {
    /// Captions late by (seconds) at the start, and caption time ÷ speech time.
    package var offset: Double
    package var drift: Double
    /// How long the speech timeline is (seconds): what a drift adds up to by the end.
    package var duration: Double
    /// Where the offset changes (media seconds) and the offsets before and after.
    package var breaks: [(time: Double, before: Double, after: Double)]
    package var uncaptionedSpeech: [(start: Double, end: Double)]
    /// Each cue's start once fixed (no snapping), in the document's order.
    package var fixedStarts: [Double]

    /// Aligns `captions` against `speech` as the sync check does, and applies the fix.
    package init(captions: CaptionDocument, speech: SpeechTimeline, aligner: SyncAligner = SyncAligner()) {
        let dialogue = DialogueCues.of(captions)
        let report = aligner.align(
            cues: dialogue.map { ($0.start, $0.end) }, sounds: DialogueCues.sounds(of: captions).map { ($0.start, $0.end) }, speech: speech)
        var fixed = captions
        SyncFix(report, dialogue: dialogue.map(\.index)).apply(to: &fixed)
        offset = report.offsetSeconds
        drift = report.driftRatio
        duration = speech.duration
        breaks = report.breaks.map { ($0.time, $0.before, $0.after) }
        uncaptionedSpeech = report.uncaptionedSpeech
        fixedStarts = fixed.cues.map(\.start.seconds)
    }

    /// How far two outcomes may be apart and still say the same: a break within half a second of where it was, offsets
    /// within 50 ms (half the smallest offset reported), drifts that part by no more than that by the end of the audio,
    /// each fixed cue within 0.1 s, each stretch of uncaptioned speech overlapping where it was by 80% of the longer of the two (a word
    /// half a second after a sentence is its tail or not).
    package static let breakTolerance = 0.5
    package static let offsetTolerance = 0.05
    package static let cueTolerance = 0.1
    package static let uncaptionedOverlap = 0.8

    /// Where `self` says something other than `baseline` does (empty: the same findings).
    package func differences(from baseline: SyncOutcome) -> [String] {
        var found: [String] = []
        func seconds(_ value: Double) -> String { String(format: "%.3f s", value) }
        if abs(offset - baseline.offset) > Self.offsetTolerance { found.append("offset \(seconds(offset)), was \(seconds(baseline.offset))") }
        if abs(drift - baseline.drift) * baseline.duration > Self.offsetTolerance {
            found.append(
                String(format: "drift ×%.6f, was ×%.6f (%.3f s apart by the end)", drift, baseline.drift, abs(drift - baseline.drift) * baseline.duration))
        }
        if breaks.count != baseline.breaks.count {
            found.append(
                "\(breaks.count) breaks (\(breaks.map { seconds($0.time) })), were \(baseline.breaks.count) (\(baseline.breaks.map { seconds($0.time) }))")
        } else {
            for (index, (now, was)) in zip(breaks, baseline.breaks).enumerated() {
                if abs(now.time - was.time) > Self.breakTolerance { found.append("break \(index + 1) at \(seconds(now.time)), was \(seconds(was.time))") }
                if abs(now.before - was.before) > Self.offsetTolerance || abs(now.after - was.after) > Self.offsetTolerance {
                    found.append(
                        "break \(index + 1) from \(seconds(now.before)) to \(seconds(now.after)), was \(seconds(was.before)) to \(seconds(was.after))")
                }
            }
        }
        if uncaptionedSpeech.count != baseline.uncaptionedSpeech.count {
            found.append("\(uncaptionedSpeech.count) stretches of uncaptioned speech, were \(baseline.uncaptionedSpeech.count)")
        } else {
            for (now, was) in zip(uncaptionedSpeech, baseline.uncaptionedSpeech)
            where min(now.end, was.end) - max(now.start, was.start) < Self.uncaptionedOverlap * max(now.end - now.start, was.end - was.start) {
                found.append("uncaptioned speech \(seconds(now.start))–\(seconds(now.end)), was \(seconds(was.start))–\(seconds(was.end))")
            }
        }
        let moved = zip(fixedStarts, baseline.fixedStarts).enumerated().filter { abs($0.element.0 - $0.element.1) > Self.cueTolerance }
        if !moved.isEmpty {
            found.append(
                "\(moved.count) fixed cues moved: "
                    + moved.prefix(5).map { "cue \($0.offset + 1) at \(seconds($0.element.0)), was \(seconds($0.element.1))" }.joined(separator: ", "))
        }
        return found
    }

    /// The largest differences from `baseline` in each measure (for the log), where the breaks agree in number.
    package func spread(from baseline: SyncOutcome) -> (offset: Double, drift: Double, breakTime: Double, cue: Double) {
        let breakTime = breaks.count == baseline.breaks.count ? zip(breaks, baseline.breaks).map { abs($0.time - $1.time) }.max() ?? 0 : .infinity
        let cue = zip(fixedStarts, baseline.fixedStarts).map { abs($0 - $1) }.max() ?? 0
        return (abs(offset - baseline.offset), abs(drift - baseline.drift), breakTime, cue)
    }
}
