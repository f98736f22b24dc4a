import CFFmpeg

/// Brings decoded pictures to planar YCbCr (`PixelLayout`), converting with swscale when the decoder's
/// format is not planar already (RGB, NV12, packed 4:2:2, big-endian …).
final class PlanarConverter {
    private var context: OpaquePointer?

    deinit { sws_freeContext(context) }

    /// The layout of `format` when it can be used as it is, else nil.
    static func nativeLayout(of format: AVPixelFormat) -> PixelLayout? {
        guard let descriptor = av_pix_fmt_desc_get(format)?.pointee else { return nil }
        let rejected = UInt64(
            AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_HWACCEL
                | AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_BAYER | AV_PIX_FMT_FLAG_FLOAT)
        guard descriptor.flags & rejected == 0 else { return nil }
        let depth = Int(descriptor.comp.0.depth)
        let bytes: Int32 = depth > 8 ? 2 : 1
        let components = [descriptor.comp.0, descriptor.comp.1, descriptor.comp.2]
        let colorComponents = descriptor.nb_components >= 3 ? 3 : 1
        for (i, component) in components.prefix(colorComponents).enumerated() {
            guard component.plane == Int32(i), component.step == bytes, component.shift == 0, component.offset == 0,
                component.depth == Int32(depth)
            else { return nil }
        }
        if colorComponents == 1, descriptor.nb_components == 2 { return nil }  // grey + interleaved alpha
        return PixelLayout(
            pixelFormat: cString(av_get_pix_fmt_name(format)) ?? "unknown", bitDepth: depth,
            chromaShiftX: colorComponents == 3 ? Int(descriptor.log2_chroma_w) : 0,
            chromaShiftY: colorComponents == 3 ? Int(descriptor.log2_chroma_h) : 0,
            hasChroma: colorComponents == 3)
    }

    /// The planar format that `format` is converted to.
    static func planarTarget(for format: AVPixelFormat) -> AVPixelFormat {
        guard let descriptor = av_pix_fmt_desc_get(format)?.pointee else { return AV_PIX_FMT_YUV444P }
        let depth = Int(descriptor.comp.0.depth)
        let depthSuffix = depth <= 8 ? "" : depth <= 10 ? "10le" : depth <= 12 ? "12le" : "16le"
        let name: String
        if descriptor.nb_components < 3 {
            name = depth <= 8 ? "gray" : "gray" + depthSuffix
        } else {
            let isRGB = descriptor.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
            let subsampling =
                switch (isRGB, descriptor.log2_chroma_w, descriptor.log2_chroma_h) {
                case (false, 1, 1): "420"
                case (false, 1, 0): "422"
                default: "444"
                }
            name = "yuv\(subsampling)p" + depthSuffix
        }
        let target = av_get_pix_fmt(name)
        return target == AV_PIX_FMT_NONE ? AV_PIX_FMT_YUV444P : target
    }

    /// Converts `source` to planar YCbCr. RGB pictures become BT.709 full-range YCbCr; YCbCr pictures
    /// keep their matrix and range. Returns the new frame and the colour of its samples.
    func convert(_ source: Frame, color: ColorInfo, path: String) throws(MediaError) -> (Frame, ColorInfo) {
        let src = source.pointer
        let sourceFormat = AVPixelFormat(src.pointee.format)
        let targetFormat = Self.planarTarget(for: sourceFormat)
        let width = src.pointee.width, height = src.pointee.height
        context = sws_getCachedContext(
            context, width, height, sourceFormat, width, height, targetFormat,
            SWS_BICUBIC, nil, nil, nil)
        guard let context else {
            throw MediaError(
                .corrupt, path: path,
                reason: "cannot convert \(cString(av_get_pix_fmt_name(sourceFormat)) ?? "this") picture format to planar YCbCr")
        }
        var converted = color
        let isRGB = (av_pix_fmt_desc_get(sourceFormat)?.pointee.flags ?? 0) & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
        if isRGB {
            let bt709 = sws_getCoefficients(SWS_CS_ITU709)
            sws_setColorspaceDetails(context, bt709, 1, bt709, 1, 0, 1 << 16, 1 << 16)
            converted.matrix = "bt709"
            converted.range = "pc"
        } else {
            let full: Int32 = color.isFullRange ? 1 : 0
            let coefficients = sws_getCoefficients(SWS_CS_DEFAULT)
            sws_setColorspaceDetails(context, coefficients, full, coefficients, full, 0, 1 << 16, 1 << 16)
        }
        let target = Frame()
        target.pointer.pointee.format = targetFormat.rawValue
        target.pointer.pointee.width = width
        target.pointer.pointee.height = height
        var status = av_frame_get_buffer(target.pointer, 0)
        if status >= 0 { status = av_frame_copy_props(target.pointer, src) }
        if status >= 0 { status = sws_scale_frame(context, target.pointer, src) }
        if status < 0 {
            throw MediaError.ffmpeg(.corrupt, path: path, reason: "picture conversion failed", code: status)
        }
        return (target, converted)
    }
}
