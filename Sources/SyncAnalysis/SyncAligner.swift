import Basics
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
    /// The parts the captions fall into, each moved by its own shift (one part when the offset holds
    /// throughout); the first part's shift is `shift`.
    public var parts: [SyncPart]
    /// Breaks: where the offset changes by more than half a second part-way through (media time in the pause
    /// between the parts, the offset in seconds before and after — positive: captions late — and the first
    /// dialogue cue, by index, of the part after).
    public var breaks: [(time: Double, before: Double, after: Double, cue: Int)]
    /// Speech of at least a second that no (fitted) cue covers: media seconds.
    public var uncaptionedSpeech: [(start: Double, end: Double)]
    /// Dialogue cues (by index) that fall on silence once fitted.
    public var cuesOverSilence: [Int]
    /// Per cue, the share of its (fitted) time that has speech.
    public var cueSpeechCoverage: [Double]
    /// Fraction of dialogue cues that start within the tolerance of a speech onset as given (before any fix).
    public var onTimeFraction: Double
    /// Per dialogue cue: the media time of the speech onset its start belongs to, once fitted (nil: none within
    /// `snapWindow`), and how far the fitted start is from it (positive: the cue starts after its speech).
    public var onsets: [(onset: Double, offset: Double)?]
}

/// A run of dialogue cues that one shift puts on their speech: from dialogue cue `firstCue` (an index into
/// the cues aligned) to the next part's first cue.
public struct SyncPart: Sendable, Equatable {
    public var firstCue: Int
    /// Media time = report scale × caption time + shift.
    public var shift: Double
    /// The caption time from which any cue — a dialogue cue or one describing sound — belongs to this part: half-way
    /// between the end of the part before's last dialogue cue and this part's first cue's start (between their
    /// starts when an inserted piece makes the two overlap); −∞ for the first part.
    public var from: Double

    public init(firstCue: Int, shift: Double, from: Double = -.infinity) {
        self.firstCue = firstCue
        self.shift = shift
        self.from = from
    }
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
    /// How far from its fitted start a cue's speech onset is looked for (seconds).
    public var snapWindow = 1.0
    /// What a break costs the piecewise fit, in cues' worth of fit (see `segment`).
    public var breakCost = 4.0
    /// The most offsets the piecewise fit chooses among (the fit's and the best supported others).
    static let candidateShifts = 16

    public init() {}

