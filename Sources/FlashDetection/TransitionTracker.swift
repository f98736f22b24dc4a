/// Follows one value per block over time and reports its transitions: a trend (frame-to-frame changes of
/// the same sign) counts once, when its total change reaches the threshold — so a slow ramp over several
/// frames is one transition, and a hard cut is one too.
struct TransitionTracker {
    private var previous: [Float]
    private var trendStart: [Float]
    private var direction: [Int8]
    private var counted: [Bool]
    private var startFlag: [Bool]
    private var previousFlag: [Bool]
    private var primed = false
    /// Changes smaller than this do not turn a trend (compression noise).
    private let noise: Float

    init(blocks: Int, noise: Float) {
        previous = [Float](repeating: 0, count: blocks)
        trendStart = previous
        direction = [Int8](repeating: 0, count: blocks)
        counted = [Bool](repeating: false, count: blocks)
        startFlag = counted
        previousFlag = counted
        self.noise = noise
    }

    /// Updates every block with its new value and writes into `transitions` +1 (a rising transition
    /// completed now), −1 (falling) or 0. A transition counts when |change| ≥ `threshold` and `accept`
    /// says yes to (start value, end value, start flag, end flag); `flags` are per-block booleans
    /// (e.g. "saturated red") remembered at the start of each trend.
    /// Returns how many blocks completed a transition.
    @discardableResult
    mutating func update(
        values: UnsafeBufferPointer<Float>, flags: UnsafeBufferPointer<Bool>?, threshold: Float,
        transitions: UnsafeMutableBufferPointer<Int8>,
        accept: (Float, Float, Bool, Bool) -> Bool
    ) -> Int {
        let count = values.count
        var completed = 0
        guard primed else {
            for i in 0..<count {
                previous[i] = values[i]
                trendStart[i] = values[i]
                previousFlag[i] = flags?[i] ?? false
                transitions[i] = 0
            }
            primed = true
            return 0
        }
        previous.withUnsafeMutableBufferPointer { previous in
            trendStart.withUnsafeMutableBufferPointer { trendStart in
                direction.withUnsafeMutableBufferPointer { direction in
                    counted.withUnsafeMutableBufferPointer { counted in
                        startFlag.withUnsafeMutableBufferPointer { startFlag in
                            previousFlag.withUnsafeMutableBufferPointer { previousFlag in
                                for i in 0..<count {
                                    let value = values[i]
                                    let change = value - previous[i]
                                    transitions[i] = 0
                                    if change > noise || change < -noise {
                                        let sign: Int8 = change > 0 ? 1 : -1
                                        if sign != direction[i] {
                                            direction[i] = sign
                                            trendStart[i] = previous[i]
                                            startFlag[i] = previousFlag[i]
                                            counted[i] = false
                                        }
                                    }
                                    previous[i] = value
                                    let flag = flags?[i] ?? false
                                    previousFlag[i] = flag
                                    guard !counted[i], direction[i] != 0 else { continue }
                                    let total = value - trendStart[i]
                                    if (total >= threshold || total <= -threshold),
                                        accept(trendStart[i], value, startFlag[i], flag)
                                    {
                                        counted[i] = true
                                        transitions[i] = direction[i]
                                        completed += 1
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return completed
    }
}
