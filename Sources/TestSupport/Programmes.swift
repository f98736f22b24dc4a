import Basics
import Captions
import Foundation

/// Test programmes that sound like television and radio, made from Debian packages: several speakers (festival's
/// HTS voice `cmu_us_slt_arctic_hts`, its diphone voices `kal` and `ked`, and espeak-ng), recorded music
/// (the game soundtrack in `asc-music`) as intros, breaks and a bed under the dialogue, and sound effects
/// synthesised by sox between the lines — mixed at known levels and times, so that where every sentence,
/// tune and effect is, is known to the sample. Caption files with known errors are made from that truth
/// (`captions(_:)`).
package struct Programme: Sendable {
    package enum Kind: String, CaseIterable, Sendable {
        /// A radio magazine: four speakers over a music bed 20 dB below the speech, a theme at full level to
        /// open and close it and a jingle half-way.
        case magazine
        /// A drama: three speakers over a bed 12 dB below the speech, 20 s of music alone to open and close it,
        /// and effects between the lines (thunder, knocks, a phone, footsteps, a siren, a car horn, glass,
        /// applause) — some captioned, most not.
        case drama
        /// A lecture: one lecturer and a questioner in a quiet room (pink noise 45 dB down), with two 30 s
        /// music breaks, one captioned `[MUSIC]` and one not.
        case lecture
        /// A fast dialogue (`Layout.conversation`): short replies, a word and a pause before the rest of a line,
        /// café babble, a party over beat-driven music 6 dB down, a speaker in an echoing hall, a caller on the
        /// telephone.
        case conversation
        /// A travel show (`Layout.travel`): espeak-ng's Korean, Spanish, Catalan, Italian and German voices and
        /// festival's, long stretches of digital silence, instrumental interludes of recorded game music, a sung
        /// song captioned `♪ … ♪` over its backing, a street.
        case travel
        /// A help line of recorded people (`Layout.recorded`): a telephone voice's prompts, a LibriVox reader, recorded
        /// music and effects. Not in `allCases`, the programmes of synthetic voices: the checks are measured on it on
        /// their own.
        case recorded

        /// The programmes of synthetic voices.
        package static let allCases: [Kind] = [.magazine, .drama, .lecture, .conversation, .travel]
    }

    /// A spoken sentence: who says it and where its speech starts and ends (media seconds).
    package struct Line: Sendable {
        package var text: String
        package var speaker: String
        package var start: Double
        package var end: Double
        package var duration: Double { end - start }
    }

    /// Music at full level, or an effect: where it sounds, and the caption that describes it (nil: none).
    package struct Sound: Sendable {
        package var name: String
        package var start: Double
        package var end: Double
        package var caption: String?
        package var isMusic: Bool { name == "music" }
    }

    package var kind: Kind
    /// The programme: AAC, 48 kHz stereo, in an .m4a file.
    package var media: String
    /// The same mix before encoding: 16 kHz mono signed 16-bit PCM (`samples()` reads it).
    package var pcm: String
    package var duration: Double
    package var lines: [Line]
    package var sounds: [Sound]
    /// How far the music bed is below the speech (dB), nil without a bed.
    package var bedBelowSpeech: Double?

    /// The speakers: a name for captions, and how the voice is made.
    static let voices: [(name: String, command: @Sendable (_ text: String, _ wav: String) -> String)] = [
        ("ANNA", { "text2wave -eval '(voice_cmu_us_slt_arctic_hts)' -o '\($1)' '\($0)'" }),
        ("KARL", { "text2wave -eval '(voice_kal_diphone)' -o '\($1)' '\($0)'" }),
        ("EDWARD", { "text2wave -eval '(voice_ked_diphone)' -o '\($1)' '\($0)'" }),
        ("FIONA", { "espeak-ng -v en-gb+f3 -s 165 -w '\($1)' -f '\($0)'" }),
        // 4–: the conversation and the travel show.
        (
            "HALL",
            {
                "text2wave -eval '(voice_cmu_us_slt_arctic_hts)' -o '\($1).dry.wav' '\($0)' && sox '\($1).dry.wav' '\($1)' reverb 70 50 100 100 20 && rm -f '\($1).dry.wav'"
            }
        ),
        (
            "CALLER",
            {
                "espeak-ng -v en-us+m3 -s 175 -w '\($1).dry.wav' -f '\($0)' && sox '\($1).dry.wav' '\($1)' sinc 300-3400 compand 0.01,0.2 -70,-70,-40,-20,0,-6 overdrive 8 && rm -f '\($1).dry.wav'"
            }
        ),
        ("MINJI", { "espeak-ng -v ko+f2 -s 165 -w '\($1)' -f '\($0)'" }),
        ("JUNHO", { "espeak-ng -v ko+m3 -s 175 -w '\($1)' -f '\($0)'" }),
        ("LUCIA", { "espeak-ng -v es+f3 -s 170 -w '\($1)' -f '\($0)'" }),
        ("JORDI", { "espeak-ng -v ca+m1 -s 165 -w '\($1)' -f '\($0)'" }),
        ("GIULIA", { "espeak-ng -v it+f4 -s 170 -w '\($1)' -f '\($0)'" }),
        ("KLAUS", { "espeak-ng -v de+m2 -s 160 -w '\($1)' -f '\($0)'" }),
        ("KARL2", { "text2wave -eval '(voice_kal_diphone)' -eval '(Parameter.set (quote Duration_Stretch) 0.8)' -o '\($1)' '\($0)'" }),
    ]

    /// Where the recorded music comes from (Debian's `asc-music`).
    static let musicTracks = ["frontiers", "machine_wars", "time_to_strike"].map { "/usr/share/games/asc/music/\($0).mp3" }

    static let rate = 16_000

    /// Makes the programme of `kind` in `directory` (kept there: a second call returns it at once). `minutes`
    /// sets its length (the defaults: 3.5, 3.5 and 7 minutes); `seed` picks the sentences and the gaps.
    package static func make(_ kind: Kind, in directory: URL, minutes: Double? = nil, seed: UInt64 = 17) throws -> Programme {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let minutes = minutes ?? kind.defaultMinutes
        let layout = try Layout.of(kind, minutes: minutes, seed: seed)
        // Named by what is said and played when too: a changed running order is a new programme, never an old file.
        let name = "\(kind.rawValue)-\(Int((minutes * 60).rounded()))s-\(seed)-\(FNV1a.hex("v\(recipeVersion) \(layout.items)").prefix(8))"
        let media = directory.appendingPathComponent(name + ".m4a").path
        let pcm = directory.appendingPathComponent(name + ".pcm").path
        let plan = try layout.place(in: directory)
        if !FileManager.default.fileExists(atPath: media) || !FileManager.default.fileExists(atPath: pcm) {
            try plan.mix(to: media, pcm: pcm, in: directory)
        }
        return Programme(
            kind: kind, media: media, pcm: pcm, duration: plan.duration, lines: plan.lines, sounds: plan.sounds,
            bedBelowSpeech: layout.bedBelowSpeech)
    }

    /// The mix as it was before encoding, 16 kHz mono: the programme's PCM without the AAC encoder and decoder.
    package func samples() throws -> [Float] { try readRaw(pcm) }

    /// `count` samples (16 kHz mono) of the recorded music the programmes use, from `start` seconds into it.
    package func music(count: Int, from start: Double) throws -> [Float] {
        try Music.samples(count: count, from: start, cache: URL(fileURLWithPath: media).deletingLastPathComponent().appendingPathComponent("parts"))
    }
}