    /// Fits `cues` (caption seconds) against `speech`. `sounds` are the times of cues that describe sound
    /// (`[MUSIC]`, `(thunder)`): what sounds under them is expected, even if it sounds like speech.
    public func align(
        cues: [(start: Double, end: Double)], sounds: [(start: Double, end: Double)] = [], speech: SpeechTimeline
    ) -> SyncReport {
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
        var mostInliers = -1
        for candidate in candidates {
            let refined = refine(candidate, dialogue, onsets)
            if refined.inliers > mostInliers {
                mostInliers = refined.inliers
                fit = refined.fit
            }
        }

        // 3. Parts: the cues fall into runs, each put on its speech by a shift of its own (an edit or an ad cut
        //    the captions do not follow), at one scale; the first part's line is the main fit.
        let pieces = segment(dialogue, speech, onsets, segments, fit: fit)
        let parts = pieces.parts
        fit = (pieces.scale, parts[0].shift)
        let shifts = dialogue.indices.map { index in parts.last { $0.firstCue <= index }!.shift }
        let mapped = dialogue.indices.map { (start: pieces.scale * dialogue[$0].start + shifts[$0], end: pieces.scale * dialogue[$0].end + shifts[$0]) }
        var breaks: [(time: Double, before: Double, after: Double, cue: Int)] = []
        for (previous, next) in zip(parts, parts.dropFirst()) {
            // In the pause between the last cue of one part and the first of the next, where each belongs.
            let time = (mapped[next.firstCue - 1].end + mapped[next.firstCue].start) / 2
            breaks.append((time, -previous.shift, -next.shift, next.firstCue))
        }

        // 4. Per cue: its residual on the onset it pairs with, the onset its start belongs to, its coverage; speech
        //    that no fitted cue (nor a cue describing sound) covers.
        var residuals: [(cue: Int, residual: Double)] = []
        for (index, cue) in mapped.enumerated() {
            if let onset = nearest(onsets, to: cue.start), abs(onset - cue.start) <= pairingWindow {
                residuals.append((index, cue.start - onset))
            }
        }
        let cueOnsets = snapTargets(mapped, speech)
        let cueSpeech = mapped.map { cue in cue.end > cue.start ? speech.speech(from: cue.start, to: cue.end) / (cue.end - cue.start) : 0 }
        let cuesOverSilence = mapped.indices.filter { mapped[$0].end - mapped[$0].start >= 0.3 && cueSpeech[$0] < 0.1 }
        let soundsMapped = sounds.map { sound -> (start: Double, end: Double) in
            let part = parts.last { $0.from <= sound.start } ?? parts[0]
            return (pieces.scale * sound.start + part.shift, pieces.scale * sound.end + part.shift)
        }
        let uncaptioned = uncaptionedSpeech(speech, captions: mapped, sounds: soundsMapped)

        // As given: coverage both ways, and cues on time.
        let captionTime = dialogue.reduce(0.0) { $0 + max(0, $1.end - $1.start) }
        let captionSpeech = dialogue.reduce(0.0) { $0 + speech.speech(from: $1.start, to: $1.end) }
        let totalSpeech = speech.totalSpeech
        let asGiven = pair(dialogue, onsets, scale: 1, shift: 0)
        let onTime = asGiven.filter { abs($0.caption - $0.media) <= tolerance }.count

        // Evidence: how many more cue starts sit on an onset (within 0.1 s) than chance would put there — measured:
        // the most cue starts on onsets at shifts every 2.9 s across the range searched, away from the fit (the
        // most, not the mean: the search picked the best of many).
        let inliers = max(mostInliers, residuals.filter { abs($0.residual) <= 0.1 }.count)
        let share = dialogue.isEmpty ? 0 : Double(inliers) / Double(dialogue.count)
        let null = chanceShares(dialogue, onsets, fit: fit)
        let chance = null.highest
        let evidence = min(1, max(0, (share - chance) / (1 - chance)) / 0.5)
        var confidence = evidence * min(1, Double(inliers) / 5) * min(1, max(0, best.score) / 0.6)
        // So many cues on onsets must be unlikely even for the best of the distinct lines the search tried: offsets
        // 0.2 s apart (the width of an onset's window) that keep the cues over the media, and scales that move the
        // last cue 0.2 s against the first. Otherwise the fit may be luck, and the timing is not verified.
        let offsets = max(1, min(2 * maximumOffset, speech.duration + span) / 0.2)
        let scales = max(1, span * 2 * maximumDrift / 0.2) + Double(Self.commonScales.count)
        let significance =
            -Self.log10BinomialTail(count: dialogue.count, atLeast: inliers, probability: max(0.005, null.mean)) - log10(offsets * scales)
        if significance < 1 { confidence = min(confidence, 0.29 * max(0, significance)) }
        return SyncReport(
            scale: fit.scale, shift: fit.shift, matchedCues: inliers, dialogueCues: dialogue.count,
            confidence: confidence, overlapScore: best.score, chanceShare: chance,
            speechCoverage: totalSpeech > 0 ? min(1, coveredSpeech(dialogue, speech) / totalSpeech) : 0,
            captionCoverage: captionTime > 0 ? captionSpeech / captionTime : 0,
            residuals: residuals, parts: parts, breaks: breaks, uncaptionedSpeech: uncaptioned,
            cuesOverSilence: cuesOverSilence, cueSpeechCoverage: cueSpeech,
            onTimeFraction: dialogue.isEmpty ? 0 : Double(onTime) / Double(dialogue.count), onsets: cueOnsets)
    }

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

