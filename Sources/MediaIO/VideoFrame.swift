import CFFmpeg

/// One decoded picture: its presentation time and direct access to its Y, Cb and Cr planes.
///
/// Planes are always planar YCbCr (or luma only for grey pictures) at 8 bits (`UInt8` samples) or
/// 9–16 bits (`UInt16` little-endian samples): formats that are not (RGB, NV12, big-endian …) are
/// converted by `VideoFrameReader` with swscale, and `color` then describes the converted samples.
/// The pixels stay in FFmpeg's buffers; a `VideoFrame` holds a reference to them until it is released.
public final class VideoFrame: @unchecked Sendable {
    // Immutable after creation: only read, from any thread.
    private let frame: Frame

    /// Presentation time in seconds (pts × time base, as `ffprobe` reports `best_effort_timestamp_time`).
    public let time: Double
    /// How long the frame is shown, in seconds, when the stream says.
    public let duration: Double?
    public let width: Int
    public let height: Int
    /// How the samples are laid out.
    public let layout: PixelLayout
    /// Matrix, range, transfer and primaries of the samples.
    public let color: ColorInfo
    /// The frame's own presentation timestamp in the stream's time base (nil when it has none).
    let timestamp: Int64?

    init(frame: Frame, time: Double, timestamp: Int64?, duration: Double?, layout: PixelLayout, color: ColorInfo) {
        self.frame = frame
        self.time = time
        self.timestamp = timestamp
        self.duration = duration
        width = Int(frame.pointer.pointee.width)
        height = Int(frame.pointer.pointee.height)
        self.layout = layout
        self.color = color
    }

    /// Calls `body` with the frame's planes. The pointers are valid only inside `body`.
    public func withPlanes<Result>(_ body: (YCbCrPlanes) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(frame) {
            let f = frame.pointer.pointee
            let bytes = layout.bytesPerSample
            func plane(_ i: Int, width: Int, height: Int) -> ImagePlane? {
                guard let data = f.planePointers[i] else { return nil }
                return ImagePlane(
                    baseAddress: UnsafeRawPointer(data), bytesPerRow: Int(f.planeStrides[i]),
                    width: width, height: height, bytesPerSample: bytes)
            }
            let chromaWidth = -((-width) >> layout.chromaShiftX)
            let chromaHeight = -((-height) >> layout.chromaShiftY)
            let luma = plane(0, width: width, height: height)!
            let cb = layout.hasChroma ? plane(1, width: chromaWidth, height: chromaHeight) : nil
            let cr = layout.hasChroma ? plane(2, width: chromaWidth, height: chromaHeight) : nil
            return try body(YCbCrPlanes(luma: luma, cb: cb, cr: cr))
        }
    }
}

extension AVFrame {
    /// The first three plane pointers and strides (the C arrays import as tuples).
    fileprivate var planePointers: [UnsafeMutablePointer<UInt8>?] { [data.0, data.1, data.2] }
    fileprivate var planeStrides: [Int32] { [linesize.0, linesize.1, linesize.2] }
}

/// The sample layout of a `VideoFrame`.
public struct PixelLayout: Sendable, Equatable {
    /// FFmpeg's name of the (possibly converted) pixel format, e.g. `yuv420p10le`.
    public let pixelFormat: String
    /// Significant bits per sample (8, 10, 12 …).
    public let bitDepth: Int
    /// log2 of the horizontal and vertical chroma subsampling (1 and 1 for 4:2:0).
    public let chromaShiftX: Int
    public let chromaShiftY: Int
    /// False for grey pictures (luma only).
    public let hasChroma: Bool

    /// 1 for 8-bit samples, 2 for deeper ones.
    public var bytesPerSample: Int { bitDepth > 8 ? 2 : 1 }
    /// The largest sample value, e.g. 255 or 1023.
    public var maximumValue: Int { (1 << bitDepth) - 1 }
}

/// The planes of a picture; `cb` and `cr` are nil for grey pictures.
public struct YCbCrPlanes {
    public let luma: ImagePlane
    public let cb: ImagePlane?
    public let cr: ImagePlane?
}

/// One plane of samples in memory.
public struct ImagePlane {
    public let baseAddress: UnsafeRawPointer
    /// Distance between rows in bytes (may exceed `width × bytesPerSample`).
    public let bytesPerRow: Int
    /// Width and height in samples.
    public let width: Int
    public let height: Int
    /// 1 (`UInt8` samples) or 2 (`UInt16` samples).
    public let bytesPerSample: Int

    /// Row `y` of an 8-bit plane.
    @inlinable
    public func row8(_ y: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: (baseAddress + y * bytesPerRow).assumingMemoryBound(to: UInt8.self), count: width)
    }

    /// Row `y` of a 9–16-bit plane.
    @inlinable
    public func row16(_ y: Int) -> UnsafeBufferPointer<UInt16> {
        UnsafeBufferPointer(start: (baseAddress + y * bytesPerRow).assumingMemoryBound(to: UInt16.self), count: width)
    }

    /// The sample at column `x`, row `y`, whatever the depth (convenient, not fast).
    public func sample(x: Int, y: Int) -> Int {
        bytesPerSample == 1 ? Int(row8(y)[x]) : Int(row16(y)[x])
    }
}
