import Foundation

/// The signal values test pictures are drawn with, from the light they should show: the verdict tests draw in memory
/// and through the ffmpeg CLI with the same codes.
package enum SignalLevels {
    /// The 8-bit limited-range luma code whose relative luminance (through the sRGB curve) is nearest to `luminance`.
    package static func lumaCode(forLuminance luminance: Double) -> Int {
        let encoded = luminance <= 0.0031308 ? luminance * 12.92 : 1.055 * pow(luminance, 1 / 2.4) - 0.055
        return Int((16 + 219 * encoded).rounded())
    }

    /// The PQ signal (0–1) of `nits` cd/m²: ST 2084's inverse EOTF.
    package static func pqSignal(nits: Double) -> Double {
        let y = pow(nits / 10_000, 0.1593017578125)
        return pow((0.8359375 + 18.8515625 * y) / (1 + 18.6875 * y), 78.84375)
    }
}
