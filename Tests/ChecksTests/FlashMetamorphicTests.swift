import Checks
import Findings
import Foundation
import TestSupport
import TestTraits
import Testing

/// The flash verdict does not flip on what nobody can see: recorded material nobody here made — music visualisations
/// (Debian's lebiniou-data: H.264, 30 fps) and a game's cartoon cut-scenes (planetblupi-common: Cinepak and Microsoft
/// Video 1, 12 fps) — encoded again with x264 at CRF 18 and at CRF 28 gets the same verdict and the same failing rules
/// as the file itself. (Among them clips that flash hard, clips that do not, red flashing, and a clip that flashes at
/// 3–4 a second over barely a quarter of the worst 10° field.)
@Suite(.tags(.media, .slow), .notInFastRun) struct FlashMetamorphicTests {
    static let visualisations = "/usr/share/lebiniou/vue/media/lebiniou-2021-06-10_12-"
    static let cutScenes = "/usr/share/planetblupi/movie/"
    static let clips = [
        visualisations + "17-47.mp4", visualisations + "19-53.mp4", visualisations + "23-40.mp4", visualisations + "28-28.mp4",
        visualisations + "32-58.mp4", visualisations + "34-46.mp4", cutScenes + "history2.mkv", cutScenes + "play103.mkv",
        cutScenes + "play113.mkv", cutScenes + "win005.mkv",
    ]

    /// What a user acts on: the verdict and the rules that fail.
    static func verdict(_ path: String) throws -> String {
        let result = try FlashCheck(configuration: .profile("wcag")!).run(path: path)
        return "\(result.verdict) \(Set(result.findings.filter { $0.severity == .error }.map(\.rule)).sorted())"
    }

    @Test(arguments: clips) func reEncodingKeepsTheVerdict(clip: String) throws {
        try #require(FileManager.default.fileExists(atPath: clip), "\(clip) is missing: make test-deps installs lebiniou-data and planetblupi-common")
        let original = try Self.verdict(clip)
        let name = URL(fileURLWithPath: clip).deletingPathExtension().lastPathComponent
        for crf in [18, 28] {
            let encoded = try TestMediaCache.ffmpeg(
                "\(name)-crf\(crf).mp4",
                ["-i", clip, "-an", "-c:v", "libx264", "-preset", "veryfast", "-crf", "\(crf)", "-pix_fmt", "yuv420p", TestMediaCache.output])
            #expect(try Self.verdict(encoded) == original, "CRF \(crf)")
        }
    }
}
