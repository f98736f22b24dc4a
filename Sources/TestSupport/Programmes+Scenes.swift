import Basics
import Foundation

// The conversation and the travel show: the hard cases of real programmes for the sync check, made from Debian's
// voices (festival's, espeak-ng's in several languages), recorded game music (hyperrogue-music, singularity-music) and
// sounds made by sox.

extension Layout {
    /// Recorded music for the scenes, by character (measured, not by genre: the packages do not say): a beat-driven
    /// track, a sustained one without a beat (most of it taken for speech by the detector of 2026-11), a slow pulse with
    /// almost no treble, and two more for the song's backing and the party.
    static let beatDriven = "/usr/share/hyperrogue/music/hr3-icyland.ogg"
    static let sustained = "/usr/share/hyperrogue/music/hr-savino-palace.ogg"
    static let pulse = "/usr/share/games/singularity/music/Enemy Unknown.ogg"
    static let backing = "/usr/share/hyperrogue/music/hr3-caves.ogg"
    static let sceneTracks = [beatDriven, sustained, pulse, backing]
    /// Recorded effects (hyperrogue-music's sounds) and their lengths.
    static let recordedEffects: [(path: String, seconds: Double)] = [
        ("/usr/share/hyperrogue/sounds/closegate.ogg", 2.0), ("/usr/share/hyperrogue/sounds/levelup.ogg", 5.0),
        ("/usr/share/hyperrogue/sounds/explosion.ogg", 0.65),
    ]

    /// Replies of a word or two, and a word with the rest of the line after a pause.
    static let shortReplies = [
        "Truly?", "You think?", "Why?", "Sure.", "Never.", "Right.", "Yes.", "No.", "Indeed.", "Perhaps.", "Honestly?", "Thanks.",
        "Whatever.", "Tonight?", "Agreed.", "Nonsense.", "Seriously?", "Certainly.", "Where?", "When?", "Gone.", "Quiet!", "Hello?", "Done.",
    ]
    static let firstWords = [
        "Fair.", "Look.", "Wait.", "Fine.", "Listen.", "Well.", "Okay.", "Hey.", "Right then.", "Honestly.", "See?", "Stop.",
        "Careful.", "Enough.", "Please.", "Sorry.", "Oh.", "Ready?", "Hush.", "Now.",
    ]
    static let afterAPause = [
        "Poor later.", "Not now.", "Ask her yourself.", "We leave at noon.", "It was the blue one.", "Keep it quiet.",
        "I told you so.", "Nobody saw it.", "Try the other door.", "Maybe tomorrow.", "The car is outside.", "Bring the map.",
        "She called again.", "It starts at eight.", "Take the small one.", "He missed the train.", "Close the window.",
        "The shop was shut.", "Call me later.", "Leave it there.",
    ]

    /// A fast dialogue of about `seconds`: six voices in turn (among them a speaker in an echoing hall, a caller on the
    /// telephone and a quiet one), lines of half a second to a few seconds with short gaps, every fourth line a short
    /// word, a pause of 0.5–0.9 s and the rest; café babble 22 dB under the speech; a party (beat-driven music 6 dB
    /// under the speech, under 30 s of lines).
    mutating func conversation(seconds: Double) {
        ambience = ("babble", 22)
        let voices = [0, 1, 4, 5, 12, 3]
        var spoken = 2.5
        var turn = 0
        var party = false
        while spoken < seconds - 3 {
            if !party, spoken > seconds * 0.45 {
                items.append((0.3, .track(path: Self.beatDriven, from: 40, seconds: 30, belowSpeech: 6, under: true, caption: nil)))
                party = true
            }
            let voice = voices[turn % voices.count]
            let gap = turn == 0 ? 2.5 : Double.random(in: 0.25...0.7, using: &random)
            switch turn % 4 {
            case 1:
                let word = Self.shortReplies[(turn / 4) % Self.shortReplies.count] + (turn / 4 >= Self.shortReplies.count ? " \(turn / 4)" : "")
                items.append((gap, .line(text: word, voice: voice)))
                spoken += gap + 0.5
            case 3:
                let word = Self.firstWords[(turn / 4) % Self.firstWords.count]
                let rest = Self.afterAPause[(turn / 4) % Self.afterAPause.count] + (turn / 4 >= Self.afterAPause.count ? " \(turn / 4)" : "")
                let pause = Double.random(in: 0.5...0.9, using: &random)
                items.append((gap, .compound(first: word, pause: pause, rest: rest, voice: voice)))
                spoken += gap + pause + 0.5 + Self.estimate(rest)
            default:
                spoken += speak(1, voice: voice, gaps: gap...gap)
            }
            turn += 1
        }
    }

