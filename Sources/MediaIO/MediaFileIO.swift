import CFFmpeg
import FileAccess
import Glibc
import Synchronization

/// How long reading one media file may take: `baseSeconds` plus `secondsPerMegabyte` for each megabyte of the
/// file. Past it, the read ends with an error (a demuxer or decoder looping on a crafted file cannot stall a
/// library run). The defaults allow far more than decoding takes; `MEDIALINT_MEDIA_TIME_LIMIT` (seconds, or
/// `BASE+PER_MB`) changes them for the whole process.
public struct MediaTimeLimit: Sendable, Equatable {
    public var baseSeconds: Double
    public var secondsPerMegabyte: Double

    public init(baseSeconds: Double = 60, secondsPerMegabyte: Double = 2) {
        self.baseSeconds = baseSeconds
        self.secondsPerMegabyte = secondsPerMegabyte
    }

    /// `60` or `60+2`: nil when not two non-negative finite numbers.
    public init?(_ text: String) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map { Double(String($0).trimmingWhitespace()) }
        guard (1...2).contains(parts.count), let base = parts[0], base.isFinite, base >= 0 else { return nil }
        var per = MediaTimeLimit().secondsPerMegabyte
        if parts.count == 2 {
            guard let value = parts[1], value.isFinite, value >= 0 else { return nil }
            per = value
        }
        self.init(baseSeconds: base, secondsPerMegabyte: per)
    }

    /// The seconds allowed for a file of `size` bytes.
    public func seconds(forSize size: Int64) -> Double { baseSeconds + secondsPerMegabyte * Double(size) / 1_048_576 }

    private static let shared = Mutex<MediaTimeLimit?>(nil)

    /// The limit in force: set with `current = …`, else from the environment, else the defaults.
    public static var current: MediaTimeLimit {
        get {
            shared.withLock { limit in
                if let limit { return limit }
                let fromEnvironment = getenv("MEDIALINT_MEDIA_TIME_LIMIT").flatMap { MediaTimeLimit(String(cString: $0)) }
                limit = fromEnvironment ?? MediaTimeLimit()
                return limit!
            }
        }
        set { shared.withLock { $0 = newValue } }
    }
}

/// Whether playlists and manifests (HLS, DASH, ffconcat) are read, and where the files they name may be: off by
/// default; when on, only regular local files inside one of `roots` (real paths) are opened — never a URL, never a
/// file outside, never a FIFO or device.
public struct PlaylistPolicy: Sendable, Equatable {
    /// The folders (real paths) whose files a playlist may name.
    public var roots: [String]

    public init(roots: [String]) { self.roots = roots }

    /// Demuxers allowed to open what they name under this policy. Not DASH: FFmpeg's DASH demuxer opens the files
    /// it names itself, out of reach of the checks here (a `BaseURL` can lead anywhere, a FIFO would hang it).
    static let playlistFormats: Set<String> = ["hls", "applehttp", "concat"]

    private static let shared = Mutex<PlaylistPolicy?>(nil)

    /// The policy in force for the whole process (nil: playlists are refused).
    public static var current: PlaylistPolicy? {
        get { shared.withLock { $0 } }
        set { shared.withLock { $0 = newValue } }
    }

    /// The local path `url` names, when it is a regular file inside a root; else why not.
    func admit(_ url: String) -> Result<String, PlaylistRefusal> {
        var path = url
        if path.hasPrefix("file:") { path.removeFirst(5) }
        guard !path.contains("://"), !path.hasPrefix("//") else { return .failure(PlaylistRefusal(url: url, reason: "not a local file")) }
        guard let real = PathContainment.realPath(path) else { return .failure(PlaylistRefusal(url: url, reason: "no such file")) }
        guard roots.contains(where: { PathContainment.isWithin(real, root: $0) }) else {
            return .failure(PlaylistRefusal(url: url, reason: "outside the checked root"))
        }
        var info = stat()
        guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .failure(PlaylistRefusal(url: url, reason: "not a regular file")) }
        return .success(real)
    }
}

/// A reference a playlist may not follow.
struct PlaylistRefusal: Error, Equatable {
    var url: String
    var reason: String
}

/// The bytes of one media file, handed to libav through an `AVIOContext` of our own: the file is the regular file
/// opened and checked (never a FIFO or device, never swapped in between), every read checks the time limit, and
/// libav may open nothing else — a playlist or manifest that names other files (HLS, DASH, concat, image
/// sequences, VobSub's .sub …) is stopped at its first reference, which is kept for the error message.
///
/// Files that continue one another (an HLS rendition's segments, after its initialisation section) are read as one:
/// their bytes one after the other, as a player appends them.
final class MediaFileIO {
    /// The first file (its first bytes tell the format).
    var file: RegularFile { files[0] }
    let files: [RegularFile]
    /// Where each file starts in the bytes read, and their total.
    private let starts: [Int64]
    let size: Int64
    /// The AVIOContext libav reads through (freed here, not by libav: custom I/O).
    private(set) var context: UnsafeMutablePointer<AVIOContext>?
    private var position: Int64 = 0
    /// Monotonic nanoseconds after which reading stops.
    let deadline: UInt64
    let allowedSeconds: Double
    /// What the time allowed was for, when a shared deadline (`ReadDeadline.current`) ends the read before the
    /// file's own limit would: "the package's media".
    let sharedSubject: String?
    /// Set once the deadline passed during a read.
    private(set) var timedOut = false
    /// The first other file or URL libav tried to open for this file and was refused, and why.
    private(set) var refusedReference: PlaylistRefusal?

