import Findings

/// The rules of HLS packages (`hls.*`): RFC 8216, Apple's HLS authoring specification, WCAG 1.2.2 / 1.2.5. Declared
/// here, where packages are read, as `CaptionQuality` declares the `lint.*` rules; the catalogue lists them.
extension Rule {
    public static let hlsCaptionsMissing = Rule(
        "hls.captions-missing", title: "HLS variant without captions",
        description: "A variant stream with no subtitle rendition (SUBTITLES group) and no declared CEA-608 captions (CLOSED-CAPTIONS group).",
        guidelines: ["WCAG 1.2.2", "KWCAG 1.2"], helpURL: RuleSource.wcagCaptions, defaultSeverity: .error)
    public static let hlsRenditionMissing = Rule(
        "hls.rendition-missing", title: "HLS rendition missing",
        description: "A variant names a rendition group that has no rendition, or a rendition's playlist cannot be read.",
        guidelines: ["RFC 8216"], helpURL: RuleSource.rfc8216, defaultSeverity: .error)
    public static let hlsSDHCharacteristics = Rule(
        "hls.sdh-characteristics", title: "SDH subtitles without their characteristics",
        description:
            "Subtitles for the deaf and hard of hearing (by a characteristic or their name: SDH, CC, hard of hearing) without both public.accessibility.transcribes-spoken-dialog and public.accessibility.describes-music-and-sound: players cannot offer them from the user's accessibility settings.",
        guidelines: ["Apple HLS Authoring"], helpURL: RuleSource.appleHLSAuthoring, defaultSeverity: .warning)
    public static let hlsAudioDescriptionCharacteristics = Rule(
        "hls.audio-description-characteristics", title: "audio description without its characteristic",
        description:
            "An audio rendition that describes the video (by characteristic or name: AD, audio description) without public.accessibility.describes-video.",
        guidelines: ["WCAG 1.2.5", "Apple HLS Authoring"], helpURL: RuleSource.appleHLSAuthoring, defaultSeverity: .warning)
    public static let hlsRenditionDefault = Rule(
        "hls.rendition-default", title: "two default renditions in a group",
        description:
            "A rendition group with more than one DEFAULT=YES member (RFC 8216 allows one): players may start with either language or kind of subtitles.",
        guidelines: ["RFC 8216"], helpURL: RuleSource.rfc8216, defaultSeverity: .warning)
    public static let hlsSubtitleDuration = Rule(
        "hls.subtitle-duration", title: "subtitle playlist shorter or longer than the video",
        description: "A subtitle playlist whose duration differs from the video's by more than a segment.",
        guidelines: ["RFC 8216"], helpURL: RuleSource.rfc8216, defaultSeverity: .warning)
    public static let hlsLanguage = Rule(
        "hls.language", title: "rendition language that is not BCP 47",
        description:
            "A rendition's LANGUAGE (or ASSOC-LANGUAGE) that is not a BCP 47 tag of an ISO 639 language: players cannot match it to the user's languages.",
        guidelines: ["RFC 8216"], helpURL: RuleSource.rfc8216, defaultSeverity: .warning)
    public static let hlsReference = Rule(
        "hls.reference", title: "playlist URI outside the package",
        description: "A playlist URI that is a network address, an absolute path, leaves the package's folder or leads out of it by a link: not read.",
        guidelines: ["RFC 8216"], helpURL: RuleSource.pathTraversal, defaultSeverity: .error)
    public static let hlsInstreamID = Rule(
        "hls.instream-id", title: "declared 608 captions the video does not carry",
        description:
            "A CLOSED-CAPTIONS rendition whose INSTREAM-ID (CC1–CC4) no segment of the video carries: players offer captions that never appear. CEA-708 services are not verified.",
        guidelines: ["RFC 8216", "WCAG 1.2.2"], helpURL: RuleSource.rfc8216, defaultSeverity: .error)
    public static let hlsSegment = Rule(
        "hls.segment", title: "segment unreadable or misplaced",
        description:
            "A media segment that cannot be read (missing, empty, not a regular file: left out of what is decoded), a WebVTT segment that cannot be read, or one whose X-TIMESTAMP-MAP is malformed (its cues then read as if MPEG-2 time 0 were cue time 0).",
        guidelines: ["RFC 8216"], helpURL: RuleSource.rfc8216, defaultSeverity: .error)
    public static let hlsTimestampMap = Rule(
        "hls.timestamp-map", title: "subtitle segments without X-TIMESTAMP-MAP",
        description:
            "WebVTT segments without X-TIMESTAMP-MAP in a presentation that does not start at MPEG-2 time 0: their cue times are read as MPEG-2 times (RFC 8216 §3.5), so unless they were written on that clock the captions show as much early as the video starts late. FFmpeg's HLS muxer writes such segments with MPEG-TS starting 1.4 s in (its default -muxdelay).",
        guidelines: ["RFC 8216", "KWCAG 1.2"], helpURL: RuleSource.rfc8216, defaultSeverity: .warning)
}

extension HLSPackage {
    /// Every `hls.*` rule, in the order the catalogue lists them.
    public static let rules: [Rule] = [
        .hlsCaptionsMissing, .hlsRenditionMissing, .hlsSDHCharacteristics, .hlsAudioDescriptionCharacteristics, .hlsRenditionDefault, .hlsSubtitleDuration,
        .hlsLanguage, .hlsReference, .hlsInstreamID, .hlsSegment, .hlsTimestampMap,
    ]
}
