import Basics
import Foundation

/// Recorded human speech with its words, from Debian packages: Allison's telephone prompts (asterisk-core-sounds-en-wav:
/// a professional voice, 8 kHz; their words are asterisk-core-sounds-en's `core-sounds-en.txt`) and a LibriVox reader
/// of *Sense and Sensibility* (pocketsphinx-testdata: 16 kHz, with its transcription). Nobody here made these: a test
/// that passes on them passes on people talking.
enum RecordedSpeech {
    struct Clip: CustomStringConvertible {
        var path: String
        var text: String
        var speaker: String
        var description: String { "\(speaker) \((path as NSString).lastPathComponent)" }
    }

    static let promptFolder = "/usr/share/asterisk/sounds/en_US_f_Allison"
    static let promptWords = "/usr/share/doc/asterisk-core-sounds-en/core-sounds-en.txt.gz"
    static let readingFolder = "/usr/share/pocketsphinx/test/data/librivox"

    /// Allison's prompts of at least six words (none that names a tone in brackets), by name; a text said in two files
    /// once.
    static func prompts() throws -> [Clip] {
        guard FileManager.default.fileExists(atPath: promptWords), FileManager.default.fileExists(atPath: promptFolder) else {
            throw ExternalTool.Failure(
                description: "\(promptFolder) is missing: the recorded-speech programme needs Debian's asterisk-core-sounds-en and -en-wav (make test-deps)")
        }
        let listing = try ExternalTool.output("gzip", ["-dc", promptWords])
        var seen: Set<String> = []
        return listing.split(separator: "\n").sorted().compactMap { line -> Clip? in
            guard !line.hasPrefix(";"), let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let text = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "  ", with: " ")
            let path = "\(promptFolder)/\(name).wav"
            guard !text.contains("["), !text.contains("("), text.split(separator: " ").count >= 6, !name.contains("/"),
                FileManager.default.fileExists(atPath: path), seen.insert(text.lowercased()).inserted
            else { return nil }
            return Clip(path: path, text: text, speaker: "ALLISON")
        }
    }

    /// The LibriVox reader's sentences, written as a caption would (a capital, a full stop).
    static func readings() throws -> [Clip] {
        let transcription = "\(readingFolder)/transcription"
        guard let listing = try? String(contentsOfFile: transcription, encoding: .utf8) else {
            throw ExternalTool.Failure(description: "\(transcription) is missing: the recorded-speech programme needs Debian's pocketsphinx-testdata")
        }
        return listing.split(separator: "\n").compactMap { line -> Clip? in
            // `<s> words </s> (file)`
            guard let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")") else { return nil }
            let words = line[..<open].replacingOccurrences(of: "<s>", with: "").replacingOccurrences(of: "</s>", with: "")
                .trimmingCharacters(in: .whitespaces)
            let text = words.prefix(1).uppercased() + words.dropFirst() + "."
            return Clip(path: "\(readingFolder)/\(line[line.index(after: open)..<close]).wav", text: text, speaker: "READER")
        }
    }

    /// The clip as the programmes use it: 16 kHz mono, leading and trailing silence trimmed (from the cache).
    static func samples(_ clip: Clip, cache: URL) throws -> [Float] {
        let raw = cache.appendingPathComponent("recorded-\(FNV1a.hex(clip.path)).raw").path
        if !FileManager.default.fileExists(atPath: raw) {
            try ExternalTool.shell(
                "sox '\(clip.path)' -t raw -r 16000 -e signed -b 16 -c 1 '\(raw).part' silence 1 0.02 0.5% reverse silence 1 0.02 0.5% reverse"
                    + " && mv '\(raw).part' '\(raw)'")
        }
        return try readRaw(raw)
    }

    /// What the recordings are, for a recipe: each file's name and size.
    static func fingerprint(_ clips: [Clip]) -> String {
        FNV1a.hex(
            clips.map { clip in
                let size = (try? FileManager.default.attributesOfItem(atPath: clip.path)[.size] as? Int) ?? -1
                return "\(clip.path) \(size)"
            }.joined(separator: "\n"))
    }

    /// Recorded effects (sound-theme-freedesktop): a phone ringing, an alarm clock, a camera shutter, a bin emptied,
    /// chimes.
    static let effects: [(path: String, seconds: Double, caption: String?)] = [
        ("/usr/share/sounds/freedesktop/stereo/phone-incoming-call.oga", 6.1, "(PHONE RINGS)"),
        ("/usr/share/sounds/freedesktop/stereo/camera-shutter.oga", 0.87, nil),
        ("/usr/share/sounds/freedesktop/stereo/alarm-clock-elapsed.oga", 6.1, nil),
        ("/usr/share/sounds/freedesktop/stereo/trash-empty.oga", 1.12, nil),
        ("/usr/share/sounds/freedesktop/stereo/service-login.oga", 2.17, nil),
        ("/usr/share/sounds/freedesktop/stereo/complete.oga", 1.08, nil),
    ]
}

