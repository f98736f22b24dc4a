/// espeak-ng's English phoneme mnemonics (`espeak-ng -x --sep=" "`) as the CMU dictionary's ARPAbet: how a word the
/// dictionary lacks (a name, a coinage) gets a pronunciation from espeak-ng's letter-to-sound rules.
public enum ESpeakPhonemes {
    /// `z 'o@ b j U l @ n` → `Z AO R B Y UH L AH N`; nil when a phoneme has no ARPAbet counterpart.
    public static func arpabet(_ line: some StringProtocol) -> String? {
        var phones: [String] = []
        for token in line.split(separator: " ") {
            let bare = String(token.filter { !"',%=_|;".contains($0) })
            guard !bare.isEmpty else { continue }
            if let mapped = table[bare] ?? table[String(bare.filter { !$0.isNumber && $0 != "#" })] {
                phones += mapped.split(separator: " ").map(String.init)
            } else if bare == "?" {
                continue  // a glottal stop: none in ARPAbet
            } else {
                return nil
            }
        }
        return phones.isEmpty ? nil : phones.joined(separator: " ")
    }

    static let table: [String: String] = [
        // Consonants.
        "p": "P", "b": "B", "t": "T", "d": "D", "k": "K", "g": "G", "f": "F", "v": "V", "s": "S", "z": "Z", "h": "HH", "m": "M", "n": "N",
        "l": "L", "r": "R", "w": "W", "j": "Y", "T": "TH", "D": "DH", "S": "SH", "Z": "ZH", "N": "NG", "tS": "CH", "dZ": "JH", "x": "K",
        "C": "HH", "n-": "AH N", "l-": "AH L", "m-": "AH M", "t#": "T", "d#": "D", "z#": "Z", "r-": "ER",
        // Vowels and diphthongs.
        "a": "AE", "a#": "AH", "aa": "AE", "A": "AA", "A:": "AA", "A@": "AA R", "Ar": "AA R", "aI": "AY", "aI@": "AY ER", "aI3": "AY ER",
        "aU": "AW", "aU@": "AW ER", "E": "EH", "e": "EY", "e@": "EH R", "eI": "EY", "I": "IH", "I2": "IH", "I#": "IH", "i": "IY",
        "i:": "IY", "i@": "IH R", "i@3": "IH R", "IR": "IH R", "0": "AA", "O": "AO", "O:": "AO", "O@": "AO R", "o@": "AO R", "OI": "OY",
        "o": "OW", "oU": "OW", "U": "UH", "u": "UW", "u:": "UW", "U@": "UH R", "V": "AH", "VR": "AH R", "@": "AH", "@2": "AH", "@5": "AH",
        "@L": "AH L", "@r": "ER", "3": "ER", "3:": "ER",
    ]
}
