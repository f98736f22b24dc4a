import Basics
import Captions
import Findings
import Foundation
import MediaIO
import SpeechAlignment
import SyncAnalysis

/// Checks that a caption file says what is spoken: its cues put on the speech by the sync fit, then each cue's words
/// forced onto the audio of its time (SpeechAlignment) as the audio is decoded, and judged against the programme's other
/// cues. The `accuracy` check result, with every cue's words and where they were found.
public struct AccuracyCheck: Sendable {
    public var alignment = CaptionAccuracyCheck()
    /// The acoustic model; captions in another language are not verified.
    public var model = AcousticModel.englishUS
    /// The language of captions that do not say theirs (BCP 47; nil: judged by their words).
    public var language: String?
    /// Told how far the first pass over the audio has come (media seconds), as each cue's window is aligned: for a
    /// progress line.
    public var progress: (@Sendable (Double) -> Void)?

    public init() {}

    /// What checking one caption source found.
    public struct Outcome: Sendable {
        public var result: CheckResult
        /// Per cue of the document: what was found (empty when nothing was looked at).
        public var cues: [CueAccuracy]
        /// The cues as looked for: at the times the sync fit put them, with their plain text.
        public var placed: [CaptionedSpeech] = []
    }

    static let guidelines = ["WCAG 1.2.2", "KWCAG 1.2", "47 CFR 79.1(j)"]

    /// Checks `captions` (named `source`) against the audio of `path` (stream `audioStream`, nil: the main one). `fix`
    /// is the sync check's retiming of the captions (nil: their times as they are); `language` the captions' language
    /// when known (BCP 47). `speech`, when given, is that stream's speech: its kept audio is read instead of decoding
    /// the media again.
    public func check(
        path: String, media: MediaInfo, captions: CaptionDocument, source: String, fix: SyncFix?, language: String?, audioStream: Int? = nil,
        speech: MediaSpeech? = nil
    ) throws(MediaError) -> Outcome {
        try check(
            audio: speech?.audio.map { .spooled($0) } ?? .file(path, stream: audioStream), path: path, duration: media.duration,
            hasAudio: audioStream != nil || !media.streams(of: .audio).isEmpty, captions: captions, source: source, fix: fix, language: language)
    }

    /// Checks `captions` (named `source`) against `audio`, the sound of the media at `path` (`duration` seconds long;
    /// `hasAudio`: whether it has any).
    public func check(
        audio: AccuracyAudio, path: String, duration: Double?, hasAudio: Bool, captions: CaptionDocument, source: String, fix: SyncFix?,
        language: String?
    ) throws(MediaError) -> Outcome {
        let shift = fix.map { $0.edit(at: captions.cues.first?.start.seconds ?? 0).offset } ?? 0
        func unverified(_ reason: String) -> Outcome {
            let metrics = AccuracyMetrics(
                captions: source, language: model.language, cues: captions.cues.count, checked: 0, wrongText: 0, wordsUnmatched: 0,
                unverifiable: captions.cues.count,
                timingShift: shift, cueWords: [])
            let finding = Rule.accuracyUnverifiable.finding(
                message: "caption text not verified: \(reason)", start: captions.cues.map(\.start).min()?.seconds,
                end: captions.cues.map(\.end).max()?.seconds)
            return Outcome(result: CheckResult(file: path, verdict: .unverified, findings: [finding], metrics: metrics), cues: [])
        }
        if let language = language ?? self.language, let primary = language.split(separator: "-").first?.lowercased(),
            !["und", "mul", "zxx", ""].contains(primary),
            primary != model.language, !(model.language == "en" && primary == "eng")
        {
            return unverified("the captions are in \(language), and the only acoustic model is for \(model.language)")
        }
        // English needs espeak-ng too: its letter-to-sound rules pronounce the words the dictionary lacks (names, new
        // words). Without it those would be judged unsaid: an error, not a quieter check.
        if model.language == "en", Self.espeakNG == nil {
            let finding = Rule.accuracyUnverifiable.finding(
                severity: .error,
                message:
                    "accuracy needs espeak-ng, which pronounces the words the dictionary lacks (names, new words), and it is not on the PATH: install it (Debian: apt-get install espeak-ng)"
            )
            return Outcome(result: CheckResult(file: path, check: .accuracy, verdict: .error, findings: [finding]), cues: [])
        }
        guard hasAudio else { return unverified("the media has no audio stream") }
        guard !captions.cues.isEmpty else { return unverified("the captions have no cues") }
        // A programme has a caption every few seconds; many more than that are not captions of its speech (and each
        // costs an alignment).
        if let duration, Double(captions.cues.count) > max(100, 4 * duration) {
            return unverified("\(captions.cues.count) cues for \(Int(duration.rounded())) s of media: more than four a second")
        }
        let aligner: WordAligner
        do { aligner = try WordAligner(model: model) } catch { return unverified(error.description) }

        // The cues on the speech: each moved by the edit of the part of the captions it is in.
        let placed = captions.cues.map { cue in
            let edit = fix?.edit(at: cue.start.seconds) ?? TimingEdit()
            return CaptionedSpeech(
                start: edit.apply(to: cue.start).seconds, end: edit.apply(to: cue.end).seconds, text: cue.plainText(in: captions.format))
        }
        // Captions of unknown language: English ones have most of their words in the English dictionary — a file as a
        // whole (hardly any: not English at all), and each cue (a programme in several languages: its other cues).
        let (foreign, knownShare) = CaptionAccuracyCheck.otherLanguage(placed, aligner: aligner)
        if let knownShare, knownShare < 0.2 {
            return unverified(
                "the captions do not read as \(languageName): \(Int(knownShare * 100))% of their words are in its pronunciation dictionary")
        }
        // Words the dictionary lacks (names, coinages) in the other cues: pronounced by espeak-ng's letter-to-sound rules.
        if model.language == "en" {
            let unknown = placed.indices.filter { !foreign.contains($0) }.flatMap { SpokenWords.of(placed[$0].text) }.filter { !aligner.knows($0) }
            for (word, phones) in Self.pronunciations(of: Array(Set(unknown)).sorted()) {
                _ = aligner.add(word, phones: phones)
            }
        }
        let judged = try alignAndPlace(placed, audio: audio, aligner: aligner, otherLanguage: foreign)
        return Outcome(
            result: result(judged, placed: placed, captions: captions, path: path, source: source, shift: shift), cues: judged.cues, placed: placed)
    }

