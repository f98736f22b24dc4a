import CFFmpeg

/// How a picture's sample values map to colour: matrix, range, transfer and primaries.
/// The names are FFmpeg's (as `ffprobe` prints them); `nil` where the file leaves them unspecified.
public struct ColorInfo: Sendable, Codable, Equatable {
    /// The YCbCr matrix, e.g. `bt709`, `smpte170m`, `bt2020nc`.
    public var matrix: String?
    /// `tv` (limited range) or `pc` (full range).
    public var range: String?
    /// The transfer characteristic, e.g. `bt709`, `smpte2084` (PQ), `arib-std-b67` (HLG).
    public var transfer: String?
    /// The colour primaries, e.g. `bt709`, `bt2020`.
    public var primaries: String?

    public init(matrix: String? = nil, range: String? = nil, transfer: String? = nil, primaries: String? = nil) {
        self.matrix = matrix
        self.range = range
        self.transfer = transfer
        self.primaries = primaries
    }

    /// True when the samples use the full code range (`pc`); limited (`tv`) is the default for video.
    public var isFullRange: Bool { range == "pc" }

    /// True for PQ (`smpte2084`) or HLG (`arib-std-b67`) transfer.
    public var isHDR: Bool { transfer == "smpte2084" || transfer == "arib-std-b67" }

    /// The luma weights (Kr, Kb) of the matrix; unspecified matrices follow the usual convention:
    /// BT.709 for pictures at least 720 lines high, BT.601 below.
    public func lumaCoefficients(height: Int) -> (kr: Double, kb: Double) {
        switch matrix {
        case "bt709": return (0.2126, 0.0722)
        case "smpte170m", "bt470bg": return (0.299, 0.114)
        case "bt2020nc", "bt2020c": return (0.2627, 0.0593)
        case "fcc": return (0.30, 0.11)
        case "smpte240m": return (0.212, 0.087)
        default: return height >= 720 ? (0.2126, 0.0722) : (0.299, 0.114)
        }
    }
}

extension ColorInfo {
    /// Reads FFmpeg's enums; `unspecified`/`unknown` become `nil`.
    init(
        space: AVColorSpace, range: AVColorRange, transfer: AVColorTransferCharacteristic,
        primaries: AVColorPrimaries
    ) {
        self.init(
            matrix: space == AVCOL_SPC_UNSPECIFIED ? nil : cString(av_color_space_name(space)),
            range: range == AVCOL_RANGE_UNSPECIFIED ? nil : cString(av_color_range_name(range)),
            transfer: transfer == AVCOL_TRC_UNSPECIFIED ? nil : cString(av_color_transfer_name(transfer)),
            primaries: primaries == AVCOL_PRI_UNSPECIFIED ? nil : cString(av_color_primaries_name(primaries))
        )
    }

    /// Fills what this leaves unspecified from `fallback`.
    func filling(from fallback: ColorInfo) -> ColorInfo {
        ColorInfo(
            matrix: matrix ?? fallback.matrix, range: range ?? fallback.range,
            transfer: transfer ?? fallback.transfer, primaries: primaries ?? fallback.primaries)
    }
}
