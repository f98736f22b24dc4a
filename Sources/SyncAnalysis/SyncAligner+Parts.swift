import Foundation

/// The second stage: the captions cut into parts where the shift changes (an edit made after captioning), each part fitted.
extension SyncAligner {
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
        func add(_ shift: Double, _ support: Double) {
            if let known = found.firstIndex(where: { abs($0.shift - shift) < 0.25 }) {
                found[known].support += support
            } else if abs(shift - fit.shift) >= 0.25 {
                found.append((shift, support))
            }
        }
        while first + run / 2 < count {
            let slice = Array(cues[first..<min(count, first + run)])
            let coarse = bestShift(slice, segments, scale: fit.scale, step: 0.05, around: 0, range: maximumOffset)
            if coarse.score >= 0.5 {
                let local = bestShift(slice, segments, scale: fit.scale, step: 0.01, around: coarse.shift, range: 0.1)
                add(onsetRefined(slice, onsets, scale: fit.scale, shift: local.shift), local.score)
            }
            // Where dialogue is dense, cue time is on speech at many shifts: the shift that puts the most cue starts on
            // onsets at once is a candidate too.
            if let voted = onsetShift(slice, onsets, scale: fit.scale), voted.starts >= max(4, slice.count * 2 / 5) {
                add(onsetRefined(slice, onsets, scale: fit.scale, shift: voted.shift), Double(voted.starts) / Double(slice.count))
            }
            first += run / 2
        }
        // The fit's and the best supported others: the labelling costs cues × candidates, whatever the file.
        let shifts = [fit.shift] + found.sorted { $0.support > $1.support }.prefix(Self.candidateShifts - 1).map(\.shift)
        guard shifts.count > 1 else { return (fit.scale, [SyncPart(firstCue: 0, shift: fit.shift)]) }
        var shiftsByLabel = shifts
        var scale = fit.scale
        var labels = [Int](repeating: 0, count: count)
        // Three times: first without merging, so that the parts found fit a scale and shifts of their own (a cut pulls the
        // first fit's scale off, and at that scale the parts before or after it may fit too poorly to keep); then
        // with the scale and shifts the parts fit.
        for pass in 0..<3 {
            let quality = cues.map { cue in shiftsByLabel.map { self.quality(cue, scale: scale, shift: $0, speech, onsets) } }
            labels = cheapestLabels(quality)
            if pass > 0 { labels = mergedLabels(labels, quality, shiftsByLabel) }
            let partShifts = fitParts(cues, labels, shiftsByLabel, onsets, scale: scale)
            scale = partShifts.scale
            for (label, shift) in partShifts.shifts { shiftsByLabel[label] = shift }
        }
        labels = refinedBoundaries(labels, cues, shiftsByLabel, scale: scale, speech, onsets)
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

    /// How well a reading of the captions as parts fits: each cue's `quality` at its part's shift, less `breakCost` for
    /// each break.
    func fitness(
        _ pieces: (scale: Double, parts: [SyncPart]), _ cues: [(start: Double, end: Double)], _ speech: SpeechTimeline, _ onsets: [Double]
    ) -> Double {
        var total = -breakCost * Double(pieces.parts.count - 1)
        for (index, cue) in cues.enumerated() {
            let shift = pieces.parts.last { $0.firstCue <= index }?.shift ?? pieces.parts[0].shift
            total += quality(cue, scale: pieces.scale, shift: shift, speech, onsets)
        }
        return total
    }

    /// The shift (within `maximumOffset`) that puts the most of `cues`' starts within 50 ms of a speech onset, and how
    /// many: every pair of a cue start and an onset votes for the shift between them, in 50 ms bins (a bin and its
    /// neighbours counted together). Nil without onsets.
    func onsetShift(_ cues: [(start: Double, end: Double)], _ onsets: [Double], scale: Double) -> (shift: Double, starts: Int)? {
        guard !onsets.isEmpty, !cues.isEmpty else { return nil }
        let bins = Int(2 * maximumOffset / 0.05) + 1
        var votes = [UInt16](repeating: 0, count: bins)
        for cue in cues {
            let start = scale * cue.start
            var low = 0, high = onsets.count
            while low < high {
                let middle = (low + high) / 2
                if onsets[middle] < start - maximumOffset { low = middle + 1 } else { high = middle }
            }
            var seen = Set<Int>()
            for onset in onsets[low...] {
                if onset > start + maximumOffset { break }
                let bin = Int(((onset - start + maximumOffset) / 0.05).rounded())
                if bin >= 0, bin < bins, seen.insert(bin).inserted { votes[bin] &+= 1 }
            }
        }
        var best = (bin: 0, votes: -1)
        for bin in 1..<(bins - 1) {
            let total = Int(votes[bin - 1]) + Int(votes[bin]) + Int(votes[bin + 1])
            if total > best.votes { best = (bin, total) }
        }
        return (Double(best.bin) * 0.05 - maximumOffset, best.votes)
    }