// MARK: - Caption variants

extension Programme {
    /// Captions with a known error: caption time = f(true media time).
    package enum Variant: Sendable, CustomStringConvertible {
        /// On time.
        case inSync
        /// Every cue `seconds` late (negative: early).
        case shifted(Double)
        /// caption = scale × media + offset (a frame-rate conversion, say).
        case drifted(scale: Double, offset: Double)
        /// On time up to line `afterLine`, then `seconds` late (an advert cut out of the media that the captions
        /// still allow for; negative: a piece added).
        case cut(afterLine: Int, seconds: Double)
        /// Steps: from each step's line on (after `afterLine`), every cue `seconds` late (negative: early) — an edit
        /// after another, the offset changing at each.
        case steps([Step])
        /// On time, but the lines at these indices have no cue.
        case dropped([Int])
        /// A late captioner: each cue starts (and ends) a random 0.25–0.9 s after its speech.
        case lateCaptioner(seed: UInt64)

        package var description: String {
            switch self {
            case .inSync: "in sync"
            case .shifted(let s): String(format: "%+.1f s", s)
            case .drifted(let scale, let offset): String(format: "×%.5f %+.1f s", scale, offset)
            case .cut(let line, let s): String(format: "cut after line %d, %+.1f s", line + 1, s)
            case .steps(let steps): steps.map { String(format: "after line %d %+.1f s", $0.afterLine + 1, $0.seconds) }.joined(separator: ", ")
            case .dropped(let lines): "lines \(lines.map { String($0 + 1) }.joined(separator: ", ")) uncaptioned"
            case .lateCaptioner: "late captioner"
            }
        }
    }

    /// One step of `Variant.steps`.
    package struct Step: Sendable {
        package var afterLine: Int
        package var seconds: Double
        package init(afterLine: Int, seconds: Double) {
            self.afterLine = afterLine
            self.seconds = seconds
        }
    }

    /// Where a line's cue starts and ends in caption time under `variant` (nil: the line has no cue).
    package func captionTimes(of line: Int, _ variant: Variant) -> (start: Double, end: Double)? {
        let truth = lines[line]
        switch variant {
        case .inSync: return (truth.start, truth.end)
        case .shifted(let s): return (truth.start + s, truth.end + s)
        case .drifted(let scale, let offset): return (truth.start * scale + offset, truth.end * scale + offset)
        case .cut(let after, let s): return line > after ? (truth.start + s, truth.end + s) : (truth.start, truth.end)
        case .steps(let steps):
            let s = steps.last { line > $0.afterLine }?.seconds ?? 0
            return (truth.start + s, truth.end + s)
        case .dropped(let dropped): return dropped.contains(line) ? nil : (truth.start, truth.end)
        case .lateCaptioner(let seed):
            var random = SeededRandom(seed: seed &+ UInt64(line))
            let delay = Double.random(in: 0.25...0.9, using: &random)
            return (truth.start + delay, truth.end + delay)
        }
    }

    /// Maps a sound's time into caption time under `variant` (sound cues move with the lines around them).
    func captionTime(ofSoundAt time: Double, _ variant: Variant) -> Double {
        switch variant {
        case .inSync, .dropped, .lateCaptioner: return time
        case .shifted(let s): return time + s
        case .drifted(let scale, let offset): return time * scale + offset
        case .cut(let after, let s): return time > lines[after].end ? time + s : time
        case .steps(let steps): return time + (steps.last { time > lines[$0.afterLine].end }?.seconds ?? 0)
        }
    }

