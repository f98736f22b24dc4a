import Basics

/// SMPTE timecode at 29.97 frames a second (30000/1001), as SCC files use it: `HH:MM:SS:FF` counts 30 frames to the
/// timecode second (non-drop: the timecode runs 0.1% slower than the clock), `HH:MM:SS;FF` drops frame numbers 00
/// and 01 at the start of every minute but each tenth (drop-frame: the timecode keeps to the clock within 2 frames a
/// day).
public struct SMPTETimecode: Sendable, Hashable, CustomStringConvertible {
    /// Frames since 00:00:00:00.
    public var frame: Int
    public var dropFrame: Bool

    /// Frames a second, as a fraction.
    public static let rate = (frames: 30000, per: 1001)

    public init(frame: Int, dropFrame: Bool) {
        self.frame = max(0, frame)
        self.dropFrame = dropFrame
    }

    /// The frame nearest to `seconds` (of the clock).
    public init(seconds: Double, dropFrame: Bool) {
        self.init(frame: Int(saturating: (seconds * Double(Self.rate.frames) / Double(Self.rate.per)).rounded()), dropFrame: dropFrame)
    }

    /// The frame's time on the clock, in seconds.
    public var seconds: Double { Double(frame) * Double(Self.rate.per) / Double(Self.rate.frames) }

    /// Parses `HH:MM:SS:FF` (non-drop) or `HH:MM:SS;FF` / `HH:MM:SS.FF` (drop-frame; `;` anywhere marks it too).
    /// Nil when it is not a timecode or names a frame number drop-frame skips.
    public init?<Bytes: Collection<UInt8>>(parsing text: Bytes) {
        var fields: [Int] = []
        var value = -1
        var drop = false
        for byte in text {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = max(0, value) * 10 + Int(byte - UInt8(ascii: "0"))
                if value > 99_999 { return nil }
            case UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "."):
                guard value >= 0 else { return nil }
                if byte != UInt8(ascii: ":") { drop = true }
                fields.append(value)
                value = -1
            default:
                return nil
            }
        }
        guard value >= 0 else { return nil }
        fields.append(value)
        guard fields.count == 4 else { return nil }
        let (hours, minutes, seconds, frames) = (fields[0], fields[1], fields[2], fields[3])
        guard minutes < 60, seconds < 60, frames < 30 else { return nil }
        let totalMinutes = hours * 60 + minutes
        var frame = (totalMinutes * 60 + seconds) * 30 + frames
        if drop {
            guard !(seconds == 0 && frames < 2 && minutes % 10 != 0) else { return nil }
            frame -= 2 * (totalMinutes - totalMinutes / 10)
        }
        self.init(frame: frame, dropFrame: drop)
    }

    /// `HH:MM:SS:FF`, or `HH:MM:SS;FF` for drop-frame.
    public var description: String {
        var n = frame
        if dropFrame {
            // 17982 frames in ten minutes; 1798 in each minute but the first of the ten.
            let tens = n / 17982, within = n % 17982
            n += 18 * tens + (within >= 2 ? 2 * ((within - 2) / 1798) : 0)
        }
        let frames = n % 30, seconds = (n / 30) % 60, minutes = (n / 1800) % 60, hours = n / 108_000
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(two(hours)):\(two(minutes)):\(two(seconds))\(dropFrame ? ";" : ":")\(two(frames))"
    }
}
