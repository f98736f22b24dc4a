import CPocketSphinx
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where an acoustic model and its pronunciation dictionary are installed.
public struct AcousticModel: Sendable, Equatable {
    /// The language the model knows (BCP 47 primary tag: `en`).
    public var language: String
    /// The model's folder (HMM: `mdef`, `means` …) and its dictionary file.
    public var folder: String
    public var dictionary: String

    public init(language: String, folder: String, dictionary: String) {
        self.language = language
        self.folder = folder
        self.dictionary = dictionary
    }

    /// US English as Debian's `pocketsphinx-en-us` installs it.
    public static let englishUS = AcousticModel(
        language: "en", folder: "/usr/share/pocketsphinx/model/en-us/en-us", dictionary: "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict")

    /// Whether the model's files are there.
    public var isInstalled: Bool {
        access(folder + "/mdef", R_OK) == 0 && access(dictionary, R_OK) == 0
    }
}

/// Why a word aligner could not be made or used.
public struct AlignmentError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A word found in the audio: its place in the words asked for, its times (seconds from the start of the samples) and
/// its acoustic score per frame (log-likelihood, natural log; higher is better).
public struct AlignedWord: Sendable, Equatable {
    public var index: Int
    public var word: String
    public var start: Double
    public var end: Double
    public var scorePerFrame: Double
    /// How well it fits against the programme's words: the share of them that fit worse (0–1; set when the cues are
    /// judged together, nil before).
    public var confidence: Double?
}

/// The words of a text forced onto a stretch of audio.
public struct WordAlignment: Sendable, Equatable {
    /// Whether the search reached the end of the text (false: the audio does not hold these words in this order, or
    /// holds too little of them).
    public var completed: Bool
    /// The words aligned, in order (every word of the text when completed).
    public var words: [AlignedWord]
    /// The acoustic score per frame of the words together (the silences and fillers between them left out).
    public var scorePerFrame: Double
    /// Frames (10 ms) covered by the words.
    public var frames: Int
}

/// How closely a search scores the audio against the acoustic model.
public enum SearchPrecision: Sendable, Hashable {
    /// Every frame's nearest Gaussians found afresh.
    case exact
    /// Every third frame's found afresh, the two between scored on the Gaussians nearest the frame before (PocketSphinx's
    /// `-ds 3`): a third less work, and scores a little less steady — for a first look after which the doubtful cases
    /// are searched again exactly.
    case screening
}

/// Forces a text onto audio with PocketSphinx: a one-rule grammar of the text's words in order (silences and breaths
/// allowed between them), searched over 16 kHz mono samples. One aligner is one decoder, made again when a search asks
/// for another precision (group the searches of each): use it from one thread at a time (make one per thread).
public final class WordAligner {
    /// The sample rate the models expect.
    public static let sampleRate = 16_000
    /// Frames a second of the front end (the times of words are in frames).
    static let framesPerSecond = 100.0

    public let model: AcousticModel
    /// Alignments already made (nil: none kept): the same words on the same audio are not searched again.
    public var memo: AlignmentMemo?
    private var decoder: OpaquePointer
    /// How closely `decoder` searches.
    private var precision = SearchPrecision.exact
    /// Words added (with their phones), for a decoder made again.
    private var added: [(word: String, phones: String)] = []
    private var grammars = 0

    public init(model: AcousticModel = .englishUS) throws(AlignmentError) {
        guard model.isInstalled else {
            throw AlignmentError("no acoustic model at \(model.folder) (Debian: apt-get install pocketsphinx-en-us)")
        }
        self.model = model
        guard let decoder = Self.decoder(model, precision: .exact) else {
            throw AlignmentError("PocketSphinx could not load the acoustic model at \(model.folder)")
        }
        self.decoder = decoder
    }

    private static func decoder(_ model: AcousticModel, precision: SearchPrecision) -> OpaquePointer? {
        medialint_ps_quiet()
        let arguments =
            [
                "-hmm", model.folder, "-dict", model.dictionary, "-samprate", "16000",
                // Frame times must stay where the audio is: no silence removal before the search.
                "-remove_silence", "no", "-remove_noise", "yes", "-logfn", "/dev/null",
            ] + (precision == .screening ? ["-ds", "3"] : [])
        var pointers = arguments.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { medialint_ps_init(Int32($0.count), $0.baseAddress) }
    }

    /// The decoder of searches at `precision`: made again (with the words added) when the one there searches at
    /// another (one at a time: each holds the model and the dictionary). The one there when another cannot be made.
    private func decoder(for precision: SearchPrecision) -> OpaquePointer {
        guard precision != self.precision, let made = Self.decoder(model, precision: precision) else { return decoder }
        for (word, phones) in added { _ = ps_add_word(made, word, phones, 1) }
        ps_free(decoder)
        decoder = made
        self.precision = precision
        return made
    }

