import CFFmpeg

/// What `MediaProbe` finds in a media file: the container and its streams.
public struct MediaInfo: Sendable, Codable, Equatable {
    /// The path as given.
    public var file: String
    /// FFmpeg's demuxer name, e.g. `mov,mp4,m4a,3gp,3g2,mj2` or `matroska,webm`.
    public var format: String
    /// A readable name of the container format, e.g. `QuickTime / MOV`.
    public var formatLongName: String?
    /// The container's duration in seconds, as FFmpeg reports it (absent when unknown).
    public var duration: Double?
    /// The container's start time in seconds.
    public var startTime: Double?
    /// Overall bit rate in bits per second.
    public var bitRate: Int?
    /// The file's size in bytes.
    public var size: Int64
    /// Every stream, in file order.
    public var streams: [StreamInfo]

    /// The streams of one kind.
    public func streams(of kind: StreamKind) -> [StreamInfo] { streams.filter { $0.kind == kind } }
    /// The embedded subtitle tracks whose cues are text (subrip, webvtt, mov_text, ass …).
    public var textSubtitleTracks: [StreamInfo] { streams.filter { $0.subtitle?.isText == true } }
    /// Video streams whose frames carry CEA-608 captions (when the probe looked: `closedCaptions`).
    public var closedCaptionVideoTracks: [StreamInfo] { streams.filter { $0.video?.closedCaptions == true } }
}

/// The kind of data a stream carries.
public enum StreamKind: String, Sendable, Codable {
    case video, audio, subtitle, data, attachment, unknown
}

/// Where a stream's duration or frame count came from.
public enum MeasurementSource: String, Sendable, Codable {
    /// Stated by the container for this stream.
    case container
    /// Measured by reading every packet of the stream (the container did not say).
    case packets
}

/// One stream of a media file.
public struct StreamInfo: Sendable, Codable, Equatable {
    /// The stream's index in the file (FFmpeg's numbering, as in `ffprobe`).
    public var index: Int
    public var kind: StreamKind
    /// FFmpeg's codec name, e.g. `h264`, `aac`, `subrip`.
    public var codec: String
    public var codecLongName: String?
    /// The codec tag (fourcc) as text, e.g. `avc1` (absent when the container has none).
    public var codecTag: String?
    /// Codec profile, e.g. `High` or `LC`.
    public var profile: String?
    /// The language tag as stored (usually ISO 639-2, e.g. `eng`).
    public var language: String?
    public var title: String?
    /// FFmpeg's disposition names that are set, e.g. `default`, `hearing_impaired`, `visual_impaired`, `captions`.
    public var dispositions: [String]
    /// The stream's duration in seconds (from the container, or measured from packets).
    public var duration: Double?
    public var durationSource: MeasurementSource?
    /// Start time in seconds.
    public var startTime: Double?
    /// Number of frames (packets for audio and subtitles), from the container or counted.
    public var frameCount: Int?
    public var frameCountSource: MeasurementSource?
    /// Bit rate in bits per second, when known.
    public var bitRate: Int?
    /// The stream's time base as `num/den`.
    public var timeBase: String
    public var video: VideoStreamInfo?
    public var audio: AudioStreamInfo?
    public var subtitle: SubtitleStreamInfo?

    /// Whether the stream has the named disposition.
    public func has(disposition: String) -> Bool { dispositions.contains(disposition) }
}

/// Picture properties of a video stream.
public struct VideoStreamInfo: Sendable, Codable, Equatable {
    public var width: Int
    public var height: Int
    /// Frame rate in frames per second: the average rate, else the container's base rate (absent when unknown).
    public var fps: Double?
    /// The average frame rate as FFmpeg's exact rational, e.g. `30000/1001` (ffprobe's `avg_frame_rate`).
    public var frameRate: String?
    /// FFmpeg's pixel format name, e.g. `yuv420p`, `yuv420p10le`.
    public var pixelFormat: String?
    /// Bits per luma sample.
    public var bitDepth: Int?
    public var color: ColorInfo
    /// Display rotation in degrees (counter-clockwise, as ffprobe reports it), when the stream has one.
    public var rotation: Double?
    /// Sample aspect ratio as `num:den`, when set.
    public var sampleAspectRatio: String?
    /// Whether the frames carry CEA-608 captions (A/53 data in H.264/HEVC SEI or MPEG-2 user data, as FFmpeg's
    /// "Closed Captions"); nil when not looked for.
    public var closedCaptions: Bool?
}

/// Sound properties of an audio stream.
public struct AudioStreamInfo: Sendable, Codable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    /// FFmpeg's description of the layout, e.g. `mono`, `stereo`, `5.1(side)`.
    public var channelLayout: String?
    /// FFmpeg's sample format name, e.g. `fltp`, `s16`.
    public var sampleFormat: String?
}

/// Properties of a subtitle stream.
public struct SubtitleStreamInfo: Sendable, Codable, Equatable {
    /// True for text subtitles (subrip, webvtt, mov_text, ass …), false for bitmaps (PGS, DVD, DVB).
    public var isText: Bool
}

extension StreamKind {
    init(_ type: AVMediaType) {
        switch type {
        case AVMEDIA_TYPE_VIDEO: self = .video
        case AVMEDIA_TYPE_AUDIO: self = .audio
        case AVMEDIA_TYPE_SUBTITLE: self = .subtitle
        case AVMEDIA_TYPE_DATA: self = .data
        case AVMEDIA_TYPE_ATTACHMENT: self = .attachment
        default: self = .unknown
        }
    }

    var mediaType: AVMediaType {
        switch self {
        case .video: AVMEDIA_TYPE_VIDEO
        case .audio: AVMEDIA_TYPE_AUDIO
        case .subtitle: AVMEDIA_TYPE_SUBTITLE
        case .data: AVMEDIA_TYPE_DATA
        case .attachment: AVMEDIA_TYPE_ATTACHMENT
        case .unknown: AVMEDIA_TYPE_UNKNOWN
        }
    }
}

extension StreamKind {
    /// "a video", "an audio" …
    var withArticle: String {
        switch self {
        case .audio, .attachment, .unknown: "an \(rawValue)"
        default: "a \(rawValue)"
        }
    }
}
