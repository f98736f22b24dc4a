import Foundation

/// Speech placed at known times: each sentence is spoken by espeak-ng, its leading and trailing silence trimmed by
/// sox, and placed on a 16 kHz timeline after a gap of its own (irregular gaps, so that only one alignment fits).
/// The mix is encoded to AAC in MP4 by the ffmpeg CLI, so the tests go through real decoding, resampling and the
/// encoder's priming delay. Sentences and media are made once per machine (TestMediaCache); the caption files the
/// tests write go to a folder of this process.
package enum SpeechClips {
    package struct Sentence: Sendable {
        package var text: String
        /// Media seconds where the trimmed speech starts and ends: the true cue times.
        package var start: Double
        package var end: Double
    }

    package static let sampleRate = 16_000

    package static let texts = [
        "Welcome to the accessibility workshop for video makers.",
        "Today we look at captions and how they line up with speech.",
        "Every spoken line should appear on screen while it is said.",
        "Late captions confuse viewers who read along.",
        "Early captions give away what happens next.",
        "Frame rate conversions stretch the timing of a whole film.",
        "A small stretch adds up to seconds by the end.",
        "Editors sometimes cut a scene and forget the subtitles.",
        "Then every caption after the cut is wrong by the same amount.",
        "Music and sound effects need captions too.",
        "Speaker names help when two people talk at once.",
        "Keep each caption short enough to read comfortably.",
        "Two lines of about forty characters is a good limit.",
        "Reading speed matters for children and second language viewers.",
        "Test your captions on a phone as well as a television.",
        "Automatic tools can find most timing problems quickly.",
        "A person should still watch the final result.",
        "Flashing lights are a separate risk for some viewers.",
        "Sound that plays by itself should stop within three seconds.",
        "Transcripts help people who cannot watch the video.",
        "They also help search engines understand your content.",
        "Thank you for listening to this short lesson.",
    ]
    /// Silence before each sentence, in seconds.
    package static let gaps = [
        1.0, 0.7, 1.9, 0.8, 2.6, 0.9, 1.3, 0.75, 2.2, 1.1, 0.85, 3.1,
        0.95, 1.6, 0.7, 2.4, 1.0, 1.8, 0.8, 1.2, 2.0, 0.9,
    ]

    /// Where this process's caption files go.
    package static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-speech-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// The sentences with their true times, the 16 kHz speech samples and the media's length.
    package struct Script: Sendable {
        package var sentences: [Sentence]
        package var samples: [Float]
        package var duration: Double { Double(samples.count) / Double(SpeechClips.sampleRate) }
    }

    package static let script: Result<Script, Error> = Result {
        var sentences: [Sentence] = []
        var samples: [Float] = []
        for (index, text) in texts.enumerated() {
            let spoken = try readRaw(sentence(text))
            samples += [Float](repeating: 0, count: Int(gaps[index] * Double(sampleRate)))
            let start = Double(samples.count) / Double(sampleRate)
            samples += spoken
            sentences.append(Sentence(text: text, start: start, end: Double(samples.count) / Double(sampleRate)))
        }
        samples += [Float](repeating: 0, count: 3 * sampleRate)
        return Script(sentences: sentences, samples: samples)
    }

    /// One sentence spoken by espeak-ng, 16 kHz signed 16-bit raw PCM with its silence trimmed (from the cache).
    static func sentence(_ text: String) throws -> String {
        let command = { (raw: String) in
            "espeak-ng -v en-us -s 165 --stdout '\(text)' | sox -t wav - -t raw -r \(sampleRate) -e signed -b 16 -c 1 '\(raw)' silence 1 0.02 0.5% reverse silence 1 0.02 0.5% reverse"
        }
        return try TestMediaCache.file("sentence.raw", recipe: command("{output}"), tools: ["espeak-ng", "sox"]) { try ExternalTool.shell(command($0)) }
    }

    /// The speech as AAC in MP4 (made once per machine); with `noiseBelowSpeech` dB, under a steady white noise
    /// bed that many dB below the speech's RMS level.
    package static func media(noiseBelowSpeech: Double? = nil) throws -> String {
        let name = "speech" + (noiseBelowSpeech.map { "-noise\(Int($0))" } ?? "") + ".m4a"
        let recipe = "SpeechClips v1 \(texts) \(gaps) noise \(noiseBelowSpeech ?? 0) seed 20, AAC 64k"
        return try TestMediaCache.file(name, recipe: recipe, tools: ["espeak-ng", "sox", "ffmpeg"]) { path in
            try encode(noiseBelowSpeech: noiseBelowSpeech, to: path)
        }
    }

    /// The speech's 16 kHz PCM; with `noiseBelowSpeech` dB, under a steady white noise bed (seeded: the same on every
    /// machine) that many dB below the speech's RMS level.
    package static func samples(noiseBelowSpeech: Double? = nil) throws -> [Float] {
        var samples = try script.get().samples
        guard let noiseBelowSpeech else { return samples }
        let sentences = try script.get().sentences
        var power = 0.0, count = 0
        for sentence in sentences {
            for i in Int(sentence.start * 16_000)..<Int(sentence.end * 16_000) {
                power += Double(samples[i] * samples[i])
                count += 1
            }
        }
        let noiseRMS = (power / Double(count)).squareRoot() * pow(10, -noiseBelowSpeech / 20)
        var random = SeededRandom(seed: 20)
        for i in samples.indices {
            // Sum of uniform values: close enough to Gaussian, with the wanted RMS.
            var sum = 0.0
            for _ in 0..<4 { sum += Double.random(in: -1...1, using: &random) }
            samples[i] += Float(sum * noiseRMS / (4.0 / 3).squareRoot())
        }
        return samples
    }

    private static func encode(noiseBelowSpeech: Double?, to path: String) throws {
        let samples = try samples(noiseBelowSpeech: noiseBelowSpeech)
        let raw = path + ".raw"
        let bytes = samples.map { Int16(max(-32768, min(32767, ($0 * 32768).rounded()))).littleEndian }
        try bytes.withUnsafeBufferPointer { try Data(buffer: $0).write(to: URL(fileURLWithPath: raw)) }
        defer { try? FileManager.default.removeItem(atPath: raw) }
        try ExternalTool.run(
            "ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "s16le", "-ar", "\(sampleRate)", "-ac", "1", "-i", raw, "-c:a", "aac", "-b:a", "64k", path])
    }

    /// Cues as WebVTT text: the true times passed through `transform` (caption = transform(media)), the sentences at
    /// `dropped` left out, `extra` cues after them.
    package static func captionText(
        dropping dropped: Set<Int> = [], extra: [(Double, Double, String)] = [], transform: (Double) -> Double = { $0 }
    ) throws -> String {
        var text = "WEBVTT\n"
        var cues = try script.get().sentences.enumerated().filter { !dropped.contains($0.offset) }
            .map { (transform($0.element.start), transform($0.element.end), $0.element.text) }
        cues += extra
        for cue in cues {
            text += "\n\(stamp(cue.0)) --> \(stamp(cue.1))\n\(cue.2)\n"
        }
        return text
    }

    /// 18 short cues with long gaps, at times that follow no sentence of the script: captions written for other speech
    /// (seeded: the same everywhere), to give `captionText` as `extra` with every sentence dropped.
    package static func unrelatedCues() -> [(Double, Double, String)] {
        var random = SeededRandom(seed: 3)
        var t = 0.5
        var cues: [(Double, Double, String)] = []
        for _ in 0..<18 {
            let length = Double.random(in: 0.4...0.9, using: &random)
            cues.append((t, t + length, "Something else."))
            t += length + Double.random(in: 3.5...6, using: &random)
        }
        return cues
    }

    /// `captionText` as a WebVTT file `name` in this process's folder; its path.
    package static func captions(
        _ name: String, dropping dropped: Set<Int> = [], extra: [(Double, Double, String)] = [],
        transform: (Double) -> Double = { $0 }
    ) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try captionText(dropping: dropped, extra: extra, transform: transform).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    package static func stamp(_ seconds: Double) -> String {
        let ms = Int((seconds * 1000).rounded())
        return String(format: "%02d:%02d:%02d.%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }
}
