import Captions
import Foundation

/// A caption file's timing against the speech in its media: the mapping `media = scale × caption + offset`
/// that fits best, how well it fits, and what does not.
public struct SyncReport: Sendable {
    /// Caption time → media time: `media = scale × caption + shift`.
    public var scale: Double
    public var shift: Double
    /// How much later the captions are than the speech (positive: captions late), at the start.
    public var offsetSeconds: Double { -shift }
    /// Caption time ÷ speech time (1.0: no drift; 1.010: captions run 1% slow).
    public var driftRatio: Double { 1 / scale }
    /// Cues whose start lies on a speech onset (within 0.1 s) once fitted, and the cues that could be checked.
    public var matchedCues: Int
    public var dialogueCues: Int
    /// 0–1: how strongly the evidence supports the fit: cues on onsets beyond chance (half of them above
    /// chance counts fully), at least 5 of them, and most cue time on speech.
    public var confidence: Double
    /// Share of cue time on speech at the best global fit (the correlation peak, 0–1).
    public var overlapScore: Double
    /// The share of cues chance alone would put on an onset (from how dense onsets are).
    public var chanceShare: Double
    /// Fraction of detected speech covered by the cues as given, and of cue time that has speech.
    public var speechCoverage: Double
    public var captionCoverage: Double
    /// Residual of each paired cue after the fit (media seconds; positive: the cue starts after the speech).
    public var residuals: [(cue: Int, residual: Double)]
    /// Breaks: where the offset changes by more than half a second part-way through (media time, and the
    /// offset in seconds, positive: captions late, before and after).
    public var breaks: [(time: Double, before: Double, after: Double)]
    /// Speech of at least a second that no (fitted) cue covers: media seconds.
    public var uncaptionedSpeech: [(start: Double, end: Double)]
    /// Dialogue cues (by index) that fall on silence once fitted.
    public var cuesOverSilence: [Int]
    /// Per cue, the share of its (fitted) time that has speech.
    public var cueSpeechCoverage: [Double]
    /// Fraction of dialogue cues that start within the tolerance of a speech onset as given (before any fix).
    public var onTimeFraction: Double
}

/// Aligns cues to speech: a global fit by correlating where the cues are with where speech is (over likely
/// frame-rate ratios, then any ratio within ±5%), then a fine fit of cue starts on speech onsets (robust
/// least squares), then per-cue checks.
public struct SyncAligner: Sendable {
    /// Ratios video edits commonly introduce: 1, NTSC (1001/1000), PAL speed-up (25/24, 25/23.976).
    public static let commonScales: [Double] = [1, 1000.0 / 1001, 1001.0 / 1000, 24.0 / 25, 25.0 / 24, 23.976 / 25, 25 / 23.976]

    /// Largest offset searched, in seconds.
    public var maximumOffset = 60.0
    /// Largest drift searched beyond the common ratios (0.05: ±5%).
    public var maximumDrift = 0.05
    /// How far a cue start and a speech onset may be apart to pair them in the fine fit.
    public var pairingWindow = 0.3
    /// On time within this (seconds), for `onTimeFraction`.
    public var tolerance = 0.1

    public init() {}

