/// The words a caption's text has a speaker say, as the pronunciation dictionary spells them: lower case, numbers
/// spelled out ("42" → "forty two"), punctuation gone, a speaker's label (`ANNA:`, `- `) and descriptions of sounds
/// (`[MUSIC]`, `(laughs)`) left out.
public enum SpokenWords {
    /// The words of `text` (a cue's text without markup), in order.
    public static func of(_ text: String) -> [String] {
        var words: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            var line = Substring(line)
            // A speaker's label: an upper-case name and a colon at the start of a line; a dialogue dash.
            if let colon = line.firstIndex(of: ":"), line[..<colon].allSatisfy({ $0.isUppercase || $0 == " " || $0 == "." }),
                line[..<colon].contains(where: \.isLetter)
            {
                line = line[line.index(after: colon)...]
            }
            line = line.drop { $0 == "-" || $0 == "–" || $0 == " " }
            var current = ""
            var skipping: Character?
            var decimals = false, grouped = false
            func finish() {
                defer {
                    current = ""
                    grouped = false
                }
                let trimmed = current.trimmingApostrophes
                guard !trimmed.isEmpty else { return }
                if decimals, trimmed.allSatisfy(\.isNumber) {
                    words += trimmed.compactMap { $0.wholeNumberValue.map { NumberWords.ones[$0] } }
                    decimals = false
                } else if trimmed.allSatisfy(\.isNumber) {
                    words += grouped ? (Int(trimmed).map { NumberWords.spell($0) } ?? NumberWords.spell(trimmed)) : NumberWords.spell(trimmed)
                } else {
                    words.append(trimmed)
                }
            }
            let characters = Array(line)
            for (i, character) in characters.enumerated() {
                if let closing = skipping {
                    if character == closing { skipping = nil }
                    continue
                }
                let between = !current.isEmpty && current.allSatisfy(\.isNumber) && i + 1 < characters.count && characters[i + 1].isNumber
                switch character {
                case "[": skipping = "]"
                case "(": skipping = ")"
                case _ where character.isLetter || character.isNumber: current += character.lowercased()
                case "'", "’": current += "'"
                case "," where between && characters[(i + 1)...].prefix { $0.isNumber }.count == 3:
                    grouped = true  // 1,250: a thousands separator (and not a year)
                case "." where between:
                    finish()  // 3.5: "three point five", the decimals digit by digit
                    words.append("point")
                    decimals = true
                default: finish()
                }
            }
            finish()
        }
        return words
    }

    /// Whether `words` (as `of` gives them) read as English, by their function words: false for four words or more
    /// with none of English's commonest and two or more of Spanish's, Catalan's, Italian's, German's or French's (those
    /// languages' sentences share many words with the English dictionary, hardly ever these); true with one of
    /// English's; nil when neither tells (few words, or no function words at all).
    public static func readAsEnglish(_ words: [String]) -> Bool? {
        guard words.count >= 4 else { return nil }
        if words.contains(where: { englishFunctionWords.contains($0) }) { return true }
        return words.filter { otherFunctionWords.contains($0) }.count >= 2 ? false : nil
    }

    /// Function words of the other languages captions are most often in, that are not English words.
    static let otherFunctionWords: Set<String> = [
        // Spanish, Catalan
        "el", "la", "los", "las", "de", "del", "al", "en", "y", "que", "es", "por", "con", "para", "una", "un", "se", "su", "sus", "más", "esta",
        "este", "els", "les", "amb", "per", "tot", "dels",
        // Italian
        "il", "lo", "gli", "della", "di", "che", "è", "nella", "sono", "ogni",
        // German
        "der", "die", "das", "den", "und", "ist", "mit", "für", "nicht", "wir", "ein", "eine", "zur", "zum", "jede",
        // French
        "le", "des", "du", "et", "est", "une", "pour", "dans", "avec", "qui", "pas",
    ]

    /// Function words common in English and not words of the other languages captions are often in ("a", "in", "i",
    /// "no", "me", "he", "an" are Spanish, Italian, Catalan or German words too).
    static let englishFunctionWords: Set<String> = [
        "the", "of", "to", "is", "and", "for", "on", "with", "it", "that", "this", "you", "we", "she", "they", "be", "are", "was",
        "were", "at", "by", "from", "not", "have", "has", "had", "do", "does", "did", "will", "would", "can", "could", "my", "your",
        "our", "their", "his", "her", "its", "what", "who", "how", "why", "where", "when", "there", "here", "but", "or", "if", "as",
        "about", "all", "him", "them", "us", "it's", "i'm", "don't", "that's", "just", "very", "yes", "up", "out", "into", "over",
        "after", "before", "some", "any", "more",
    ]

    /// Whether the text describes sound rather than words said (`[MUSIC]`, `♪ … ♪`): nothing to align.
    public static func describesSound(_ text: String) -> Bool {
        text.contains("♪") || of(text).isEmpty
    }
}

extension String {
    fileprivate var trimmingApostrophes: String {
        var result = Substring(self)
        while result.first == "'" { result = result.dropFirst() }
        while result.last == "'" { result = result.dropLast() }
        return String(result)
    }
}

/// English number words for digit strings.
enum NumberWords {
    static let ones = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
        "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
    ]
    static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// "42" → ["forty", "two"]; years as said ("1984" → "nineteen eighty four"); more than nine digits, or a leading
    /// zero, digit by digit.
    static func spell(_ digits: String) -> [String] {
        guard let value = Int(digits), digits.count <= 9, !(digits.count > 1 && digits.hasPrefix("0")) else {
            return digits.compactMap { $0.wholeNumberValue.map { ones[$0] } }
        }
        if digits.count == 4, (1100...2099).contains(value), value % 100 != 0, !(2000...2009).contains(value) {
            return below100(value / 100) + (value % 100 < 10 ? ["oh"] + below100(value % 100) : below100(value % 100))
        }
        return spell(value)
    }

    static func spell(_ value: Int) -> [String] {
        if value < 100 { return below100(value) }
        if value < 1000 {
            return [ones[value / 100], "hundred"] + (value % 100 == 0 ? [] : below100(value % 100))
        }
        if value < 1_000_000 {
            return spell(value / 1000) + ["thousand"] + (value % 1000 == 0 ? [] : spell(value % 1000))
        }
        return spell(value / 1_000_000) + ["million"] + (value % 1_000_000 == 0 ? [] : spell(value % 1_000_000))
    }

    static func below100(_ value: Int) -> [String] {
        if value < 20 { return [ones[value]] }
        return [tens[value / 10]] + (value % 10 == 0 ? [] : [ones[value % 10]])
    }
}
