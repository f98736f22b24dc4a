/// Measures each block of a picture: mean relative luminance (linear light, through a lookup table from the
/// luma code value) and, for the red rule, mean Y′, Cb and Cr. Samples every `xStep`-th pixel of every
/// `yStep`-th row (rows cost cache misses, pixels along a row almost nothing); the buffers are allocated
/// once per picture size.
final class BlockMeasurer {
    /// The blocks' geometry (also what the analysis of measured pictures needs).
    let grid: BlockGrid
    let xStep: Int
    let yStep: Int
    let color: PictureColor
    var width: Int { grid.width }
    var height: Int { grid.height }
    var blockSize: Int { grid.blockSize }
    var columns: Int { grid.columns }
    var rows: Int { grid.rows }

    /// Per block, after `measure`: mean linear luminance (0–1), mean Y′ (0–1), mean Cb and Cr (−0.5–0.5).
    private(set) var luminance: [Float]
    private(set) var luma: [Float]
    private(set) var cb: [Float]
    private(set) var cr: [Float]

    /// Code value → relative luminance (the patterns' reading too).
    let linearTable: [Float]
    /// Encoded 0–1 → one colour channel in linear light, for the colour correction.
    let channelTable: ChannelTable
    private let lumaBlack: Float
    private let lumaScale: Float
    private let chromaOffset: Float
    private let chromaScale: Float

    init(width: Int, height: Int, color: PictureColor, blockSize: Int, sampling: (x: Int, y: Int)) {
        self.color = color
        grid = BlockGrid(width: width, height: height, blockSize: blockSize)
        xStep = max(1, min(sampling.x, grid.blockSize))
        yStep = max(1, min(sampling.y, grid.blockSize))
        luminance = [Float](repeating: 0, count: grid.columns * grid.rows)
        luma = luminance
        cb = luminance
        cr = luminance
        linearTable = Self.linearTable(for: color)
        channelTable = ChannelTable(color.transfer)
        let (black, white) = Self.lumaRange(for: color)
        lumaBlack = Float(black)
        lumaScale = Float(1 / (white - black))
        let scale = Float(1 << (color.bitDepth - 8))
        chromaOffset = color.fullRange ? Float(1 << (color.bitDepth - 1)) : 128 * scale
        chromaScale = color.fullRange ? 1 / Float((1 << color.bitDepth) - 1) : 1 / (224 * scale)
    }

    /// The Y′ code values of black and white (limited range: 16 and 235 × 2^(depth−8)).
    static func lumaRange(for color: PictureColor) -> (black: Double, white: Double) {
        let scale = Double(1 << (color.bitDepth - 8))
        return color.fullRange ? (0, Double((1 << color.bitDepth) - 1)) : (16 * scale, 235 * scale)
    }

    /// Code value → relative luminance: Y′ normalised to 0–1, then through the picture's transfer (the sRGB curve
    /// inverted for SDR; BT.2100's PQ or HLG, 203 cd/m² = 1, for HDR).
    static func linearTable(for color: PictureColor) -> [Float] {
        let (black, white) = lumaRange(for: color)
        return (0..<(1 << color.bitDepth)).map { code in
            Float(color.transfer.greyLuminance((Double(code) - black) / (white - black)))
        }
    }

    func matches(_ frame: FlashFrame) -> Bool {
        frame.luma.width == width && frame.luma.height == height && frame.color == color
    }