    /// The SubRip file of the programme's captions under `variant`: a cue per line (speaker names in the drama,
    /// lines wrapped at 42 characters) and a cue per captioned sound, in time order.
    package func captions(_ variant: Variant) -> String {
        var cues: [(start: Double, end: Double, text: String)] = []
        for index in lines.indices {
            guard let times = captionTimes(of: index, variant) else { continue }
            let line = lines[index]
            let text = line.speaker == "SINGER" ? "♪ \(line.text) ♪" : kind == .drama ? "\(line.speaker): \(line.text)" : line.text
            cues.append((times.start, times.end, Self.wrap(text)))
        }
        for sound in sounds {
            guard let caption = sound.caption else { continue }
            cues.append((captionTime(ofSoundAt: sound.start, variant), captionTime(ofSoundAt: sound.end, variant), caption))
        }
        cues.sort { $0.start < $1.start }
        var text = ""
        for (number, cue) in cues.enumerated() {
            text += "\(number + 1)\n\(Self.stamp(cue.start)) --> \(Self.stamp(cue.end))\n\(cue.text)\n\n"
        }
        return text
    }

    /// Writes `captions(variant)` to `directory` as NAME.srt and returns its path.
    package func writeCaptions(_ variant: Variant, named name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try captions(variant).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Lines of at least `seconds` in the middle of the programme, spread out: candidates to leave uncaptioned.
    package func longLines(atLeast seconds: Double, count: Int) -> [Int] {
        let long = lines.indices.filter { lines[$0].duration >= seconds && $0 > 2 && $0 < lines.count - 3 }
        guard long.count > count else { return long }
        return (0..<count).map { long[($0 * 2 + 1) * long.count / (2 * count)] }
    }

    /// The line after which a pause of at least `gap` seconds falls nearest to `fraction` of the way through.
    package func pause(near fraction: Double, atLeast gap: Double = 0.8) -> Int {
        let target = duration * fraction
        let candidates = lines.indices.dropLast().filter { lines[$0 + 1].start - lines[$0].end >= gap }
        return candidates.min { abs(lines[$0].end - target) < abs(lines[$1].end - target) } ?? lines.count / 2
    }

    static func wrap(_ text: String, width: Int = 42) -> String {
        guard text.count > width else { return text }
        let words = text.split(separator: " ")
        var best = (index: 1, balance: Int.max)
        for split in 1..<words.count {
            let first = words[..<split].joined(separator: " ").count, second = words[split...].joined(separator: " ").count
            if abs(first - second) < best.balance { best = (split, abs(first - second)) }
        }
        return words[..<best.index].joined(separator: " ") + "\n" + words[best.index...].joined(separator: " ")
    }

    static func stamp(_ seconds: Double) -> String {
        let ms = max(0, Int((seconds * 1000).rounded()))
        return String(format: "%02d:%02d:%02d,%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }
}

// MARK: - Layout: what is said and played when

/// The running order of a programme, before any sound is made: items with the gap before each.
struct Layout {
    enum Item {
        /// A sentence by speaker `voice`.
        case line(text: String, voice: Int)
        /// Music at full level for `seconds` (the bed swells up), with a caption or none.
        case music(seconds: Double, caption: String?)
        /// An effect made by sox, with a caption or none.
        case effect(name: String, caption: String?)
        /// One line: a short word, a pause, then the rest (one cue, starting with the word).
        case compound(first: String, pause: Double, rest: String, voice: Int)
        /// Recorded music at `belowSpeech` dB under the speech's level for `seconds`: taking that time (an interlude),
        /// or under what follows (`under`).
        case track(path: String, from: Double, seconds: Double, belowSpeech: Double, under: Bool, caption: String?)
        /// A sung line (festival's singing mode): syllables with notes and beats at `bpm`; captioned `♪ text ♪`.
        case sung(text: String, notes: [Note], bpm: Int)
        /// A recorded sentence (`RecordedSpeech`): its file, its words and who says it.
        case recorded(path: String, text: String, speaker: String)
    }

    /// A sung syllable.
    struct Note: CustomStringConvertible {
        var syllable: String
        var pitch: String
        var beats: Double
        var description: String { "\(syllable)/\(pitch)/\(beats)" }
    }

    var items: [(gap: Double, item: Item)] = []
    var random: SeededRandom
    var bedBelowSpeech: Double?
    /// Room tone under everything, dB below the speech (nil: digital silence between sounds).
    var roomToneBelowSpeech: Double?
    /// An ambience looped under everything (`Effects`' `babble`, `street`), dB below the speech.
    var ambience: (name: String, belowSpeech: Double)?
    /// Where in the soundtrack the music starts: each seed hears a different part of it.
    var musicStart: Double
    private var sentences: SentenceMaker

    /// The running order of the programme of `kind` (nil minutes: its default length).
    static func of(_ kind: Programme.Kind, minutes: Double?, seed: UInt64) throws -> Layout {
        let seconds = (minutes ?? kind.defaultMinutes) * 60
        var layout = Layout(seed: seed &* 3 &+ UInt64(Programme.Kind.allCases.firstIndex(of: kind) ?? 5))
        switch kind {
        case .magazine: layout.magazine(seconds: seconds)
        case .drama: layout.drama(seconds: seconds)
        case .lecture: layout.lecture(seconds: seconds)
        case .conversation: layout.conversation(seconds: seconds)
        case .travel: layout.travel(seconds: seconds)
        case .recorded: try layout.recorded(seconds: seconds)
        }
        return layout
    }

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
        musicStart = Double(seed % 29) * 37
        sentences = SentenceMaker(seed: seed &* 31 &+ 7)
    }

    /// Rough speaking time of a sentence, for laying out a programme of a given length (about 17 characters
    /// a second).
    static func estimate(_ text: String) -> Double { Double(text.count) / 17 }

    /// A turn of `sentences` new sentences by `voice`, each after a pause drawn from `gaps`; returns about how long
    /// it lasts.
    mutating func speak(_ sentences: Int, voice: Int, gaps: ClosedRange<Double>) -> Double {
        var length = 0.0
        for _ in 0..<sentences {
            let text = self.sentences.next()
            let gap = Double.random(in: gaps, using: &random)
            items.append((gap, .line(text: text, voice: voice)))
            length += gap + Self.estimate(text)
        }
        return length
    }

    mutating func magazine(seconds: Double) {
        bedBelowSpeech = 20
        items.append((0.5, .music(seconds: 8, caption: "[THEME MUSIC]")))
        var voice = 0
        var spoken = 8.5
        var jingle = false
        while spoken < seconds - 12 {
            if !jingle, spoken > seconds / 2 {
                items.append((Double.random(in: 1.0...1.6, using: &random), .music(seconds: 10, caption: nil)))
                spoken += 11
                jingle = true
            }
            // Turns of 1–4 sentences; the presenter (ANNA) between the others.
            spoken += speak(Int.random(in: 1...4, using: &random), voice: voice, gaps: 0.35...1.4)
            voice = voice == 0 ? Int.random(in: 1...3, using: &random) : 0
        }
        items.append((1.2, .music(seconds: 10, caption: "[THEME MUSIC]")))
    }

    mutating func drama(seconds: Double) {
        bedBelowSpeech = 12
        items.append((0.5, .music(seconds: 20, caption: "[DRAMATIC MUSIC]")))
        let effects: [(String, String?)] = [
            ("thunder", "(THUNDER RUMBLES)"), ("knock", nil), ("phone", "(PHONE RINGS)"), ("footsteps", nil),
            ("siren", nil), ("horn", nil), ("glass", "(GLASS SHATTERS)"), ("applause", nil), ("thunder", nil),
            ("knock", "(KNOCKING)"), ("siren", nil), ("phone", nil),
        ]
        var effect = 0
        var spoken = 20.5
        var voice = 0
        while spoken < seconds - 22 {
            spoken += speak(Int.random(in: 1...3, using: &random), voice: voice, gaps: 0.4...1.2)
            voice = (voice + Int.random(in: 1...2, using: &random)) % 3
            if Double.random(in: 0..<1, using: &random) < 0.6 {
                let (name, caption) = effects[effect % effects.count]
                effect += 1
                items.append((Double.random(in: 0.5...1.0, using: &random), .effect(name: name, caption: caption)))
                spoken += 3.5
            }
        }
        items.append((1.0, .music(seconds: 20, caption: "♪ ♪")))
    }

    mutating func lecture(seconds: Double) {
        roomToneBelowSpeech = 45
        // A few seconds of the room before the lecturer starts.
        var spoken = 2.5
        var lead = 2.5
        var breaks = 0
        while spoken < seconds - 3 {
            if breaks < 2, spoken > seconds * Double(breaks + 1) / 3 {
                items.append((Double.random(in: 1.0...2.0, using: &random), .music(seconds: 30, caption: breaks == 0 ? "[MUSIC]" : nil)))
                spoken += 32
                breaks += 1
            }
            // The lecturer (ANNA), now and then a question (EDWARD).
            let voice = Double.random(in: 0..<1, using: &random) < 0.12 ? 2 : 0
            let text = sentences.next()
            let gap = Double.random(in: 0.5...2.2, using: &random) + lead
            lead = 0
            items.append((gap, .line(text: text, voice: voice)))
            spoken += gap + Self.estimate(text)
        }
    }
}

/// Sentences for the programmes, put together from parts (seeded: the same ones on every machine), none twice.
struct SentenceMaker {
    var used: Set<String> = []
    var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    static let openings = [
        "This morning", "Later tonight", "According to the council", "In the north of the country", "Last week",
        "For many families", "As we heard earlier", "On the other hand", "After a long delay", "Every spring",
        "In our next report", "By the end of the year", "Despite the weather", "Around the harbour",
        "At the old station", "Before the meeting", "Unusually", "For the first time", "Meanwhile", "Honestly",
    ]
    static let subjects = [
        "the new bridge", "a group of students", "the local orchestra", "our reporter", "the city museum",
        "the football club", "a small bakery", "the river authority", "the night train", "the hospital",
        "two young engineers", "the village school", "the fishing fleet", "a retired teacher", "the garden centre",
        "the mayor", "the library", "a team of divers", "the weather service", "the theatre company",
    ]
    static let verbs = [
        "has finally opened", "is asking for volunteers", "will close for repairs", "found something unexpected",
        "changed its plans", "broke a long standing record", "is running out of space", "welcomed its first visitors",
        "published new figures", "is looking for a new home", "celebrated fifty years", "has become very popular",
        "faced some hard questions", "tried a different approach", "made a surprising announcement",
    ]
    static let endings = [
        "", "", "", " near the market square", " after months of discussion", " with help from the neighbours",
        " despite the rising costs", " in front of a large crowd", " along the eastern coast", " before the summer holidays",
        " and nobody quite knows why", " according to people who live nearby", " on a cold and windy afternoon",
    ]
    static let questions = [
        "Can you tell us what happened next?", "How did people react to that?", "What would you say to the critics?",
        "Is that really what you expected?", "Where do we go from here?", "Why does that matter so much?",
        "What surprised you most?", "Could you explain that once more?", "Who made the final decision?",
    ]

    static let replies = [
        "Yes, of course.", "I am not so sure.", "Thank you.", "That is right.", "Really?", "Not at all.",
        "Exactly.", "Go on.", "I see.", "Maybe later.", "Absolutely not.", "Good morning.", "Of course it does.",
        "Nobody told me.", "Wait a moment.", "Come in.", "Listen to this.", "Fair enough.",
    ]

    mutating func next() -> String {
        while true {
            let text: String
            let pick = Int.random(in: 0..<10, using: &random)
            if pick < 2 {
                let reply = Self.replies.randomElement(using: &random)!
                if used.insert(reply).inserted { return reply }
                let name = ["Anna", "Karl", "Edward", "Fiona"].randomElement(using: &random)!
                text = "\(reply.dropLast()), \(name)\(reply.last!)"
            } else if pick == 2 {
                text = Self.questions.randomElement(using: &random)!
                if used.contains(text) {
                    // Questions may come back once the pool is used; give them a lead-in to keep them unique.
                    let lead = ["So", "Well", "And", "Tell me", "Now"].randomElement(using: &random)!
                    let combined = "\(lead), \(text.prefix(1).lowercased())\(text.dropFirst())"
                    if used.insert(combined).inserted { return combined }
                    continue
                }
            } else {
                let opening = Self.openings.randomElement(using: &random)!
                let subject = Self.subjects.randomElement(using: &random)!
                let verb = Self.verbs.randomElement(using: &random)!
                let ending = Self.endings.randomElement(using: &random)!
                text = "\(opening), \(subject) \(verb)\(ending)."
            }
            if used.insert(text).inserted { return text }
        }
    }
}

// MARK: - Sound

/// A laid-out programme with every sound made: lines and sounds at their times, ready to mix.
struct PlacedProgramme {
    var duration: Double
    var lines: [Programme.Line] = []
    var sounds: [Programme.Sound] = []
    /// Each line's samples (16 kHz), with its voice's gain applied later.
    var speech: [(start: Int, samples: [Float])] = []
    var effects: [(start: Int, samples: [Float])] = []
    /// Music at full level over these sample ranges; the bed elsewhere.
    var fullMusic: [Range<Int>] = []
    var bedBelowSpeech: Double?
    var roomToneBelowSpeech: Double?
    /// Where in the soundtrack the programme's music starts (seconds).
    var musicStart = 0.0
    /// Recorded tracks placed at their times, with their level (dB below the speech).
    var tracks: [(start: Int, samples: [Float], belowSpeech: Double)] = []
    var ambience: (name: String, belowSpeech: Double)?
}

extension Layout {
    /// Speaks every line, makes every effect and puts them at their times.
    func place(in directory: URL) throws -> PlacedProgramme {
        let cache = directory.appendingPathComponent("parts")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        // Every sentence spoken once (cached by voice and text), two at a time.
        var jobs: [(text: String, voice: Int)] = []
        for (_, item) in items {
            switch item {
            case .line(let text, let voice): jobs.append((text, voice))
            case .compound(let first, _, let rest, let voice): jobs += [(first, voice), (rest, voice)]
            default: break
            }
        }
        let spoken = try ParallelSlices.map(jobs.count) { index in
            Result { try Speaker.speak(jobs[index].text, voice: jobs[index].voice, cache: cache) }
        }.map { try $0.get() }
        var placed = PlacedProgramme(duration: 0, bedBelowSpeech: bedBelowSpeech, roomToneBelowSpeech: roomToneBelowSpeech)
        placed.musicStart = musicStart
        placed.ambience = ambience
        let rate = Programme.rate
        var cursor = 0
        var next = 0
        for (gap, item) in items {
            cursor += Int(gap * Double(rate))
            let time = Double(cursor) / Double(rate)
            switch item {
            case .line(let text, let voice):
                let samples = spoken[next]
                next += 1
                placed.speech.append((cursor, samples))
                cursor += samples.count
                placed.lines.append(
                    Programme.Line(text: text, speaker: Programme.voices[voice].name, start: time, end: Double(cursor) / Double(rate)))
            case .music(let seconds, let caption):
                let length = Int(seconds * Double(rate))
                placed.fullMusic.append(cursor..<(cursor + length))
                cursor += length
                placed.sounds.append(Programme.Sound(name: "music", start: time, end: Double(cursor) / Double(rate), caption: caption))
            case .effect(let name, let caption):
                let samples = try Effects.make(name, cache: cache)
                placed.effects.append((cursor, samples))
                cursor += samples.count
                placed.sounds.append(Programme.Sound(name: name, start: time, end: Double(cursor) / Double(rate), caption: caption))
            case .compound(let first, let pause, let rest, let voice):
                let word = spoken[next], remainder = spoken[next + 1]
                next += 2
                let samples = word + [Float](repeating: 0, count: Int(pause * Double(rate))) + remainder
                placed.speech.append((cursor, samples))
                cursor += samples.count
                placed.lines.append(
                    Programme.Line(text: first + " " + rest, speaker: Programme.voices[voice].name, start: time, end: Double(cursor) / Double(rate)))
            case .track(let path, let from, let seconds, let belowSpeech, let under, let caption):
                let samples = try Music.track(path, from: from, seconds: seconds, cache: cache)
                placed.tracks.append((cursor, samples, belowSpeech))
                if !under {
                    cursor += samples.count
                    let name = path.contains("/music/") ? "music" : ((path as NSString).lastPathComponent as NSString).deletingPathExtension
                    placed.sounds.append(Programme.Sound(name: name, start: time, end: Double(cursor) / Double(rate), caption: caption))
                }
            case .recorded(let path, let text, let speaker):
                let samples = try RecordedSpeech.samples(RecordedSpeech.Clip(path: path, text: text, speaker: speaker), cache: cache)
                placed.speech.append((cursor, samples))
                cursor += samples.count
                placed.lines.append(Programme.Line(text: text, speaker: speaker, start: time, end: Double(cursor) / Double(rate)))
            case .sung(let text, let notes, let bpm):
                let samples = try Singer.sing(notes, bpm: bpm, cache: cache)
                placed.speech.append((cursor, samples))
                cursor += samples.count
                placed.lines.append(Programme.Line(text: text, speaker: "SINGER", start: time, end: Double(cursor) / Double(rate)))
            }
        }
        cursor += 2 * rate
        placed.duration = Double(cursor) / Double(rate)
        return placed
    }
}

extension PlacedProgramme {
    /// The active level every sentence is brought to (RMS over its speech), before each voice's own gain.
    static let speechRMS: Float = 0.1

    /// Mixes the programme, keeps the mix as 16 kHz PCM at `pcm` and encodes it to AAC (48 kHz stereo) at `path` (each
    /// written under a temporary name, then renamed).
    func mix(to path: String, pcm: String, in directory: URL) throws {
        let rate = Programme.rate
        let count = Int(duration * Double(rate))
        var mix = [Float](repeating: 0, count: count)
        let voiceGain: [String: Float] = [
            "ANNA": 1, "KARL": 0.8, "EDWARD": 1.2, "FIONA": 0.9, "HALL": 0.9, "CALLER": 0.7, "MINJI": 1, "JUNHO": 0.8, "LUCIA": 1,
            "JORDI": 0.9, "GIULIA": 1.1, "KLAUS": 0.85, "KARL2": 0.5, "SINGER": 1,
        ]
        for (index, line) in speech.enumerated() {
            let gain = Self.speechRMS / max(1e-6, Self.rms(line.samples)) * (voiceGain[lines[index].speaker] ?? 1)
            for (i, sample) in line.samples.enumerated() where line.start + i < count { mix[line.start + i] += sample * gain }
        }
        // Effects about as loud as the speech (some louder, some softer).
        for (index, effect) in effects.enumerated() {
            let level: Float = [1.0, 0.7, 1.4, 0.5][index % 4]
            let gain = Self.speechRMS * level / max(1e-6, Self.rms(effect.samples))
            for (i, sample) in effect.samples.enumerated() where effect.start + i < count { mix[effect.start + i] += sample * gain }
        }
        // Music: at the speech's level where it plays alone, the bed's level elsewhere, with one-second swells.
        if !fullMusic.isEmpty || bedBelowSpeech != nil {
            let music = try Music.samples(count: count, from: musicStart, cache: directory.appendingPathComponent("parts"))
            let musicRMS = Self.rms(music)
            let full = Self.speechRMS / max(1e-6, musicRMS)
            let bed = bedBelowSpeech.map { full * Float(pow(10, -$0 / 20)) } ?? 0
            var envelope = [Float](repeating: bed, count: count)
            let ramp = rate
            // Swells in the dB domain from the bed (or silence) to full level within the music's own time: nothing
            // but the bed under the lines before and after.
            let floor = bed > 0 ? bed : full * 0.001
            for range in fullMusic {
                for i in range.clamped(to: 0..<count) {
                    let weight = min(1, Float(min(i - range.lowerBound, range.upperBound - i)) / Float(ramp))
                    envelope[i] = floor * pow(full / floor, weight)
                }
            }
            for i in 0..<count { mix[i] += music[i] * envelope[i] }
        }
        // Recorded tracks at their level, with half-second fades.
        for track in tracks {
            let gain = Self.speechRMS * Float(pow(10, -track.belowSpeech / 20)) / max(1e-6, Self.rms(track.samples))
            let fade = rate / 2
            for (i, sample) in track.samples.enumerated() where track.start + i < count {
                let edge = min(1, Float(min(i, track.samples.count - i)) / Float(fade))
                mix[track.start + i] += sample * gain * edge
            }
        }
        if let ambience {
            let loop = try Effects.make(ambience.name, cache: directory.appendingPathComponent("parts"))
            let gain = Self.speechRMS * Float(pow(10, -ambience.belowSpeech / 20)) / max(1e-6, Self.rms(loop))
            for i in 0..<count { mix[i] += loop[i % loop.count] * gain }
        }
        if let roomToneBelowSpeech {
            let tone = try Effects.make("roomtone", cache: directory.appendingPathComponent("parts"))
            let gain = Self.speechRMS * Float(pow(10, -roomToneBelowSpeech / 20)) / max(1e-6, Self.rms(tone))
            for i in 0..<count { mix[i] += tone[i % tone.count] * gain }
        }
        let peak = mix.reduce(0) { max($0, abs($1)) }
        let scale: Float = peak > 0.97 ? 0.97 / peak : 1
        let raw = pcm + ".part"
        let bytes = mix.map { Int16(max(-32767, min(32767, ($0 * scale * 32767).rounded()))).littleEndian }
        try bytes.withUnsafeBufferPointer { try Data(buffer: $0).write(to: URL(fileURLWithPath: raw)) }
        let partial = path + ".partial.m4a"
        try ExternalTool.run(
            "ffmpeg",
            [
                "-nostdin", "-v", "error", "-y", "-f", "s16le", "-ar", "\(rate)", "-ac", "1", "-i", raw,
                "-ar", "48000", "-ac", "2", "-c:a", "aac", "-b:a", "96k", partial,
            ])
        for (from, to) in [(raw, pcm), (partial, path)] {
            try? FileManager.default.removeItem(atPath: to)
            try FileManager.default.moveItem(atPath: from, toPath: to)
        }
    }

    static func rms(_ samples: [Float]) -> Float {
        guard !samples.isEmpty else { return 0 }
        var sum: Double = 0
        for sample in samples { sum += Double(sample * sample) }
        return Float((sum / Double(samples.count)).squareRoot())
    }
}

/// Sentences spoken by the programme voices: 16 kHz mono, leading and trailing silence trimmed.
enum Speaker {
    static func speak(_ text: String, voice: Int, cache: URL) throws -> [Float] {
        let key = "\(voice)-\(FNV1a.hex(text))"
        let raw = cache.appendingPathComponent("line-\(key).raw").path
        if !FileManager.default.fileExists(atPath: raw) {
            let textFile = cache.appendingPathComponent("line-\(key).txt").path
            let wav = cache.appendingPathComponent("line-\(key).wav").path
            try text.write(toFile: textFile, atomically: true, encoding: .utf8)
            try ExternalTool.shell(
                Programme.voices[voice].command(textFile, wav)
                    + " && sox '\(wav)' -t raw -r 16000 -e signed -b 16 -c 1 '\(raw).part' silence 1 0.02 0.5% reverse silence 1 0.02 0.5% reverse"
                    + " && mv '\(raw).part' '\(raw)' && rm -f '\(wav)' '\(textFile)'")
        }
        return try readRaw(raw)
    }
}

/// Sound effects made by sox (16 kHz mono), and room tone.
enum Effects {
    static let recipes: [String: [String]] = [
        "thunder": ["synth 3 brownnoise lowpass 400 fade q 0.1 3 2.2"],
        "knock": ["synth 0.06 pinknoise lowpass 1500 fade q 0.005 0.06 0.05 pad 0 0.25 repeat 2"],
        "phone": ["synth 0.4 sine 440 sine 480 channels 1 pad 0 0.2 repeat 2"],
        "footsteps": ["synth 0.08 brownnoise lowpass 800 fade q 0.005 0.08 0.07 pad 0 0.45 repeat 5"],
        "siren": ["synth 0.7 sine 650-1300 pad 0 0 repeat 0", "synth 0.7 sine 1300-650"],
        "horn": ["synth 0.9 sawtooth 400 sawtooth 500 channels 1 lowpass 3000 fade q 0.02 0.9 0.1"],
        "glass": ["synth 0.7 whitenoise highpass 2500 fade q 0.001 0.7 0.65"],
        "applause": ["synth 3 pinknoise highpass 400 tremolo 11 70 fade q 0.4 3 0.8"],
        "roomtone": ["synth 10 pinknoise"],
        "street": ["synth 20 brownnoise lowpass 700 tremolo 0.2 40"],
    ]

    static func make(_ name: String, cache: URL) throws -> [Float] {
        if name == "babble" { return try babble(cache: cache) }
        let raw = cache.appendingPathComponent("effect-\(name).raw").path
        if !FileManager.default.fileExists(atPath: raw) {
            guard let recipe = recipes[name] else { throw ExternalTool.Failure(description: "no effect named \(name)") }
            // A recipe of several parts is played one after the other (a siren: up, down, up, down).
            var parts: [String] = []
            for (index, effects) in recipe.enumerated() {
                let part = "\(raw).\(index).wav"
                try ExternalTool.shell("sox -n -r 16000 -c 1 -b 16 '\(part)' \(effects)")
                parts.append("'\(part)'")
            }
            let sequence = name == "siren" ? parts + parts : parts
            try ExternalTool.shell(
                "sox \(sequence.joined(separator: " ")) -t raw -r 16000 -e signed -b 16 -c 1 '\(raw).part' && mv '\(raw).part' '\(raw)' && rm -f \(parts.joined(separator: " "))"
            )
        }
        return try readRaw(raw)
    }
}

/// The recorded music: the three tracks of Debian's `asc-music`, decoded to 16 kHz mono and played one after
/// the other.
enum Music {
    /// `count` samples of the soundtrack from `start` seconds into it.
    static func samples(count: Int, from start: Double, cache: URL) throws -> [Float] {
        let raw = cache.appendingPathComponent("music.raw").path
        if !FileManager.default.fileExists(atPath: raw) {
            for track in Programme.musicTracks where !FileManager.default.fileExists(atPath: track) {
                throw ExternalTool.Failure(description: "\(track) is missing: the test programmes need Debian's asc-music (make deps)")
            }
            let list = cache.appendingPathComponent("music.txt").path
            try Programme.musicTracks.map { "file '\($0)'" }.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
            try ExternalTool.run(
                "ffmpeg",
                ["-nostdin", "-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", list, "-ac", "1", "-ar", "16000", "-f", "s16le", raw + ".part"])
            try FileManager.default.moveItem(atPath: raw + ".part", toPath: raw)
        }
        let all = try readRaw(raw)
        // Loop the soundtrack if the programme is longer than it.
        let first = Int(start * Double(Programme.rate)) % all.count
        return (0..<count).map { all[(first + $0) % all.count] }
    }
}

func readRaw(_ path: String) throws -> [Float] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return data.withUnsafeBytes { bytes in bytes.bindMemory(to: Int16.self).map { Float(Int16(littleEndian: $0)) / 32768 } }
}

// MARK: - The cases

extension Programme {
    /// The caption variants every programme is checked with, by name: on time, late, early, drifted (a PAL
    /// conversion, and NTSC's 1001/1000), an advert cut out of the media (the captions 5 s late after it) and
    /// one put in (3 s early after it, at a pause long enough to have held it: the captions' own times never
    /// overlap), three long sentences left uncaptioned, a late live captioner, and two edits (3 s late from a third
    /// of the way, 1.2 s late from 70%).
    package var cases: [(name: String, variant: Variant)] {
        [
            ("sync", .inSync), ("late", .shifted(2.0)), ("early", .shifted(-1.5)),
            ("pal", .drifted(scale: 25 / 23.976, offset: 0.4)), ("ntsc", .drifted(scale: 1.001, offset: -0.3)),
            ("cut", .cut(afterLine: pause(near: 0.55), seconds: 5)),
            ("insert", .cut(afterLine: pause(near: 0.4, atLeast: 3.6), seconds: -3)),
            ("dropped", .dropped(longLines(atLeast: 2, count: 3))), ("captioner", .lateCaptioner(seed: 5)),
            (
                "two-breaks",
                .steps([Step(afterLine: pause(near: 0.3, atLeast: 0.5), seconds: 3), Step(afterLine: pause(near: 0.7, atLeast: 0.5), seconds: 1.2)])
            ),
        ]
    }

