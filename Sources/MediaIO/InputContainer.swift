import CFFmpeg
import FileAccess
import Glibc

/// An opened media file (`AVFormatContext`) with its stream information read.
///
/// Only the one regular file is read, through `MediaFileIO`: libav opens nothing else — no network, no other
/// local file named by a playlist or manifest inside it — and reading it is bounded in time (`MediaTimeLimit`).
final class InputContainer {
    let path: String
    let context: UnsafeMutablePointer<AVFormatContext>
    /// The file's size in bytes.
    let size: Int64
    /// The file's bytes, as libav reads them (see `MediaFileIO`).
    private let io: MediaFileIO

    /// Opens `path`, read as one with the files `continuation` names after it (an HLS rendition's segments).
    init(path: String, followedBy continuation: [String] = []) throws(MediaError) {
        try FFmpegLog.install(for: path)
        self.path = path
        var files = [try Self.openRegularFile(path)]
        for next in continuation { files.append(try Self.openRegularFile(next)) }
        io = MediaFileIO(files: files, limit: MediaTimeLimit.current)
        size = io.size

        guard let allocated = avformat_alloc_context() else {
            preconditionFailure("avformat_alloc_context: out of memory")
        }
        // Optional, for avformat_open_input, which frees it and sets it to nil when it fails.
        var context: UnsafeMutablePointer<AVFormatContext>? = allocated
        io.attach(to: allocated)
        let contextAddress = UnsafeRawPointer(context)
        // The format is probed here (as libav would) so that playlists and manifests are refused before their
        // demuxer reads a line of them.
        var format: UnsafePointer<AVInputFormat>?
        let probed = av_probe_input_buffer2(io.context, &format, path, context.map { UnsafeMutableRawPointer($0) }, 0, 0)
        if probed < 0 || format == nil || Self.refusedFormat(format) {
            avformat_free_context(context)
            try Self.checkIO(io, path: path, context: contextAddress)
            if let format, Self.refusedFormat(format) {
                let name = cString(format.pointee.long_name) ?? cString(format.pointee.name) ?? "a playlist"
                let reason =
                    PlaylistPolicy.current == nil
                    ? "\(name): a playlist or manifest that names other files, not a single media file; only single files are read"
                    : "\(name): names other files that FFmpeg would open itself, where they cannot be kept inside the folder; of playlists only HLS and ffconcat are followed"
                throw MediaError(.playlist, path: path, reason: reason)
            }
            throw Self.openFailure(path: path, code: probed, context: contextAddress, io: io)
        }
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        if let format, cString(format.pointee.name) == "concat" {
            // The concat demuxer opens the files it names itself (not through `io_open`): each is admitted here
            // first; FFmpeg's own `safe` check (no absolute path, no `..`, no URL) stays on; and what it opens may be
            // no playlist in turn (the format list is handed down to the files it opens).
            do throws(MediaError) {
                try Self.admitConcatEntries(of: files[0], path: path)
            } catch {
                avformat_free_context(context)
                throw error
            }
            av_dict_set(&options, "format_whitelist", Self.concatFormatWhitelist, 0)
        }
        let status = avformat_open_input(&context, path, format, &options)
        av_dict_free(&options)
        guard status >= 0, let context else {
            // libav frees the context on failure; its address still keys what it logged.
            try Self.checkIO(io, path: path, context: contextAddress)
            throw Self.openFailure(path: path, code: status, context: contextAddress, io: io)
        }
        self.context = context
        let infoStatus = avformat_find_stream_info(context, nil)
        try Self.checkIO(io, path: path, context: context)
        if infoStatus < 0 {
            throw MediaError.ffmpeg(
                .corrupt, path: path, reason: "the streams could not be read",
                code: infoStatus, context: context)
        }
        try checkIndexCoversData()
    }