    /// The parts of the file and the scale they share. Candidate shifts are the fit's and those that windows of
    /// cues find on their own; each cue is scored at each shift (half the share of its time on speech, half how
    /// close its start is to a speech onset), and the labelling of cues by shift that costs least is found by
    /// dynamic programming, each change of shift costing `breakCost`. Parts of fewer than four cues, or whose
    /// cues do not fit clearly better at their own shift than at the one before, are merged; then one scale and a
    /// shift per part are fitted to the cue starts and their onsets (robust least squares).
    func segment(
        _ cues: [(start: Double, end: Double)], _ speech: SpeechTimeline, _ onsets: [Double],
        _ segments: [(start: Double, end: Double)], fit: (scale: Double, shift: Double)
    ) -> (scale: Double, parts: [SyncPart]) {
        let count = cues.count
        let run = max(6, min(20, count / 4))
        guard count >= 2 * run else { return (fit.scale, [SyncPart(firstCue: 0, shift: fit.shift)]) }
        // Each window's own shift, once (within a quarter of a second), with the cue time on speech it found.
        var found: [(shift: Double, support: Double)] = []
        var first = 0
        while first + run / 2 < count {
            let slice = Array(cues[first..<min(count, first + run)])
            let coarse = bestShift(slice, segments, scale: fit.scale, step: 0.05, around: 0, range: maximumOffset)
            if coarse.score >= 0.5 {
                let local = bestShift(slice, segments, scale: fit.scale, step: 0.01, around: coarse.shift, range: 0.1)
                if let known = found.firstIndex(where: { abs($0.shift - local.shift) < 0.25 }) {
                    found[known].support += local.score
                } else if abs(local.shift - fit.shift) >= 0.25 {
                    found.append((local.shift, local.score))
                }
            }
            first += run / 2
        }
        // The fit's and the best supported others: the labelling costs cues × candidates, whatever the file.
        let shifts = [fit.shift] + found.sorted { $0.support > $1.support }.prefix(Self.candidateShifts - 1).map(\.shift)
        guard shifts.count > 1 else { return (fit.scale, [SyncPart(firstCue: 0, shift: fit.shift)]) }
        var shiftsByLabel = shifts
        var scale = fit.scale
        var labels = [Int](repeating: 0, count: count)
        // Twice: the second time with the scale the parts fit (a cut can pull the first fit's scale off).
        for _ in 0..<2 {
            let quality = cues.map { cue in shiftsByLabel.map { self.quality(cue, scale: scale, shift: $0, speech, onsets) } }
            labels = cheapestLabels(quality)
            labels = mergedLabels(labels, quality, shiftsByLabel)
            let partShifts = fitParts(cues, labels, shiftsByLabel, onsets, scale: scale)
            scale = partShifts.scale
            for (label, shift) in partShifts.shifts { shiftsByLabel[label] = shift }
        }
        var parts: [SyncPart] = []
        for index in 0..<count where index == 0 || labels[index] != labels[index - 1] {
            var from = -Double.infinity
            if index > 0 {
                let before = cues[index - 1], first = cues[index]
                from = ((before.end < first.start ? before.end : before.start) + first.start) / 2
            }
            parts.append(SyncPart(firstCue: index, shift: shiftsByLabel[labels[index]], from: from))
        }
        return (scale, parts)
    }

    /// How well a cue fits at a shift, 0–1: half the share of its time on speech, half how close its start is to
    /// a speech onset (1 on it, 0 from 0.3 s away).
    func quality(
        _ cue: (start: Double, end: Double), scale: Double, shift: Double, _ speech: SpeechTimeline, _ onsets: [Double]
    ) -> Double {
        let start = scale * cue.start + shift, end = scale * cue.end + shift
        let overlap = end > start ? speech.speech(from: start, to: end) / (end - start) : 0
        let onset = nearest(onsets, to: start).map { max(0, 1 - abs($0 - start) / 0.3) } ?? 0
        return 0.5 * overlap + 0.5 * onset
    }