    /// The first pass: each cue aligned as soon as the audio of its window is read (and, for some, a decoy's text:
    /// `CaptionAccuracyCheck.decoy`); when it was screened, the doubtful cues searched again exactly; when cues were
    /// judged wrong text, their words looked for again in wider windows; last, the cues with a word far below the
    /// programme's looked at word by word. Each later pass reads the audio again (the kept audio, when there is some).
    private func alignAndPlace(
        _ cues: [CaptionedSpeech], audio: AccuracyAudio, aligner: WordAligner, otherLanguage: Set<Int>
    ) throws(MediaError) -> ProgrammeAccuracy {
        var results = [CueAccuracy?](repeating: nil, count: cues.count)
        var decoys: [Double] = []
        let precision = alignment.firstPassPrecision(cueCount: cues.count)
        try Self.forEachWindow(cues.map { alignment.window(of: $0) }, of: audio.open()) { index, samples, time in
            progress?(time + Double(samples.count) / Double(WordAligner.sampleRate))
            if otherLanguage.contains(index) {
                results[index] = .unverifiable(index, .otherLanguage)
                return
            }
            let aligned = alignment.align(cues[index], index: index, samples: samples, at: time, aligner: aligner, precision: precision)
            results[index] = aligned
            if let decoy = alignment.decoy(for: index, in: cues), !otherLanguage.contains(decoy),
                let fit = alignment.decoyFit(cues[decoy].text, samples: samples, in: aligned, aligner: aligner, precision: precision)
            {
                decoys.append(fit)
            }
        }
        var first = results.enumerated().map { index, result in result ?? .unverifiable(index, .noAudio) }
        // Screened: the cues not clearly right searched again exactly, as the audio is read once more.
        var shift: ScreeningShift?
        if precision == .screening {
            let again = alignment.rechecks(first, decoys: decoys, cues: cues)
            var exact: [Int: CueAccuracy] = [:]
            try Self.forEachWindow(again.map { alignment.window(of: cues[$0]) }, of: audio.open()) { k, samples, time in
                exact[again[k]] = alignment.align(cues[again[k]], index: again[k], samples: samples, at: time, aligner: aligner)
            }
            (first, shift) = alignment.rescored(first, exact: exact, cues: cues)
        }
        let judged = alignment.judge(first, decoys: decoys)
        let windows = alignment.relocationWindows(judged, cues: cues)
        var relocated: [Int: [CueAccuracy]] = [:]
        if !windows.isEmpty {
            try Self.forEachWindow(windows.map(\.window), of: audio.open()) { k, samples, time in
                let index = windows[k].cue
                let found = alignment.align(cues[index], index: index, samples: samples, at: time, aligner: aligner)
                relocated[index, default: []].append(shift.map { found.onScreeningScale($0) } ?? found)
            }
        }
        let placed = alignment.place(judged, cues: cues, relocated: relocated)
        // Last, a cue with one word far below the programme's: looked at word by word, as the audio is read once more.
        let looks = alignment.wordLooks(placed, phones: aligner.phoneCount)
        guard !looks.isEmpty else { return placed }
        var looked: [Int: CueAccuracy?] = [:]
        try Self.forEachWindow(looks.map { alignment.window(of: cues[$0]) }, of: audio.open()) { k, samples, time in
            let index = looks[k]
            looked[index] = alignment.lookWordByWord(cues[index], judged: placed.cues[index], samples: samples, at: time, aligner: aligner, shift: shift)
        }
        return alignment.withWordLooks(placed, looked: looked)
    }