    /// The truth as JSON: every line and sound with its media times.
    package var truthJSON: String {
        func number(_ value: Double) -> String { String(format: "%.3f", value) }
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        var json = "{\"media\": \(quoted(media)), \"duration\": \(number(duration)),\n \"lines\": [\n"
        json += lines.map { "  {\"start\": \(number($0.start)), \"end\": \(number($0.end)), \"speaker\": \(quoted($0.speaker)), \"text\": \(quoted($0.text))}" }
            .joined(separator: ",\n")
        json += "],\n \"sounds\": [\n"
        json += sounds.map {
            "  {\"start\": \(number($0.start)), \"end\": \(number($0.end)), \"name\": \(quoted($0.name)), \"caption\": \($0.caption.map(quoted) ?? "null")}"
        }.joined(separator: ",\n")
        return json + "]}\n"
    }
}

// MARK: - For tests

extension Programme {
    private static let testLock = NSLock()
    nonisolated(unsafe) private static var made: [Kind: Programme] = [:]

    /// Bumped whenever how a programme is mixed changes (levels, voices, effects, encoding): programmes already made
    /// by an older recipe are then made anew. What is said and when is in the recipe by itself.
    static let recipeVersion = 2

    /// The programme of `kind` (default length and seed) for tests: made once per machine in the shared test media
    /// folder (TestMediaCache), by its recipe — what is said and played when, this mixing's version and the tools'
    /// versions — and once per process read back from there.
    package static func forTests(_ kind: Kind) throws -> Programme {
        testLock.lock()
        defer { testLock.unlock() }
        if let programme = made[kind] { return programme }
        let layout = try Layout.of(kind, minutes: nil, seed: 17)
        let recipe =
            "Programme v\(recipeVersion) \(kind) \(layout.items) music from \(layout.musicStart) s of \(musicTracks)"
            + (kind == .conversation || kind == .travel ? " ambience \(String(describing: layout.ambience)) voices \(voices.map(\.name))" : "")
            + (kind == .recorded ? " recordings \(RecordedSpeech.fingerprint(layout.recordings))" : "")
        let folder = try TestMediaCache.folder("programme-\(kind.rawValue)", recipe: recipe, tools: ["festival", "espeak-ng", "sox", "ffmpeg"]) {
            _ = try make(kind, in: $0)
        }
        let programme = try make(kind, in: folder)
        made[kind] = programme
        return programme
    }

