import CFFmpeg
import Glibc

/// An opened media file (`AVFormatContext`) with its stream information read.
///
/// Only local files are opened (FFmpeg's `file` protocol only): a path never reaches the network,
/// and a playlist inside a file cannot make FFmpeg fetch anything.
final class InputContainer {
    let path: String
    let context: UnsafeMutablePointer<AVFormatContext>
    /// The file's size in bytes.
    let size: Int64

    init(path: String) throws(MediaError) {
        FFmpegLog.install()
        self.path = path
        size = try Self.checkReadableFile(path)

        var context: UnsafeMutablePointer<AVFormatContext>? = avformat_alloc_context()
        let contextAddress = UnsafeRawPointer(context)
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        let status = avformat_open_input(&context, "file:" + path, nil, &options)
        av_dict_free(&options)
        guard status >= 0, let context else {
            // libav frees the context on failure; its address still keys what it logged.
            throw Self.openFailure(path: path, code: status, context: contextAddress)
        }
        self.context = context
        let infoStatus = avformat_find_stream_info(context, nil)
        if infoStatus < 0 {
            throw MediaError.ffmpeg(.corrupt, path: path, reason: "the streams could not be read",
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
                throw MediaError(.noSuchStream, path: path,
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
        if status == mlav_error_eof() { return false }
        if status < 0 {
            throw MediaError.ffmpeg(.corrupt, path: path, reason: "the media data is truncated or corrupt",
                                    code: status, context: context)
        }
        return true
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
                throw MediaError(.corrupt, path: path,
                                 reason: "the file is truncated: stream #\(stream.pointee.index)'s data runs to byte \(end) but the file ends at byte \(size)")
            }
        }
    }

    /// The container's duration in seconds when the demuxer read it from the file or measured it from
    /// timestamps (nil when unknown or only estimated from the bit rate).
    var statedDuration: Double? {
        let c = context.pointee
        guard c.duration != mlav_nopts_value(), c.duration > 0,
              c.duration_estimation_method != AVFMT_DURATION_FROM_BITRATE else { return nil }
        return Double(c.duration) / Double(mlav_time_base())
    }

    // MARK: - Opening

    /// Returns the file's size, or throws when it is missing, not a regular readable file, or empty.
    private static func checkReadableFile(_ path: String) throws(MediaError) -> Int64 {
        var info = stat()
        if stat(path, &info) != 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                throw MediaError(.notFound, path: path, reason: "no such file")
            }
            throw MediaError(.unreadable, path: path, reason: String(cString: strerror(code)))
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR { throw MediaError(.unreadable, path: path, reason: "is a directory, not a media file") }
        // Pipes, sockets and devices could block or never end: only regular files are read.
        if type != S_IFREG { throw MediaError(.unreadable, path: path, reason: "not a regular file") }
        if access(path, R_OK) != 0 { throw MediaError(.unreadable, path: path, reason: String(cString: strerror(errno))) }
        if info.st_size == 0 { throw MediaError(.notMedia, path: path, reason: "the file is empty") }
        return Int64(info.st_size)
    }

    /// Classifies a failed `avformat_open_input`: a format FFmpeg recognises but cannot read is corrupt;
    /// anything else is not media.
    private static func openFailure(path: String, code: Int32, context: UnsafeRawPointer?) -> MediaError {
        if code == mlav_error(ENOENT) { return MediaError(.notFound, path: path, reason: "no such file") }
        if code == mlav_error(EACCES) { return MediaError(.unreadable, path: path, reason: "permission denied") }
        if let format = recognisedFormat(path) {
            return .ffmpeg(.corrupt, path: path, reason: "truncated or corrupt \(format) data", code: code, context: context)
        }
        _ = FFmpegLog.takeError(for: context)
        return MediaError(.notMedia, path: path, reason: "not a media file FFmpeg can read (no known format recognised)")
    }

    /// The long name of the format FFmpeg's probe confidently recognises in the file's first bytes, if any.
    private static func recognisedFormat(_ path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        let probeSize = 1 << 20
        let padding = Int(mlav_probe_padding_size())
        var buffer = [UInt8](repeating: 0, count: probeSize + padding)
        let count = fread(&buffer, 1, probeSize, file)
        guard count > 0 else { return nil }
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
