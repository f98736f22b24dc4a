import CFFmpeg
import Synchronization

/// Routes libav's own logging through MediaLint, so FFmpeg never prints on its own.
///
/// Error messages are kept per FFmpeg context, so that a failed call can carry the reason FFmpeg gave
/// (e.g. "moov atom not found") in its `MediaError`. Everything else goes to the optional handler.
public enum FFmpegLog {
    /// libav's log levels (`AV_LOG_*`).
    public enum Level: Int32, Sendable, Comparable {
        case panic = 0, fatal = 8, error = 16, warning = 24, info = 32, verbose = 40, debug = 48, trace = 56

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Receives libav's messages (one line each, without the trailing newline).
    public typealias Handler = @Sendable (Level, String) -> Void

    private struct State {
        var handler: Handler?
        /// The latest error message per context pointer (bounded).
        var lastErrors: [UInt: String] = [:]
    }

    private static let state = Mutex(State())
    private static let maximumRemembered = 256

    /// Opens FFmpeg's libraries and installs the callback, once; every MediaIO entry point calls this before touching
    /// libav. The libraries are not linked but opened here, on first use (Sources/CFFmpeg/Libraries.c): a
    /// `decoderMissing` error for `path` when they cannot be.
    static func install(for path: String) throws(MediaError) {
        if let reason = mlav_load_libraries() {
            throw MediaError(
                .decoderMissing, path: path,
                reason: "\(String(cString: reason)); install FFmpeg's libraries (Debian: libavformat59, libavcodec59, libswscale6, libswresample4)")
        }
        _ = installation
    }

    /// `install(for:)` where the libraries are known to be open (a file was opened): a no-op after the first call.
    static func install() { _ = installation }

    private static let installation: Void = {
        av_log_set_level(Level.warning.rawValue)
        av_log_set_callback { context, level, format, arguments in
            // libav hands a custom callback every message, debug and trace included: the level set with
            // av_log_set_level is only applied by its own default callback. Drop them before formatting.
            guard level <= av_log_get_level(), let format, let arguments else { return }
            var line = [CChar](repeating: 0, count: 1024)
            var printPrefix: Int32 = 0
            av_log_format_line2(context, level, format, arguments, &line, Int32(line.count), &printPrefix)
            let text = string(fromNulTerminated: line).trimmingWhitespace()
            guard !text.isEmpty else { return }
            FFmpegLog.record(context: context.map { UInt(bitPattern: $0) }, level: level, text: text)
        }
    }()

    /// Sets where libav's messages go (`nil`: nowhere) and the most verbose level delivered.
    public static func setHandler(_ handler: Handler?, level: Level = .warning) {
        install()
        state.withLock { $0.handler = handler }
        av_log_set_level(max(level, .error).rawValue)
    }

    private static func record(context: UInt?, level: Int32, text: String) {
        let handler = state.withLock { state -> Handler? in
            if level <= Level.error.rawValue, let context {
                if state.lastErrors.count >= maximumRemembered { state.lastErrors.removeAll(keepingCapacity: true) }
                state.lastErrors[context] = text
            }
            return state.handler
        }
        handler?(Level(rawValue: level) ?? .trace, text)
    }

    /// Removes and returns the latest error message libav logged for `context`.
    static func takeError(for context: UnsafeRawPointer?) -> String? {
        guard let context else { return nil }
        return state.withLock { $0.lastErrors.removeValue(forKey: UInt(bitPattern: context)) }
    }

    /// libav's text for an error code (`av_strerror`).
    static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "FFmpeg error \(code)" }
        return string(fromNulTerminated: buffer)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
