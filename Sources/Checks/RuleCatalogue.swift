import CaptionQuality
import Findings
import Streaming

extension Rule {
    // MARK: flash.* — WCAG 2.3.1, ITU-R BT.1702, KWCAG 3.3

    public static let flashGeneral = Rule(
        "flash.general", title: "general flashing",
        description:
            "More than three flashes (pairs of opposing changes in relative luminance) in any one second over more than the profile's area of the screen, where the darker state is dark enough to matter. Flashes at the same moment count with their combined area, however fine the pattern that makes them (stripes reversing their contrast).",
        guidelines: ["WCAG 2.3.1", "KWCAG 3.3", "ITU-R BT.1702"], helpURL: RuleSource.wcagFlashes, defaultSeverity: .error)
    public static let flashRed = Rule(
        "flash.red", title: "red flashing",
        description: "More than three transitions to or from saturated red in any one second over more than the profile's area of the screen.",
        guidelines: ["WCAG 2.3.1", "KWCAG 3.3", "ITU-R BT.1702"], helpURL: RuleSource.wcagFlashes, defaultSeverity: .error)
    public static let flashExtended = Rule(
        "flash.extended", title: "extended flashing",
        description:
            "Two to three flashes a second held for at least 4 s of any 5 s (ITU-R BT.1702 and Ofcom treat sustained flashing near the limit as a risk).",
        guidelines: ["ITU-R BT.1702"], helpURL: RuleSource.ituBT1702, defaultSeverity: .warning)
    public static let patternRegular = Rule(
        "pattern.regular", title: "harmful regular pattern",
        description:
            "Clearly discernible light and dark stripes — straight, curved, a checkerboard, rings or rays — with more than five light–dark pairs over more than the profile's area of the screen for at least 0.5 s, the light parts at least 50 cd/m² and the dark at most half as bright. An error when the pattern moves, oscillates, flashes or reverses; when it is still, an error under bt1702 (ITU-R BT.1702, Ofcom: harmful patterns should not be used) and a warning under other profiles (WCAG 2.3.1 does not cover static patterns). On for bt1702.",
        guidelines: ["ITU-R BT.1702"], helpURL: RuleSource.ituBT1702, defaultSeverity: .error)
    public static let flashHDR = Rule(
        "flash.hdr", title: "HDR video: luminance through BT.2100",
        description:
            "The video is HDR (PQ or HLG): its luminance was measured through the BT.2100 transfer (HLG on the 1000 cd/m² reference display), relative to BT.2408's reference white of 203 cd/m², brighter highlights counting as white — a reading the guidelines, written for SDR, leave to the tool.",
        guidelines: ["WCAG 2.3.1"], helpURL: RuleSource.wcagFlashes, defaultSeverity: .info)
    public static let flashSamplingLimit = Rule(
        "flash.sampling-limit", title: "frame rate too low for the flash band",
        description:
            "At F frames a second a video can show at most F/2 flashes a second: the part of the 3–50 Hz band above that cannot be judged from the file.",
        guidelines: ["KWCAG 3.3"], helpURL: RuleSource.wcagFlashes, defaultSeverity: .warning)
    public static let flashUnverified = Rule(
        "flash.unverified", title: "video not fully seen",
        description: "Fewer frames could be decoded than the file states: the part not decoded was not checked for flashing, so the file cannot pass.",
        helpURL: RuleSource.wcagFlashes, defaultSeverity: .warning)

    // MARK: sync.* — WCAG 1.2.2, KWCAG 1.2

