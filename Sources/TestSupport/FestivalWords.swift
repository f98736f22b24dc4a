import Foundation

/// Sentences spoken by festival with the time of every word as festival placed it: the truth a word aligner is
/// measured against. Made once per recipe (sentences, voice, bed) and kept in the test media cache.
package struct SpokenSentence: Sendable {
    package struct Word: Sendable {
        package var word: String
        package var start: Double
        package var end: Double
    }

    package var text: String
    package var words: [Word]
    /// 16 kHz mono, −1…1.
    package var samples: [Float]
}

package enum FestivalWords {
    /// festival's voices: an HMM voice (`cmu_us_slt_arctic_hts`) and two diphone voices (`kal`, `ked`).
    package static let voices = ["voice_cmu_us_slt_arctic_hts", "voice_kal_diphone", "voice_ked_diphone"]

    /// The RMS amplitude (0–1) of 16 kHz mono 16-bit raw samples, as sox measures it.
    static func rms(of raw: String) throws -> Double? {
        let stats = try ExternalTool.output("sh", ["-c", "sox -t raw -r 16000 -e signed -b 16 -c 1 '\(raw)' -n stat 2>&1"])
        return stats.split(separator: "\n").first { $0.hasPrefix("RMS     amplitude") }.flatMap { Double($0.split(separator: " ").last!) }
    }

    /// `count` sentences of the test programmes' kind (`seed` picks them).
    package static func sentences(_ count: Int, seed: UInt64) -> [String] {
        var maker = SentenceMaker(seed: seed)
        return (0..<count).map { _ in maker.next() }
    }

    /// Each of `texts` said by `voice`, with festival's word times; `bed` (dB below the speech) mixes pink noise under
    /// each sentence, nil none.
    package static func speak(_ texts: [String], voice: String, bedBelowSpeech bed: Double? = nil) throws -> [SpokenSentence] {
        let recipe = "FestivalWords v2 \(voice) bed \(bed.map { String($0) } ?? "none") \(texts)"
        let folder = try TestMediaCache.folder("festival-words", recipe: recipe, tools: ["festival", "sox"]) { folder in
            var script = "(\(voice))\n"
            for (n, text) in texts.enumerated() {
                let escaped = text.replacingOccurrences(of: "\\", with: "").replacingOccurrences(of: "\"", with: "")
                script += """
                    (set! utt (utt.synth (Utterance Text "\(escaped)")))
                    (utt.save.wave utt "\(folder.path)/\(n).wav" 'riff)
                    (format t "#%d\\n" \(n))
                    (mapcar (lambda (w) (format t "%s %f %f\\n" (item.name w) (item.feat w "word_start") (item.feat w "word_end"))) (utt.relation.items utt 'Word))

                    """
            }
            let scriptPath = folder.appendingPathComponent("say.scm").path
            try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
            let words = try ExternalTool.output("festival", ["-b", scriptPath])
            // The script names the folder it was made in (a temporary one): it is not kept, so the folder's bytes
            // depend on the recipe alone.
            try FileManager.default.removeItem(atPath: scriptPath)
            try words.write(to: folder.appendingPathComponent("words.txt"), atomically: true, encoding: .utf8)
            for n in texts.indices {
                let wav = folder.appendingPathComponent("\(n).wav").path, raw = folder.appendingPathComponent("\(n).raw").path
                try ExternalTool.run("sox", [wav, "-t", "raw", "-r", "16000", "-e", "signed", "-b", "16", "-c", "1", raw + ".speech"])
                if let bed {
                    // Pink noise at `bed` dB below the speech's RMS, as long as the sentence.
                    let speechRMS = try rms(of: raw + ".speech") ?? 0.1
                    let seconds = Double(try FileManager.default.attributesOfItem(atPath: raw + ".speech")[.size] as? Int ?? 0) / 32000
                    try ExternalTool.shell("sox -n -r 16000 -c 1 -e signed -b 16 -t raw '\(raw).bed' synth \(seconds) pinknoise norm -3")
                    let gain = speechRMS * pow(10, -bed / 20) / (try rms(of: raw + ".bed") ?? 1)
                    try ExternalTool.shell(
                        "sox -m -v 1 -t raw -r 16000 -e signed -b 16 -c 1 '\(raw).speech' -v \(gain) -t raw -r 16000 -e signed -b 16 -c 1 '\(raw).bed' "
                            + "-t raw -r 16000 -e signed -b 16 -c 1 '\(raw)' && rm -f '\(raw).bed' '\(raw).speech'")
                } else {
                    try FileManager.default.moveItem(atPath: raw + ".speech", toPath: raw)
                }
                try FileManager.default.removeItem(atPath: wav)
            }
        }
        let lines = try String(contentsOf: folder.appendingPathComponent("words.txt"), encoding: .utf8).split(separator: "\n")
        var words: [[SpokenSentence.Word]] = Array(repeating: [], count: texts.count)
        var current = -1
        for line in lines {
            if line.hasPrefix("#") {
                current = Int(line.dropFirst()) ?? -1
                continue
            }
            let fields = line.split(separator: " ")
            guard current >= 0, current < texts.count, fields.count == 3, let start = Double(fields[1]), let end = Double(fields[2]) else { continue }
            words[current].append(.init(word: fields[0].lowercased(), start: start, end: end))
        }
        return try texts.indices.map { n in
            SpokenSentence(text: texts[n], words: words[n], samples: try readRaw(folder.appendingPathComponent("\(n).raw").path))
        }
    }
}
