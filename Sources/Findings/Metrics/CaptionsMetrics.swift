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
    /// An HLS package's inventory: its renditions (`EXT-X-MEDIA`) and variant streams.
    public var renditions: [Rendition]?
    public var variants: [Variant]?

    public init(
        captionFiles: [String]? = nil, captionTracks: [Track]? = nil, audioDescriptionTracks: [Int]? = nil, transcripts: [String]? = nil,
        speechSeconds: Double? = nil, renditions: [Rendition]? = nil, variants: [Variant]? = nil
    ) {
        self.captionFiles = captionFiles
        self.captionTracks = captionTracks
        self.audioDescriptionTracks = audioDescriptionTracks
        self.transcripts = transcripts
        self.speechSeconds = speechSeconds.map { NumberText.rounded($0, places: 1) }
        self.renditions = renditions
        self.variants = variants
    }

    /// A rendition of an HLS package: its type, group and name, language, the DEFAULT, AUTOSELECT and FORCED flags,
    /// characteristics, INSTREAM-ID and URI. What it does not state is written as null.
    public struct Rendition: Codable, Sendable, Equatable {
        public var type: String?
        public var group: String
        public var name: String
        public var language: String?
        public var `default`: Bool
        public var autoselect: Bool
        public var forced: Bool
        public var characteristics: [String]
        public var instreamID: String?
        public var uri: String?

        public init(
            type: String?, group: String, name: String, language: String?, default: Bool, autoselect: Bool, forced: Bool,
            characteristics: [String], instreamID: String?, uri: String?
        ) {
            self.type = type
            self.group = group
            self.name = name
            self.language = language
            self.default = `default`
            self.autoselect = autoselect
            self.forced = forced
            self.characteristics = characteristics
            self.instreamID = instreamID
            self.uri = uri
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
            try container.encode(group, forKey: .group)
            try container.encode(name, forKey: .name)
            try container.encode(language, forKey: .language)
            try container.encode(`default`, forKey: .default)
            try container.encode(autoselect, forKey: .autoselect)
            try container.encode(forced, forKey: .forced)
            try container.encode(characteristics, forKey: .characteristics)
            try container.encode(instreamID, forKey: .instreamID)
            try container.encode(uri, forKey: .uri)
        }
    }

    /// A variant stream of an HLS package and the groups it names (`closedCaptions`: a group, or `NONE`).
    public struct Variant: Codable, Sendable, Equatable {
        public var uri: String
        public var bandwidth: Int?
        public var audio: String?
        public var subtitles: String?
        public var closedCaptions: String?

        public init(uri: String, bandwidth: Int?, audio: String?, subtitles: String?, closedCaptions: String?) {
            self.uri = uri
            self.bandwidth = bandwidth
            self.audio = audio
            self.subtitles = subtitles
            self.closedCaptions = closedCaptions
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(uri, forKey: .uri)
            try container.encode(bandwidth, forKey: .bandwidth)
            try container.encode(audio, forKey: .audio)
            try container.encode(subtitles, forKey: .subtitles)
            try container.encode(closedCaptions, forKey: .closedCaptions)
        }
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