    /// Calls `work` with the audio of each window (media seconds) and the media time it starts at, as soon as
    /// it is decoded, in the order of the windows' starts. The audio before the earliest window still to come is let
    /// go, so memory holds a window or two, however long the media. A gap in the audio's timestamps is silence (one of
    /// over ten minutes starts the audio afresh: the windows in it get none).
    static func forEachWindow(
        _ windows: [(start: Double, end: Double)], of audio: any TimedAudio, _ work: (Int, UnsafeBufferPointer<Float>, Double) -> Void
    ) throws(MediaError) {
        let rate = Double(WordAligner.sampleRate)
        let order = windows.indices.sorted { windows[$0].start < windows[$1].start }
        var buffer: [Float] = []
        var bufferStart = 0.0
        var next = 0
        func workReady(upTo end: Double) {
            while next < order.count, windows[order[next]].end <= end {
                let window = windows[order[next]]
                let from = min(buffer.count, max(0, Int(((window.start - bufferStart) * rate).rounded())))
                let to = min(buffer.count, max(from, Int(((window.end - bufferStart) * rate).rounded())))
                buffer.withUnsafeBufferPointer { work(order[next], UnsafeBufferPointer(rebasing: $0[from..<to]), bufferStart + Double(from) / rate) }
                next += 1
            }
        }
        // Let go of the audio no window still to come needs (in steps of ten seconds: removal moves the rest).
        func dropUnneeded() {
            let keep = next < order.count ? windows[order[next]].start : .infinity
            let before = ((keep - bufferStart) * rate).rounded(.down)
            let drop = before >= Double(buffer.count) ? buffer.count : max(0, Int(before.isNaN ? 0 : before))
            if drop >= 10 * WordAligner.sampleRate || drop == buffer.count {
                buffer.removeFirst(drop)
                bufferStart += Double(drop) / rate
            }
        }
        // Read until the last window is done: no further.
        while next < order.count, let chunk = try audio.nextChunk() {
            if buffer.isEmpty { bufferStart = chunk.time }
            var gap = chunk.time - (bufferStart + Double(buffer.count) / rate)
            if gap > 600 || !gap.isFinite {
                workReady(upTo: bufferStart + Double(buffer.count) / rate)
                buffer.removeAll()
                bufferStart = chunk.time
                gap = 0
            }
            while gap > 0.05 {
                let step = min(gap, 10)
                buffer += repeatElement(0, count: Int((step * rate).rounded()))
                gap -= step
                workReady(upTo: bufferStart + Double(buffer.count) / rate)
                dropUnneeded()
            }
            buffer += chunk.samples
            workReady(upTo: bufferStart + Double(buffer.count) / rate)
            dropUnneeded()
        }
        workReady(upTo: .infinity)  // the windows that run past the end of the audio
    }

