import Findings

/// The rules of `CaptionLinter` (`lint.*`). Their numbers come from the profile (netflix, bbc, dcmp) or the options.
extension Rule {
    static let styleGuides = ["Netflix TTSG", "BBC Subtitle Guidelines", "DCMP Captioning Key"]

    public static let lintReadingSpeed = Rule(
        "lint.reading-speed", title: "captions too fast to read",
        description: "More characters a second (or words a minute) than viewers can read, over the cue's time on screen.",
        guidelines: styleGuides, helpURL: RuleSource.netflix, defaultSeverity: .warning)
    public static let lintLineLength = Rule(
        "lint.line-length", title: "line too long",
        description: "A line of a cue longer than the profile allows (42 characters for Netflix, 37 BBC, 32 DCMP).",
        guidelines: styleGuides, helpURL: RuleSource.netflix, defaultSeverity: .warning)
    public static let lintMaxLines = Rule(
        "lint.max-lines", title: "too many lines",
        description: "More lines in one cue than the profile allows (2 by default).",
        guidelines: styleGuides, helpURL: RuleSource.bbc, defaultSeverity: .warning)
    public static let lintMinDuration = Rule(
        "lint.min-duration", title: "cue too short to read",
        description: "A cue on screen for less than the profile's shortest time (5/6 s for Netflix).",
        guidelines: styleGuides, helpURL: RuleSource.netflix, defaultSeverity: .warning)
    public static let lintMaxDuration = Rule(
        "lint.max-duration", title: "cue on screen too long",
        description: "A cue on screen for longer than the profile's longest time (7 s for Netflix): split it.",
        guidelines: styleGuides, helpURL: RuleSource.netflix, defaultSeverity: .warning)
    public static let lintMinGap = Rule(
        "lint.min-gap", title: "gap between cues too short",
        description: "Too short a gap between one cue and the next (2 frames for Netflix): the eye does not see the change.",
        guidelines: styleGuides, helpURL: RuleSource.netflix, defaultSeverity: .warning)
    public static let lintOverlap = Rule(
        "lint.overlap", title: "overlapping cues",
        description:
            "A cue that starts before a cue shown before it in the same place ends: two captions on screen at once. Cues are taken in time order; cues in different regions or positions (a sign at the top, dialogue at the bottom) do not overlap.",
        guidelines: ["WCAG 1.2.2"], helpURL: RuleSource.wcagCaptions, defaultSeverity: .error)
    public static let lintEmpty = Rule(
        "lint.empty", title: "empty cue",
        description: "A cue with no text.",
        guidelines: ["WebVTT"], helpURL: RuleSource.webVTT, defaultSeverity: .error)
    public static let lintNegativeDuration = Rule(
        "lint.negative-duration", title: "cue that ends before it starts",
        description: "A cue whose end is not after its start: it is never shown.",
        guidelines: ["WebVTT"], helpURL: RuleSource.webVTT, defaultSeverity: .error)
    public static let lintMarkup = Rule(
        "lint.markup", title: "unbalanced or unknown markup",
        description: "Tags that are not closed, closed out of order, or not part of the format: players show or drop them differently.",
        guidelines: ["WebVTT"], helpURL: RuleSource.webVTT, defaultSeverity: .warning)
    public static let lintEncoding = Rule(
        "lint.encoding", title: "text not in UTF-8",
        description: "A caption file in another encoding than UTF-8: players and browsers may show it wrongly (WebVTT must be UTF-8).",
        guidelines: ["WebVTT"], helpURL: RuleSource.webVTT, defaultSeverity: .warning)
    public static let lintAfterEnd = Rule(
        "lint.after-end", title: "cue after the end of the media",
        description: "A cue that starts after the media ends: it is never shown.",
        guidelines: ["WCAG 1.2.2"], helpURL: RuleSource.wcagCaptions, defaultSeverity: .error)
    public static let lintSyntax = Rule(
        "lint.syntax", title: "syntax the reader had to recover from",
        description: "What the WebVTT parser or the SubRip reader had to skip or repair; the message names the reader's own rule.",
        guidelines: ["WebVTT", "SubRip"], helpURL: RuleSource.webVTT, defaultSeverity: .warning)
}
