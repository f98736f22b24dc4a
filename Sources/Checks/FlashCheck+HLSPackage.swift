import Findings
import MediaIO
import Streaming

extension FlashCheck {
    /// The flash check of `package`'s video (its first variant), decoded as one stream across its segments; segments
    /// that could not be read leave the result unverified.
    public func run(package: HLSPackage, progress: Progress? = nil) throws(MediaError) -> CheckResult {
        let video = package.videoFiles
        let runs = package.placements(of: video).map { (files: $0.run.files, clock: $0.clock) }
        var result = try run(runs: runs, file: package.path, duration: package.duration, segmentsLeftOut: !video.unreadable.isEmpty, progress: progress)
        if !video.unreadable.isEmpty {
            result.markUnverified(
                Rule.flashUnverified.finding(
                    severity: .warning,
                    message:
                        "\(HLSPackage.describe(video.unreadable)) of the video could not be read: flashing in \(video.unreadable.count == 1 ? "it" : "them") was not checked"
                ))
        }
        return result
    }
}