    deinit { ps_free(decoder) }

    /// Whether the dictionary knows `word` (lower case).
    public func knows(_ word: String) -> Bool {
        guard let phones = ps_lookup_word(decoder, word) else { return false }
        free(phones)
        return true
    }

    /// How many phones the dictionary (or the words added) gives `word` (lower case; its first pronunciation), nil when
    /// it does not know it.
    public func phoneCount(_ word: String) -> Int? {
        guard let phones = ps_lookup_word(decoder, word) else { return nil }
        defer { free(phones) }
        return String(cString: phones).split(separator: " ").count
    }

    /// Adds `word` with its phones (CMU ARPAbet, space-separated: `HH AH L OW`) for the words aligned after.
    public func add(_ word: String, phones: String) -> Bool {
        guard ps_add_word(decoder, word, phones, 1) >= 0 else { return false }
        added.append((word, phones))
        return true
    }

    /// Forces `words` (lower case, each known to the dictionary) onto `samples` (16 kHz mono, −1…1). Nil when the
    /// decoder refuses the grammar (a word it does not know).
    public func align(_ samples: UnsafeBufferPointer<Float>, words: [String], precision: SearchPrecision = .exact) -> WordAlignment? {
        guard !words.isEmpty else { return nil }
        return searched(samples, key: words, grammar: words.joined(separator: " "), precision: precision) { found in found.count == words.count }
    }

    /// Forces the one of `alternatives` (each words as `align` takes them) that fits best onto `samples`, in one search:
    /// which it was (by index; the first that reads as what was found, when two read alike), and its alignment. The
    /// alignment is not completed when none could be fitted whole. Nil when the decoder refuses the grammar.
    public func align(
        _ samples: UnsafeBufferPointer<Float>, anyOf alternatives: [[String]], precision: SearchPrecision = .exact
    ) -> (choice: Int?, alignment: WordAlignment)? {
        guard !alternatives.isEmpty, alternatives.allSatisfy({ !$0.isEmpty }) else { return nil }
        let grammar = "( " + alternatives.map { $0.joined(separator: " ") }.joined(separator: " | ") + " )"
        let key = alternatives.flatMap { $0 + ["|"] }
        guard
            let alignment = searched(samples, key: key, grammar: grammar, precision: precision, completes: { found in alternatives.contains(found) })
        else { return nil }
        let found = alignment.words.map(\.word)
        return (alignment.completed ? alternatives.firstIndex(of: found) : nil, alignment)
    }

    /// The search of `grammar` (a JSGF rule's body) on `samples` with their noise floor, or what `memo` kept under `key`;
    /// `completes` tells whether the words found are a whole reading of the grammar.
    private func searched(
        _ samples: UnsafeBufferPointer<Float>, key words: [String], grammar: String, precision: SearchPrecision, completes: ([String]) -> Bool
    ) -> WordAlignment? {
        guard !samples.isEmpty else { return nil }
        var pcm = [Int16](repeating: 0, count: samples.count)
        let floor = Self.noiseFloor(below: samples)
        var noise = FloorNoise()
        for i in 0..<samples.count {
            pcm[i] = Int16(max(-32767, min(32767, ((samples[i] + floor * noise.next()) * 32767).rounded())))
        }
        let decoder = decoder(for: precision)
        guard let memo else { return search(pcm, grammar: grammar, decoder: decoder, completes: completes) }
        let key = AlignmentMemo.Key(pcm, words: words, precision: precision)
        if let known = memo.alignment(for: key) { return known }
        let found = search(pcm, grammar: grammar, decoder: decoder, completes: completes)
        memo.keep(found, for: key)
        return found
    }

    /// How far below the audio's loud part (dB) the noise floor given to the search lies: a quiet studio's.
    public static let floorBelowSpeech = 50.0

    /// The RMS amplitude of the noise floor for `samples`: `floorBelowSpeech` below the level their loudest fifth of
    /// 20 ms frames reaches (0 for silence). The acoustic model was trained on recordings, which always have a floor;
    /// over digital silence — synthetic speech, a muted stretch, bands a low-pass emptied — the front end's log
    /// energies hang on the last bits of a sample, and noise 80 dB below full scale moved a cue's fit by a quarter.
    static func noiseFloor(below samples: UnsafeBufferPointer<Float>) -> Float {
        let frame = sampleRate / 50
        var levels: [Float] = []
        var start = 0
        while start + frame <= samples.count {
            var energy: Float = 0
            for k in start..<(start + frame) { energy += samples[k] * samples[k] }
            levels.append(energy / Float(frame))
            start += frame
        }
        guard !levels.isEmpty else { return 0 }
        levels.sort()
        let loud = levels[levels.count * 4 / 5].squareRoot()
        return loud * Float(pow(10, -floorBelowSpeech / 20))
    }

