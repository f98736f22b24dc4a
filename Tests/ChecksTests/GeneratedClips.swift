import Checks
import Findings
import FlashDetection
import Foundation
import TestSupport

/// Clips made with the ffmpeg CLI from lavfi sources whose content is known by construction: made once per machine
/// and kept by recipe (TestMediaCache).
enum GeneratedClips {
    /// `ffmpeg -f lavfi -i SOURCE ARGUMENTS name`, from the cache.
    static func make(_ name: String, source: String, arguments: [String] = ["-c:v", "ffv1"]) throws -> String {
        try TestMediaCache.ffmpeg(name, ["-f", "lavfi", "-i", source] + arguments + [TestMediaCache.output])
    }

    /// A full-frame picture alternating between luma codes `a` and `b` every `period` frames, on 4:2:0 grey.
    static func toggling(_ name: String, a: Int, b: Int, period: Int, size: String = "320x240", rate: Int = 30, seconds: Double = 4) throws -> String {
        try make(name, source: "nullsrc=s=\(size):r=\(rate):d=\(seconds),format=yuv420p,geq=lum='if(lt(mod(floor(N/\(period)),2),1),\(a),\(b))':cb=128:cr=128")
    }

    /// Runs the flash check with a profile on a clip.
    static func check(_ path: String, profile: String = "wcag", adjust: (inout FlashConfiguration) -> Void = { _ in }) throws -> CheckResult {
        var configuration = FlashConfiguration.profile(profile)!
        adjust(&configuration)
        return try FlashCheck(configuration: configuration).run(path: path)
    }
}

extension CheckResult {
    var rules: [String] { findings.filter { $0.severity != .info }.map(\.rule) }

    func finding(_ rule: String) -> Finding? { findings.first { $0.rule == rule } }
}
