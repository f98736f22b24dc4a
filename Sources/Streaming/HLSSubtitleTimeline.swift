import Basics
import Captions
import Findings

/// The WebVTT segments of an HLS subtitle rendition read as one timeline (RFC 8216 §3.5): each segment's
/// `X-TIMESTAMP-MAP=MPEGTS:<90 kHz>,LOCAL:<cue time>` places its cues on the MPEG-2 clock (without one, cue time 0 is
/// MPEG-2 time 0), and the presentation's first media timestamp is time 0 of the timeline. A cue repeated in the
/// segments it spans (as the specification asks) is kept once; a cue cut at a segment boundary (the same text and
/// settings ending where the next begins) is joined. The MPEG-2 clock's 33 bits wrap every 26.5 hours while cue
/// times do not: each cue is put on the wrap nearest its segment's place in the playlist (§3.5 asks clients to allow
/// for it).
public enum HLSSubtitleTimeline {
    /// One segment's text and where it is in the playlist.
    public struct Segment: Sendable {
        public var uri: String
        public var bytes: [UInt8]
        /// Seconds from the playlist's start (its `#EXTINF` durations before it added up).
        public var start: Double
        /// Where the segment's discontinuity sequence plays (the video's sequence of the same number); nil: the
        /// presentation's start, at 0.
        public var clock: HLSSequenceClock?

        public init(uri: String, bytes: [UInt8], start: Double = 0, clock: HLSSequenceClock? = nil) {
            self.uri = uri
            self.bytes = bytes
            self.start = start
            self.clock = clock
        }
    }

    /// A segment's timestamp map.
    public struct TimestampMap: Sendable, Equatable {
        /// MPEG-2 (90 kHz) time of `local`.
        public var mpegts: Int64
        public var local: CaptionTime

        /// Seconds to add to a cue's time to put it on the MPEG-2 clock.
        public var offset: Double { Double(mpegts) / 90000 - local.seconds }
    }

    /// Joined cues and what was wrong with the segments.
    public struct Joined: Sendable {
        public var document: CaptionDocument
        public var findings: [Finding]
    }

    /// The joined cues, and what was wrong with the segments (rule `hls.segment`, each naming its segment; rule
    /// `hls.timestamp-map` when segments without a map leave their cues on MPEG-2 time while the presentation starts
    /// elsewhere). `presentationStart`: the first media timestamp of the presentation (seconds on the MPEG-2 clock,
    /// e.g. the first video segment's start time).
    public static func join(_ segments: [Segment], presentationStart: Double) -> Joined {
        var cues: [Cue] = []
        var findings: [Finding] = []
        var styleBlocks: [HeaderBlock] = []
        var unmapped = 0
        for segment in segments {
            let document: CaptionDocument
            do {
                document = try WebVTTReader().read(segment.bytes)
            } catch {
                findings.append(Rule.hlsSegment.finding(message: "\(segment.uri): \(error.message)"))
                continue
            }
            var map = TimestampMap(mpegts: 0, local: .zero)
            switch timestampMap(in: document.header) {
            case .some(.success(let found)): map = found
            case .some(.failure(let problem)):
                findings.append(Rule.hlsSegment.finding(message: "\(segment.uri): \(problem)"))
            case nil: unmapped += 1
            }
            for block in document.headerBlocks where !styleBlocks.contains(block) {
                if case .note = block { continue }
                styleBlocks.append(block)
            }
            let clock = segment.clock ?? HLSSequenceClock(origin: presentationStart, start: 0)
            let expected = clock.origin + segment.start - clock.start
            for var cue in document.cues {
                // The cue's MPEG-2 time, on the wrap nearest where its segment plays, then on the presentation's timeline.
                let start = clock.presentationTime(cue.start.seconds + map.offset, near: expected)
                cue.end = CaptionTime(seconds: start + (cue.end.seconds - cue.start.seconds))
                cue.start = CaptionTime(seconds: start)
                cue.line = 0
                cues.append(cue)
            }
        }
        let lead = MPEG2Clock.nearest(presentationStart, to: 0)
        let onClock = presentationStart - MPEG2Clock.wrapSeconds * (presentationStart / MPEG2Clock.wrapSeconds).rounded(.down)
        if unmapped > 0, abs(lead) > unmappedTolerance {
            let count =
                unmapped == segments.count
                ? "its \(unmapped == 1 ? "WebVTT segment has" : "\(unmapped) WebVTT segments have")"
                : "\(unmapped) of its \(segments.count) WebVTT segments have"
            findings.append(
                Rule.hlsTimestampMap.finding(
                    message:
                        "\(count) no X-TIMESTAMP-MAP (RFC 8216 §3.5): their cue times are MPEG-2 times, and the video starts at \(seconds(onClock)) s on that clock — unless the cues were written on that clock, they show \(seconds(abs(lead))) s \(lead > 0 ? "early" : "late")"
                ))
        }
        return Joined(document: CaptionDocument(format: .webvtt, headerBlocks: styleBlocks, cues: joined(cues)), findings: findings)
    }