    /// The search itself: `grammar` forced onto `pcm` (16 kHz mono, 16-bit) by `decoder`.
    private func search(_ pcm: [Int16], grammar: String, decoder: OpaquePointer, completes: ([String]) -> Bool) -> WordAlignment? {
        grammars += 1
        let name = "cue\(grammars)"
        guard ps_set_jsgf_string(decoder, name, "#JSGF V1.0;\ngrammar cue;\npublic <cue> = \(grammar);\n") == 0,
            ps_set_search(decoder, name) == 0
        else { return nil }
        defer { ps_unset_search(decoder, name) }
        // Each search a stream of its own: the noise level the front end tracks starts afresh, so what is found for
        // these words on this audio does not depend on what the decoder heard before.
        guard ps_start_stream(decoder) >= 0, ps_start_utt(decoder) >= 0 else { return nil }
        _ = pcm.withUnsafeBufferPointer { ps_process_raw(decoder, $0.baseAddress, $0.count, 0, 1) }
        ps_end_utt(decoder)
        var score: Int32 = 0
        guard ps_get_hyp(decoder, &score) != nil else {
            return WordAlignment(completed: false, words: [], scorePerFrame: -.infinity, frames: 0)
        }
        let logBase = Self.logBase(of: decoder)
        var aligned: [AlignedWord] = []
        var totalScore = 0.0, totalFrames = 0
        var segment = ps_seg_iter(decoder)
        while let current = segment {
            let word = String(cString: ps_seg_word(current))
            var first: Int32 = 0, last: Int32 = 0
            ps_seg_frames(current, &first, &last)
            var acoustic: Int32 = 0, language: Int32 = 0, backoff: Int32 = 0
            _ = ps_seg_prob(current, &acoustic, &language, &backoff)
            let frames = Int(last - first + 1)
            if !Self.isFiller(word), frames > 0 {
                let base = Self.baseWord(word)
                aligned.append(
                    AlignedWord(
                        index: aligned.count, word: base, start: Double(first) / Self.framesPerSecond, end: Double(last + 1) / Self.framesPerSecond,
                        scorePerFrame: Double(acoustic) * logBase / Double(frames)))
                totalScore += Double(acoustic) * logBase
                totalFrames += frames
            }
            segment = ps_seg_next(current)
        }
        let completed = completes(aligned.map(\.word))
        return WordAlignment(
            completed: completed, words: aligned, scorePerFrame: totalFrames > 0 ? totalScore / Double(totalFrames) : -.infinity, frames: totalFrames)
    }

    /// The natural log of the decoder's log base (scores are integers in that base).
    private static func logBase(of decoder: OpaquePointer) -> Double {
        guard let logmath = ps_get_logmath(decoder) else { return 1 }
        return log(logmath_get_base(logmath))
    }

    /// Silences and fillers: `<s>`, `</s>`, `<sil>`, `[NOISE]`, `++BREATH++`.
    static func isFiller(_ word: String) -> Bool {
        word.hasPrefix("<") || word.hasPrefix("[") || word.hasPrefix("++")
    }

    /// `read(2)` → `read`: the dictionary's alternative pronunciations are one word.
    static func baseWord(_ word: String) -> String {
        guard let open = word.firstIndex(of: "("), word.hasSuffix(")") else { return word }
        return String(word[..<open])
    }
}

/// Alignments already made, by the audio searched and the words: the same words forced onto the same audio again (a
/// check run again over a programme with a few cues changed, as tests do) are found here, not searched. One memo may be
/// shared by aligners on several threads; it keeps what it is given for as long as it lives.
public final class AlignmentMemo: Sendable {
    /// The audio (its 16-bit samples, hashed, and how many), the words and how closely they were searched.
    struct Key: Hashable {
        var audio: Int
        var count: Int
        var words: [String]
        var precision: SearchPrecision

        init(_ pcm: [Int16], words: [String], precision: SearchPrecision) {
            var hasher = Hasher()
            pcm.withUnsafeBytes { hasher.combine(bytes: $0) }
            audio = hasher.finalize()
            count = pcm.count
            self.words = words
            self.precision = precision
        }
    }

    private let kept = Mutex<[Key: WordAlignment?]>([:])

    public init() {}

    func alignment(for key: Key) -> WordAlignment?? { kept.withLock { $0[key] } }

    func keep(_ alignment: WordAlignment?, for key: Key) { kept.withLock { $0[key] = alignment } }
}

/// White noise of unit RMS, the same sequence for every search (so that what is found depends on the audio alone): a
/// 64-bit linear congruential generator's top bits, uniform in ±√3.
struct FloorNoise {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func next() -> Float {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (Float(state >> 40) / Float(1 << 24) * 2 - 1) * 1.732_050_8
    }
}
