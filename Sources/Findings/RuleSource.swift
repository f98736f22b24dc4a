/// Where rules come from: the public text behind each (W3C "Understanding" pages, standards, style guides), the
/// `helpURL` of rules in every module.
public enum RuleSource {
    public static let wcagFlashes = "https://www.w3.org/WAI/WCAG22/Understanding/three-flashes-or-below-threshold.html"
    public static let wcagCaptions = "https://www.w3.org/WAI/WCAG22/Understanding/captions-prerecorded.html"
    public static let wcagAudioOnly = "https://www.w3.org/WAI/WCAG22/Understanding/audio-only-and-video-only-prerecorded.html"
    public static let wcagAudioDescription = "https://www.w3.org/WAI/WCAG22/Understanding/audio-description-prerecorded.html"
    public static let wcagAudioControl = "https://www.w3.org/WAI/WCAG22/Understanding/audio-control.html"
    /// The FCC's caption quality standards (accuracy, synchronicity, completeness, placement): 47 CFR 79.1(j).
    public static let fccCaptionQuality = "https://www.ecfr.gov/current/title-47/part-79/section-79.1"
    public static let ituBT1702 = "https://www.itu.int/rec/R-REC-BT.1702/en"
    public static let webVTT = "https://www.w3.org/TR/webvtt1/"
    public static let rfc8216 = "https://www.rfc-editor.org/rfc/rfc8216"
    public static let appleHLSAuthoring = "https://developer.apple.com/documentation/http-live-streaming/hls-authoring-specification-for-apple-devices"
    public static let netflix = "https://partnerhelp.netflixstudios.com/hc/en-us/articles/217350977-English-USA-Timed-Text-Style-Guide"
    public static let bbc = "https://www.bbc.co.uk/accessibility/forproducts/guides/subtitles/"
    public static let dcmp = "https://dcmp.org/learn/captioningkey"
    public static let ffmpegFormats = "https://ffmpeg.org/ffmpeg-formats.html"
    public static let pathTraversal = "https://owasp.org/www-community/attacks/Path_Traversal"
}
