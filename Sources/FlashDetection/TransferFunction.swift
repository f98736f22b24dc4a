#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a picture's encoded values (0–1) become light: the SDR curve, or one of BT.2100's HDR transfers.
///
/// Relative luminance is 1.0 at white. For HDR that white is BT.2408's reference (diffuse) white, 203 cd/m²; brighter
/// highlights count as 1.0. That rule never changes a general-flash verdict: a transition needs its darker state
/// below 0.80, and a change from below 0.80 to anything brighter than 1.0 is at least 0.20, over the 0.10 that
/// makes a transition, clipped or not. (BT.1702 states the same thresholds in cd/m² — 20 cd/m², the darker state
/// below 160 cd/m² — which at 203 cd/m² white are 0.099 and 0.79.)
public enum TransferFunction: String, Sendable, Equatable, CaseIterable {
    /// The sRGB curve (WCAG's relative luminance), for SDR video of every matrix.
    case sdr
    /// SMPTE ST 2084 (PQ), absolute: the signal says cd/m².
    case pq
    /// ARIB STD-B67 (HLG), relative to the display: BT.2100's reference display of 1000 cd/m² (system gamma 1.2),
    /// on which 75% signal is 203 cd/m².
    case hlg

    /// BT.2408's reference white: relative luminance 1.0 for HDR.
    public static let referenceWhite = 203.0
    /// The peak luminance of BT.2100's reference HLG display, and its system gamma.
    public static let hlgPeak = 1000.0
    static let hlgGamma = 1.2

    /// Relative luminance (0–1, brighter clipped to 1) of a grey signal `encoded` (0–1).
    public func greyLuminance(_ encoded: Double) -> Double {
        min(1, unclippedGrey(encoded))
    }

    /// Relative luminance of a grey signal, not clipped (HDR highlights above 1).
    func unclippedGrey(_ encoded: Double) -> Double {
        let e = min(1, max(0, encoded))
        switch self {
        case .sdr: return e <= 0.04045 ? e / 12.92 : pow((e + 0.055) / 1.055, 2.4)
        case .pq: return Self.pqLuminance(e) / Self.referenceWhite
        case .hlg: return Self.hlgPeak * pow(Self.hlgScene(e), Self.hlgGamma) / Self.referenceWhite
        }
    }

    /// One colour channel in linear light: relative to white for SDR and PQ (not clipped), scene light (0–1,
    /// before the display's system gamma) for HLG.
    func channel(_ encoded: Double) -> Double {
        let e = min(1, max(0, encoded))
        switch self {
        case .sdr, .pq: return unclippedGrey(e)
        case .hlg: return Self.hlgScene(e)
        }
    }

    /// The PQ EOTF (ST 2084): signal 0–1 → cd/m² (0–10,000).
    public static func pqLuminance(_ signal: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
        let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let p = pow(max(0, signal), 1 / m2)
        return 10_000 * pow(max(0, p - c1) / (c2 - c3 * p), 1 / m1)
    }

    /// HLG's inverse OETF (BT.2100): signal 0–1 → scene light 0–1.
    public static func hlgScene(_ signal: Double) -> Double {
        let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
        let e = max(0, signal)
        return e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
    }
}

/// Encoded 0–1 → `TransferFunction.channel`, through a table of 1024 steps (the colour correction of a block).
struct ChannelTable {
    private let table: [Float]

    init(_ transfer: TransferFunction) {
        table = (0...1024).map { Float(transfer.channel(Double($0) / 1024)) }
    }

    @inline(__always)
    func of(_ encoded: Float) -> Float {
        let clamped = min(1, max(0, encoded))
        return table[Int(clamped * 1024 + 0.5)]
    }
}