    /// A travel show of about `seconds`: presenters in Korean, Spanish, Catalan, Italian, German and English with
    /// long pauses of digital silence (no bed, no room tone), recorded effects (a gate, a fanfare, an explosion) and a
    /// horn now and then, three uncaptioned
    /// instrumental interludes of 20–30 s (the sustained track 4 dB under the speech, the beat-driven one and the
    /// pulse), and a song of four sung lines, each captioned ♪ … ♪, over its backing 9 dB down.
    mutating func travel(seconds: Double) {
        var spoken = 1.5
        let presenters = [6, 7, 8, 9, 10, 11, 0]
        var phrases = TravelPhrases()
        var stop = 0
        let interludes = [(Self.sustained, 30.0, 4.0), (Self.beatDriven, 20.0, 0.0), (Self.pulse, 20.0, 0.0)]
        var song = false
        while spoken < seconds - 5 {
            let voice = presenters[stop % presenters.count]
            for _ in 0..<Int.random(in: 2...4, using: &random) {
                let gap = items.isEmpty ? 2.5 : Double.random(in: 0.4...1.6, using: &random)
                let text = phrases.next(for: voice)
                items.append((gap, .line(text: text, voice: voice)))
                spoken += gap + Self.estimate(text) * 1.2
            }
            // Digital silence between stops.
            let quiet = Double.random(in: 3...7, using: &random)
            spoken += quiet
            if stop < interludes.count, stop % 2 == 0 || stop == 1 {
                let (track, length, below) = interludes[stop]
                items.append((quiet, .track(path: track, from: 20, seconds: length, belowSpeech: below, under: false, caption: nil)))
                spoken += length
            } else if !song {
                items.append((quiet, .track(path: Self.backing, from: 10, seconds: 34, belowSpeech: 9, under: true, caption: nil)))
                for (index, line) in Self.song.enumerated() { items.append((index == 0 ? 2 : 0.8, .sung(text: line.text, notes: line.notes, bpm: 96))) }
                spoken += 34
                song = true
            } else {
                // Recorded effects from the game's sounds (a gate, a fanfare, an explosion), or a horn made by sox.
                let pick = stop % (Self.recordedEffects.count + 1)
                if pick < Self.recordedEffects.count {
                    let (path, length) = Self.recordedEffects[pick]
                    items.append((quiet, .track(path: path, from: 0, seconds: length, belowSpeech: 0, under: false, caption: nil)))
                } else {
                    items.append((quiet, .effect(name: "horn", caption: nil)))
                }
            }
            stop += 1
        }
    }

    /// The song: four lines, each a run of syllables with notes and beats (a tune written for these tests).
    static let song: [(text: String, notes: [Note])] = [
        ("Walking home along the shore", notes("Walk:G3:1 ing:A3:1 home:B3:2 a:D4:1 long:B3:1 the:A3:1 shore:G3:3")),
        ("Counting lights upon the sea", notes("Count:G3:1 ing:A3:1 lights:B3:2 up:C4:1 on:B3:1 the:A3:1 sea:D4:3")),
        ("Every window burning bright", notes("Ev:E4:1 ery:D4:1 win:B3:1 dow:A3:1 burn:G3:1 ing:A3:1 bright:B3:3")),
        ("Someone waiting there for me", notes("Some:D4:1 one:B3:1 wait:A3:1 ing:G3:1 there:A3:1 for:B3:1 me:G3:4")),
    ]

    private static func notes(_ text: String) -> [Note] {
        text.split(separator: " ").map { part in
            let fields = part.split(separator: ":")
            return Note(syllable: String(fields[0]), pitch: String(fields[1]), beats: Double(fields[2]) ?? 1)
        }
    }
}

/// What the travel show's presenters say, in their languages (written for these tests), none twice.
struct TravelPhrases {
    var used: [Int: Int] = [:]

    static let byVoice: [Int: [String]] = [
        6: [
            "오늘 아침 시청 앞 광장에서 새 다리가 문을 열었습니다.", "시장 상인들은 주말 손님이 두 배로 늘었다고 말합니다.",
            "이 골목은 오래된 찻집으로 유명합니다.", "강을 따라 걷는 길이 가장 인기가 많습니다.", "저녁이 되면 항구에 불빛이 켜집니다.",
            "이곳 주민들은 매년 봄 축제를 준비합니다.",
        ],
        7: [
            "전화 인터뷰에서 관장은 전시가 한 달 연장된다고 밝혔습니다.", "기차역 근처 식당은 아침 일찍 문을 엽니다.",
            "관광객들은 언덕 위 전망대로 향합니다.", "날씨가 좋으면 섬까지 배가 다닙니다.", "박물관 입장료는 올해 그대로입니다.",
        ],
        8: [
            "Hoy visitamos el mercado más antiguo de la ciudad.", "Los pescadores vuelven al puerto antes del mediodía.",
            "En esta plaza se baila todos los domingos.", "El museo abre sus puertas a las diez.", "La calle principal está llena de turistas.",
        ],
        9: [
            "Avui passegem pel barri vell de la ciutat.", "Els veïns preparen la festa major del poble.",
            "Aquest forn fa el millor pa de la comarca.", "Des del campanar es veu tot el port.",
        ],
        10: [
            "Oggi siamo nella piazza più bella della città.", "Il treno per la costa parte ogni ora.",
            "Questa gelateria è aperta da cento anni.", "Dal ponte si vede tutto il lago.",
        ],
        11: [
            "Heute besuchen wir den alten Hafen der Stadt.", "Die Fähre fährt jede halbe Stunde zur Insel.",
            "In diesem Café trifft sich das ganze Viertel.", "Der Markt beginnt schon um sieben Uhr.",
        ],
        0: [
            "Our last stop is a small harbour town in the south.", "The ferry leaves every half hour in the summer.",
            "Locals say the best view is from the lighthouse.", "Tomorrow we head north along the coast.",
        ],
    ]