    /// The result: a finding per cue with wrong text, per cue that could not be verified for a reason worth saying, and
    /// one for the descriptions of sound and the songs together.
    private func result(
        _ programme: ProgrammeAccuracy, placed: [CaptionedSpeech], captions: CaptionDocument, path: String, source: String, shift: Double
    ) -> CheckResult {
        let judged = programme.cues
        var findings: [Finding] = []
        var sounds: [Int] = []
        var otherLanguage: [Int] = []
        // Where a finding about several cues lies: from the first one's start to the last one's end (file times).
        func span(_ numbers: [Int]) -> (start: Double?, end: Double?) {
            guard let first = numbers.min(), let last = numbers.max() else { return (nil, nil) }
            return (captions.cues[first - 1].start.seconds, captions.cues[last - 1].end.seconds)
        }
        if programme.mismatched {
            let wrongCues = judged.filter { $0.status == .wrongText }.map { $0.cue + 1 }
            let wrong = wrongCues.count
            let (start, end) = span(wrongCues)
            findings.append(
                Rule.accuracyWrongText.finding(
                    message: String(
                        format:
                            "the captions are not what is said: their %d cues checked fit the speech no better than other cues' text fits it (better in %.0f%% of pairs; right captions do in 90%% and more): another programme's captions, or a translation of speech in another language",
                        wrong, (programme.separation ?? 0) * 100),
                    start: start, end: end, guidelines: Self.guidelines,
                    data: .object([("cues", .integer(Int64(wrong))), ("separation", .number(((programme.separation ?? 0) * 1000).rounded() / 1000))])))
        }
        for accuracy in judged {
            let cue = captions.cues[accuracy.cue], number = accuracy.cue + 1
            let text = placed[accuracy.cue].text
            let times = "\(SyncCheck.time(placed[accuracy.cue].start))–\(SyncCheck.time(placed[accuracy.cue].end))"
            switch accuracy.status {
            case .matched: continue
            case .wrongText where programme.mismatched: continue
            case .wrongText:
                let tooMany: String? = if case .tooManyWords = accuracy.reason { "\(accuracy.reason!) in its time" } else { nil }
                let how =
                    tooMany ?? accuracy.wordsOf.map { "they are cue \($0 + 1)'s, said in its time" }
                    ?? accuracy.deviation.map { String(format: "they fit the speech %.1f spreads worse than the programme's captions fit theirs", -$0) }
                    ?? "they cannot be fitted to the speech there"
                var data: [(String, JSONValue)] = [("cue", .integer(Int64(number))), ("text", .string(text))]
                if let other = accuracy.wordsOf { data.append(("wordsOf", .integer(Int64(other + 1)))) }
                if let deviation = accuracy.deviation { data.append(("deviation", .number((deviation * 100).rounded() / 100))) }
                findings.append(
                    Rule.accuracyWrongText.finding(
                        message: "cue \(number) (\(times)): its words are not what is said: \(how) — “\(Self.excerpt(text))”",
                        start: cue.start.seconds, end: cue.end.seconds, line: SyncCheck.line(of: cue), guidelines: Self.guidelines,
                        data: .object(data)))
            case .wordsUnmatched:
                let listed = accuracy.unmatched.map { "“\($0)”" }.joined(separator: ", ")
                findings.append(
                    Rule.accuracyWordsUnmatched.finding(
                        message:
                            "cue \(number) (\(times)): \(accuracy.unmatched.count == 1 ? "a word is" : "words are") not said there: \(listed) — the rest is — “\(Self.excerpt(text))”",
                        start: cue.start.seconds, end: cue.end.seconds, line: SyncCheck.line(of: cue), guidelines: Self.guidelines,
                        data: .object([
                            ("cue", .integer(Int64(number))), ("words", .array(accuracy.unmatched.map { .string($0) })), ("text", .string(text)),
                        ])))
            case .offTime:
                let offset = accuracy.offset ?? 0, first = accuracy.words.first?.start ?? placed[accuracy.cue].start
                let how = offset < 0 ? String(format: "%.1f s before the caption appears", -offset) : String(format: "%.1f s after it appears", offset)
                findings.append(
                    Rule.syncWordOffset.finding(
                        message: "cue \(number) (\(times)): its words are said from \(SyncCheck.time(first)), \(how) — “\(Self.excerpt(text))”",
                        start: cue.start.seconds, end: cue.end.seconds, line: SyncCheck.line(of: cue), guidelines: Self.guidelines,
                        data: .object([
                            ("cue", .integer(Int64(number))), ("offset", .number(NumberText.rounded(offset))),
                            ("wordsStart", .number(NumberText.rounded(first))),
                        ])))
            case .unverifiable:
                let reason = accuracy.reason ?? .noAudio
                if reason == .otherLanguage {
                    otherLanguage.append(number)
                    continue
                }
                if reason.isCounted {
                    sounds.append(number)
                    continue
                }
                findings.append(
                    Rule.accuracyUnverifiable.finding(
                        message: "cue \(number) (\(times)) not verified: \(reason)", start: cue.start.seconds, end: cue.end.seconds,
                        line: SyncCheck.line(of: cue), data: .object([("cue", .integer(Int64(number)))])))
            }
        }
        if let first = otherLanguage.first {
            let count = otherLanguage.count
            let (start, end) = span(otherLanguage)
            findings.append(
                Rule.accuracyUnverifiable.finding(
                    message:
                        "\(count) cue\(count == 1 ? " does" : "s do") not read as \(languageName), from cue \(first): not verified",
                    start: start, end: end, data: .object([("cues", .integer(Int64(count))), ("first", .integer(Int64(first)))])))
        }
        if !sounds.isEmpty {
            let count = sounds.count
            let (start, end) = span(sounds)
            findings.append(
                Rule.accuracyUnverifiable.finding(
                    message: "\(count) cue\(count == 1 ? "" : "s") describe\(count == 1 ? "s" : "") sound or a song: no words to check",
                    start: start, end: end, data: .object([("cues", .integer(Int64(count)))])))
        }
        let checked = judged.filter { $0.score != nil }.count
        let wrong = judged.filter { $0.status == .wrongText }.count
        let metrics = AccuracyMetrics(
            captions: source, language: model.language, cues: judged.count, checked: checked, wrongText: wrong,
            wordsUnmatched: judged.filter { $0.status == .wordsUnmatched }.count, offTime: judged.filter { $0.status == .offTime }.count,
            unverifiable: judged.filter { $0.status == .unverifiable }.count, separation: programme.separation, timingShift: shift,
            cueWords: judged.map { accuracy in
                AccuracyMetrics.CueWords(
                    cue: accuracy.cue + 1, start: placed[accuracy.cue].start, end: placed[accuracy.cue].end, status: accuracy.status.rawValue,
                    deviation: accuracy.deviation, offset: accuracy.offset,
                    words: accuracy.words.map { AccuracyMetrics.Word(word: $0.word, start: $0.start, end: $0.end, confidence: $0.confidence) })
            })
        let verdict: Verdict? = findings.allSatisfy({ $0.severity == .info }) && checked == 0 ? .unverified : nil
        return CheckResult(file: path, verdict: verdict, findings: findings, metrics: metrics)
    }

