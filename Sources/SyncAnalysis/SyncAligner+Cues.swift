import Captions
import Foundation

/// The last stage: each cue against its own speech (the onset to snap to) and the speech no cue covers.
extension SyncAligner {
    /// For each fitted cue, the speech onset its start belongs to: among the onsets within `snapWindow` — the speech
    /// onsets, and within `pairingWindow` of the cue's start the onsets of voiced sound found against the local
    /// background (a short word before a pause, a quiet word under babble, a sung line: too short or too steady to
    /// sound like speech over a second) —
    /// the one with the highest contrast (up to 20 dB: a sentence starts after a pause, a word within it after less)
    /// and nearest; never one before the previous cue's, and never one after a clear onset (12 dB) within `pairingWindow`
    /// of the cue's start (the next utterance is not the cue's when an earlier one is where the cue says). Without levels or
    /// contrasts, the quiet before an onset stands for them. A cue that starts right after the one before may continue
    /// its sentence: only a clear pause (15 dB of contrast) starts it then.
    func snapTargets(_ mapped: [(start: Double, end: Double)], _ speech: SpeechTimeline) -> [(onset: Double, offset: Double)?] {
        let onsets = speech.onsets
        var targets: [(onset: Double, offset: Double)?] = []
        var previous = -Double.infinity
        for (index, cue) in mapped.enumerated() {
            let continues = index > 0 && cue.start - mapped[index - 1].end < 0.25
            var low = 0, high = onsets.count
            while low < high {
                let middle = (low + high) / 2
                if onsets[middle] < cue.start - snapWindow { low = middle + 1 } else { high = middle }
            }
            let length = min(0.5, max(0.1, cue.end - cue.start))
            var candidates: [(onset: Double, contrast: Double)] = []
            for (position, onset) in onsets[low...].enumerated() {
                if onset > cue.start + snapWindow { break }
                guard speech.speech(from: onset, to: onset + length) >= 0.4 * length else { continue }
                let contrast =
                    speech.onsetContrasts.isEmpty
                    ? min(0.5, speech.quiet(before: onset, limit: 0.5)) * 40 : Double(min(20, speech.onsetContrasts[low + position]))
                candidates.append((onset, contrast))
            }
            // Voiced sound counts where the cue expects speech (within the pairing window of its start), not further.
            for local in voicedOnsets(near: cue.start, speech)
            where abs(local.onset - cue.start) <= pairingWindow && !candidates.contains(where: { abs($0.onset - local.onset) < 0.08 }) {
                candidates.append(local)
            }
            candidates.sort { $0.onset < $1.onset }
            // The latest clear onset (after a pause: 12 dB of contrast) where the cue says its speech starts: nothing after
            // it is the cue's.
            let latest = candidates.last { abs($0.onset - cue.start) <= pairingWindow && $0.contrast >= 12 }?.onset ?? .infinity
            var best: (onset: Double, score: Double)?
            for candidate in candidates where candidate.onset > previous && candidate.onset <= latest {
                let contrast = min(20, candidate.contrast) / 40
                if continues, contrast < 15.0 / 40 { continue }
                let score = contrast - 0.6 * abs(candidate.onset - cue.start)
                if score > max(0, best?.score ?? 0) { best = (candidate.onset, score) }
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

    /// Onsets of voiced sound within `snapWindow` of `time`, found against the local background: the speech band's
    /// level above the 20th percentile of the 4 s around `time` by 8 dB (and above −55 dBFS) after 100 ms below it,
    /// voiced for at least 80 ms of the 300 ms after; each with its contrast (the level over the 200 ms after it against
    /// the loud end of the 300 ms before, dB). Empty for a timeline without levels.
    func voicedOnsets(near time: Double, _ speech: SpeechTimeline) -> [(onset: Double, contrast: Double)] {
        let levels = speech.levels, voicing = speech.voicing
        guard !levels.isEmpty, voicing.count == levels.count else { return [] }
        let count = levels.count
        var around = Array(levels[max(0, speech.frame(at: time - 2))..<min(count, speech.frame(at: time + 2))])
        guard around.count >= 50 else { return [] }
        around.sort()
        let threshold = max(around[around.count / 5] + 8, -55)
        let from = max(10, speech.frame(at: time - snapWindow)), to = min(count - 1, speech.frame(at: time + snapWindow))
        guard from < to else { return [] }
        var found: [(onset: Double, contrast: Double)] = []
        var quiet = 0
        for i in (from - 10)...to {
            guard levels[i] > threshold else {
                quiet += 1
                continue
            }
            defer { quiet = 0 }
            guard i >= from, quiet >= 10 else { continue }
            var voiced = 0
            for j in i..<min(count, i + 30) where voicing[j] >= SpeechLikeness.voicedAbove { voiced += 1 }
            guard voiced >= 8 else { continue }
            let after = levels[i..<min(count, i + 20)]
            var before = Array(levels[max(0, i - 30)..<i])
            before.sort()
            let contrast = Double(after.reduce(0, +) / Float(after.count) - before[min(before.count - 1, before.count * 8 / 10)])
            guard contrast > 0 else { continue }
            found.append((speech.time(ofFrame: i), contrast))
        }
        return found
    }

    /// How much the speech band's level varies within a second (the median standard deviation, dB) for sound to be
    /// speech no cue covers: speech rises and falls by syllables and words (8–15 dB alone, still 6–7 dB under music
    /// 6 dB down), a dense instrumental interlude holds its level (4–5 dB) however voiced and modulated it is.
    static let speechSpread: Float = 5.5

    /// Whether frames `from` to `to` are music: loud (80% above the speech threshold) with a level that holds
    /// (`speechSpread`). Speech found right beside music is its tail or its start (a fade, a drum fill), not a line.
    func isMusic(_ speech: SpeechTimeline, fromFrame from: Int, to: Int) -> Bool {
        let low = max(0, from), high = min(to, speech.levels.count)
        guard high - low >= 100 else { return false }
        let threshold = Float(speech.thresholdDecibels)
        let loud = speech.levels[low..<high].filter { $0 > threshold }.count
        guard Double(loud) >= 0.8 * Double(high - low) else { return false }
        return (speech.levelSpread(fromFrame: low, to: high) ?? .infinity) < Self.speechSpread
    }

    /// The median change of the spectrum's shape (dB) over a stretch's voiced sound below which it is not clearly
    /// speech, whatever else it has: measured, every stretch of speech in the six test programmes 5.43 and more (median
    /// 6.3–9.3), a palace theme's two "speech" stretches (hyperrogue-music) 5.03 and 5.16.
    static let clearSpeechShapeChange = 5.3

    /// Speech that no cue covers: runs of speech frames outside every fitted dialogue cue (from 0.3 s before it
    /// to 0.5 s after) and every cue describing sound (0.5 s either side), joined across gaps under half a second;
    /// a run counts with a second of speech or more that sounds clearly like speech (mean likeness 0.6), whose
    /// level varies as speech does (`speechSpread`), whose spectrum's shape moves as a voice's does
    /// (`clearSpeechShapeChange`) and that is not right beside music (`isMusic`, 3 s either side).
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
            if first >= 0, frames >= 100, speech.likeness(fromFrame: first, to: last + 1) >= 0.6,
                speech.levelSpread(fromFrame: first, to: last + 1).map({ $0 >= Self.speechSpread }) ?? true,
                speech.shapeChange.isEmpty
                    || speech.shapeChangeOfVoicedSound(from: speech.time(ofFrame: first), to: speech.time(ofFrame: last + 1))
                        >= Self.clearSpeechShapeChange,
                !isMusic(speech, fromFrame: first - 300, to: first), !isMusic(speech, fromFrame: last + 1, to: last + 301)
            {
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
}

extension SpeechTimeline {
    /// The stretches that clearly sound like speech, judged as `SyncAligner`'s uncaptioned speech is with no cue at all
    /// (a second or more, clearly speech-like, its level varying as speech does, not beside music): what says media
    /// has speech (`captions.missing`, `transcript.missing`), which music or a chime alone must not.
    public var clearSpeech: [(start: Double, end: Double)] { SyncAligner().uncaptionedSpeech(self, captions: [], sounds: []) }

    /// Seconds of speech (frames of `mask`) in `clearSpeech`.
    public var clearSpeechSeconds: Double { clearSpeech.reduce(0) { $0 + speech(from: $1.start, to: $1.end) } }
}
