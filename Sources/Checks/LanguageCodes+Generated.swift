// The language codes of ISO 639 that caption file names carry: data, not code. Generated from ISO 639-2 as
// Debian's iso-codes package ships it (184 languages with a two-letter code) by
// Generators/language-codes.sh: edit that, not this.

enum LanguageCodes {
    /// ISO 639-1: the two-letter codes.
    static let twoLetter = """
        aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce
        ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr
        fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is
        it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln
        lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv
        ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk
        sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw
        ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu
        """
    /// ISO 639-2, terminology and bibliographic forms, of the languages with a two-letter code.
    static let threeLetter = """
        aar abk afr aka alb amh ara arg arm asm ava ave aym aze bak bam baq bel ben bih bis bod bos bre
        bul bur cat ces cha che chi chu chv cor cos cre cym cze dan deu div dut dzo ell eng epo est eus
        ewe fao fas fij fin fra fre fry ful geo ger gla gle glg glv gre grn guj hat hau heb her hin hmo
        hrv hun hye ibo ice ido iii iku ile ina ind ipk isl ita jav jpn kal kan kas kat kau kaz khm kik
        kin kir kom kon kor kua kur lao lat lav lim lin lit ltz lub lug mac mah mal mao mar may mkd mlg
        mlt mon mri msa mya nau nav nbl nde ndo nep nld nno nob nor nya oci oji ori orm oss pan per pli
        pol por pus que roh ron rum run rus sag san sin slk slo slv sme smo sna snd som sot spa sqi srd
        srp ssw sun swa swe tah tam tat tel tgk tgl tha tib tir ton tsn tso tuk tur twi uig ukr urd uzb
        ven vie vol wel wln wol xho yid yor zha zho zul
        """
}
