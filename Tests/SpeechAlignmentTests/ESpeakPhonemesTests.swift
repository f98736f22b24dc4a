import SpeechAlignment
import Testing

/// espeak-ng's phoneme mnemonics read as ARPAbet (what `espeak-ng -q -x --sep=" " -v en-us` prints for a word).
@Suite struct ESpeakPhonemesTests {
    @Test(arguments: [
        ("z 'o@ b j U l @ n", "Z AO R B Y UH L AH N"),  // zorbulon
        ("k '0 v a k s", "K AA V AE K S"),  // kovacs
        ("m @ g 'I l I2 k ,V d i", "M AH G IH L IH K AH D IY"),  // mcgillicuddy
        ("tS '3: tS", "CH ER CH"),  // church
        ("dZ 'V dZ", "JH AH JH"),  // judge
        ("b 'aI t", "B AY T"),
        ("T 'O: t", "TH AO T"),
        ("p ,i: b ,i: ; 'E k s", "P IY B IY EH K S"),  // pbx, spelt: letters parted by `;`
    ])
    func mapped(espeak: String, arpabet: String) {
        #expect(ESpeakPhonemes.arpabet(espeak) == arpabet)
    }

    @Test func unknownPhonemesGiveNothing() {
        #expect(ESpeakPhonemes.arpabet("k 'Q x") == nil)
        #expect(ESpeakPhonemes.arpabet("") == nil)
    }
}