    /// The label (shift) of each cue that minimises the cues' misfit (1 − quality) plus `breakCost` per change
    /// (at most 256 labels).
    func cheapestLabels(_ quality: [[Double]]) -> [Int] {
        guard let width = quality.first?.count else { return [] }
        var cost = quality[0].map { 1 - $0 }
        var back = [[UInt8]](repeating: [UInt8](repeating: 0, count: width), count: quality.count)
        for i in 1..<quality.count {
            let cheapest = cost.indices.min { cost[$0] < cost[$1] }!
            var next = cost
            for k in 0..<width {
                let stay = cost[k], change = cost[cheapest] + breakCost
                if stay <= change {
                    next[k] = stay + 1 - quality[i][k]
                    back[i][k] = UInt8(k)
                } else {
                    next[k] = change + 1 - quality[i][k]
                    back[i][k] = UInt8(cheapest)
                }
            }
            cost = next
        }
        var labels = [Int](repeating: 0, count: quality.count)
        labels[quality.count - 1] = cost.indices.min { cost[$0] < cost[$1] }!
        for i in stride(from: quality.count - 1, to: 0, by: -1) { labels[i - 1] = Int(back[i][labels[i]]) }
        return labels
    }

    /// `labels` with parts that do not earn their break merged into the part before (or after, for the first):
    /// parts of fewer than four cues, parts whose shift is within half a second of the one before, and parts
    /// whose cues fit on average less than 0.25 better at their own shift, or less than 0.5 at all.
    func mergedLabels(_ labels: [Int], _ quality: [[Double]], _ shifts: [Double]) -> [Int] {
        var labels = labels
        while true {
            var runs: [Range<Int>] = []
            var start = 0
            for i in 1...labels.count where i == labels.count || labels[i] != labels[start] {
                runs.append(start..<i)
                start = i
            }
            guard runs.count > 1 else { return labels }
            var merged = false
            for (index, run) in runs.enumerated() {
                let neighbour = index > 0 ? runs[index - 1] : runs[index + 1]
                let own = labels[run.lowerBound], other = labels[neighbour.lowerBound]
                let gain = run.reduce(0.0) { $0 + quality[$1][own] - quality[$1][other] } / Double(run.count)
                let fit = run.reduce(0.0) { $0 + quality[$1][own] } / Double(run.count)
                if run.count < 4 || abs(shifts[own] - shifts[other]) <= 0.5 || gain < 0.25 || fit < 0.5 {
                    for i in run { labels[i] = other }
                    merged = true
                    break
                }
            }
            if !merged { return labels }
        }
    }

    /// One scale and a shift per label, fitted to the cue starts paired with the onsets near where their label
    /// puts them: least squares with a common slope, refitted without the pairs far off it (as `robustLine`).
    func fitParts(
        _ cues: [(start: Double, end: Double)], _ labels: [Int], _ shifts: [Double], _ onsets: [Double], scale: Double
    ) -> (scale: Double, shifts: [Int: Double]) {
        var points: [(x: Double, y: Double, label: Int)] = []
        for (index, cue) in cues.enumerated() {
            let predicted = scale * cue.start + shifts[labels[index]]
            if let onset = nearest(onsets, to: predicted), abs(onset - predicted) <= pairingWindow {
                points.append((cue.start, onset, labels[index]))
            }
        }
        var kept = points
        var fit = (scale: scale, shifts: [Int: Double]())
        for _ in 0..<4 {
            var groups: [Int: [(x: Double, y: Double)]] = [:]
            for point in kept { groups[point.label, default: []].append((point.x, point.y)) }
            // The common slope from the spread of x within each part, if there is enough of it.
            var covariance = 0.0, variance = 0.0, widest = 0.0
            var means: [Int: (x: Double, y: Double)] = [:]
            for (label, group) in groups {
                let meanX = group.map(\.x).reduce(0, +) / Double(group.count)
                let meanY = group.map(\.y).reduce(0, +) / Double(group.count)
                means[label] = (meanX, meanY)
                widest = max(widest, (group.map(\.x).max() ?? 0) - (group.map(\.x).min() ?? 0))
                for point in group {
                    covariance += (point.x - meanX) * (point.y - meanY)
                    variance += (point.x - meanX) * (point.x - meanX)
                }
            }
            let slope = kept.count >= 3 && widest >= 10 && variance > 0 ? covariance / variance : scale
            var shiftsByLabel: [Int: Double] = [:]
            for (label, group) in groups {
                shiftsByLabel[label] =
                    widest >= 10 ? means[label]!.y - slope * means[label]!.x : median(group.map { $0.y - slope * $0.x })
            }
            fit = (slope, shiftsByLabel)
            let residuals = points.map { abs($0.y - (slope * $0.x + (shiftsByLabel[$0.label] ?? shifts[$0.label]))) }
            let cut = max(0.05, 3 * median(residuals))
            let next = points.enumerated().filter { residuals[$0.offset] <= cut }.map(\.element)
            if next.count == kept.count || next.count < 3 { break }
            kept = next
        }
        return fit
    }

