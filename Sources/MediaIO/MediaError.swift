import CFFmpeg

/// Why a media file could not be read. `message` is one line a person can act on; when FFmpeg said
/// something about it, `ffmpegMessage` holds that text (and it is part of `message`).
public struct MediaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: String, Sendable, Codable {
        /// The path does not exist.
        case notFound = "not-found"
        /// The path exists but cannot be read (permissions, a directory, an I/O error).
        case unreadable
        /// The file is not in a format FFmpeg can read (including an empty file).
        case notMedia = "not-media"
        /// The requested stream does not exist or is not of the requested kind.
        case noSuchStream = "no-such-stream"
        /// The stream's codec has no decoder in this FFmpeg build.
        case decoderMissing = "decoder-missing"
        /// The file is of a known format but its data is truncated or corrupt.
        case corrupt
        /// The file is a playlist or manifest naming other files (HLS, DASH, concat …): not read.
        case playlist
        /// Reading took longer than the time allowed for a file of its size (`MediaTimeLimit`).
        case timedOut = "timed-out"
    }

    public let kind: Kind
    /// The path as given.
    public let path: String
    /// One line: what went wrong (without the path).
    public let reason: String
    /// FFmpeg's own message, when it gave one.
    public let ffmpegMessage: String?

    public init(_ kind: Kind, path: String, reason: String, ffmpegMessage: String? = nil) {
        self.kind = kind
        self.path = path
        self.ffmpegMessage = ffmpegMessage.map(Self.oneLine)
        var reason = Self.oneLine(reason)
        if let ffmpegMessage = self.ffmpegMessage, !ffmpegMessage.isEmpty, !reason.contains(ffmpegMessage) {
            reason += " (FFmpeg: \(ffmpegMessage))"
        }
        self.reason = reason
    }

    /// `path: reason`, on one line.
    public var description: String { "\(path): \(reason)" }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespaceSubstring() }.filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}

extension Substring {
    fileprivate func trimmingWhitespaceSubstring() -> String { String(self).trimmingWhitespace() }
}

extension MediaError {
    /// An error for a failed libav call on `context`, with the message libav logged for it if any.
    static func ffmpeg(
        _ kind: Kind, path: String, reason: String, code: Int32,
        context: UnsafeRawPointer? = nil
    ) -> MediaError {
        let logged = FFmpegLog.takeError(for: context)
        return MediaError(kind, path: path, reason: reason, ffmpegMessage: logged ?? FFmpegLog.describe(code))
    }
}