    /// The shift within the pairing window of `shift` that puts the most of `cues`' starts within 30 ms of an onset:
    /// each cue votes once for each onset within the window, in 10 ms bins, and the bins are counted three either side
    /// (a tie keeps the nearer to `shift`); then moved by the median distance from those starts to their onsets. Nil
    /// when fewer than three starts meet an onset. Near the right shift most starts sit on their own onsets; the
    /// onset nearest a start guessed a tenth of a second off is often another word's.
    func localOnsetShift(_ cues: [(start: Double, end: Double)], _ onsets: [Double], scale: Double, shift: Double) -> Double? {
        let bin = 0.01, reach = Int((pairingWindow / bin).rounded()), spread = 3
        var votes = [Int](repeating: 0, count: 2 * reach + 1)
        for cue in cues {
            let predicted = scale * cue.start + shift
            var low = 0, high = onsets.count
            while low < high {
                let middle = (low + high) / 2
                if onsets[middle] < predicted - pairingWindow { low = middle + 1 } else { high = middle }
            }
            var seen = Set<Int>()
            for onset in onsets[low...] {
                if onset > predicted + pairingWindow { break }
                let k = Int(((onset - predicted) / bin).rounded()) + reach
                if k >= 0, k < votes.count, seen.insert(k).inserted { votes[k] += 1 }
            }
        }
        var best = (k: reach, count: -1)
        for k in votes.indices {
            let count = votes[max(0, k - spread)...min(votes.count - 1, k + spread)].reduce(0, +)
            if count > best.count || (count == best.count && abs(k - reach) < abs(best.k - reach)) { best = (k, count) }
        }
        let moved = shift + Double(best.k - reach) * bin
        var residuals: [Double] = []
        for cue in cues {
            let predicted = scale * cue.start + moved
            if let onset = nearest(onsets, to: predicted), abs(onset - predicted) <= Double(spread) * bin { residuals.append(onset - predicted) }
        }
        return residuals.count >= 3 ? moved + median(residuals) : nil
    }

    /// `shift` moved by the median distance from the cue starts it puts near an onset (within 0.3 s) to those onsets,
    /// twice: the overlap of cue time with speech finds a shift to a tenth of a second, the onsets to a hundredth.
    func onsetRefined(_ cues: [(start: Double, end: Double)], _ onsets: [Double], scale: Double, shift: Double) -> Double {
        var shift = shift
        for _ in 0..<2 {
            var residuals: [Double] = []
            for cue in cues {
                let start = scale * cue.start + shift
                if let onset = nearest(onsets, to: start), abs(onset - start) <= pairingWindow { residuals.append(onset - start) }
            }
            guard residuals.count >= 3 else { break }
            shift += median(residuals)
        }
        return shift
    }

    /// How well a cue fits at a shift, 0–1: half the share of its time on speech, half how close its start is to
    /// a speech onset (1 on it, 0 from `reach` — 0.3 s — away).
    func quality(
        _ cue: (start: Double, end: Double), scale: Double, shift: Double, _ speech: SpeechTimeline, _ onsets: [Double], reach: Double = 0.3
    ) -> Double {
        let start = scale * cue.start + shift
        let onset = nearest(onsets, to: start).map { max(0, 1 - abs($0 - start) / reach) } ?? 0
        return 0.5 * speechShare(cue, scale: scale, shift: shift, speech) + 0.5 * onset
    }

    /// The share of a cue's time, at a shift, that has speech.
    func speechShare(_ cue: (start: Double, end: Double), scale: Double, shift: Double, _ speech: SpeechTimeline) -> Double {
        let start = scale * cue.start + shift, end = scale * cue.end + shift
        return end > start ? speech.speech(from: start, to: end) / (end - start) : 0
    }

    /// `quality` with its onset half sharper: full marks within a tenth of a second, half marks fading out to the
    /// pairing window (a voice's soft lead-in), from the nearer of a speech onset and an onset of voiced sound near
    /// the cue (`voicedOnsets`: a short word before a pause).
    func sharpQuality(
        _ cue: (start: Double, end: Double), scale: Double, shift: Double, _ speech: SpeechTimeline, _ onsets: [Double]
    ) -> Double {
        let start = scale * cue.start + shift
        func closeness(_ onset: Double) -> Double {
            let distance = abs(onset - start)
            return max(0, 1 - distance / 0.1, 0.5 * (1 - distance / pairingWindow))
        }
        let speechOnset = nearest(onsets, to: start).map(closeness) ?? 0
        let voicedOnset = voicedOnsets(near: start, speech).map { closeness($0.onset) }.max() ?? 0
        return 0.5 * speechShare(cue, scale: scale, shift: shift, speech) + 0.5 * max(speechOnset, voicedOnset)
    }