    /// Fits `cues` (caption seconds) against `speech`.
    public func align(cues: [(start: Double, end: Double)], speech: SpeechTimeline) -> SyncReport {
        let dialogue = cues
        let segments = speech.segments
        let onsets = speech.onsets
        // 1. Global fit over likely and then nearby scales, by overlap of cue time with speech. The scale step
        //    keeps the last cue within a few tenths of a second of some step.
        let span = max(1, (dialogue.map(\.end).max() ?? 0) - (dialogue.map(\.start).min() ?? 0))
        let scaleStep = min(0.001, max(0.0001, 0.25 / span))
        var best = (scale: 1.0, shift: 0.0, score: -1.0)
        for scale in Self.commonScales {
            let fit = bestShift(dialogue, segments, scale: scale, step: 0.1, around: 0, range: maximumOffset)
            if fit.score > best.score + 1e-9 { best = (scale, fit.shift, fit.score) }
        }
        // Every scale on the grid, spread over the cores (each scale's correlation is independent). Long files
        // need a fine grid: there, a grid four times coarser is scanned first, then the fine grid around the
        // three best coarse scales.
        let steps = Int((maximumDrift / scaleStep).rounded())
        let coarse = steps > 200 ? 4 : 1
        var scanned = scan(stride(from: -steps, through: steps, by: coarse).map { 1 + Double($0) * scaleStep }, dialogue, segments)
        if coarse > 1 {
            let leaders = scanned.sorted { $0.score > $1.score }.prefix(3)
            var fine: Set<Int> = []
            for leader in leaders {
                let center = Int(((leader.scale - 1) / scaleStep).rounded())
                for k in (center - coarse)...(center + coarse) where abs(k) <= steps { fine.insert(k) }
            }
            scanned += scan(fine.sorted().map { 1 + Double($0) * scaleStep }, dialogue, segments)
        }
        for fit in scanned {
            // A common ratio wins unless another fits clearly better.
            if fit.score > best.score + 0.01 { best = (fit.scale, fit.shift, fit.score) }
        }
        // Golden-section refinement of the scale, with a fine shift search around the best.
        var low = best.scale - scaleStep, high = best.scale + scaleStep
        let ratio = (5.0.squareRoot() - 1) / 2
        func score(_ scale: Double) -> Double {
            bestShift(dialogue, segments, scale: scale, step: 0.01, around: best.shift, range: 0.5).score
        }
        for _ in 0..<16 {
            let m1 = high - ratio * (high - low), m2 = low + ratio * (high - low)
            if score(m1) >= score(m2) { high = m2 } else { low = m1 }
        }
        let refinedScale = (low + high) / 2
        let refined = bestShift(dialogue, segments, scale: refinedScale, step: 0.01, around: best.shift, range: 0.5)
        let atBest = bestShift(dialogue, segments, scale: best.scale, step: 0.01, around: best.shift, range: 0.5)
        if refined.score > atBest.score + 0.005 {
            best = (refinedScale, refined.shift, refined.score)
        } else {
            best = (best.scale, atBest.shift, atBest.score)
        }

        // 2. Fine fit. The overlap score is tolerant, so with a cut part-way it can prefer a compromise drift
        //    that fits neither part. Each run of cues is therefore also fitted on its own (shift only, at the
        //    common ratios), and the candidate whose refined line puts the most cue starts on speech onsets wins.
        var candidates = [(scale: best.scale, shift: best.shift)]
        let run = max(6, min(20, dialogue.count / 4))
        if dialogue.count >= 2 * run {
            var first = 0
            while first + run <= dialogue.count {
                let slice = Array(dialogue[first..<(first + run)])
                for scale in [best.scale] + Self.commonScales {
                    let local = bestShift(slice, segments, scale: scale, step: 0.05, around: 0, range: maximumOffset)
                    if local.score >= 0.5, !candidates.contains(where: { abs($0.scale - scale) < 1e-9 && abs($0.shift - local.shift) < 0.1 }) {
                        candidates.append((scale, local.shift))
                    }
                }
                first += run
            }
        }
        var fit = (scale: best.scale, shift: best.shift)
        var pairs: [(cue: Int, caption: Double, media: Double)] = []
        var mostInliers = -1
        for candidate in candidates {
            let refined = refine(candidate, dialogue, onsets)
            if refined.inliers > mostInliers {
                mostInliers = refined.inliers
                fit = refined.fit
                pairs = refined.pairs
            }
        }
        let residuals = pairs.map { (cue: $0.cue, residual: fit.scale * $0.caption + fit.shift - $0.media) }

        // 3. Breaks: the best shift of each run of cues, against its neighbour's.
        let breaks = findBreaks(dialogue, segments, fit: fit)

        // 4. Per cue: coverage once fitted; speech that no fitted cue covers.
        let mapped = dialogue.map { (start: fit.scale * $0.start + fit.shift, end: fit.scale * $0.end + fit.shift) }
        let cueSpeech = mapped.map { cue in cue.end > cue.start ? speech.speech(from: cue.start, to: cue.end) / (cue.end - cue.start) : 0 }
        let cuesOverSilence = mapped.indices.filter { mapped[$0].end - mapped[$0].start >= 0.3 && cueSpeech[$0] < 0.1 }
        let sortedMapped = mapped.sorted { $0.start < $1.start }
        var uncaptioned: [(start: Double, end: Double)] = []
        for segment in segments where segment.end - segment.start >= 1 {
            var covered = 0.0
            var first = 0, last = sortedMapped.count
            while first < last {
                let middle = (first + last) / 2
                if sortedMapped[middle].start < segment.start - 60 { first = middle + 1 } else { last = middle }
            }
            for cue in sortedMapped[first...] {
                if cue.start >= segment.end { break }
                covered += max(0, min(cue.end, segment.end) - max(cue.start, segment.start))
            }
            if covered < 0.1 * (segment.end - segment.start) { uncaptioned.append(segment) }
        }

        // As given: coverage both ways, and cues on time.
        let captionTime = dialogue.reduce(0.0) { $0 + max(0, $1.end - $1.start) }
        let captionSpeech = dialogue.reduce(0.0) { $0 + speech.speech(from: $1.start, to: $1.end) }
        let totalSpeech = speech.totalSpeech
        let asGiven = pair(dialogue, onsets, scale: 1, shift: 0)
        let onTime = asGiven.filter { abs($0.caption - $0.media) <= tolerance }.count

        // Evidence: how many more cue starts sit on an onset (within 0.1 s) than chance would put there.
        let inliers = max(0, mostInliers)
        let share = dialogue.isEmpty ? 0 : Double(inliers) / Double(dialogue.count)
        let chance = min(0.9, Double(onsets.count) / max(1, speech.duration) * 0.2)
        let evidence = min(1, max(0, (share - chance) / (1 - chance)) / 0.5)
        let confidence = evidence * min(1, Double(inliers) / 5) * min(1, max(0, best.score) / 0.6)
        return SyncReport(
            scale: fit.scale, shift: fit.shift, matchedCues: inliers, dialogueCues: dialogue.count,
            confidence: confidence, overlapScore: best.score, chanceShare: chance,
            speechCoverage: totalSpeech > 0 ? min(1, coveredSpeech(dialogue, speech) / totalSpeech) : 0,
            captionCoverage: captionTime > 0 ? captionSpeech / captionTime : 0,
            residuals: residuals, breaks: breaks, uncaptionedSpeech: uncaptioned,
            cuesOverSilence: cuesOverSilence, cueSpeechCoverage: cueSpeech,
            onTimeFraction: dialogue.isEmpty ? 0 : Double(onTime) / Double(dialogue.count))
    }

