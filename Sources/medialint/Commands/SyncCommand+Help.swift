import ArgumentParser

/// What `medialint sync --help` says.
extension SyncCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Check caption timing against the speech in the media, and fix it.",
        discussion: """
            With no CAPTIONS, every caption source of the media is checked: the sidecar files next to it \
            (NAME.vtt, NAME.srt, NAME.en.srt, NAME.en-US.vtt …) and its embedded text subtitle tracks. The audio \
            is decoded once (16 kHz mono) and speech found by its level and by sounding like speech (voiced, with \
            syllabic rhythm, a gliding pitch and a spectrum whose shape keeps changing: music, chimes and effects \
            are not speech); the captions are fitted as \
            media time = scale × caption time + offset (common frame-rate ratios and any stretch within ±5%, \
            offsets within ±60 s), split into parts where the offset changes (any number of edits, either way), \
            then checked cue by cue: where a cue says its speech starts, a short word or a sung line is voiced \
            sound enough. Cues that describe sound ([MUSIC], ♪, (thunder)) make what sounds under them expected.

            Findings: sync.offset and sync.drift (a warning beyond the tolerance, an error beyond the fail \
            tolerance), sync.break (the offset changes part-way: where, and both offsets), sync.cue-after-end, \
            sync.uncaptioned-speech, sync.cue-over-silence, sync.cue-offset (a single cue off its own speech \
            onset); captions.missing when the media has speech and no captions at all. The verdict is \
            'unverified' when the evidence is too weak to judge the timing (no audio, fewer than 3 cues with \
            dialogue, too few cues on speech).

            --fix OUT writes the captions with corrected times (atomically; everything but the times \
            unchanged), each part by its own offset; --in-place rewrites the caption file itself (--backup .orig \
            keeps the original); --snap also moves each cue onto its own speech onset (within 1 s, never past the \
            cues around it). What was fixed is reported as fixed, and the verdict and exit status are those of \
            the corrected captions. Examples:
              medialint sync talk.mp4                      every caption source of talk.mp4
              medialint sync talk.mp4 talk.en.srt --fix talk.fixed.srt
              medialint sync talk.mp4 talk.en.srt --in-place --backup .orig
              medialint sync show.mp4 show.en.srt --fix show.retimed.srt --snap
              medialint sync film.mkv --track 3 --format json
              medialint sync --reference film.en.srt film.fr.srt --fix film.fr.synced.srt

            --reference ORIGINAL aligns a caption file to another one already in time (a translation to the \
            original it was made from) without audio: the original's dialogue cues stand for the speech.

            Exit status: 0 in sync (or only warnings, or unverified; also when the offset and drift were \
            fixed), 1 out of sync or unreadable, 2 a usage error or a file that does not exist (--strict: \
            warnings fail too).
            """
    )
}
