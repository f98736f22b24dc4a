import Basics
import Captions
import Foundation

/// The first stage: the one line (scale and shift) that puts most caption time on speech, and how far chance explains it.
extension SyncAligner {
    /// The share of cue starts that land within 0.1 s of an onset at shifts that are not the fit — every 2.9 s
    /// across ±`maximumOffset`, at least a second from it: the highest and the mean (0 without cues).
    func chanceShares(_ cues: [(start: Double, end: Double)], _ onsets: [Double], fit: (scale: Double, shift: Double)) -> (highest: Double, mean: Double) {
        guard !cues.isEmpty else { return (0, 0) }
        var shares: [Double] = []
        for shift in stride(from: fit.shift - maximumOffset, through: fit.shift + maximumOffset, by: 2.9) where abs(shift - fit.shift) >= 1 {
            let hits = pair(cues, onsets, scale: fit.scale, shift: shift).filter { abs(fit.scale * $0.caption + shift - $0.media) <= 0.1 }.count
            shares.append(Double(hits) / Double(cues.count))
        }
        guard !shares.isEmpty else { return (0, 0) }
        return (min(0.9, shares.max()!), shares.reduce(0, +) / Double(shares.count))
    }

    /// log₁₀ of the chance of at least `atLeast` successes in `count` trials of probability `probability`.
    static func log10BinomialTail(count: Int, atLeast: Int, probability: Double) -> Double {
        guard atLeast > 0 else { return 0 }
        guard atLeast <= count, probability > 0 else { return -Double.infinity }
        guard probability < 1 else { return 0 }
        let logP = log(probability), logQ = log(1 - probability)
        // ln k! for k up to count.
        var logFactorial = [0.0]
        for k in stride(from: 1, through: count, by: 1) { logFactorial.append(logFactorial[k - 1] + log(Double(k))) }
        var terms: [Double] = []
        for k in atLeast...min(count, atLeast + 400) {
            terms.append(logFactorial[count] - logFactorial[k] - logFactorial[count - k] + Double(k) * logP + Double(count - k) * logQ)
        }
        let largest = terms.max()!
        return (largest + log(terms.reduce(0) { $0 + exp($1 - largest) })) / log(10)
    }

    /// How far apart two cue times must move (seconds) for a fit to tell them apart: the window an onset counts in.
    static let onsetResolution = 0.1

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
        // A ratio that moves the cues less against a common one than onsets can be placed is not measured: that common
        // ratio (no drift if it can be none), and the shift the pairs give at it — a few tightly fitting onsets of a
        // short file otherwise report a drift of 1/400 that is not there.
        let span = (cues.map(\.start).max() ?? 0) - (cues.map(\.start).min() ?? 0)
        let alike = Self.commonScales.filter { abs(fit.scale - $0) * span < Self.onsetResolution }
        if let common = alike.contains(1) ? 1 : alike.min(by: { abs($0 - fit.scale) < abs($1 - fit.scale) }),
            abs(fit.scale - common) > 1e-12, pairs.count >= 3
        {
            let offsets = pairs.map { $0.media - common * $0.caption }
            let middle = median(offsets)
            let close = offsets.filter { abs($0 - middle) <= 0.1 }
            fit = (common, median(close.isEmpty ? offsets : close))
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
    func coveredSpeech(_ cues: [(start: Double, end: Double)], _ speech: SpeechTimeline) -> Double {
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
    func nearest(_ values: [Double], to target: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < target { low = middle + 1 } else { high = middle }
        }
        let candidates = [low - 1, low].filter { $0 >= 0 && $0 < values.count }.map { values[$0] }
        return candidates.min { abs($0 - target) < abs($1 - target) }
    }

    /// The common ratio (`commonScales`) a measured `slope` cannot be told from — within four standard errors of it,
    /// measured with the onsets' scatter: no drift if that is one of them, else the nearest (NTSC's, PAL's) — or the
    /// slope itself. The onsets' scatter alone moves the slope of a few minutes' parts by some 1/10,000; a ratio no
    /// edit makes is not reported for that.
    static func commonScale(near slope: Double, standardError: Double) -> Double {
        guard standardError.isFinite, standardError > 0 else { return slope }
        let near = commonScales.filter { abs($0 - slope) <= 4 * standardError }
        if near.contains(1) { return 1 }
        return near.min { abs($0 - slope) < abs($1 - slope) } ?? slope
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