extension Layout {
    /// The recorded clips and effects the programme plays (what its recipe depends on).
    var recordings: [RecordedSpeech.Clip] {
        items.compactMap { _, item in
            switch item {
            case .recorded(let path, let text, let speaker): RecordedSpeech.Clip(path: path, text: text, speaker: speaker)
            case .track(let path, _, _, _, _, _): RecordedSpeech.Clip(path: path, text: "", speaker: "")
            default: nil
            }
        }
    }

    /// A help line on the radio, of recorded people: Allison's telephone prompts — one of them a 30 s menu, long talk
    /// with short pauses, and once seven prompts run together — and the LibriVox reader between them, over recorded music 18 dB down; music alone to open,
    /// close and half-way, a sustained instrumental interlude, and recorded effects between the turns (one captioned).
    mutating func recorded(seconds: Double) throws {
        bedBelowSpeech = 18
        let allPrompts = try RecordedSpeech.prompts(), allReadings = try RecordedSpeech.readings()
        var prompts = allPrompts, readings = allReadings
        // The long menu early on; the rest drawn in a seeded order.
        if let menu = prompts.firstIndex(where: { $0.path.hasSuffix("/basic-pbx-ivr-main.wav") }) {
            let clip = prompts.remove(at: menu)
            prompts.shuffle(using: &random)
            prompts.insert(clip, at: 3)
        } else {
            prompts.shuffle(using: &random)
        }
        items.append((0.5, .music(seconds: 8, caption: "[MUSIC]")))
        var spoken = 8.5
        var effect = 0
        var turn = 0
        var interlude = false
        while spoken < seconds - 10 {
            // A programme longer than the recordings (the hour of `make bench`) hears them again, in another order.
            if prompts.isEmpty {
                prompts = allPrompts.shuffled(using: &random)
                readings = allReadings.shuffled(using: &random)
            }
            if !interlude, spoken > seconds / 2 {
                items.append((1.2, .track(path: Self.sustained, from: 30, seconds: 20, belowSpeech: 4, under: false, caption: nil)))
                spoken += 21.2
                interlude = true
            }
            // Every third turn the reader, while his sentences last; else one to three prompts — once, seven in a row
            // with only a breath between them (0.12–0.3 s), as long talk is captioned: a cue a sentence.
            let reader = turn % 3 == 2 && !readings.isEmpty
            let runOn = turn == 4
            for _ in 0..<(reader ? 1 : runOn ? 7 : Int.random(in: 1...3, using: &random)) {
                guard let clip = reader ? readings.removeFirst() : prompts.popLast() else { break }
                let gap = runOn ? Double.random(in: 0.12...0.3, using: &random) : Double.random(in: 0.4...1.3, using: &random)
                items.append((gap, .recorded(path: clip.path, text: clip.text, speaker: clip.speaker)))
                spoken += gap + Self.estimate(clip.text)
            }
            if Double.random(in: 0..<1, using: &random) < 0.45 {
                let (path, length, caption) = RecordedSpeech.effects[effect % RecordedSpeech.effects.count]
                effect += 1
                items.append(
                    (Double.random(in: 0.5...1.0, using: &random), .track(path: path, from: 0, seconds: length, belowSpeech: 0, under: false, caption: caption))
                )
                spoken += length + 0.8
            }
            turn += 1
        }
        items.append((1.0, .music(seconds: 8, caption: "[MUSIC]")))
    }
}
