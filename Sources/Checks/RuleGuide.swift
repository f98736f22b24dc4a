import CaptionQuality
import Findings
import Streaming

/// A rule's page (docs/rules/ID.md): why it matters, how to fix what it finds, and examples that fail and pass —
/// run by the tests, which write the pages (`RuleDocsTests`).
public struct RuleGuide: Sendable {
    /// Why a finding matters to the people watching.
    public var why: String
    /// What to do about it.
    public var fix: String
    /// Files and a command that make the rule fire, and the same made right; nil where the bundled samples cannot
    /// show it (the page names the tests that do).
    public var failing: RuleExample?
    public var passing: RuleExample?

    public init(why: String, fix: String, failing: RuleExample? = nil, passing: RuleExample? = nil) {
        self.why = why
        self.fix = fix
        self.failing = failing
        self.passing = passing
    }
}

/// Files made in an empty folder (text, or `@Media/NAME` for a bundled sample) and the medialint command run there.
public struct RuleExample: Sendable {
    public var files: [(name: String, content: String)]
    public var arguments: [String]

    public init(_ arguments: [String], files: [(name: String, content: String)]) {
        self.arguments = arguments
        self.files = files
    }

    /// `medialint lint NAME` on a caption file of `text`.
    static func lint(_ name: String, _ text: String) -> RuleExample { RuleExample(["lint", name], files: [(name, text)]) }
}

extension RuleGuide {
    /// The level of each guideline a rule cites, as its document ranks it.
    public static let levels: [String: String] = [
        "WCAG 1.2.1": "WCAG 2.2 Level A", "WCAG 1.2.2": "WCAG 2.2 Level A", "WCAG 1.2.5": "WCAG 2.2 Level AA",
        "WCAG 1.4.2": "WCAG 2.2 Level A", "WCAG 2.3.1": "WCAG 2.2 Level A", "KWCAG 1.2": "Korean guideline 2.0, required",
        "KWCAG 3.3": "Korean guideline 2.0, required", "KWCAG 3.4": "Korean guideline 2.0, required",
        "ITU-R BT.1702": "broadcast requirement", "47 CFR 79.1(j)": "FCC caption quality (US broadcast)", "RFC 8216": "HLS specification",
        "Apple HLS Authoring": "Apple's HLS authoring specification", "WebVTT": "W3C WebVTT", "SubRip": "SubRip (de facto)",
        "Netflix TTSG": "house style", "BBC Subtitle Guidelines": "house style", "DCMP Captioning Key": "house style",
    ]

    static let speechSRT = """
        1
        00:00:00,500 --> 00:00:02,824
        Welcome to the media accessibility demo.

        2
        00:00:03,500 --> 00:00:06,092
        Captions should appear when the words are spoken.

        3
        00:00:06,500 --> 00:00:09,312
        Flashing lights can trigger seizures in some viewers.

        4
        00:00:09,500 --> 00:00:11,728
        Thank you for watching this short clip.

        """

    /// The same captions 1.5 s late.
    static let lateSRT = """
        1
        00:00:02,000 --> 00:00:04,324
        Welcome to the media accessibility demo.

        2
        00:00:05,000 --> 00:00:07,592
        Captions should appear when the words are spoken.

        3
        00:00:08,000 --> 00:00:10,812
        Flashing lights can trigger seizures in some viewers.

        4
        00:00:11,000 --> 00:00:13,228
        Thank you for watching this short clip.

        """

    static func speechSRT(replacing old: String, with new: String) -> String { speechSRT.replacingOccurrences(of: old, with: new) }

    static let talk: (name: String, content: String) = ("talk.mp4", "@Media/speech.mp4")
    static let clean = "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nA clean cue, short enough to read.\n"

