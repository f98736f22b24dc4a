import Testing

@testable import Checks

/// Holes in the decoded video: a frame of known duration ending well before the next starts is damage skipped over;
/// a frame held longer (variable frame rate) carries its duration; frames of unknown duration, or a new run of
/// segments, say nothing.
@Suite struct UnseenStretchesTests {
    @Test func aHoleAfterAFrameOfKnownDurationIsUnseen() {
        var unseen = UnseenStretches()
        for k in 0..<150 { unseen.add(time: Double(k) * 0.04, duration: 0.04) }  // 0–6 s
        for k in 175..<300 { unseen.add(time: Double(k) * 0.04, duration: 0.04) }  // 7–12 s: 25 frames missing
        #expect(unseen.stretches.count == 1)
        #expect(abs(unseen.stretches[0].from - 6.0) < 1e-9 && abs(unseen.stretches[0].to - 7.0) < 1e-9)
        #expect(abs(unseen.total - 1.0) < 1e-9)
    }

    @Test func heldFramesShortGapsAndUnknownDurationsAreSeen() {
        var unseen = UnseenStretches()
        unseen.add(time: 0, duration: 5)  // a slide held 5 s
        unseen.add(time: 5, duration: 0.04)
        unseen.add(time: 5.5, duration: 0.04)  // 0.46 s: under the threshold
        unseen.add(time: 6, duration: nil)
        unseen.add(time: 10, duration: 0.04)  // after a frame of unknown duration: nothing to say
        unseen.restart()
        unseen.add(time: 100, duration: 0.04)  // a new run (HLS discontinuity)
        #expect(unseen.stretches.isEmpty && unseen.total == 0)
    }
}