    /// Measures `frame`'s blocks (chroma too when `withChroma` and the frame has it).
    func measure(_ frame: FlashFrame, withChroma: Bool) {
        luminance.withUnsafeMutableBufferPointer { lum in
            luma.withUnsafeMutableBufferPointer { code in
                linearTable.withUnsafeBufferPointer { linear in
                    if frame.luma.bytesPerSample == 1 {
                        sumLuma(frame.luma, UInt8.self, linear, lum, code, withCode: withChroma)
                    } else {
                        sumLuma(frame.luma, UInt16.self, linear, lum, code, withCode: withChroma)
                    }
                }
            }
        }
        guard withChroma, let cbPlane = frame.cb, let crPlane = frame.cr else { return }
        for (plane, isBlue) in [(cbPlane, true), (crPlane, false)] {
            if isBlue {
                cb.withUnsafeMutableBufferPointer { sumChroma(plane, frame.chromaShiftX, frame.chromaShiftY, $0) }
            } else {
                cr.withUnsafeMutableBufferPointer { sumChroma(plane, frame.chromaShiftX, frame.chromaShiftY, $0) }
            }
        }
    }

    private func sumLuma<Sample: FixedWidthInteger>(
        _ plane: SamplePlane, _: Sample.Type, _ linear: UnsafeBufferPointer<Float>,
        _ lum: UnsafeMutableBufferPointer<Float>,
        _ code: UnsafeMutableBufferPointer<Float>, withCode: Bool
    ) {
        let mask = linear.count - 1
        let width = min(width, plane.width), height = min(height, plane.height)
        let shift = blockSize.trailingZeroBitCount
        let powerOfTwo = blockSize == 1 << shift
        for blockRow in 0..<rows {
            let y0 = blockRow * blockSize, y1 = min(y0 + blockSize, height)
            let base = blockRow * columns
            let lumRow = UnsafeMutableBufferPointer(rebasing: lum[base..<(base + columns)])
            let codeRow = UnsafeMutableBufferPointer(rebasing: code[base..<(base + columns)])
            lumRow.update(repeating: 0)
            codeRow.update(repeating: 0)
            var sampledRows = 0
            var y = y0 + min(y1 - y0 - 1, (blockSize - 1) / 2 % yStep)  // middle rows first when few are read
            while y < y1 {
                let row = (plane.baseAddress + y * plane.bytesPerRow).assumingMemoryBound(to: Sample.self)
                var x = 0
                if powerOfTwo {
                    // Block by block along the row: each block's samples summed in registers (two float
                    // chains for the luminance, an exact integer sum for the code values), then stored once.
                    for c in 0..<columns {
                        let x1 = min((c &+ 1) &<< shift, width)
                        var sum0: Float = 0, sum1: Float = 0, codeSum = 0
                        if withCode {
                            while x &+ xStep < x1 {
                                let v0 = Int(row[x]) & mask, v1 = Int(row[x &+ xStep]) & mask
                                sum0 += linear[v0]
                                sum1 += linear[v1]
                                codeSum &+= v0 &+ v1
                                x &+= xStep &<< 1
                            }
                            if x < x1 {
                                let value = Int(row[x]) & mask
                                sum0 += linear[value]
                                codeSum &+= value
                                x &+= xStep
                            }
                            codeRow[c] += Float(codeSum)
                        } else {
                            while x &+ xStep < x1 {
                                sum0 += linear[Int(row[x]) & mask]
                                sum1 += linear[Int(row[x &+ xStep]) & mask]
                                x &+= xStep &<< 1
                            }
                            if x < x1 {
                                sum0 += linear[Int(row[x]) & mask]
                                x &+= xStep
                            }
                        }
                        lumRow[c] += sum0 + sum1
                    }
                } else {
                    while x < width {
                        let value = Int(row[x]) & mask
                        lumRow[x / blockSize] += linear[value]
                        if withCode { codeRow[x / blockSize] += Float(value) }
                        x += xStep
                    }
                }
                sampledRows += 1
                y += yStep
            }
            for c in 0..<columns {
                let x0 = c * blockSize, x1 = min(x0 + blockSize, width)
                let samples = Float(max(1, ((x1 - x0 + xStep - 1) / xStep) * sampledRows))
                lumRow[c] /= samples
                codeRow[c] = min(1, max(0, (codeRow[c] / samples - lumaBlack) * lumaScale))
            }
        }
    }