    /// For each fitted cue, the speech onset its start belongs to: among the onsets within `snapWindow` with
    /// speech after them, the one with the highest contrast (up to 20 dB: a sentence starts after a pause, a word
    /// within it after less) and nearest; never one before the previous cue's. Without contrasts, the quiet before
    /// an onset stands for them. A cue that starts right after the one before may continue its sentence: only a
    /// clear pause (15 dB of contrast) starts it then.
    func snapTargets(_ mapped: [(start: Double, end: Double)], _ speech: SpeechTimeline) -> [(onset: Double, offset: Double)?] {
        let onsets = speech.onsets
        var targets: [(onset: Double, offset: Double)?] = []
        var previous = -Double.infinity
        for (index, cue) in mapped.enumerated() {
            // A cue that follows the one before closely may continue its sentence: only a clear pause (an onset of
            // 15 dB or more) is its own start then.
            let continues = index > 0 && cue.start - mapped[index - 1].end < 0.25
            var low = 0, high = onsets.count
            while low < high {
                let middle = (low + high) / 2
                if onsets[middle] < cue.start - snapWindow { low = middle + 1 } else { high = middle }
            }
            var best: (onset: Double, score: Double)?
            let length = min(0.5, max(0.1, cue.end - cue.start))
            for (position, onset) in onsets[low...].enumerated() {
                if onset > cue.start + snapWindow { break }
                guard onset > previous, speech.speech(from: onset, to: onset + length) >= 0.4 * length else { continue }
                let contrast =
                    speech.onsetContrasts.isEmpty
                    ? min(0.5, speech.quiet(before: onset, limit: 0.5)) : Double(min(20, speech.onsetContrasts[low + position])) / 40
                if continues, contrast < 15.0 / 40 { continue }
                let score = contrast - 0.6 * abs(onset - cue.start)
                if score > max(0, best?.score ?? 0) { best = (onset, score) }
            }
            if let best {
                targets.append((best.onset, cue.start - best.onset))
                previous = best.onset
            } else {
                targets.append(nil)
            }
        }
        return targets
    }

    /// Speech that no cue covers: runs of speech frames outside every fitted dialogue cue (from 0.3 s before it
    /// to 0.5 s after) and every cue describing sound (0.5 s either side), joined across gaps under half a second;
    /// a run counts with a second of speech or more that sounds clearly like speech (mean likeness 0.6).
    func uncaptionedSpeech(
        _ speech: SpeechTimeline, captions: [(start: Double, end: Double)], sounds: [(start: Double, end: Double)]
    ) -> [(start: Double, end: Double)] {
        var covered = [Bool](repeating: false, count: speech.mask.count)
        func cover(_ from: Double, _ to: Double) {
            let a = speech.frame(at: from), b = speech.frame(at: to)
            if b > a { for i in a..<b { covered[i] = true } }
        }
        for cue in captions { cover(cue.start - 0.3, cue.end + 0.5) }
        for sound in sounds { cover(sound.start - 0.5, sound.end + 0.5) }
        var found: [(start: Double, end: Double)] = []
        var first = -1, last = -1, frames = 0
        func close() {
            if first >= 0, frames >= 100, speech.likeness(fromFrame: first, to: last + 1) >= 0.6 {
                found.append((speech.time(ofFrame: first), speech.time(ofFrame: last + 1)))
            }
            first = -1
            frames = 0
        }
        for i in 0..<speech.mask.count where speech.mask[i] == 1 && !covered[i] {
            if first >= 0, i - last > 50 { close() }
            if first < 0 { first = i }
            last = i
            frames += 1
        }
        close()
        return found
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
