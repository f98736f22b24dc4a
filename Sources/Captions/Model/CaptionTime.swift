import Basics

/// A point on a caption timeline, in whole milliseconds (what WebVTT and SRT timestamps can express).
public struct CaptionTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// The nearest millisecond to `seconds`.
    /// `hours` and `milliseconds` more; nil when that is past the largest time.
    static func checked(hours: Int64, milliseconds: Int64) -> CaptionTime? {
        let (whole, overflow) = hours.multipliedReportingOverflow(by: 3_600_000)
        let (total, overflowAgain) = whole.addingReportingOverflow(milliseconds)
        return overflow || overflowAgain ? nil : CaptionTime(milliseconds: total)
    }

    public init(seconds: Double) { milliseconds = Int64(saturating: (seconds * 1000).rounded()) }

    public static let zero = CaptionTime(milliseconds: 0)

    /// The time to the nearest centisecond (what ASS/SSA and SCC's frames cannot beat).
    public var centiseconds: CaptionTime { CaptionTime(milliseconds: (max(0, milliseconds) + 5) / 10 * 10) }

    /// The end of the whole presentation, for content a file shows until the media ends (TTML content with no end):
    /// 99:59:59.999, the latest time SRT and WebVTT both write. `CaptionDocument.endingPresentation(at:)` puts the
    /// media's end in its place.
    public static let presentationEnd = CaptionTime(milliseconds: 359_999_999)

    public var seconds: Double { Double(milliseconds) / 1000 }

    public static func < (lhs: CaptionTime, rhs: CaptionTime) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// `hh:mm:ss.ttt` (WebVTT, hours always written).
    public var description: String { webVTTString }

    /// `hh:mm:ss.ttt`, hours as many digits as needed (at least two).
    public var webVTTString: String { formatted(separator: ".") }
    /// `hh:mm:ss,mmm`.
    public var srtString: String { formatted(separator: ",") }

    private func formatted(separator: Character) -> String {
        var bytes: [UInt8] = []
        appendFormatted(to: &bytes, separator: UInt8(ascii: separator == "," ? "," : "."))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `hh:mm:ss<separator>ttt` as ASCII (negative times are written as zero): `.` for WebVTT, `,` for SRT.
    @inlinable
    public func appendFormatted(to bytes: inout [UInt8], separator: UInt8) {
        let total = max(0, milliseconds)
        let hours = total / 3_600_000
        let minutes = Int(total / 60_000 % 60)
        let seconds = Int(total / 1000 % 60)
        let millis = Int(total % 1000)
        if hours < 100 {
            bytes.append(0x30 + UInt8(hours / 10))
            bytes.append(0x30 + UInt8(hours % 10))
        } else {
            bytes.append(contentsOf: String(hours).utf8)
        }
        bytes.append(UInt8(ascii: ":"))
        bytes.append(0x30 + UInt8(minutes / 10))
        bytes.append(0x30 + UInt8(minutes % 10))
        bytes.append(UInt8(ascii: ":"))
        bytes.append(0x30 + UInt8(seconds / 10))
        bytes.append(0x30 + UInt8(seconds % 10))
        bytes.append(separator)
        bytes.append(0x30 + UInt8(millis / 100))
        bytes.append(0x30 + UInt8(millis / 10 % 10))
        bytes.append(0x30 + UInt8(millis % 10))
    }
}