    private func sumChroma(_ plane: SamplePlane, _ shiftX: Int, _ shiftY: Int, _ out: UnsafeMutableBufferPointer<Float>) {
        if plane.bytesPerSample == 1 {
            sumChroma(plane, UInt8.self, shiftX, shiftY, out)
        } else {
            sumChroma(plane, UInt16.self, shiftX, shiftY, out)
        }
    }

    private func sumChroma<Sample: FixedWidthInteger>(
        _ plane: SamplePlane, _: Sample.Type, _ shiftX: Int, _ shiftY: Int,
        _ out: UnsafeMutableBufferPointer<Float>
    ) {
        let blockWidth = max(1, blockSize >> shiftX), blockHeight = max(1, blockSize >> shiftY)
        let chromaXStep = max(1, min(xStep, blockWidth)), chromaYStep = max(1, min(yStep >> shiftY, blockHeight))
        let offset = chromaOffset, scale = chromaScale
        let shift = blockWidth.trailingZeroBitCount
        let powerOfTwo = blockWidth == 1 << shift
        let width = min(plane.width, columns * blockWidth)
        for blockRow in 0..<rows {
            let y0 = blockRow * blockHeight, y1 = min(y0 + blockHeight, plane.height)
            let base = blockRow * columns
            let outRow = UnsafeMutableBufferPointer(rebasing: out[base..<(base + columns)])
            outRow.update(repeating: 0)
            var sampledRows = 0
            var y = y0 + min(max(0, y1 - y0 - 1), (blockHeight - 1) / 2 % chromaYStep)
            while y < y1 {
                let row = (plane.baseAddress + y * plane.bytesPerRow).assumingMemoryBound(to: Sample.self)
                var x = 0
                if powerOfTwo {
                    // Block by block: an exact integer sum per block, stored once.
                    for c in 0..<columns {
                        let x1 = min((c &+ 1) &<< shift, width)
                        var sum = 0
                        while x < x1 {
                            sum &+= Int(row[x])
                            x &+= chromaXStep
                        }
                        outRow[c] += Float(sum)
                    }
                } else {
                    while x < width {
                        outRow[x / blockWidth] += Float(row[x])
                        x &+= chromaXStep
                    }
                }
                sampledRows += 1
                y += chromaYStep
            }
            for c in 0..<columns {
                let x0 = c * blockWidth, x1 = min(x0 + blockWidth, plane.width)
                let samples = Float(max(1, ((x1 - x0 + chromaXStep - 1) / chromaXStep) * max(1, sampledRows)))
                outRow[c] = (outRow[c] / samples - offset) * scale
            }
        }
    }
}

/// How a picture is divided into blocks: its size, the block size, and each block's area in pixels.
struct BlockGrid: Sendable, Equatable {
    let width: Int
    let height: Int
    let blockSize: Int
    let columns: Int
    let rows: Int
    /// Pixels covered by each block (edge blocks are smaller).
    let blockArea: [Int32]

    /// `width` × `height` in blocks of `blockSize` (at least 1) pixels, the last column and row cut to the picture.
    init(width: Int, height: Int, blockSize: Int) {
        self.width = width
        self.height = height
        self.blockSize = max(1, blockSize)
        columns = (width + self.blockSize - 1) / self.blockSize
        rows = (height + self.blockSize - 1) / self.blockSize
        var areas = [Int32](repeating: 0, count: columns * rows)
        for r in 0..<rows {
            for c in 0..<columns {
                let w = min(self.blockSize, width - c * self.blockSize), h = min(self.blockSize, height - r * self.blockSize)
                areas[r * columns + c] = Int32(w * h)
            }
        }
        blockArea = areas
    }

    /// The block areas follow from the sizes: compared by them alone (per frame, cheaply).
    static func == (a: BlockGrid, b: BlockGrid) -> Bool {
        a.width == b.width && a.height == b.height && a.blockSize == b.blockSize
    }
}