    public static let syncOffset = Rule(
        "sync.offset", title: "captions off their speech",
        description: "Every caption is early or late by the same amount against the speech in the media's audio, by more than the tolerance.",
        guidelines: ["WCAG 1.2.2", "KWCAG 1.2"], helpURL: RuleSource.wcagCaptions, defaultSeverity: .warning)
    public static let syncDrift = Rule(
        "sync.drift", title: "captions drifting from their speech",
        description: "Captions move further from their speech as the media plays (a frame-rate or speed mismatch), by more than the tolerance by the end.",
        guidelines: ["WCAG 1.2.2", "KWCAG 1.2"], helpURL: RuleSource.wcagCaptions, defaultSeverity: .warning)
    public static let syncBreak = Rule(
        "sync.break", title: "captions jump out of step",
        description: "Caption timing is right on one side of a point and shifted on the other (an edit made after captioning).",
        guidelines: ["WCAG 1.2.2", "KWCAG 1.2"], helpURL: RuleSource.wcagCaptions, defaultSeverity: .error)
    public static let syncCueAfterEnd = Rule(
        "sync.cue-after-end", title: "caption after the media ends",
        description: "A caption starts after the end of the media: it is never shown.",
        guidelines: ["WCAG 1.2.2", "KWCAG 1.2"], helpURL: RuleSource.wcagCaptions, defaultSeverity: .error)
    public static let syncCueBeforeStart = Rule(
        "sync.cue-before-start", title: "caption before the media starts",
        description: "A caption ends before the media starts: it is never shown.",
        guidelines: ["WCAG 1.2.2", "KWCAG 1.2"], helpURL: RuleSource.wcagCaptions, defaultSeverity: .error)
    public static let syncUncaptionedSpeech = Rule(
        "sync.uncaptioned-speech", title: "speech with no caption",
        description:
            "A stretch of speech in the audio with no caption on screen: a second or more that sounds like speech (voiced, rising and falling by syllables); music, however voiced, and sound right beside it are not.",
        guidelines: ["WCAG 1.2.2", "KWCAG 1.2"], helpURL: RuleSource.wcagCaptions, defaultSeverity: .warning)
    public static let syncCueOverSilence = Rule(
        "sync.cue-over-silence", title: "dialogue caption where nobody speaks",
        description:
            "A dialogue caption shown where the audio has no speech: silence, or music or a sound however voiced. A short word said alone (a second of voiced sound at most, with no music around it) counts as speech, and so does the voice under a sung line (♪ … ♪).",
        guidelines: ["WCAG 1.2.2", "KWCAG 1.2"], helpURL: RuleSource.wcagCaptions, defaultSeverity: .warning)
    public static let syncCueOffset = Rule(
        "sync.cue-offset", title: "single captions off their speech",
        description:
            "Individual captions start well away from the speech onset they belong to, though the timing as a whole fits. A short word where the cue starts is its onset, even when a pause follows it.",
        guidelines: ["WCAG 1.2.2", "KWCAG 1.2"], helpURL: RuleSource.wcagCaptions, defaultSeverity: .warning)
    public static let syncWordOffset = Rule(
        "sync.word-offset", title: "captions far from their words",
        description:
            "A caption's words are found in the speech (the accuracy check forces them onto the audio around it), but they start well away from the caption: more than 0.5 s before it appears, or more than 1 s after (unless the caption opens with a description of sound).",
        guidelines: ["WCAG 1.2.2", "KWCAG 1.2", "47 CFR 79.1(j)"], helpURL: RuleSource.fccCaptionQuality, defaultSeverity: .warning)
    public static let syncUnverified = Rule(
        "sync.unverified", title: "timing not verified",
        description: "Caption timing could not be judged: no audio, too few dialogue captions, no speech, or evidence too weak to trust.",
        helpURL: RuleSource.wcagCaptions, defaultSeverity: .info)

    // MARK: accuracy.* — WCAG 1.2.2, KWCAG 1.2, the FCC's caption quality standards

    public static let accuracyWrongText = Rule(
        "accuracy.wrong-text", title: "caption text that is not what is said",
        description:
            "A caption's words are not what is spoken in its time: forced onto the speech there, they cannot be fitted at all, or fit far worse than the programme's other captions fit theirs (another programme's text, a neighbouring caption's); or there are more of them than its time can hold.",
        guidelines: ["WCAG 1.2.2", "KWCAG 1.2", "47 CFR 79.1(j)"], helpURL: RuleSource.fccCaptionQuality, defaultSeverity: .error)
    public static let accuracyWordsUnmatched = Rule(
        "accuracy.words-unmatched", title: "caption words not said",
        description:
            "Most of a caption's words are what is spoken in its time, but some are not found there: a word added, left over from an edit, or said differently.",
        guidelines: ["WCAG 1.2.2", "KWCAG 1.2", "47 CFR 79.1(j)"], helpURL: RuleSource.fccCaptionQuality, defaultSeverity: .warning)
    public static let accuracyUnverifiable = Rule(
        "accuracy.unverifiable", title: "caption text not verified",
        description:
            "A caption's words could not be checked against the speech: a language without an acoustic model, no audio, music or noise too loud, words neither the pronunciation dictionary nor espeak-ng can pronounce, a caption too long to align.",
        guidelines: ["WCAG 1.2.2", "KWCAG 1.2"], helpURL: RuleSource.fccCaptionQuality, defaultSeverity: .info)

    // MARK: autoplay.* — WCAG 1.4.2, KWCAG 3.4

