import Basics

/// The metrics of a `captions` result: what the media has (each list present once the media was looked at) and the
/// seconds of speech in its audio (to a tenth).
public struct CaptionsMetrics: CheckMetrics, Equatable {
    public static let check = CheckKind.captions

    /// Caption files next to the media.
    public var captionFiles: [String]?
    /// Subtitle tracks in the media.
    public var captionTracks: [Track]?
    /// Stream indexes of audio marked as description.
    public var audioDescriptionTracks: [Int]?
    /// Transcript files next to the media.
    public var transcripts: [String]?
    public var speechSeconds: Double?

    public init(
        captionFiles: [String]? = nil, captionTracks: [Track]? = nil, audioDescriptionTracks: [Int]? = nil, transcripts: [String]? = nil,
        speechSeconds: Double? = nil
    ) {
        self.captionFiles = captionFiles
        self.captionTracks = captionTracks
        self.audioDescriptionTracks = audioDescriptionTracks
        self.transcripts = transcripts
        self.speechSeconds = speechSeconds.map { NumberText.rounded($0, places: 1) }
    }

    /// A subtitle track: its stream index and language (null when it states none), whether it is marked for the
    /// hard of hearing, whether it is text (not pictures).
    public struct Track: Codable, Sendable, Equatable {
        public var index: Int
        public var language: String?
        public var hearingImpaired: Bool
        public var text: Bool

        public init(index: Int, language: String?, hearingImpaired: Bool, text: Bool) {
            self.index = index
            self.language = language
            self.hearingImpaired = hearingImpaired
            self.text = text
        }

        /// `language` is written as null when the track states none, not left out.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(index, forKey: .index)
            try container.encode(language, forKey: .language)
            try container.encode(hearingImpaired, forKey: .hearingImpaired)
            try container.encode(text, forKey: .text)
        }
    }
}
