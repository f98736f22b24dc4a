/// Which check a result comes from: the `check` field of every result.
public enum CheckKind: String, Sendable, Codable, CaseIterable {
    /// Seizure-risk flashing in video.
    case flash
    /// Caption timing against the speech in the media.
    case sync
    /// Caption text against the words spoken in the media.
    case accuracy
    /// Caption quality rules over a caption file.
    case lint
    /// Media in HTML pages that plays sound by itself.
    case autoplay
    /// Whether media has captions, a transcript, audio description.
    case captions
    /// Whether a media file can be read at all.
    case media
}
