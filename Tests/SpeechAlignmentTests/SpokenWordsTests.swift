import SpeechAlignment
import Testing

/// The words a cue has a speaker say, as the pronunciation dictionary spells them.
@Suite struct SpokenWordsTests {
    @Test(arguments: [
        ("This morning, the new bridge has finally opened.", "this morning the new bridge has finally opened"),
        ("ANNA: Yes, of course.", "yes of course"),
        ("DR. WHO: Run!\n- What? No…", "run what no"),
        ("I don't know [LAUGHS] (sighs) what it's 'worth'.", "i don't know what it's worth"),
        ("Number 42 on Platform 9", "number forty two on platform nine"),
        (
            "Since 1984 and 2005, not 2000 or 1900; 007",
            "since nineteen eighty four and two thousand five not two thousand or one thousand nine hundred zero zero seven"
        ),
        ("It cost 1,250 — or 100 and 13 in 1905", "it cost one thousand two hundred fifty or one hundred and thirteen in nineteen oh five"),
        ("A 3.25 rise, then 0.5", "a three point two five rise then zero point five"),
        ("Yes, 12, 13, 14.", "yes twelve thirteen fourteen"),
        ("[MUSIC]", ""),
        ("Mary’s well-known café", "mary's well known café"),
    ])
    func words(text: String, expected: String) {
        #expect(SpokenWords.of(text).joined(separator: " ") == expected)
    }

    /// Four words or more with another language's function words and none of English's do not read as English; an
    /// English sentence without function words is not taken for another language's.
    @Test func readAsEnglish() {
        func reads(_ text: String) -> Bool? { SpokenWords.readAsEnglish(SpokenWords.of(text)) }
        #expect(reads("Unusually, the library made a surprising announcement.") == true)
        #expect(reads("Hoy visitamos el mercado más antiguo de la ciudad.") == false)
        #expect(reads("Els veïns preparen la festa major del poble. 2.") == false)
        #expect(reads("Heute besuchen wir den alten Hafen der Stadt.") == false)
        #expect(reads("Il treno per la costa parte ogni ora.") == false)
        #expect(reads("En esta plaza se baila todos los domingos.") == false)
        #expect(reads("La calle principal está llena de turistas.") == false)
        #expect(reads("Meanwhile, a small bakery found something unexpected.") == nil)
        #expect(reads("Yes, of course.") == nil)
    }
}
