import CFFmpeg

/// A run of mono samples and the presentation time of its first sample.
public struct AudioChunk: Sendable, Equatable {
    /// Presentation time of `samples[0]` in seconds.
    public var time: Double
    /// Mono Float32 samples at the reader's `sampleRate` (full scale is ±1).
    public var samples: [Float]
}

/// Decodes an audio stream to mono Float32 PCM at a chosen rate (swresample: downmix and resample).
///
/// Chunks come one decoded frame at a time (a few hundred to a few thousand samples), so memory stays
/// flat with the length of the media.
public final class AudioSampleReader {
    /// What to decode and how.
    public struct Options: Sendable {
        /// The audio stream to decode (FFmpeg's index); nil: the file's main audio stream.
        public var streamIndex: Int?
        /// Output sample rate in Hz.
        public var sampleRate: Int
        /// The resampling filter's length (swresample's `filter_size`; nil: its default, 32). Shorter is faster
        /// and lets a little more alias through: 8 is plenty to find speech, and a quarter of the work.
        public var resamplingFilterSize: Int?

        public init(streamIndex: Int? = nil, sampleRate: Int = 16_000, resamplingFilterSize: Int? = nil) {
            self.streamIndex = streamIndex
            self.sampleRate = sampleRate
            self.resamplingFilterSize = resamplingFilterSize
        }
    }

    /// The path as given.
    public let path: String
    /// The stream being decoded.
    public let stream: StreamInfo
    /// Output sample rate in Hz.
    public let sampleRate: Int
    private let filterSize: Int?

    private let decoder: StreamDecoder
    private let decoded = Frame()
    private var resampler: Resampler?
    private var nextTime: Double?
    private var flushed = false

    /// Opens `path` (read as one with the files in `continuation` after it: an HLS rendition's segments).
    public init(path: String, followedBy continuation: [String] = [], options: Options = Options()) throws(MediaError) {
        guard options.sampleRate > 0 else {
            throw MediaError(.noSuchStream, path: path, reason: "the sample rate must be positive (got \(options.sampleRate))")
        }
        self.path = path
        sampleRate = options.sampleRate
        filterSize = options.resamplingFilterSize
        let input = try InputContainer(path: path, followedBy: continuation)
        let avStream = try input.selectStream(options.streamIndex, kind: .audio)
        stream = MediaProbe.describe(avStream)
        decoder = try StreamDecoder(input: input, stream: avStream, threads: 1)
    }

    /// Packets the decoder rejected as invalid so far.
    public var decodeErrorCount: Int { decoder.decodeErrorCount }
    /// FFmpeg's message for the latest rejected packet.
    public var lastDecodeError: String? { decoder.lastDecodeError }

    /// The next chunk of samples, or nil after the last one.
    public func nextChunk() throws(MediaError) -> AudioChunk? {
        while try decoder.receive(into: decoded.pointer) {
            defer { av_frame_unref(decoded.pointer) }
            let frame = decoded.pointer
            let resampler = try resampler(for: frame)
            let timestamp = frame.pointee.best_effort_timestamp
            // The resampler holds back a few samples: the first sample out is that much older than this frame.
            let frameTime = timestamp != mlav_nopts_value() ? seconds(timestamp, decoder.timeBase) : nextTime ?? 0
            let time = frameTime - resampler.delaySeconds
            let samples = try resampler.convert(frame)
            guard !samples.isEmpty else { continue }
            nextTime = time + Double(samples.count) / Double(sampleRate)
            return AudioChunk(time: time, samples: samples)
        }
        guard !flushed else { return nil }
        flushed = true
        guard let resampler, let time = nextTime else { return nil }
        let samples = try resampler.convert(nil)
        return samples.isEmpty ? nil : AudioChunk(time: time, samples: samples)
    }

    /// The resampler for `frame`'s format, rate and layout (made anew if they change mid-stream).
    private func resampler(for frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> Resampler {
        if let resampler, resampler.accepts(frame) { return resampler }
        let made = try Resampler(input: frame, outputRate: sampleRate, filterSize: filterSize, path: path)
        resampler = made
        return made
    }
}

/// An owned `SwrContext` converting to mono Float32 at `outputRate`.
private final class Resampler {
    private var context: OpaquePointer?
    private let inputFormat: Int32
    private let inputRate: Int32
    private var inputLayout = AVChannelLayout()
    private let outputRate: Int
    private let path: String

    init(input frame: UnsafeMutablePointer<AVFrame>, outputRate: Int, filterSize: Int?, path: String) throws(MediaError) {
        self.outputRate = outputRate
        self.path = path
        inputFormat = frame.pointee.format
        inputRate = frame.pointee.sample_rate
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || av_channel_layout_check(&frame.pointee.ch_layout) == 0 {
            av_channel_layout_default(&inputLayout, max(1, frame.pointee.ch_layout.nb_channels))
        } else {
            av_channel_layout_copy(&inputLayout, &frame.pointee.ch_layout)
        }
        var mono = AVChannelLayout()
        mlav_channel_layout_mono(&mono)
        var status = swr_alloc_set_opts2(
            &context, &mono, AV_SAMPLE_FMT_FLT, Int32(outputRate), &inputLayout,
            AVSampleFormat(inputFormat), inputRate, 0, nil)
        if status >= 0, let context {
            // Normalise the downmix so that a full-scale signal on every channel stays full scale.
            av_opt_set_double(UnsafeMutableRawPointer(context), "rematrix_maxval", 1.0, 0)
            if let filterSize { av_opt_set_int(UnsafeMutableRawPointer(context), "filter_size", Int64(max(1, filterSize)), 0) }
            status = swr_init(context)
        }
        if status < 0 || context == nil {
            throw MediaError.ffmpeg(.corrupt, path: path, reason: "cannot resample this audio (\(inputRate) Hz)", code: status)
        }
    }

    deinit {
        swr_free(&context)
        av_channel_layout_uninit(&inputLayout)
    }

    func accepts(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        frame.pointee.format == inputFormat && frame.pointee.sample_rate == inputRate
            && frame.pointee.ch_layout.nb_channels == inputLayout.nb_channels
    }

    /// Samples held back inside the resampler, in seconds.
    var delaySeconds: Double { Double(swr_get_delay(context, Int64(outputRate))) / Double(outputRate) }

    /// Converts `frame` (nil: flush what is held back) to mono samples.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>?) throws(MediaError) -> [Float] {
        let inputCount = frame?.pointee.nb_samples ?? 0
        let capacity = Int(swr_get_out_samples(context, inputCount))
        guard capacity > 0 else { return [] }
        var samples = [Float](repeating: 0, count: capacity)
        let produced = samples.withUnsafeMutableBytes { bytes -> Int32 in
            var output: UnsafeMutablePointer<UInt8>? = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            guard let frame else { return swr_convert(context, &output, Int32(capacity), nil, 0) }
            return frame.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: Int(max(1, frame.pointee.ch_layout.nb_channels))) {
                input in
                swr_convert(context, &output, Int32(capacity), input, inputCount)
            }
        }
        if produced < 0 {
            throw MediaError.ffmpeg(.corrupt, path: path, reason: "audio resampling failed", code: produced)
        }
        samples.removeLast(capacity - Int(produced))
        return samples
    }
}