    deinit {
        _ = FFmpegLog.takeError(for: context)
        var context: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&context)
    }

    /// The streams, in file order.
    var streams: [UnsafeMutablePointer<AVStream>] {
        (0..<Int(context.pointee.nb_streams)).compactMap { context.pointee.streams[$0] }
    }

    /// The stream with FFmpeg index `index`, if any.
    func stream(at index: Int) -> UnsafeMutablePointer<AVStream>? {
        guard index >= 0, index < Int(context.pointee.nb_streams) else { return nil }
        return context.pointee.streams[index]
    }

    /// Picks the stream to decode: `index` when given (it must be of `kind`), else FFmpeg's best stream of
    /// `kind` (never cover art for video).
    func selectStream(_ index: Int?, kind: StreamKind) throws(MediaError) -> UnsafeMutablePointer<AVStream> {
        let type = kind.mediaType
        if let index {
            guard let stream = stream(at: index) else {
                throw MediaError(
                    .noSuchStream, path: path,
                    reason: "there is no stream #\(index) (the file has \(context.pointee.nb_streams))")
            }
            guard stream.pointee.codecpar.pointee.codec_type == type else {
                throw MediaError(.noSuchStream, path: path, reason: "stream #\(index) is not \(kind.withArticle) stream")
            }
            return stream
        }
        let best = av_find_best_stream(context, type, -1, -1, nil, 0)
        guard best >= 0, let stream = stream(at: Int(best)) else {
            throw MediaError(.noSuchStream, path: path, reason: "the file has no \(kind.rawValue) stream")
        }
        // Cover art is stored as a one-picture video stream: it is not video.
        if kind == .video, stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 {
            throw MediaError(.noSuchStream, path: path, reason: "the file has no video stream (only cover art)")
        }
        return stream
    }

    /// Makes the demuxer skip every stream but `keep`.
    func discardAll(except keep: Set<Int32>) {
        for stream in streams where !keep.contains(stream.pointee.index) {
            stream.pointee.discard = AVDISCARD_ALL
        }
    }

    /// Reads the next packet into `packet` (unreferencing what it held). Returns false at the end of the file.
    func readPacket(into packet: Packet) throws(MediaError) -> Bool {
        av_packet_unref(packet.pointer)
        let status = av_read_frame(context, packet.pointer)
        try Self.checkIO(io, path: path, context: context)
        if status == mlav_error_eof() { return false }
        if status < 0 {
            throw MediaError.ffmpeg(
                .corrupt, path: path, reason: "the media data is truncated or corrupt",
                code: status, context: context)
        }
        return true
    }

    /// Reads the next packet of stream `streamIndex` into `packet`, skipping the others. Returns false at the end.
    func readPacket(streamIndex: Int32, into packet: Packet) throws(MediaError) -> Bool {
        while try readPacket(into: packet) {
            if packet.pointer.pointee.stream_index == streamIndex { return true }
        }
        return false
    }

    /// Checks, from the demuxer's sample index, that every indexed sample lies inside the file
    /// (a cheap test for a file cut short whose header is whole, e.g. an MP4 with its index at the front).
    private func checkIndexCoversData() throws(MediaError) {
        guard size > 0 else { return }
        for stream in streams {
            let count = avformat_index_get_entries_count(stream)
            guard count > 0 else { continue }
            var end: Int64 = 0
            for i in 0..<count {
                guard let entry = avformat_index_get_entry(stream, i) else { continue }
                end = max(end, mlav_index_entry_end(entry))
            }
            if end > size {
                throw MediaError(
                    .corrupt, path: path,
                    reason: "the file is truncated: stream #\(stream.pointee.index)'s data runs to byte \(end) but the file ends at byte \(size)")
            }
        }
    }

    /// The container's duration in seconds when the demuxer read it from the file or measured it from
    /// timestamps (nil when unknown or only estimated from the bit rate).
    var statedDuration: Double? {
        let c = context.pointee
        guard c.duration != mlav_nopts_value(), c.duration > 0,
            c.duration_estimation_method != AVFMT_DURATION_FROM_BITRATE
        else { return nil }
        return Double(c.duration) / Double(mlav_time_base())
    }

    // MARK: - Opening

    /// Opens the file for reading, or throws when it is missing, not a regular readable file, or empty.
    private static func openRegularFile(_ path: String) throws(MediaError) -> RegularFile {
        let file: RegularFile
        do {
            file = try RegularFile(path: path)
        } catch {
            // Pipes, sockets and devices could block or never end: only regular files are read.
            switch error.kind {
            case .notFound: throw MediaError(.notFound, path: path, reason: "no such file")
            case .directory: throw MediaError(.unreadable, path: path, reason: "is a directory, not a media file")
            default: throw MediaError(.unreadable, path: path, reason: error.reason)
            }
        }
        if file.size == 0 { throw MediaError(.notMedia, path: path, reason: "the file is empty") }
        return file
    }

    /// Demuxers that read other files or URLs named inside the file: never used (their first reference would be
    /// refused anyway; refusing the format gives the clearer message).
    static let refusedFormats: Set<String> = [
        "hls", "applehttp", "dash", "concat", "image2", "imf", "vobsub", "sdp", "rtsp", "rtp",
        "avisynth", "vapoursynth",
    ]

    private static func refusedFormat(_ format: UnsafePointer<AVInputFormat>?) -> Bool {
        guard let format, let names = cString(format.pointee.name) else { return false }
        let allowed = PlaylistPolicy.current == nil ? [] : PlaylistPolicy.playlistFormats
        return names.split(separator: ",").contains { refusedFormats.contains(String($0)) && !allowed.contains(String($0)) }
    }

    /// The most an ffconcat script may hold.
    static let concatScriptLimit = 16 << 20

    /// Every file the ffconcat script `file` names admitted by the playlist policy (a regular file inside the
    /// root), and none of them a script in turn; else throws, naming the first that is not.
    private static func admitConcatEntries(of file: RegularFile, path: String) throws(MediaError) {
        guard let policy = PlaylistPolicy.current else {
            throw MediaError(
                .playlist, path: path, reason: "a playlist or manifest that names other files, not a single media file; only single files are read")
        }
        guard file.size <= Int64(concatScriptLimit) else {
            throw MediaError(.playlist, path: path, reason: "an ffconcat script of \(file.size) bytes: more than the \(concatScriptLimit >> 20) MB read")
        }
        let script = ConcatScript(file.read(count: Int(file.size), at: 0))
        if let keyword = script.refusedKeyword {
            throw MediaError(.playlist, path: path, reason: "an ffconcat script with '\(keyword)' lines (they change how files are opened): not read")
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        for entry in script.files {
            let named = entry.hasPrefix("/") ? entry : folder + entry
            switch policy.admit(named) {
            case .failure(let refusal):
                throw MediaError(.playlist, path: path, reason: "refers to \(refusal.url), which is not read: \(refusal.reason)")
            case .success(let real):
                if let opened = try? RegularFile(path: real), opened.read(count: 20, at: 0).elementsEqual("ffconcat version 1.0".utf8) {
                    throw MediaError(.playlist, path: path, reason: "refers to \(named), which is not read: an ffconcat script in an ffconcat script")
                }
            }
        }
    }

    /// Every demuxer but those that read other files, and concat itself (the list must let the script be read).
    private static let concatFormatWhitelist: String = {
        var names: [String] = []
        var state: UnsafeMutableRawPointer?
        while let demuxer = av_demuxer_iterate(&state) {
            for name in (cString(demuxer.pointee.name) ?? "").split(separator: ",") where !refusedFormats.contains(String(name)) {
                names.append(String(name))
            }
        }
        return (names + ["concat"]).joined(separator: ",")
    }()

    /// Throws when reading stopped because the file names other files, or took longer than allowed.
    private static func checkIO(_ io: MediaFileIO, path: String, context: UnsafeRawPointer?) throws(MediaError) {
        if let refusal = io.refusedReference {
            _ = FFmpegLog.takeError(for: context)
            let reason =
                PlaylistPolicy.current == nil
                ? "refers to other files (\(refusal.url)): a playlist or manifest, not a single media file; only single files are read"
                : "refers to \(refusal.url), which is not read: \(refusal.reason)"
            throw MediaError(.playlist, path: path, reason: reason)
        }
        if io.pastDeadline() {
            _ = FFmpegLog.takeError(for: context)
            let reason =
                io.sharedSubject.map {
                    "reading \($0) took longer than the \(ReadDeadline.describe(seconds: io.allowedSeconds)) s allowed for its size (MEDIALINT_MEDIA_TIME_LIMIT)"
                }
                ?? "reading took longer than the \(ReadDeadline.describe(seconds: io.allowedSeconds)) s allowed for a file of this size (MEDIALINT_MEDIA_TIME_LIMIT)"
            throw MediaError(.timedOut, path: path, reason: reason)
        }
    }

    /// Classifies a failed `avformat_open_input`: a format FFmpeg recognises but cannot read is corrupt;
    /// anything else is not media.
    private static func openFailure(path: String, code: Int32, context: UnsafeRawPointer?, io: MediaFileIO) -> MediaError {
        if code == mlav_error(ENOENT) { return MediaError(.notFound, path: path, reason: "no such file") }
        if code == mlav_error(EACCES) { return MediaError(.unreadable, path: path, reason: "permission denied") }
        if let format = recognisedFormat(path, io.file) {
            return .ffmpeg(.corrupt, path: path, reason: "truncated or corrupt \(format) data", code: code, context: context)
        }
        _ = FFmpegLog.takeError(for: context)
        return MediaError(.notMedia, path: path, reason: "not a media file FFmpeg can read (no known format recognised)")
    }

    /// The long name of the format FFmpeg's probe confidently recognises in the file's first bytes, if any.
    private static func recognisedFormat(_ path: String, _ file: RegularFile) -> String? {
        let probeSize = 1 << 20
        var buffer = file.read(count: probeSize, at: 0)
        let count = buffer.count
        guard count > 0 else { return nil }
        buffer += [UInt8](repeating: 0, count: Int(mlav_probe_padding_size()))
        var score: Int32 = 0
        let format = path.withCString { name in
            buffer.withUnsafeMutableBufferPointer { bytes in
                var data = AVProbeData(filename: name, buf: bytes.baseAddress, buf_size: Int32(count), mime_type: nil)
                return av_probe_input_format3(&data, 1, &score)
            }
        }
        guard let format, score >= mlav_probe_score_retry() else { return nil }
        return cString(format.pointee.long_name) ?? cString(format.pointee.name)
    }
}