    /// Every rule's page content, by id.
    public static let byID: [String: RuleGuide] = [
        Rule.mediaUnreadable.id: RuleGuide(
            why: "A file that cannot be read cannot be checked: it neither passes nor fails, and whatever is wrong with it stays hidden.",
            fix: "Replace the file with a complete copy (a truncated upload or a damaged download is the usual cause), or convert it to a format FFmpeg reads.",
            failing: RuleExample(["flash", "clip.mp4"], files: [("clip.mp4", "@Media/truncated.mp4")]),
            passing: RuleExample(["flash", "clip.mp4"], files: [("clip.mp4", "@Media/speech.mp4")])),
        Rule.mediaOutsideRoot.id: RuleGuide(
            why: "A page's media outside the folder checked is not read (nothing outside the root you gave is), so its sound cannot be judged.",
            fix: "Check the folder that holds both the page and its media (or give `--root`).",
            failing: RuleExample(["autoplay", "site"], files: [("site/index.html", "<video autoplay src=\"../talk.mp4\"></video>\n"), talk]),
            passing: RuleExample(
                ["autoplay", "site"], files: [("site/index.html", "<video autoplay muted src=\"talk.mp4\"></video>\n"), ("site/talk.mp4", "@Media/speech.mp4")])
        ),
        Rule.checkMemoryLimit.id: RuleGuide(
            why: "A file that would need more memory than the run allows is refused before it is read, so that one huge file cannot stop a library run.",
            fix: "Raise `--max-file-memory`, or check the file on its own on a machine with the memory it needs."),
        Rule.checkFindingsLimit.id: RuleGuide(
            why:
                "A caption file with thousands of findings in a library run keeps only the first of each severity (the rest are counted), so that the report and the store stay usable.",
            fix:
                "Run `medialint lint` on the file for every finding; most come from one cause (a file in the wrong frame rate, a shifted file) that one fix clears."
        ),
        Rule.flashGeneral.id: RuleGuide(
            why:
                "More than three general flashes in any second, over a large enough part of the screen, can trigger seizures in people with photosensitive epilepsy (WCAG 2.3.1, Korean guideline 3.3, ITU-R BT.1702).",
            fix:
                "Slow the flashing to at most three a second, lower the contrast between the bright and dark frames, or shrink the flashing area below a quarter of a 10° field (about 341 × 256 px at 1024 × 768); the finding gives the times to edit.",
            failing: RuleExample(["flash", "clip.mp4"], files: [("clip.mp4", "@Media/flashing.mp4")]),
            passing: RuleExample(["flash", "clip.mp4"], files: [("clip.mp4", "@Media/speech.mp4")])),
        Rule.flashRed.id: RuleGuide(
            why: "Flashes to or from saturated red are more dangerous than others: WCAG 2.3.1 and ITU-R BT.1702 limit them separately.",
            fix: "Remove saturated red from the flashing frames, or slow or shrink the flashing as for general flashes."),
        Rule.flashExtended.id: RuleGuide(
            why: "ITU-R BT.1702 also limits flashing that goes on for more than five seconds, even within the per-second limit.",
            fix: "Break the flashing sequence up, or lower its contrast."),
        Rule.patternRegular.id: RuleGuide(
            why: "Regular patterns — stripes, checks, spirals of strong contrast over a large area — can trigger seizures too (ITU-R BT.1702).",
            fix: "Lower the pattern's contrast, make it smaller, or break its regularity."),
        Rule.flashHDR.id: RuleGuide(
            why: "HDR video is measured through BT.2100's transfer (PQ or HLG) to its light on screen; the figures are not those of an SDR master.",
            fix: "Nothing to fix: a note that the HDR path was used. Check the SDR grade as well when there is one."),
        Rule.flashSamplingLimit.id: RuleGuide(
            why: "A video with few frames a second cannot show flashing faster than half its frame rate: the band above is not verified.",
            fix: "Check the master at its full frame rate."),
        Rule.flashUnverified.id: RuleGuide(
            why: "Part of the video could not be decoded, so flashing there is not known.",
            fix: "Replace the damaged file, then check again."),
        Rule.syncOffset.id: RuleGuide(
            why:
                "Captions that come early or late are hard to follow: a deaf viewer cannot match the words to the speaker or the action (WCAG 1.2.2 asks for synchronized captions).",
            fix: "Move every cue by the offset measured: `medialint sync MEDIA CAPTIONS --fix FIXED` writes the corrected file.",
            failing: RuleExample(
                ["sync", "talk.mp4", "talk.srt"],
                files: [talk, ("talk.srt", lateSRT)]),
            passing: RuleExample(["sync", "talk.mp4", "talk.srt"], files: [talk, ("talk.srt", speechSRT)])),
        Rule.syncDrift.id: RuleGuide(
            why: "Captions made for another frame rate (23.976 against 25) drift further from the speech as the programme goes on.",
            fix: "`medialint sync --fix` stretches the times by the measured ratio."),
        Rule.syncBreak.id: RuleGuide(
            why: "Captions in step at first and out of step later (an edit cut or added a scene) are wrong for part of the programme.",
            fix: "`medialint sync --fix` corrects each part by its own offset."),
        Rule.syncCueAfterEnd.id: RuleGuide(
            why: "A caption after the media ends is never seen: it belongs to another cut of the programme, or its time is wrong.",
            fix: "Remove the cue, or correct its time.",
            failing: RuleExample(
                ["sync", "talk.mp4", "talk.srt"], files: [talk, ("talk.srt", speechSRT + "\n5\n00:00:30,000 --> 00:00:31,000\nAfter the end.\n")]),
            passing: RuleExample(["sync", "talk.mp4", "talk.srt"], files: [talk, ("talk.srt", speechSRT)])),
        Rule.syncCueBeforeStart.id: RuleGuide(
            why: "A caption that ends before the media starts is never seen.", fix: "Remove the cue, or correct its time."),
        Rule.syncUncaptionedSpeech.id: RuleGuide(
            why: "Speech with no caption leaves deaf viewers out of what is said (WCAG 1.2.2).",
            fix: "Caption the speech at the times the finding gives.",
            failing: RuleExample(
                ["sync", "talk.mp4", "talk.srt"],
                files: [
                    talk,
                    ("talk.srt", speechSRT(replacing: "2\n00:00:03,500 --> 00:00:06,092\nCaptions should appear when the words are spoken.\n\n", with: "")),
                ]),
            passing: RuleExample(["sync", "talk.mp4", "talk.srt"], files: [talk, ("talk.srt", speechSRT)])),
        Rule.syncCueOverSilence.id: RuleGuide(
            why: "A dialogue caption over silence or over music alone is on screen when nothing is said: usually a timing error.",
            fix: "Move the cue onto its speech, or mark it as a sound ([music]) when it describes one."),
        Rule.syncCueOffset.id: RuleGuide(
            why: "A single caption far from its speech, in a file otherwise in time, is easy to miss by eye.",
            fix: "Move that cue to its speech: `medialint sync --snap` moves each cue onto its own speech onset.",
            failing: RuleExample(
                ["sync", "talk.mp4", "talk.srt"],
                files: [talk, ("talk.srt", speechSRT(replacing: "00:00:06,500 --> 00:00:09,312", with: "00:00:05,800 --> 00:00:09,312"))]),
            passing: RuleExample(["sync", "talk.mp4", "talk.srt"], files: [talk, ("talk.srt", speechSRT)])),
        Rule.syncUnverified.id: RuleGuide(
            why: "Timing could not be measured (no audio, no speech, too few cues): the captions may or may not be in time.",
            fix: "Nothing to fix in the file; check the timing by watching, or give media with its audio.",
            failing: RuleExample(["sync", "clip.mp4", "clip.srt"], files: [("clip.mp4", "@Media/no-audio.mp4"), ("clip.srt", speechSRT)]),
            passing: RuleExample(["sync", "talk.mp4", "talk.srt"], files: [talk, ("talk.srt", speechSRT)])),
        Rule.accuracyWrongText.id: RuleGuide(
            why: "A caption that does not say what is spoken misinforms the viewer who relies on it (47 CFR 79.1(j) asks for accurate captions).",
            fix: "Correct the caption's words from the speech at its time; the finding says whose words it shows when they belong to another cue.",
            failing: RuleExample(
                ["accuracy", "talk.mp4", "talk.srt"],
                files: [
                    talk,
                    (
                        "talk.srt",
                        speechSRT(replacing: "Flashing lights can trigger seizures in some viewers.", with: "Welcome to the media accessibility demo.")
                    ),
                ]),
            passing: RuleExample(["accuracy", "talk.mp4", "talk.srt"], files: [talk, ("talk.srt", speechSRT)])),
        Rule.accuracyWordsUnmatched.id: RuleGuide(
            why: "Words in a caption that are not said (an added word, a paraphrase) change what the viewer reads.",
            fix: "Make the caption say what is said, or keep the edit if it is a deliberate condensation."),
        Rule.syncWordOffset.id: RuleGuide(
            why: "A caption whose words are said seconds away from it is read at the wrong time.",
            fix: "Move the cue to where its words are said: the finding gives the offset."),
        Rule.accuracyUnverifiable.id: RuleGuide(
            why: "Where music or noise covers the speech, or the language is not the aligner's, the words cannot be checked.",
            fix: "Nothing to fix in the file; check those captions by listening."),
        Rule.lintReadingSpeed.id: RuleGuide(
            why: "Captions faster than people read are gone before they are read; the style guides set the most characters a second (or words a minute).",
            fix: "Shorten the text, or give the cue more time (into a gap, or by merging with the next).",
            failing: .lint("talk.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nThis line is quick to read,\nand this one is too.\n"),
            passing: .lint("talk.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nThis line is quick to read,\nand this one is too.\n")),
        Rule.lintLineLength.id: RuleGuide(
            why: "Long lines are hard to read and may not fit the screen; the style guides set the most characters a line.",
            fix:
                "Break the line differently, or shorten it: `medialint lint --fix` breaks long lines again, and splits a cue two lines cannot hold in two (SRT, WebVTT).",
            failing: .lint("talk.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nThis single line is much longer than forty-two characters.\n"),
            passing: .lint("talk.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nThis single line is much longer\nthan forty-two characters.\n")),
        Rule.lintMaxLines.id: RuleGuide(
            why: "More than two lines cover the picture and take long to read.",
            fix:
                "Split the cue in two, or shorten it: `medialint lint --fix` splits one whose words need more lines (SRT, WebVTT), where a subtitler would.",
            failing: .lint("talk.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nOne,\ntwo,\nthree.\n"),
            passing: .lint("talk.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nOne, two, three.\n")),
        Rule.lintMinDuration.id: RuleGuide(
            why: "A cue shown for less than the style guide's minimum flashes past before it is read.",
            fix: "Lengthen it into the gap before the next cue, or merge it with a neighbour: `medialint lint --fix` lengthens it within the gap.",
            failing: .lint("talk.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:01.500\nToo quick.\n"),
            passing: .lint("talk.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nToo quick.\n")),
        Rule.lintMaxDuration.id: RuleGuide(
            why: "A cue left on screen long after its speech no longer matches what is heard.", fix: "End it earlier, or split it.",
            failing: .lint("talk.vtt", "WEBVTT\n\n00:00:07.000 --> 00:00:15.000\nStays far too long.\n"),
            passing: .lint("talk.vtt", "WEBVTT\n\n00:00:07.000 --> 00:00:10.000\nStays far too long.\n")),
        Rule.lintMinGap.id: RuleGuide(
            why: "Cues a frame apart look like one flickering caption; the style guides ask for a gap of some frames, or none.",
            fix: "Open the gap to the profile's minimum or close it: `medialint lint --fix` does.",
            failing: .lint("talk.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nFirst.\n\n00:00:03.040 --> 00:00:05.000\nSecond.\n"),
            passing: .lint("talk.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nFirst.\n\n00:00:03.000 --> 00:00:05.000\nSecond.\n")),
        Rule.lintOverlap.id: RuleGuide(
            why: "Two captions on screen at once stack or replace each other depending on the player; the viewer loses one.",
            fix:
                "End the earlier cue before the next starts: `medialint lint --fix` does, with the profile's gap when the cue can spare it — unless the cue would then be too short or too fast to read: it is then left as it is and `--fix` says so (`left cue N as it is: …`); change the text or the times.",
            failing: .lint("talk.vtt", "WEBVTT\n\n00:00:26.000 --> 00:00:28.000\nOverlapped later.\n\n00:00:27.000 --> 00:00:29.000\nStarts too early.\n"),
            passing: .lint("talk.vtt", "WEBVTT\n\n00:00:26.000 --> 00:00:27.000\nOverlapped later.\n\n00:00:27.000 --> 00:00:29.000\nStarts too early.\n")),
        Rule.lintEmpty.id: RuleGuide(
            why: "A cue with no text shows nothing, or an empty box in some players.", fix: "Remove it, or give it its words.",
            failing: .lint("talk.vtt", "WEBVTT\n\n00:00:30.000 --> 00:00:31.000\n\n"),
            passing: .lint("talk.vtt", "WEBVTT\n\n00:00:30.000 --> 00:00:31.000\nNow with words.\n")),
        Rule.lintNegativeDuration.id: RuleGuide(
            why: "A cue that ends when or before it starts is never shown.", fix: "Correct its times.",
            failing: .lint("talk.vtt", "WEBVTT\n\n00:00:32.000 --> 00:00:32.000\nNever shown.\n"),
            passing: .lint("talk.vtt", "WEBVTT\n\n00:00:32.000 --> 00:00:34.000\nNever shown.\n")),
        Rule.lintMarkup.id: RuleGuide(
            why: "Unclosed or unknown tags show as text in some players, or style the rest of the cue.", fix: "Close the tag, or remove it.",
            failing: .lint("talk.vtt", "WEBVTT\n\n00:00:33.000 --> 00:00:35.000\n<b>Bold never closed\n"),
            passing: .lint("talk.vtt", "WEBVTT\n\n00:00:33.000 --> 00:00:35.000\n<b>Bold</b> and closed\n")),
        Rule.lintEncoding.id: RuleGuide(
            why: "WebVTT is UTF-8; text in another encoding shows as the wrong letters in players that assume it.",
            fix: "Convert the file to UTF-8: `medialint convert IN OUT` writes UTF-8."),
        Rule.lintAfterEnd.id: RuleGuide(
            why: "A cue after the media ends is never seen.", fix: "Remove it, or correct its time (lint knows the end with `--media`).",
            failing: RuleExample(
                ["lint", "talk.srt", "--media", "talk.mp4"], files: [talk, ("talk.srt", speechSRT + "\n5\n00:00:30,000 --> 00:00:31,000\nAfter the end.\n")]),
            passing: RuleExample(["lint", "talk.srt", "--media", "talk.mp4"], files: [talk, ("talk.srt", speechSRT)])),
        Rule.lintSyntax.id: RuleGuide(
            why: "Syntax the reader had to guess at (a bad timing line, a missing blank line) may be read differently by players.",
            fix: "Correct the line the finding names.",
            failing: .lint("talk.srt", "1\n00:00:01,000 --> 00:00:03,000\nFirst.\n\n2\n00:00:04.000 -> 00:00:06,000\nSecond.\n"),
            passing: .lint("talk.srt", "1\n00:00:01,000 --> 00:00:03,000\nFirst.\n\n2\n00:00:04,000 --> 00:00:06,000\nSecond.\n")),
        Rule.autoplayAudio.id: RuleGuide(
            why:
                "Sound that starts by itself for more than 3 seconds talks over screen readers and startles; WCAG 1.4.2 and the Korean guideline 3.4 ask that it not play, or can be stopped.",
            fix: "Do not autoplay media with sound: add `muted`, remove `autoplay`, or give a control to stop it before the page plays.",
            failing: RuleExample(
                ["autoplay", "site"], files: [("site/index.html", "<video autoplay src=\"talk.mp4\"></video>\n"), ("site/talk.mp4", "@Media/speech.mp4")]),
            passing: RuleExample(
                ["autoplay", "site"], files: [("site/index.html", "<video autoplay muted src=\"talk.mp4\"></video>\n"), ("site/talk.mp4", "@Media/speech.mp4")])
        ),
        Rule.autoplayUnverified.id: RuleGuide(
            why: "Media the page plays from elsewhere is not fetched, so its sound is not known.", fix: "Check that media by hand, or host it beside the page.",
            failing: RuleExample(
                ["autoplay", "site"], files: [("site/index.html", "<video autoplay src=\"https://media.example.com/trailer.mp4\"></video>\n")]),
            passing: RuleExample(
                ["autoplay", "site"], files: [("site/index.html", "<video autoplay muted src=\"https://media.example.com/trailer.mp4\"></video>\n")])),
        Rule.captionsMissing.id: RuleGuide(
            why: "Video with speech and no captions leaves deaf and hard-of-hearing viewers out (WCAG 1.2.2, Korean guideline 1.2).",
            fix: "Add a caption file beside the video (`talk.vtt`, `talk.en.srt` …) or a text subtitle track.",
            failing: RuleExample(["check", "talk.mp4", "--no-store"], files: [talk]),
            passing: RuleExample(["check", "talk.mp4", "--no-store"], files: [talk, ("talk.srt", speechSRT)])),
        Rule.captionsParse.id: RuleGuide(
            why: "Captions that cannot be read are not shown by players either.",
            fix: "Correct the file where the message says, or convert it from a format MediaLint reads.",
            failing: RuleExample(["check", "talk.mp4", "--no-store"], files: [talk, ("talk.srt", "1\nthis is not a timing line\n")]),
            passing: RuleExample(["check", "talk.mp4", "--no-store"], files: [talk, ("talk.srt", speechSRT)])),
        Rule.captionsAudioDescription.id: RuleGuide(
            why: "Viewers who cannot see the picture need what is shown and not said described (WCAG 1.2.5, Level AA).",
            fix:
                "Add an audio-description track marked as such (disposition `visual_impaired`, or an HLS rendition with public.accessibility.describes-video), or turn the rule off (`rules: {disable: [captions.audio-description]}`) where the picture needs no description.",
            failing: RuleExample(["check", "talk.mp4", "--no-store"], files: [talk, ("talk.srt", speechSRT)])),
        Rule.transcriptMissing.id: RuleGuide(
            why: "Audio-only media with speech needs a transcript for those who cannot hear it (WCAG 1.2.1).",
            fix: "Put a transcript beside it (`name.txt`, `name.md`, `name.html`) or captions: `medialint transcript CAPTIONS` makes one from captions."),
        Rule.hlsCaptionsMissing.id: RuleGuide(
            why: "A variant stream with no subtitles and no 608 captions plays without captions on devices that pick it.",
            fix: "Give every variant a `SUBTITLES` group (or `CLOSED-CAPTIONS`)."),
        Rule.hlsRenditionMissing.id: RuleGuide(
            why: "A variant that names a rendition group the playlist does not declare fails on players.", fix: "Declare the group, or correct its name."),
        Rule.hlsSDHCharacteristics.id: RuleGuide(
            why: "Subtitles for the deaf and hard of hearing are found by players through their characteristics.",
            fix: "Mark SDH renditions with CHARACTERISTICS=\"public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound\"."),
        Rule.hlsAudioDescriptionCharacteristics.id: RuleGuide(
            why: "Players offer audio description by its characteristic; without it the track is not found.",
            fix: "Mark it CHARACTERISTICS=\"public.accessibility.describes-video\"."),
        Rule.hlsRenditionDefault.id: RuleGuide(
            why: "Two DEFAULT=YES renditions in one group leave the choice to the player.", fix: "Keep one default a group."),
        Rule.hlsSubtitleDuration.id: RuleGuide(
            why: "A subtitle playlist shorter or longer than the video loses captions at the end, or shows them after it.",
            fix: "Make the subtitle playlist cover the video."),
        Rule.hlsLanguage.id: RuleGuide(
            why: "Players choose renditions by their LANGUAGE; a tag that is not BCP 47 is not matched to the viewer's language.",
            fix: "Use BCP 47 tags (`en`, `ko-KR`)."),
        Rule.hlsReference.id: RuleGuide(
            why: "A playlist URI outside the package is not part of what was checked (and may not be served).",
            fix: "Keep every playlist and segment inside the package folder."),
        Rule.hlsInstreamID.id: RuleGuide(
            why: "Declared 608 captions that the video does not carry show nothing.", fix: "Declare only the channels the video carries."),
        Rule.hlsSegment.id: RuleGuide(
            why: "A segment that cannot be read, or out of its place in time, breaks playback and captions there.",
            fix: "Re-package the stream."),
        Rule.hlsTimestampMap.id: RuleGuide(
            why: "WebVTT segments without X-TIMESTAMP-MAP are placed at the wrong time when the stream's clock does not start at zero.",
            fix: "Add `X-TIMESTAMP-MAP=MPEGTS:…,LOCAL:00:00:00.000` to each subtitle segment."),
    ]
}
