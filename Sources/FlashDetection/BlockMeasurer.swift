/// Measures each block of a picture: mean relative luminance (linear light, through a lookup table from the
/// luma code value), for the red rule mean Y′, Cb and Cr, and — against the picture before — the part of each block
/// whose pattern reversed (`reversals`). Samples every `xStep`-th pixel of every `yStep`-th row (rows cost cache
/// misses, pixels along a row almost nothing); the buffers are allocated once per picture size.
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
    /// After `measure`, from the second picture on: the blocks whose pattern reversed since the picture before.
    private(set) var reversals: BlockReversals?
    /// What a sample must change by, and the darker state it must have, to count in a reversal.
    let reversalRule: ReversalRule
    /// The sampled luminances of this picture and of the one before, in reading order (`sampleLayout`).
    private var samples: [Float]
    private var previousSamples: [Float]
    private var hasPrevious = false
    /// Per column of blocks, how many samples of one sampled row fall in it (the same for every row).
    private let samplesPerColumn: [Int]
    /// Per row of blocks, how many rows of it are sampled.
    private let sampledRowsPerBlockRow: [Int]

    /// Code value → relative luminance (the patterns' reading too).
    let linearTable: [Float]
    /// Encoded 0–1 → one colour channel in linear light, for the colour correction.
    let channelTable: ChannelTable
    private let lumaBlack: Float
    private let lumaScale: Float
    private let chromaOffset: Float
    private let chromaScale: Float

    init(
        width: Int, height: Int, color: PictureColor, blockSize: Int, sampling: (x: Int, y: Int),
        reversalRule: ReversalRule = ReversalRule(change: 0.10, darkerStateBelow: 0.80)
    ) {
        self.color = color
        self.reversalRule = reversalRule
        grid = BlockGrid(width: width, height: height, blockSize: blockSize)
        xStep = max(1, min(sampling.x, grid.blockSize))
        yStep = max(1, min(sampling.y, grid.blockSize))
        luminance = [Float](repeating: 0, count: grid.columns * grid.rows)
        luma = luminance
        cb = luminance
        cr = luminance
        let (xStep, yStep, size) = (xStep, yStep, grid.blockSize)
        // Samples sit at every xStep-th pixel of the picture's rows (counted from 0, across block edges), and in each
        // row of blocks at every yStep-th row from the first one read (see `sumLuma`).
        samplesPerColumn = (0..<grid.columns).map { c in
            let x0 = c * size, x1 = min(x0 + size, width)
            return (x1 + xStep - 1) / xStep - (x0 + xStep - 1) / xStep
        }
        sampledRowsPerBlockRow = (0..<grid.rows).map { r in
            let y0 = r * size, y1 = min(y0 + size, height)
            let first = y0 + min(y1 - y0 - 1, (size - 1) / 2 % yStep)
            return (y1 - first + yStep - 1) / yStep
        }
        let sampleCount = zip(0..<grid.rows, sampledRowsPerBlockRow).reduce(0) { $0 + $1.1 } * samplesPerColumn.reduce(0, +)
        samples = [Float](repeating: 0, count: sampleCount)
        previousSamples = samples
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

    /// Measures `frame`'s blocks (chroma too when `withChroma` and the frame has it), and the reversals since the
    /// picture measured before it.
    func measure(_ frame: FlashFrame, withChroma: Bool) {
        swap(&samples, &previousSamples)
        luminance.withUnsafeMutableBufferPointer { lum in
            luma.withUnsafeMutableBufferPointer { code in
                linearTable.withUnsafeBufferPointer { linear in
                    samples.withUnsafeMutableBufferPointer { store in
                        if frame.luma.bytesPerSample == 1 {
                            sumLuma(frame.luma, UInt8.self, linear, lum, code, store, withCode: withChroma)
                        } else {
                            sumLuma(frame.luma, UInt16.self, linear, lum, code, store, withCode: withChroma)
                        }
                    }
                }
            }
        }
        reversals = hasPrevious ? findReversals() : nil
        hasPrevious = true
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
        _ code: UnsafeMutableBufferPointer<Float>, _ store: UnsafeMutableBufferPointer<Float>, withCode: Bool
    ) {
        let mask = linear.count - 1
        var k = 0  // the next sample's place in `store`
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
                                let l0 = linear[v0], l1 = linear[v1]
                                store[k] = l0
                                store[k &+ 1] = l1
                                sum0 += l0
                                sum1 += l1
                                codeSum &+= v0 &+ v1
                                x &+= xStep &<< 1
                                k &+= 2
                            }
                            if x < x1 {
                                let value = Int(row[x]) & mask
                                let l0 = linear[value]
                                store[k] = l0
                                sum0 += l0
                                codeSum &+= value
                                x &+= xStep
                                k &+= 1
                            }
                            codeRow[c] += Float(codeSum)
                        } else {
                            while x &+ xStep < x1 {
                                let l0 = linear[Int(row[x]) & mask], l1 = linear[Int(row[x &+ xStep]) & mask]
                                store[k] = l0
                                store[k &+ 1] = l1
                                sum0 += l0
                                sum1 += l1
                                x &+= xStep &<< 1
                                k &+= 2
                            }
                            if x < x1 {
                                let l0 = linear[Int(row[x]) & mask]
                                store[k] = l0
                                sum0 += l0
                                x &+= xStep
                                k &+= 1
                            }
                        }
                        lumRow[c] += sum0 + sum1
                    }
                } else {
                    while x < width {
                        let value = Int(row[x]) & mask
                        store[k] = linear[value]
                        lumRow[x / blockSize] += linear[value]
                        if withCode { codeRow[x / blockSize] += Float(value) }
                        x += xStep
                        k += 1
                    }
                }
                sampledRows += 1
                y += yStep
            }
            for c in 0..<columns {
                let samples = Float(max(1, samplesPerColumn[c] * sampledRows))
                lumRow[c] /= samples
                codeRow[c] = min(1, max(0, (codeRow[c] / samples - lumaBlack) * lumaScale))
            }
        }
        assert(k == store.count, "the samples are laid out as `samplesPerColumn` and `sampledRowsPerBlockRow` say")
    }

    /// Per block, the samples that got lighter and darker by the rule's change since the picture before, where the
    /// block's pattern reversed: its samples' deviations from the block's mean now run against their deviations
    /// before (correlation ≤ `ReversalRule.correlation`). A pattern finer than the block that reverses its contrast
    /// keeps the block's mean, so the mean alone never sees it flash; the correlation tells it from texture moving
    /// through the block or from noise, whose changes do not run against the picture before.
    private func findReversals() -> BlockReversals {
        let columns = columns, rule = reversalRule
        let change = rule.change, darker = rule.darkerStateBelow ?? .infinity
        let rowLength = samplesPerColumn.reduce(0, +)
        var found = BlockReversals()
        // Per column of the current row of blocks: whether some sample got lighter, and some darker.
        // Per column of the current row of blocks: whether some sample got lighter (bit 0), and some darker (bit 1).
        var seen = [UInt8](repeating: 0, count: columns)
        seen.withUnsafeMutableBufferPointer { seen in
            samplesPerColumn.withUnsafeBufferPointer { counts in
                samples.withUnsafeBufferPointer { current in
                    previousSamples.withUnsafeBufferPointer { previous in
                        var rowStart = 0
                        for blockRow in 0..<rows {
                            let sampledRows = sampledRowsPerBlockRow[blockRow]
                            // First, cheaply, the blocks with changes both ways (in most pictures, none).
                            seen.update(repeating: 0)
                            var k = rowStart
                            for _ in 0..<sampledRows {
                                for c in 0..<columns {
                                    let count = counts[c]
                                    seen[c] |= Self.changes(previous, current, from: k, count: count, change: change, darkerBelow: darker)
                                    k &+= count
                                }
                            }
                            // Then, for those, whether the block's pattern reversed, and how much of it went each way.
                            var columnStart = rowStart
                            for c in 0..<columns {
                                defer { columnStart &+= counts[c] }
                                guard seen[c] == 3 else { continue }
                                var sums = ReversalSums()
                                for row in 0..<sampledRows {
                                    sums.add(previous, current, from: columnStart &+ row &* rowLength, count: counts[c], change: change, darkerBelow: darker)
                                }
                                let n = Float(counts[c] * sampledRows)
                                guard let (up, down) = sums.reversal(samples: n, correlation: rule.correlation) else { continue }
                                found.record(block: blockRow * columns + c, lighter: up, darker: down)
                            }
                            rowStart &+= rowLength * sampledRows
                        }
                    }
                }
            }
        }
        return found
    }

    /// Whether some of `count` samples from `start` got lighter (bit 0), and some darker (bit 1), by `change` with their
    /// darker state below `darkerBelow`: eight at a time.
    @inline(__always) private static func changes(
        _ previous: UnsafeBufferPointer<Float>, _ current: UnsafeBufferPointer<Float>, from start: Int, count: Int, change: Float,
        darkerBelow: Float
    ) -> UInt8 {
        var k = start
        let end = start &+ count
        var up = SIMDMask<SIMD8<Float>.MaskStorage>(repeating: false), down = up
        while k &+ 8 <= end {
            let p = load(previous, k), v = load(current, k)
            let delta = v - p
            let dark = pointwiseMin(p, v) .< darkerBelow
            up .|= (delta .>= change) .& dark
            down .|= (-delta .>= change) .& dark
            k &+= 8
        }
        var lighter = any(up), darker = any(down)
        while k < end {
            let p = previous[k], v = current[k]
            let dark = min(p, v) < darkerBelow
            lighter = lighter || (v - p >= change && dark)
            darker = darker || (p - v >= change && dark)
            k &+= 1
        }
        return (lighter ? 1 : 0) | (darker ? 2 : 0)
    }

    @inline(__always) private static func load(_ buffer: UnsafeBufferPointer<Float>, _ k: Int) -> SIMD8<Float> {
        UnsafeRawPointer(buffer.baseAddress! + k).loadUnaligned(as: SIMD8<Float>.self)
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

/// What `findReversals` sums over one block's samples: how many got lighter and darker, and the moments for the
/// correlation of the two pictures' samples.
private struct ReversalSums {
    var up: Float = 0, down: Float = 0
    var p: Float = 0, c: Float = 0, pp: Float = 0, cc: Float = 0, pc: Float = 0

    mutating func add(
        _ previous: UnsafeBufferPointer<Float>, _ current: UnsafeBufferPointer<Float>, from start: Int, count: Int, change: Float,
        darkerBelow: Float
    ) {
        for k in start..<(start + count) {
            let (a, b) = (previous[k], current[k])
            let dark = min(a, b) < darkerBelow
            up += b - a >= change && dark ? 1 : 0
            down += a - b >= change && dark ? 1 : 0
            p += a
            c += b
            pp += a * a
            cc += b * b
            pc += a * b
        }
    }

    /// The fractions of `samples` that got lighter and darker, when the two pictures' samples correlate at
    /// `correlation` or below (nil otherwise).
    func reversal(samples n: Float, correlation limit: Float) -> (lighter: Float, darker: Float)? {
        let varP = pp - p * p / n, varC = cc - c * c / n, covariance = pc - p * c / n
        guard up > 0, down > 0, varP > 0, varC > 0, covariance <= limit * (varP * varC).squareRoot() else { return nil }
        return (up / n, down / n)
    }
}

/// When a sample counts in a reversal: it changes by at least `change` (relative luminance, 0–1) with its darker state
/// below `darkerStateBelow` (nil: any), in a block whose samples' deviations from its mean correlate with theirs in the
/// picture before by at most `correlation` (−1: an exact reversal).
struct ReversalRule: Sendable, Equatable {
    var change: Float
    var darkerStateBelow: Float?
    var correlation: Float = -0.7
}

/// The blocks whose pattern reversed between two pictures: each one's index, and the fractions of its area that got
/// lighter and darker. Only the blocks that reversed are kept (a measurement waits in a queue with many others).
public struct BlockReversals: Sendable, Equatable {
    private(set) var blocks: [Int32] = []
    private(set) var lighter: [Float] = []
    private(set) var darker: [Float] = []

    init() {}

    /// Whether no block reversed.
    var isEmpty: Bool { blocks.isEmpty }

    mutating func record(block: Int, lighter up: Float, darker down: Float) {
        blocks.append(Int32(block))
        lighter.append(up)
        darker.append(down)
    }
}
