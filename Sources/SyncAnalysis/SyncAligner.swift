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
    /// Dialogue cues (by index) that fall on silence once fitted: no speech and no voiced sound under them.
    public var cuesOverSilence: [Int]
    /// Dialogue cues (by index) with no speech under them once fitted, only voiced sound that is not a word: music or
    /// a tone that goes on around the cue, or more of it than a short word. A sung line (`♪ … ♪`) is such a cue too;
    /// whether that is expected is for the caller, who has the text.
    public var cuesOverMusic: [Int] = []
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

    /// The most voiced sound, in seconds, a cue with no speech under it may hold and still be a short word said
    /// alone ("Why?", "Thank you."), too short to sound like speech over a second.
    static let shortWord = 1.0
    /// The median change of the spectrum's shape (dB) a short word's voiced sound has at least: measured, short words
    /// 6.4–6.8 where the detector heard no speech (recorded single words 4.6–7.7, heard as speech), tones and effects
    /// 3.0–5.1 (a horn, chimes, a bin emptied), an explosion 6.0–6.3.
    static let wordShapeChange = 5.5

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
    public var breakCost = 2.0
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
        //    A drift that is no common ratio may be a line between parts that fits neither (edits part-way through
        //    a short file): the parts are looked for from the nearest common ratio too, and the reading whose cues fit
        //    better, each break counted at its cost, is kept.
        var pieces = segment(dialogue, speech, onsets, segments, fit: fit)
        let common = Self.commonScales.min { abs($0 - fit.scale) < abs($1 - fit.scale) }!
        if abs(common - fit.scale) > 1e-9 {
            let shift = bestShift(dialogue, segments, scale: common, step: 0.05, around: 0, range: maximumOffset).shift
            let other = segment(dialogue, speech, onsets, segments, fit: (common, onsetRefined(dialogue, onsets, scale: common, shift: shift)))
            if fitness(other, dialogue, speech, onsets) > fitness(pieces, dialogue, speech, onsets) { pieces = other }
        }
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
        // No speech under the cue: over silence when nothing voiced sounds either; over music when what is voiced is
        // not a short word standing alone (a second at most, in sound that is not voiced around the cue, its spectrum's
        // shape moving as a voice's does).
        var cuesOverSilence: [Int] = [], cuesOverMusic: [Int] = []
        for (index, cue) in mapped.enumerated() where cue.end - cue.start >= 0.3 && cueSpeech[index] < 0.1 {
            let length = cue.end - cue.start
            guard !speech.voicedSound.isEmpty else {
                cuesOverSilence.append(index)
                continue
            }
            let voiced = speech.voicedSound(from: cue.start, to: cue.end)
            if voiced < 0.1 * length {
                cuesOverSilence.append(index)
            } else if voiced > Self.shortWord || speech.voicedShare(around: cue.start, cue.end) >= 0.3
                || speech.shapeChangeOfVoicedSound(from: cue.start, to: cue.end) < Self.wordShapeChange
            {
                cuesOverMusic.append(index)
            }
        }
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
            cuesOverSilence: cuesOverSilence, cuesOverMusic: cuesOverMusic, cueSpeechCoverage: cueSpeech,
            onTimeFraction: dialogue.isEmpty ? 0 : Double(onTime) / Double(dialogue.count), onsets: cueOnsets)
    }

}

/// The median (0 for no values).
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