    /// A line grown from a starting fit: cue starts are paired with onsets near it and the line refitted, a
    /// few times over (so a fit that holds for part of the file extends to all of it when the line is right).
    /// Inliers: pairs within 0.1 s of the final line.
    func refine(_ start: (scale: Double, shift: Double), _ cues: [(start: Double, end: Double)], _ onsets: [Double])
        -> (fit: (scale: Double, shift: Double), pairs: [(cue: Int, caption: Double, media: Double)], inliers: Int)
    {
        var fit = start
        var pairs: [(cue: Int, caption: Double, media: Double)] = []
        for _ in 0..<3 {
            pairs = pair(cues, onsets, scale: fit.scale, shift: fit.shift)
            guard pairs.count >= 3 else { break }
            fit = robustLine(pairs.map { ($0.caption, $0.media) }, fallbackScale: fit.scale)
        }
        let inliers = pairs.filter { abs(fit.scale * $0.caption + fit.shift - $0.media) <= 0.1 }.count
        return (fit, pairs, inliers)
    }

    /// The best shift at each of `scales`, computed on all cores.
    func scan(
        _ scales: [Double], _ cues: [(start: Double, end: Double)],
        _ segments: [(start: Double, end: Double)]
    ) -> [(scale: Double, shift: Double, score: Double)] {
        let fits = ParallelSlices.map(scales.count) { index in
            bestShift(cues, segments, scale: scales[index], step: 0.1, around: 0, range: maximumOffset)
        }
        return zip(scales, fits).map { ($0, $1.shift, $1.score) }
    }