    init(files: [RegularFile], limit: MediaTimeLimit) {
        precondition(!files.isEmpty, "MediaFileIO needs a file")
        self.files = files
        var starts: [Int64] = []
        var total: Int64 = 0
        for file in files {
            starts.append(total)
            total += file.size
        }
        self.starts = starts
        size = total
        let own = limit.seconds(forSize: total)
        if let shared = ReadDeadline.current, case let remaining = shared.remainingSeconds, remaining < own {
            allowedSeconds = shared.allowedSeconds
            sharedSubject = shared.subject
            deadline = Self.now() &+ UInt64(min(remaining, 1e9) * 1e9)
        } else {
            allowedSeconds = own
            sharedSubject = nil
            deadline = Self.now() &+ UInt64(min(own, 1e9) * 1e9)
        }
        let size: Int32 = 1 << 16
        guard let buffer = av_malloc(Int(size)) else { preconditionFailure("av_malloc: out of memory") }
        context = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), size, 0,
            Unmanaged.passUnretained(self).toOpaque(), mediaFileRead, nil, mediaFileSeek)
        if context == nil { preconditionFailure("avio_alloc_context: out of memory") }
    }

    deinit {
        if context != nil {
            av_freep(&context!.pointee.buffer)
            avio_context_free(&context)
        }
    }

    /// Attaches this I/O to `format` before it is opened: reads, interruption and further opens go through here.
    func attach(to format: UnsafeMutablePointer<AVFormatContext>) {
        format.pointee.pb = context
        format.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        format.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        format.pointee.interrupt_callback = AVIOInterruptCB(callback: mediaFileInterrupt, opaque: Unmanaged.passUnretained(self).toOpaque())
        format.pointee.io_open = mediaFileRefuseOpen
    }

    /// True once the time allowed is over (and remembered as such).
    func pastDeadline() -> Bool {
        if !timedOut, Self.now() > deadline { timedOut = true }
        return timedOut
    }

    fileprivate func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int32) -> Int32 {
        if pastDeadline() { return mlav_error_exit() }
        // The file the position is in (the last one that starts at or before it), read up to its end at most.
        var index = files.count - 1
        while index > 0 && starts[index] > position { index -= 1 }
        let offset = position - starts[index]
        let wanted = files.count == 1 ? Int(count) : Int(max(0, min(Int64(count), files[index].size - offset)))
        guard wanted > 0 || index == files.count - 1 else { return mlav_error_eof() }
        while true {
            let got = pread(files[index].descriptor, buffer, wanted, off_t(offset))
            if got < 0 {
                if errno == EINTR { continue }
                return mlav_error(errno)
            }
            if got == 0 { return mlav_error_eof() }
            position += Int64(got)
            return Int32(got)
        }
    }

    fileprivate func seek(_ offset: Int64, whence: Int32) -> Int64 {
        if whence & AVSEEK_SIZE != 0 { return size }
        let target: Int64
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END: target = size + offset
        default: return Int64(mlav_error(EINVAL))
        }
        guard target >= 0 else { return Int64(mlav_error(EINVAL)) }
        position = target
        return target
    }

    fileprivate func refuse(_ refusal: PlaylistRefusal) {
        if refusedReference == nil { refusedReference = refusal }
    }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

// The C callbacks: each finds its MediaFileIO through the opaque pointer given to libav.

private func mediaFileRead(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ count: Int32) -> Int32 {
    guard let opaque, let buffer else { return mlav_error(EINVAL) }
    return Unmanaged<MediaFileIO>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, count: count)
}

private func mediaFileSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    guard let opaque else { return Int64(mlav_error(EINVAL)) }
    return Unmanaged<MediaFileIO>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence: whence)
}

private func mediaFileInterrupt(_ opaque: UnsafeMutableRawPointer?) -> Int32 {
    guard let opaque else { return 0 }
    return Unmanaged<MediaFileIO>.fromOpaque(opaque).takeUnretainedValue().pastDeadline() ? 1 : 0
}

/// libav's `io_open` for everything but the file itself: refused, unless a `PlaylistPolicy` is in force and admits
/// it (a nested demuxer — concat's — has no MediaFileIO of its own: the policy is the process's).
private func mediaFileRefuseOpen(
    _ format: UnsafeMutablePointer<AVFormatContext>?, _ pb: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
    _ url: UnsafePointer<CChar>?, _ flags: Int32, _ options: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    guard let url else { return mlav_error(EINVAL) }
    let text = String(cString: url)
    let owner = format?.pointee.opaque.map { Unmanaged<MediaFileIO>.fromOpaque($0).takeUnretainedValue() }
    guard let policy = PlaylistPolicy.current, flags & AVIO_FLAG_WRITE == 0 else {
        owner?.refuse(PlaylistRefusal(url: text, reason: "playlists are not followed"))
        return mlav_error(EPERM)
    }
    switch policy.admit(text) {
    case .failure(let refusal):
        owner?.refuse(refusal)
        return mlav_error(EPERM)
    case .success(let path):
        var whitelist: OpaquePointer?
        av_dict_set(&whitelist, "protocol_whitelist", "file", 0)
        defer { av_dict_free(&whitelist) }
        var interrupt = format?.pointee.interrupt_callback ?? AVIOInterruptCB()
        return avio_open2(pb, "file:" + path, AVIO_FLAG_READ, &interrupt, &whitelist)
    }
}
