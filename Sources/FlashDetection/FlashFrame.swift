/// One plane of samples (8-bit `UInt8` or 9–16-bit `UInt16`), as the decoder left it in memory.
public struct SamplePlane {
    public let baseAddress: UnsafeRawPointer
    public let bytesPerRow: Int
    public let width: Int
    public let height: Int
    public let bytesPerSample: Int

    public init(baseAddress: UnsafeRawPointer, bytesPerRow: Int, width: Int, height: Int, bytesPerSample: Int) {
        self.baseAddress = baseAddress
        self.bytesPerRow = bytesPerRow
        self.width = width
        self.height = height
        self.bytesPerSample = bytesPerSample
    }
}

/// How a picture's samples map to colour: luma weights, code range, transfer and primaries.
public struct PictureColor: Sendable, Equatable {
    /// Luma weights of red and blue (BT.709: 0.2126, 0.0722).
    public var kr: Double
    public var kb: Double
    public var fullRange: Bool
    /// Bits per sample.
    public var bitDepth: Int
    /// How the values become light.
    public var transfer: TransferFunction
    /// BT.2020 primaries (wide gamut): colours are taken to BT.709's for the red rule.
    public var wideGamut: Bool

    public init(kr: Double, kb: Double, fullRange: Bool, bitDepth: Int, transfer: TransferFunction = .sdr, wideGamut: Bool = false) {
        self.kr = kr
        self.kb = kb
        self.fullRange = fullRange
        self.bitDepth = bitDepth
        self.transfer = transfer
        self.wideGamut = wideGamut
    }
}

/// A picture to analyse: its time, Y′ plane and (for red flashes) Cb and Cr planes.
public struct FlashFrame {
    /// Presentation time in seconds.
    public var time: Double
    public var luma: SamplePlane
    public var cb: SamplePlane?
    public var cr: SamplePlane?
    /// log2 of the chroma subsampling (1, 1 for 4:2:0).
    public var chromaShiftX: Int
    public var chromaShiftY: Int
    public var color: PictureColor

    public init(
        time: Double, luma: SamplePlane, cb: SamplePlane? = nil, cr: SamplePlane? = nil,
        chromaShiftX: Int = 1, chromaShiftY: Int = 1, color: PictureColor
    ) {
        self.time = time
        self.luma = luma
        self.cb = cb
        self.cr = cr
        self.chromaShiftX = chromaShiftX
        self.chromaShiftY = chromaShiftY
        self.color = color
    }
}