    /// How far from MPEG-2 time 0 a presentation may start before segments without a timestamp map are said: about
    /// what the sync check allows.
    static let unmappedTolerance = 0.1

    private static func seconds(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        var text = String(rounded)
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            text += String(repeating: "0", count: max(0, 3 - decimals))
        }
        return text
    }

    /// Cues in time order, repeats dropped and pieces cut at a boundary joined.
    static func joined(_ cues: [Cue]) -> [Cue] {
        let ordered = cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        var result: [Cue] = []
        for cue in ordered {
            if let index = result.lastIndex(where: { $0.end >= cue.start && $0.text == cue.text && $0.settings == cue.settings }) {
                if result[index].start == cue.start && result[index].end == cue.end { continue }  // a repeat
                if result[index].end == cue.start {  // cut at a boundary
                    result[index].end = cue.end
                    continue
                }
            }
            result.append(cue)
        }
        return result
    }

    /// The `X-TIMESTAMP-MAP` of a WebVTT header: nil when there is none, else the map or what is wrong with it.
    public static func timestampMap(in header: String) -> Result<TimestampMap, MapProblem>? {
        guard let line = header.split(separator: "\n").first(where: { $0.hasPrefix("X-TIMESTAMP-MAP") }) else { return nil }
        guard let equals = line.firstIndex(of: "=") else { return .failure(MapProblem("`\(line)` has no value")) }
        var mpegts: Int64?
        var local: CaptionTime?
        for part in line[line.index(after: equals)...].split(separator: ",") {
            let pieces = part.split(separator: ":", maxSplits: 1)
            guard pieces.count == 2 else { return .failure(MapProblem("`\(part)` in `\(line)` is not NAME:value")) }
            switch pieces[0].trimmingSpaces() {
            case "MPEGTS":
                guard let value = Int64(pieces[1].trimmingSpaces()), value >= 0, value < 1 << 33 else {
                    return .failure(MapProblem("MPEGTS `\(pieces[1])` is not a 33-bit count of 90 kHz ticks"))
                }
                mpegts = value
            case "LOCAL":
                guard let time = webVTTTime(pieces[1].trimmingSpaces()) else {
                    return .failure(MapProblem("LOCAL `\(pieces[1])` is not a WebVTT timestamp"))
                }
                local = time
            default: return .failure(MapProblem("`\(pieces[0])` in `\(line)` is neither MPEGTS nor LOCAL"))
            }
        }
        guard let mpegts, let local else { return .failure(MapProblem("`\(line)` needs both MPEGTS and LOCAL")) }
        return .success(TimestampMap(mpegts: mpegts, local: local))
    }

    /// What is wrong with an `X-TIMESTAMP-MAP`.
    public struct MapProblem: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// `hh:mm:ss.ttt` or `mm:ss.ttt`.
    static func webVTTTime(_ text: String) -> CaptionTime? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        let secondsPart = parts[parts.count - 1].split(separator: ".", omittingEmptySubsequences: false)
        guard secondsPart.count == 2, secondsPart[1].count == 3, secondsPart[0].count == 2, let seconds = Int64(secondsPart[0]),
            let thousandths = Int64(secondsPart[1]), let minutes = Int64(parts[parts.count - 2]), minutes < 60, seconds < 60
        else { return nil }
        let hours = parts.count == 3 ? Int64(parts[0]) : 0
        // Beyond a billion hours the milliseconds would not fit: not a time.
        guard let hours, hours < 1_000_000_000 else { return nil }
        return CaptionTime(milliseconds: ((hours * 60 + minutes) * 60 + seconds) * 1000 + thousandths)
    }
}

/// Where a discontinuity sequence plays: its media time `origin` (seconds on the MPEG-2 clock) at `start` on the
/// presentation's timeline.
public struct HLSSequenceClock: Sendable, Equatable {
    public var origin: Double
    public var start: Double

    public init(origin: Double, start: Double) {
        self.origin = origin
        self.start = start
    }

    /// `mediaTime` on the presentation's timeline, taken on the clock's wrap nearest `near` (a media time; by default
    /// the origin).
    public func presentationTime(_ mediaTime: Double, near: Double? = nil) -> Double {
        MPEG2Clock.nearest(mediaTime, to: near ?? origin) - origin + start
    }
}

/// MPEG-2 presentation time: 33 bits of 90 kHz ticks, wrapping every 26.5 hours.
public enum MPEG2Clock {
    /// Seconds between two wraps (2³³ ticks).
    public static let wrapSeconds = Double(Int64(1) << 33) / 90_000

    /// `seconds` moved by whole wraps to be nearest `reference`: a time read after the clock wrapped put back beside
    /// the times before it.
    public static func nearest(_ seconds: Double, to reference: Double) -> Double {
        seconds + wrapSeconds * ((reference - seconds) / wrapSeconds).rounded()
    }
}