    /// `labels` with each change of part moved, by up to three cues either way (each part keeping a cue), to where
    /// the cues around it fit their parts' final shifts best — their starts within a tenth of a second of an onset.
    /// In fast dialogue onsets are everywhere: at the labelling's tolerance, the first cue after a cut can fit the shift
    /// before it by chance; at its own shift it sits on its own onset.
    func refinedBoundaries(
        _ labels: [Int], _ cues: [(start: Double, end: Double)], _ shifts: [Double], scale: Double, _ speech: SpeechTimeline, _ onsets: [Double]
    ) -> [Int] {
        var labels = labels
        var k = 1
        while k < labels.count {
            guard labels[k] != labels[k - 1] else {
                k += 1
                continue
            }
            let before = labels[k - 1], after = labels[k]
            var low = k, high = k
            while low > 1, k - low < 3, labels[low - 2] == before { low -= 1 }
            while high < labels.count - 1, high - k < 3, labels[high + 1] == after { high += 1 }
            // Each cue from `low` to `high` fitted at both shifts, sharply; a short word where the cue starts is an onset
            // here too (`voicedOnsets`).
            let sharp = (low...high).map { index in
                (
                    sharpQuality(cues[index], scale: scale, shift: shifts[before], speech, onsets),
                    sharpQuality(cues[index], scale: scale, shift: shifts[after], speech, onsets)
                )
            }
            var best = (boundary: k, score: -Double.infinity)
            for boundary in low...high {
                var score = 0.0
                for (offset, pair) in sharp.enumerated() { score += low + offset < boundary ? pair.0 : pair.1 }
                // Cues put over each other: a cue given the other part's shift lands on the cues of that part.
                score -= newOverlaps(cues, labels, shifts, scale: scale, window: low...high) { $0 < boundary ? before : after }
                // A tie keeps the labelling's choice.
                if score > best.score + 1e-9 || (abs(score - best.score) <= 1e-9 && boundary == k) { best = (boundary, score) }
            }
            for index in low...high { labels[index] = index < best.boundary ? before : after }
            k = max(k, best.boundary) + 1
        }
        return labels
    }

    /// How much the cues of `window` overlap the cues near them (three either side) once each is moved by its label's
    /// shift — `label` gives the labels in the window, `labels` outside it: for each pair, the overlap as a share of the
    /// shorter cue (at most 1 a pair). Speech follows speech: where the captions' own times overlap (an edit that moved
    /// the media later part-way through a line's pause), the right shifts take the overlap away.
    func newOverlaps(
        _ cues: [(start: Double, end: Double)], _ labels: [Int], _ shifts: [Double], scale: Double, window: ClosedRange<Int>,
        label: (Int) -> Int
    ) -> Double {
        let near = max(0, window.lowerBound - 3)...min(cues.count - 1, window.upperBound + 3)
        func mapped(_ index: Int) -> (start: Double, end: Double) {
            let shift = shifts[window.contains(index) ? label(index) : labels[index]]
            return (scale * cues[index].start + shift, scale * cues[index].end + shift)
        }
        var penalty = 0.0
        for i in near {
            for j in near where j > i && (window.contains(i) || window.contains(j)) {
                let a = mapped(i), b = mapped(j)
                let shorter = min(a.end - a.start, b.end - b.start)
                guard shorter > 0 else { continue }
                penalty += min(1, max(0, min(a.end, b.end) - max(a.start, b.start)) / shorter)
            }
        }
        return penalty
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
    /// puts them — once each part's shift is moved to where most of its cue starts meet an onset (`localOnsetShift`) —
    /// : least squares with a common slope, refitted without the pairs far off it (as `robustLine`).
    func fitParts(
        _ cues: [(start: Double, end: Double)], _ labels: [Int], _ shifts: [Double], _ onsets: [Double], scale: Double
    ) -> (scale: Double, shifts: [Int: Double]) {
        var centred = shifts
        for label in Set(labels) {
            let members = cues.indices.filter { labels[$0] == label }.map { cues[$0] }
            if let shift = localOnsetShift(members, onsets, scale: scale, shift: shifts[label]) { centred[label] = shift }
        }
        var points: [(x: Double, y: Double, label: Int)] = []
        for (index, cue) in cues.enumerated() {
            let predicted = scale * cue.start + centred[labels[index]]
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
            var slope = kept.count >= 3 && widest >= 10 && variance > 0 ? covariance / variance : scale
            if kept.count > groups.count + 1, widest >= 10, variance > 0 {
                var squares = 0.0
                for point in kept {
                    let mean = means[point.label]!
                    let residual = point.y - mean.y - slope * (point.x - mean.x)
                    squares += residual * residual
                }
                slope = Self.commonScale(near: slope, standardError: (squares / Double(kept.count - groups.count - 1) / variance).squareRoot())
            }
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
}