    /// The next phrase for `voice` (cycling, with a number once the list is used).
    mutating func next(for voice: Int) -> String {
        let list = Self.byVoice[voice] ?? Self.byVoice[0]!
        let index = used[voice, default: 0]
        used[voice] = index + 1
        return list[index % list.count] + (index >= list.count ? " \(index / list.count + 1)." : "")
    }
}

/// Sung lines: festival's singing mode (kal's voice), 16 kHz mono, silence trimmed.
enum Singer {
    static func sing(_ notes: [Layout.Note], bpm: Int, cache: URL) throws -> [Float] {
        let key = FNV1a.hex("\(bpm) \(notes)")
        let raw = cache.appendingPathComponent("sung-\(key).raw").path
        if !FileManager.default.fileExists(atPath: raw) {
            let xml = cache.appendingPathComponent("sung-\(key).xml").path
            let wav = cache.appendingPathComponent("sung-\(key).wav").path
            var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE SINGING PUBLIC \"-//SINGING//DTD SINGING mark up//EN\" \"Singing.v0_1.dtd\" []>\n"
            text += "<SINGING BPM=\"\(bpm)\">\n"
            for note in notes { text += "<PITCH NOTE=\"\(note.pitch)\"><DURATION BEATS=\"\(note.beats)\">\(note.syllable)</DURATION></PITCH>\n" }
            text += "</SINGING>\n"
            try text.write(toFile: xml, atomically: true, encoding: .utf8)
            try ExternalTool.shell(
                "text2wave -mode singing -eval '(voice_kal_diphone)' '\(xml)' -o '\(wav)'"
                    + " && sox '\(wav)' -t raw -r 16000 -e signed -b 16 -c 1 '\(raw).part' silence 1 0.02 0.5% reverse silence 1 0.02 0.5% reverse"
                    + " && mv '\(raw).part' '\(raw)' && rm -f '\(wav)' '\(xml)'")
        }
        return try readRaw(raw)
    }
}

extension Music {
    /// `seconds` of the recorded track at `path` from `from` seconds into it, 16 kHz mono.
    static func track(_ path: String, from: Double, seconds: Double, cache: URL) throws -> [Float] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ExternalTool.Failure(description: "\(path) is missing: the test programmes need Debian's hyperrogue-music and singularity-music (make deps)")
        }
        let raw = cache.appendingPathComponent("track-\(FNV1a.hex("\(path) \(from) \(seconds)")).raw").path
        if !FileManager.default.fileExists(atPath: raw) {
            try ExternalTool.run(
                "ffmpeg",
                [
                    "-nostdin", "-v", "error", "-y", "-ss", "\(from)", "-t", "\(seconds)", "-i", path, "-ac", "1", "-ar", "16000", "-f", "s16le",
                    raw + ".part",
                ])
            try FileManager.default.moveItem(atPath: raw + ".part", toPath: raw)
        }
        return try readRaw(raw)
    }
}

extension Effects {
    /// Café babble: six of espeak-ng's voices saying the programmes' sentences at once, muffled (20 s, looped).
    static func babble(cache: URL) throws -> [Float] {
        let raw = cache.appendingPathComponent("effect-babble.raw").path
        if !FileManager.default.fileExists(atPath: raw) {
            var sentences = SentenceMaker(seed: 99)
            var layers: [String] = []
            for (index, voice) in ["en-us+m1", "en-gb+f2", "en-us+f4", "en+m4", "en-gb+m2", "en-us+f1"].enumerated() {
                let text = (0..<6).map { _ in sentences.next() }.joined(separator: " ")
                let file = cache.appendingPathComponent("babble-\(index).txt").path
                let wav = cache.appendingPathComponent("babble-\(index).wav").path
                try text.write(toFile: file, atomically: true, encoding: .utf8)
                try ExternalTool.shell(
                    "espeak-ng -v \(voice) -s \(150 + index * 8) -w '\(wav).dry.wav' -f '\(file)' && sox '\(wav).dry.wav' -r 16000 '\(wav)' pad \(Double(index) * 0.7) 0 trim 0 20 && rm -f '\(wav).dry.wav' '\(file)'"
                )
                layers.append("'\(wav)'")
            }
            try ExternalTool.shell(
                "sox -m \(layers.joined(separator: " ")) -t raw -r 16000 -e signed -b 16 -c 1 '\(raw).part' lowpass 2500 reverb 40 && mv '\(raw).part' '\(raw)' && rm -f \(layers.joined(separator: " "))"
            )
        }
        return try readRaw(raw)
    }
}
