import Basics
import Foundation
import Testing

/// The one helper every parallel pass goes through: slices cover the work exactly once, in order, and their
/// results come back in slice order whatever order the cores finish in.
@Suite struct ParallelSlicesTests {
    @Test func boundsCoverTheRangeInOrderAsEvenlyAsIntegersAllow() {
        #expect(ParallelSlices.bounds(of: 0..<10, slices: 3) == [0..<3, 3..<6, 6..<10])
        #expect(ParallelSlices.bounds(of: 5..<13, slices: 4) == [5..<7, 7..<9, 9..<11, 11..<13])
        // More slices than items: empty slices, still contiguous.
        #expect(ParallelSlices.bounds(of: 0..<2, slices: 4) == [0..<0, 0..<1, 1..<1, 1..<2])
        #expect(ParallelSlices.bounds(of: 0..<7, slices: 1) == [0..<7])
        #expect(ParallelSlices.bounds(of: 0..<7, slices: 0) == [0..<7])
    }

    @Test func smallJobsTakeOneSliceLargeOnesAtMostEight() {
        #expect(ParallelSlices.count(for: 19_999, minimum: 20_000) == 1)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(ParallelSlices.count(for: 20_000, minimum: 20_000) == max(1, min(cores, 8)))
    }

    @Test func mapGivesEachSliceItsOwnResultInSliceOrder() {
        // Later slices finish first: the order must still be the slices'.
        let results = ParallelSlices.map(6) { slice -> [Int] in
            usleep(UInt32((6 - slice) * 2_000))
            return Array(repeating: slice, count: slice + 1)
        }
        #expect(results == (0..<6).map { Array(repeating: $0, count: $0 + 1) })
        #expect(ParallelSlices.map(0) { $0 }.isEmpty)
        #expect(ParallelSlices.map(1) { $0 + 41 } == [41])
    }

    @Test func runWritesEveryItemOnceThroughItsOwnSlice() {
        var hits = [Int](repeating: 0, count: 10_001)
        let bounds = ParallelSlices.bounds(of: 0..<hits.count, slices: 7)
        hits.withUnsafeMutableBufferPointer { hits in
            ParallelSlices.run(7) { slice in
                for i in bounds[slice] { hits[i] += 1 }
            }
        }
        #expect(hits.allSatisfy { $0 == 1 })
    }
}