    public static let autoplayAudio = Rule(
        "autoplay.audio", title: "media that plays sound by itself",
        description:
            "An autoplaying <audio> or <video> whose media makes sound for more than 3 s without a control to stop it (WCAG), or for 3 s or more at all (KWCAG).",
        guidelines: ["WCAG 1.4.2", "KWCAG 3.4"], helpURL: RuleSource.wcagAudioControl, defaultSeverity: .error)
    public static let autoplayUnverified = Rule(
        "autoplay.unverified", title: "possible autoplay that cannot be judged from the page",
        description:
            "Remote media, script-driven playback, an embedded player or <bgsound>: whether it plays sound by itself cannot be told without running the page.",
        guidelines: ["WCAG 1.4.2", "KWCAG 3.4"], helpURL: RuleSource.wcagAudioControl, defaultSeverity: .info)

    // MARK: captions.*, transcript.* — WCAG 1.2.1, 1.2.2, 1.2.5, KWCAG 1.2

    public static let captionsMissing = Rule(
        "captions.missing", title: "media with speech and no captions",
        description: "Video whose audio has speech, with no caption file next to it, no text subtitle track and no CEA-608 captions.",
        guidelines: ["WCAG 1.2.2", "KWCAG 1.2"], helpURL: RuleSource.wcagCaptions, defaultSeverity: .error)
    public static let captionsParse = Rule(
        "captions.parse", title: "captions that cannot be read",
        description:
            "A caption file, track or HLS playlist that could not be read (as WebVTT, SubRip, SCC, TTML, SAMI, ASS/SSA, SBV or EBU STL): missing, a folder, not captions in a format MediaLint reads, or malformed.",
        guidelines: [], helpURL: RuleSource.webVTT, defaultSeverity: .error)
    public static let captionsAudioDescription = Rule(
        "captions.audio-description", title: "no audio-description track",
        description: "Video with no audio stream marked as audio description (visual_impaired or descriptions): needed when what is seen is not said.",
        guidelines: ["WCAG 1.2.5"], helpURL: RuleSource.wcagAudioDescription, defaultSeverity: .info)
    public static let transcriptMissing = Rule(
        "transcript.missing", title: "audio-only media with no transcript",
        description: "Audio-only media with speech and no transcript or captions next to it (name.txt, name.md, name.html, name.vtt …).",
        guidelines: ["WCAG 1.2.1"], helpURL: RuleSource.wcagAudioOnly, defaultSeverity: .error)

    // MARK: media.*, check.*

    public static let mediaOutsideRoot = Rule(
        "media.outside-root", title: "media outside the checked root",
        description: "A path (or a link) that leads outside the folder being checked: never read.",
        helpURL: RuleSource.pathTraversal, defaultSeverity: .error)
    public static let checkFindingsLimit = Rule(
        "check.findings-limit", title: "findings not listed",
        description:
            "A file with more findings of one severity than a library check keeps (1,000): the first are listed, the rest counted (medialint lint lists them all).",
        helpURL: RuleSource.netflix, defaultSeverity: .info)
    public static let checkMemoryLimit = Rule(
        "check.memory-limit", title: "file too large to check",
        description: "A file that would need more memory to check than one file may take (check --max-file-memory): not read, and the run goes on.",
        helpURL: RuleSource.ffmpegFormats, defaultSeverity: .error)
}

/// Every rule any check can report, by check: what `medialint rules` lists and SARIF describes.
public enum RuleCatalogue {
    public static let media: [Rule] = [.mediaUnreadable, .mediaOutsideRoot, .checkMemoryLimit, .checkFindingsLimit]
    public static let flash: [Rule] = [.flashGeneral, .flashRed, .flashExtended, .patternRegular, .flashHDR, .flashSamplingLimit, .flashUnverified]
    public static let sync: [Rule] = [
        .syncOffset, .syncDrift, .syncBreak, .syncCueAfterEnd, .syncCueBeforeStart, .syncUncaptionedSpeech,
        .syncCueOverSilence, .syncCueOffset, .syncUnverified,
    ]
    /// The accuracy check's rules (`sync.word-offset` among them: a timing found by the words).
    public static let accuracy: [Rule] = [.accuracyWrongText, .accuracyWordsUnmatched, .syncWordOffset, .accuracyUnverifiable]
    public static let autoplay: [Rule] = [.autoplayAudio, .autoplayUnverified]
    public static let captions: [Rule] = [.captionsMissing, .captionsParse, .captionsAudioDescription, .transcriptMissing]
    public static let lint: [Rule] = CaptionLinter.rules
    public static let hls: [Rule] = HLSPackage.rules

    /// All of them, each once, grouped as above.
    public static let all: [Rule] = media + flash + sync + accuracy + lint + autoplay + captions + hls

    /// The rules by id.
    public static let byID = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })

    /// The rule with this id, if any check has it.
    public static func rule(_ id: String) -> Rule? { byID[id] }
}