    /// Cue starts paired with the nearest speech onset within the pairing window of where `scale` and `shift`
    /// put them.
    func pair(
        _ cues: [(start: Double, end: Double)], _ onsets: [Double], scale: Double,
        shift: Double
    ) -> [(cue: Int, caption: Double, media: Double)] {
        var pairs: [(cue: Int, caption: Double, media: Double)] = []
        for (index, cue) in cues.enumerated() {
            let predicted = scale * cue.start + shift
            if let onset = nearest(onsets, to: predicted), abs(onset - predicted) <= pairingWindow {
                pairs.append((index, cue.start, onset))
            }
        }
        return pairs
    }

    /// Where the offset steps part-way (an edit or an ad cut): runs of cues are fitted on their own (shift
    /// only, at the global scale); a run whose shift differs from the one before by more than half a second
    /// starts a new part, and the break is put at the first cue of the new part that fits it better.
    func findBreaks(
        _ cues: [(start: Double, end: Double)], _ segments: [(start: Double, end: Double)],
        fit: (scale: Double, shift: Double)
    ) -> [(time: Double, before: Double, after: Double)] {
        let run = max(6, min(20, cues.count / 4))
        guard cues.count >= 2 * run else { return [] }
        var parts: [(first: Int, end: Int, shift: Double)] = []
        var first = 0
        while first + run <= cues.count {
            let last = first + run < cues.count && cues.count - (first + run) < run ? cues.count : first + run
            let slice = Array(cues[first..<last])
            let local = bestShift(slice, segments, scale: fit.scale, step: 0.02, around: fit.shift, range: 20)
            if local.score >= 0.5 { parts.append((first, last, local.shift)) }
            first = last
        }
        var breaks: [(time: Double, before: Double, after: Double)] = []
        for (previous, next) in zip(parts, parts.dropFirst()) where abs(next.shift - previous.shift) > 0.5 {
            // The split of the two runs that puts the most cue time on speech: cues before it at the old shift,
            // from it on at the new one.
            func overlap(_ index: Int, _ shift: Double) -> Double {
                bestShift([cues[index]], segments, scale: fit.scale, step: 0.01, around: shift, range: 0).score
            }
            let range = previous.first..<next.end
            let old = range.map { overlap($0, previous.shift) }, new = range.map { overlap($0, next.shift) }
            var bestSplit = next.first, bestTotal = -Double.infinity
            for split in (previous.first + 1)..<next.end {
                let k = split - previous.first
                let total = old[..<k].reduce(0, +) + new[k...].reduce(0, +)
                if total > bestTotal + 1e-9 { bestTotal = total; bestSplit = split }
            }
            breaks.append((fit.scale * cues[bestSplit].start + next.shift, -previous.shift, -next.shift))
        }
        return breaks
    }

    // MARK: - Pieces

    /// The shift (within `range` of `around`, in steps of `step`) that puts most cue time on speech, and that
    /// share of cue time.
    func bestShift(
        _ cues: [(start: Double, end: Double)], _ segments: [(start: Double, end: Double)], scale: Double,
        step: Double, around: Double, range: Double
    ) -> (shift: Double, score: Double) {
        let total = cues.reduce(0.0) { $0 + max(0, $1.end - $1.start) } * scale
        guard total > 0 else { return (around, 0) }
        let steps = Int((range / step).rounded())
        let overlaps = overlapByShift(
            cues, segments, scale: scale, from: around - Double(steps) * step, step: step,
            count: 2 * steps + 1)
        var best = (shift: around, score: -1.0)
        for (k, overlap) in overlaps.enumerated() {
            let shift = around + Double(k - steps) * step
            let score = overlap / total
            if score > best.score + 1e-9 || (abs(score - best.score) <= 1e-9 && abs(shift) < abs(best.shift)) {
                best = (shift, score)
            }
        }
        return best
    }

