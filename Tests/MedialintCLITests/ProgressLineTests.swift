import Foundation
import Testing

@testable import medialint

/// The progress line fits the terminal, however narrow (a line that wraps cannot be cleared, and leaves a stale row
/// for every redraw), and its time left comes from the work's pace, not from the time spent setting up.
@Suite struct ProgressLineTests {
    static let parts = ProgressLine.Parts(
        label: "check", fraction: 0.42, counts: "1.2 GB/2.9 GB", eta: "ETA 12 min", rate: "240 frames/s",
        working: "library/season-2/episode-07-the-long-way-home.mp4")

    @Test func theLineFitsEveryWidth() {
        for columns in [200, 120, 100, 80, 72, 60, 50, 40, 30, 20, 10, 5, 1] {
            let line = ProgressLine.fit(Self.parts, columns: columns)
            #expect(line.count <= max(1, columns - 1), "\(columns): \(line)")
            #expect(line.hasPrefix(String("check".prefix(max(1, columns - 1)))), "\(columns): \(line)")
        }
        // Wide: everything, the path cut to 40 characters from its end.
        #expect(
            ProgressLine.fit(Self.parts, columns: 200)
                == "check [██████████··············]  42%  1.2 GB/2.9 GB  ETA 12 min  240 frames/s  …ason-2/episode-07-the-long-way-home.mp4")
        // 80 columns: the speed goes first, then the path takes what is left; narrower, the bar shortens, then goes.
        #expect(ProgressLine.fit(Self.parts, columns: 80) == "check [██████████··············]  42%  1.2 GB/2.9 GB  ETA 12 min  …way-home.mp4")
        #expect(ProgressLine.fit(Self.parts, columns: 60) == "check [█████·······]  42%  1.2 GB/2.9 GB  ETA 12 min")
        #expect(ProgressLine.fit(Self.parts, columns: 50) == "check  42%  1.2 GB/2.9 GB  ETA 12 min")
        #expect(ProgressLine.fit(Self.parts, columns: 30) == "check  42%  ETA 12 min")
        #expect(ProgressLine.fit(Self.parts, columns: 12) == "check  42%")
    }

    /// Ten seconds of setting up, then a steady 1 MB a second of a 100 MB library: 5 s into the work, 95 s are left
    /// (counting from the start of the run would say 285 s).
    @Test func timeLeftIsFromThePaceOfTheWork() throws {
        var rate = ProgressRate()
        var time = 0.0
        while time < 10 {
            rate.add(time: time, done: 0)
            time += 0.1
        }
        #expect(rate.eta(remaining: 100) == nil, "no pace yet")
        while time <= 15.0001 {
            rate.add(time: time, done: (time - 10) * 1e6)
            time += 0.1
        }
        let eta = try #require(rate.eta(remaining: 100e6 - 5e6))
        #expect(abs(eta - 95) < 2, "\(eta)")
        // The pace of the last 30 s: the work speeding up to 4 MB/s is soon seen.
        var done = 5e6
        while time <= 60 {
            done += 0.1 * 4e6
            rate.add(time: time, done: done)
            time += 0.1
        }
        #expect(abs((rate.eta(remaining: 40e6) ?? 0) - 10) < 0.5)
    }
}
