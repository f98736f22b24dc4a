import Captions
import Foundation

/// The last stage: each cue against its own speech (the onset to snap to) and the speech no cue covers.
extension SyncAligner {
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
}