    /// Seconds of overlap between the cues (scaled by `scale`, then moved by each shift `from + k × step`,
    /// k < count) and the speech segments, for every shift at once.
    ///
    /// The overlap of two intervals as one slides past the other is a trapezoid: four ramps starting where the
    /// ends pass each other (+1, −1, −1, +1 slope). Each ramp is added to a second-difference array split
    /// between the two grid points around its start, so the sum on the grid is exact and costs one pass per
    /// cue–segment pair that can meet, not one per shift.
    func overlapByShift(
        _ cues: [(start: Double, end: Double)], _ segments: [(start: Double, end: Double)],
        scale: Double, from low: Double, step: Double, count: Int
    ) -> [Double] {
        var differences = [Double](repeating: 0, count: count + 2)
        let high = low + Double(count - 1) * step
        differences.withUnsafeMutableBufferPointer { d in
            func ramp(at position: Double, _ weight: Double) {
                let u = (position - low) / step
                if u < 0 {
                    d[0] += -u * weight * step
                    d[1] += (1 + u) * weight * step
                } else if u < Double(count - 1) {
                    let k = Int(u), fraction = u - Double(k)
                    d[k + 1] += (1 - fraction) * weight * step
                    d[k + 2] += fraction * weight * step
                }
            }
            for cue in cues {
                let a = scale * cue.start, b = scale * cue.end
                guard b > a else { continue }
                // Segments are sorted and disjoint, so their ends are sorted too: find the first that can meet.
                var first = 0, last = segments.count
                while first < last {
                    let middle = (first + last) / 2
                    if segments[middle].end <= a + low { first = middle + 1 } else { last = middle }
                }
                var i = first
                while i < segments.count, segments[i].start < b + high {
                    let s = segments[i].start, e = segments[i].end
                    ramp(at: s - b, 1)
                    ramp(at: s - a, -1)
                    ramp(at: e - b, -1)
                    ramp(at: e - a, 1)
                    i += 1
                }
            }
        }
        var result = [Double](repeating: 0, count: count)
        var slope = 0.0, value = 0.0
        for k in 0..<count {
            slope += differences[k]
            value += slope
            result[k] = value
        }
        return result
    }

    /// Seconds of speech covered by at least one cue.
    private func coveredSpeech(_ cues: [(start: Double, end: Double)], _ speech: SpeechTimeline) -> Double {
        var covered = [UInt8](repeating: 0, count: speech.mask.count)
        for cue in cues {
            let a = speech.frame(at: cue.start), b = speech.frame(at: cue.end)
            if b > a { for i in a..<b { covered[i] = 1 } }
        }
        var frames = 0
        for i in 0..<covered.count where covered[i] == 1 && speech.mask[i] == 1 { frames += 1 }
        return Double(frames) / SpeechTimeline.framesPerSecond
    }

    /// The value of sorted `values` nearest to `target`.
    private func nearest(_ values: [Double], to target: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < target { low = middle + 1 } else { high = middle }
        }
        let candidates = [low - 1, low].filter { $0 >= 0 && $0 < values.count }.map { values[$0] }
        return candidates.min { abs($0 - target) < abs($1 - target) }
    }

    /// A least-squares line through the points, refitted without the points far off it (more than
    /// 3 median absolute deviations, and at least 50 ms). With too little spread in x, only the shift is fitted.
    func robustLine(_ points: [(x: Double, y: Double)], fallbackScale: Double) -> (scale: Double, shift: Double) {
        var kept = points
        var fit = (scale: fallbackScale, shift: median(points.map { $0.y - fallbackScale * $0.x }))
        for _ in 0..<4 {
            let xs = kept.map(\.x)
            let spread = (xs.max() ?? 0) - (xs.min() ?? 0)
            if kept.count >= 3, spread >= 10 {
                let meanX = xs.reduce(0, +) / Double(kept.count), meanY = kept.map(\.y).reduce(0, +) / Double(kept.count)
                var covariance = 0.0, variance = 0.0
                for point in kept {
                    covariance += (point.x - meanX) * (point.y - meanY)
                    variance += (point.x - meanX) * (point.x - meanX)
                }
                let slope = variance > 0 ? covariance / variance : fallbackScale
                fit = (slope, meanY - slope * meanX)
            } else {
                fit = (fallbackScale, median(kept.map { $0.y - fallbackScale * $0.x }))
            }
            let residuals = points.map { abs($0.y - (fit.scale * $0.x + fit.shift)) }
            let cut = max(0.05, 3 * median(residuals))
            let next = points.enumerated().filter { residuals[$0.offset] <= cut }.map(\.element)
            if next.count == kept.count || next.count < 3 { break }
            kept = next
        }
        return fit
    }
}

/// The median (0 for no values).
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