    /// Where a caption would be shown while nobody speaks: the middle 0.6 s of each pause of 1.2 s or more between
    /// lines, and the middle (up to 2 s) of each stretch of music and each effect of 0.6 s or more that no line
    /// overlaps; each named for the messages of a test.
    package var placesWhereNobodySpeaks: [(start: Double, end: Double, name: String)] {
        var places: [(start: Double, end: Double, name: String)] = []
        for (line, next) in zip(lines, lines.dropFirst()) where next.start - line.end >= 1.2 {
            let middle = (line.end + next.start) / 2
            places.append((middle - 0.3, middle + 0.3, String(format: "a pause at %.1f s", middle)))
        }
        for sound in sounds where sound.end - sound.start >= 0.6 {
            let middle = (sound.start + sound.end) / 2, half = min(1, (sound.end - sound.start) / 2)
            places.append((middle - half, middle + half, String(format: "%@ at %.1f s", sound.name, sound.start)))
        }
        return places.filter { place in !lines.contains { $0.start < place.end + 0.2 && $0.end > place.start - 0.2 } }.sorted { $0.start < $1.start }
    }

    /// How far each cue of `document` that carries a line starts from that line's speech (seconds; positive: late).
    package func startErrors(of document: CaptionDocument) -> [Double] {
        document.cues.compactMap { cue in line(ofCueText: cue.plainText(in: document.format)).map { cue.start.seconds - $0.start } }
    }

    /// The line a cue's text carries (the speaker's name and line breaks taken out), or nil (a sound's cue).
    func line(ofCueText text: String) -> Line? {
        var words = text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "♪", with: "").trimmingCharacters(in: .whitespaces)
        if let colon = words.firstIndex(of: ":"), words[..<colon].allSatisfy({ $0.isUppercase }) {
            words = String(words[words.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        }
        return lines.first { $0.text == words }
    }
}

extension Programme.Kind {
    /// How long a programme of the kind is unless asked otherwise.
    package var defaultMinutes: Double {
        switch self {
        case .lecture: 7
        case .travel, .recorded: 4.5
        default: 3.5
        }
    }
}