    /// espeak-ng, as the PATH finds it (nil: not installed).
    static let espeakNG: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/espeak-ng" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// ARPAbet pronunciations of `words` (lower case, letters and apostrophes) by espeak-ng's US English letter-to-sound
    /// rules, run as a process (it is GPL: not linked); the words it gives no usable pronunciation are left out. None
    /// when espeak-ng is not installed.
    static func pronunciations(of words: [String]) -> [(String, String)] {
        let words = words.filter { !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0 == "'" } }.prefix(5000)
        guard !words.isEmpty else { return [] }
        guard let path = espeakNG else { return [] }
        let espeak = Process()
        espeak.executableURL = URL(fileURLWithPath: path)
        espeak.arguments = ["-q", "-x", "--sep= ", "-v", "en-us", "--stdin"]
        let input = Pipe(), output = Pipe()
        espeak.standardInput = input
        espeak.standardOutput = output
        espeak.standardError = FileHandle.nullDevice
        do { try espeak.run() } catch { return [] }
        // A word a line, each its own clause; the first line stands in for the first word (espeak-ng says the very first
        // phoneme of its input differently).
        let text = "a.\n" + words.map { "\($0).\n" }.joined()
        DispatchQueue.global().async {
            input.fileHandleForWriting.write(Data(text.utf8))
            try? input.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        espeak.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        return zip(words, lines).compactMap { word, line in ESpeakPhonemes.arpabet(line).map { (word, $0) } }
    }

    /// The model's language, for messages.
    var languageName: String { model.language == "en" ? "English" : model.language }

    /// The first words of a cue, for a message.
    static func excerpt(_ text: String) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count <= 60 ? flat : String(flat.prefix(57)) + "…"
    }

    /// `12 of 240 cues with wrong text · 226 checked · 2 not verified · timing moved +1.500 s first`.
    public static func summaryLine(_ result: CheckResult) -> String? {
        guard let metrics = result.metrics(as: AccuracyMetrics.self) else { return nil }
        var parts = ["\(metrics.wrongText) of \(metrics.cues) cue\(metrics.cues == 1 ? "" : "s") with wrong text", "\(metrics.checked) checked"]
        if metrics.offTime > 0 { parts.insert("\(metrics.offTime) far from their words", at: 1) }
        if metrics.wordsUnmatched > 0 { parts.insert("\(metrics.wordsUnmatched) with words not said", at: 1) }
        if metrics.unverifiable > 0 { parts.append("\(metrics.unverifiable) not verified") }
        if metrics.timingShift != 0 { parts.append(String(format: "cues moved %+.3f s onto the speech first", metrics.timingShift)) }
        parts.append("model \(metrics.language)")
        return parts.joined(separator: " · ")
    }
}
