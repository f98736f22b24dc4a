/// How much of the frame, and of the worst 10° visual field, a set of blocks covers.
///
/// The 10° field is modelled as WCAG's technique G176 does: a 4:3 rectangle one third of the frame's width
/// (341×256 px on a 1024×768 screen), placed anywhere; it is slid over the block grid with a summed-area
/// table, so each placement costs four lookups.
struct AreaMeter {
    let columns: Int
    let rows: Int
    let frameArea: Int
    /// Field size in blocks.
    let fieldColumns: Int
    let fieldRows: Int
    private let blockArea: [Int32]
    private var table: [Int]
    private var areaTable: [Int]
    /// The smallest area a field placement covers (edge placements hold smaller blocks).
    private let smallestFieldArea: Int

    init(grid: BlockGrid) {
        self.init(
            columns: grid.columns, rows: grid.rows, blockArea: grid.blockArea, width: grid.width, height: grid.height,
            blockSize: grid.blockSize)
    }

    init(columns: Int, rows: Int, blockArea: [Int32], width: Int, height: Int, blockSize: Int) {
        self.columns = columns
        self.rows = rows
        self.blockArea = blockArea
        frameArea = width * height
        let fieldWidth = Double(width) / 3, fieldHeight = min(Double(height), fieldWidth * 3 / 4)
        fieldColumns = max(1, min(columns, Int((fieldWidth / Double(blockSize)).rounded())))
        fieldRows = max(1, min(rows, Int((fieldHeight / Double(blockSize)).rounded())))
        table = [Int](repeating: 0, count: (columns + 1) * (rows + 1))
        areaTable = table
        Self.fill(&areaTable, columns: columns, rows: rows) { Int(blockArea[$0]) }
        var smallest = Int.max
        let stride = columns + 1
        for top in 0...(rows - fieldRows) {
            for left in 0...(columns - fieldColumns) {
                let (bottom, right) = (top + fieldRows, left + fieldColumns)
                smallest = min(
                    smallest,
                    areaTable[bottom * stride + right] - areaTable[top * stride + right]
                        - areaTable[bottom * stride + left] + areaTable[top * stride + left])
            }
        }
        smallestFieldArea = smallest
    }

    /// Fraction of the frame and largest fraction of any 10° field covered by the blocks where `mask[i] == value`
    /// (with `value` nil: where `mask[i] != 0`, rising and falling together).
    /// With `fieldAtLeast`, the field is only searched when the blocks are enough to cover that fraction of a
    /// field (else its value is reported as 0: it cannot reach the threshold).
    mutating func coverage(of mask: UnsafeBufferPointer<Int8>, value: Int8?, fieldAtLeast: Double? = nil) -> (frame: Double, field: Double) {
        // Compared as magnitudes: |±1| matches 1 when either direction counts.
        let (wanted, either): (Int8, Bool) = value.map { ($0, false) } ?? (1, true)
        let areas = blockArea
        return coverage(fieldAtLeast: fieldAtLeast) { i in
            (either ? mask[i].magnitude : UInt8(bitPattern: mask[i])) == UInt8(bitPattern: wanted) ? Int(areas[i]) : 0
        }
    }

    /// Fraction of the frame and largest fraction of any 10° field covered when block `i` covers `covered(i)` pixels
    /// (from 0 to its area). `fieldAtLeast` as above.
    mutating func coverage(fieldAtLeast: Double? = nil, covered: (Int) -> Int) -> (frame: Double, field: Double) {
        var total = 0
        for i in 0..<blockArea.count { total += covered(i) }
        guard total > 0 else { return (0, 0) }
        if let fieldAtLeast, Double(total) < fieldAtLeast * Double(smallestFieldArea) { return (Double(total) / Double(frameArea), 0) }
        Self.fill(&table, columns: columns, rows: rows, value: covered)
        var best = 0.0
        let stride = columns + 1
        table.withUnsafeBufferPointer { sums in
            areaTable.withUnsafeBufferPointer { areas in
                for top in 0...(rows - fieldRows) {
                    let bottom = top + fieldRows
                    for left in 0...(columns - fieldColumns) {
                        let right = left + fieldColumns
                        let inside = sums[bottom * stride + right] - sums[top * stride + right] - sums[bottom * stride + left] + sums[top * stride + left]
                        guard inside > 0 else { continue }
                        let window = areas[bottom * stride + right] - areas[top * stride + right] - areas[bottom * stride + left] + areas[top * stride + left]
                        best = max(best, Double(inside) / Double(window))
                    }
                }
            }
        }
        return (Double(total) / Double(frameArea), best)
    }

    /// A summed-area table: `table[(r) * (columns + 1) + c]` is the sum of `value` over blocks above and left.
    private static func fill(_ table: inout [Int], columns: Int, rows: Int, value: (Int) -> Int) {
        let stride = columns + 1
        table.withUnsafeMutableBufferPointer { t in
            for r in 0..<rows {
                var rowSum = 0
                for c in 0..<columns {
                    rowSum += value(r * columns + c)
                    t[(r + 1) * stride + c + 1] = t[r * stride + c + 1] + rowSum
                }
            }
        }
    }
}
