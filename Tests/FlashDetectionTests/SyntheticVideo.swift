import FlashDetection
import Foundation

/// A picture made in memory as a decoder leaves one: a Y′ plane of 8- or 10-bit codes and, for colour, 4:2:0 Cb and
/// Cr planes — what the verdict tests once had the ffmpeg CLI draw and encode losslessly, without the files.
struct SyntheticPicture {
    let width: Int
    let height: Int
    let bitDepth: Int
    /// The planes' bytes as the analyser reads them: a byte a sample up to 8 bits, two (little-endian) above.
    private(set) var luma: [UInt8]
    private(set) var cb: [UInt8]?
    private(set) var cr: [UInt8]?
    private var bytesPerSample: Int { bitDepth > 8 ? 2 : 1 }

    /// An 8-bit picture from its Y′ plane, row after row.
    init(width: Int, height: Int, luma: [UInt8]) {
        precondition(luma.count == width * height)
        self.width = width
        self.height = height
        bitDepth = 8
        self.luma = luma
    }

    /// A picture of one code everywhere (grey 128, say).
    init(width: Int, height: Int, bitDepth: Int = 8, code: Int) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        luma = Self.bytes(of: [UInt16](repeating: UInt16(code), count: width * height), bitDepth: bitDepth)
    }

    /// A picture whose code at (x, y) is `code(x, y)`.
    init(width: Int, height: Int, bitDepth: Int = 8, code: (_ x: Int, _ y: Int) -> Int) {
        var samples = [UInt16](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { samples[y * width + x] = UInt16(code(x, y)) }
        }
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        luma = Self.bytes(of: samples, bitDepth: bitDepth)
    }

    /// A colour picture from 8-bit R′G′B′ (0–255), converted as FFmpeg's swscale converts to limited-range 4:2:0 with
    /// `kr`/`kb`'s matrix (BT.601 by default, which FFmpeg uses for pictures without a stated matrix): Y′ per sample,
    /// Cb and Cr from the mean of each 2×2 block.
    init(width: Int, height: Int, kr: Double = 0.299, kb: Double = 0.114, rgb: (_ x: Int, _ y: Int) -> (Double, Double, Double)) {
        let kg = 1 - kr - kb
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        var samples = [UInt16](repeating: 0, count: width * height)
        var cbSum = [Double](repeating: 0, count: chromaWidth * chromaHeight), crSum = cbSum, counts = cbSum
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = rgb(x, y)
                let (rn, gn, bn) = (r / 255, g / 255, b / 255)
                let luminance = kr * rn + kg * gn + kb * bn
                samples[y * width + x] = UInt16((16 + 219 * luminance).rounded())
                let c = (y / 2) * chromaWidth + x / 2
                cbSum[c] += (bn - luminance) / (2 * (1 - kb))
                crSum[c] += (rn - luminance) / (2 * (1 - kr))
                counts[c] += 1
            }
        }
        self.width = width
        self.height = height
        bitDepth = 8
        luma = Self.bytes(of: samples, bitDepth: 8)
        cb = cbSum.indices.map { UInt8((128 + 224 * cbSum[$0] / counts[$0]).rounded()) }
        cr = crSum.indices.map { UInt8((128 + 224 * crSum[$0] / counts[$0]).rounded()) }
    }

    private static func bytes(of samples: [UInt16], bitDepth: Int) -> [UInt8] {
        bitDepth > 8 ? samples.map(\.littleEndian).withUnsafeBytes { Array($0) } : samples.map { UInt8($0) }
    }

    /// The same picture with the rectangle at (`x`, `y`), `width`×`height`, filled with `code` (8-bit pictures).
    func filling(x: Int, y: Int, width w: Int, height h: Int, code: Int) -> SyntheticPicture {
        precondition(bitDepth == 8)
        var copy = self
        let row = [UInt8](repeating: UInt8(code), count: w)
        for line in y..<(y + h) { copy.luma.replaceSubrange((line * width + x)..<(line * width + x + w), with: row) }
        return copy
    }

    /// Hands the analyser's view of the picture to `body`: its planes in place.
    func withFrame<T>(time: Double, color: PictureColor, _ body: (FlashFrame) -> T) -> T {
        let (chromaWidth, chromaHeight) = ((width + 1) / 2, (height + 1) / 2)
        let bytesPerSample = bytesPerSample
        func plane(_ bytes: UnsafeRawBufferPointer, _ w: Int, _ h: Int) -> SamplePlane {
            SamplePlane(baseAddress: bytes.baseAddress!, bytesPerRow: w * bytesPerSample, width: w, height: h, bytesPerSample: bytesPerSample)
        }
        return luma.withUnsafeBytes { y in
            guard let cb, let cr else { return body(FlashFrame(time: time, luma: plane(y, width, height), color: color)) }
            return cb.withUnsafeBytes { cbBytes in
                cr.withUnsafeBytes { crBytes in
                    body(
                        FlashFrame(
                            time: time, luma: plane(y, width, height), cb: plane(cbBytes, chromaWidth, chromaHeight),
                            cr: plane(crBytes, chromaWidth, chromaHeight), color: color))
                }
            }
        }
    }
}

/// A video made in memory: `frames` pictures at `fps`, picture `n` drawn by `picture(n)` — which may hand back the same
/// few pictures again (a toggle between two), as the decoder hands back a repeated picture.
struct SyntheticVideo {
    var width: Int
    var height: Int
    var fps: Double = 30
    var frames: Int
    var color: PictureColor
    var picture: (Int) -> SyntheticPicture

    /// The colour a decoder gives a picture with no stated colour: limited range, BT.601 weights below 720 lines and
    /// BT.709's from there (as MediaIO reads an unstated matrix), SDR.
    init(width: Int, height: Int, fps: Double = 30, frames: Int, bitDepth: Int = 8, color: PictureColor? = nil, picture: @escaping (Int) -> SyntheticPicture) {
        self.width = width
        self.height = height
        self.fps = fps
        self.frames = frames
        let (kr, kb) = height >= 720 ? (0.2126, 0.0722) : (0.299, 0.114)
        self.color = color ?? PictureColor(kr: kr, kb: kb, fullRange: false, bitDepth: bitDepth)
        self.picture = picture
    }

    /// A full picture alternating between codes `a` and `b` every `period` frames (`a` first).
    static func toggling(a: Int, b: Int, period: Int, width: Int = 320, height: Int = 240, fps: Double = 30, seconds: Double = 4) -> SyntheticVideo {
        let pictures = [a, b].map { SyntheticPicture(width: width, height: height, code: $0) }
        return SyntheticVideo(width: width, height: height, fps: fps, frames: Int((seconds * fps).rounded())) { pictures[$0 / period % 2] }
    }

    /// The analysis of every picture under `profile`, changed by `adjust`.
    func analyse(profile: String = "wcag", adjust: (inout FlashConfiguration) -> Void = { _ in }) -> FlashReport {
        var configuration = FlashConfiguration.profile(profile)!
        adjust(&configuration)
        let analyzer = FlashAnalyzer(configuration: configuration)
        for n in 0..<frames {
            picture(n).withFrame(time: Double(n) / fps, color: color) { _ = analyzer.add($0) }
        }
        return analyzer.finish()
    }
}
