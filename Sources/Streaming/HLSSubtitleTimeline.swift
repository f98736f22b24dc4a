import Captions

/// The WebVTT segments of an HLS subtitle rendition read as one timeline (RFC 8216 §3.5): each segment's
/// `X-TIMESTAMP-MAP=MPEGTS:<90 kHz>,LOCAL:<cue time>` places its cues on the MPEG-2 clock (without one, cue time 0 is
/// MPEG-2 time 0), and the presentation's first media timestamp is time 0 of the timeline. A cue repeated in the
/// segments it spans (as the specification asks) is kept once; a cue cut at a segment boundary (the same text and
/// settings ending where the next begins) is joined.
public enum HLSSubtitleTimeline {
    /// One segment's text and where it is in the playlist.
    public struct Segment: Sendable {
        public var uri: String
        public var bytes: [UInt8]

        public init(uri: String, bytes: [UInt8]) {
            self.uri = uri
            self.bytes = bytes
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

    /// The joined cues, and what was wrong with the segments (rule `hls.timestamp-map`, `hls.segment`), each naming
    /// its segment. `presentationStart`: the first media timestamp of the presentation (seconds on the MPEG-2 clock,
    /// e.g. the first video segment's start time).
    public static func join(_ segments: [Segment], presentationStart: Double) -> CaptionDocument {
        var cues: [Cue] = []
        var diagnostics: [CaptionDiagnostic] = []
        var styleBlocks: [HeaderBlock] = []
        for segment in segments {
            let document: CaptionDocument
            do {
                document = try WebVTTReader().read(segment.bytes)
            } catch {
                diagnostics.append(CaptionDiagnostic(line: 0, rule: "hls.segment", severity: .error, message: "\(segment.uri): \(error.message)"))
                continue
            }
            var map = TimestampMap(mpegts: 0, local: .zero)
            switch timestampMap(in: document.header) {
            case .some(.success(let found)): map = found
            case .some(.failure(let problem)):
                diagnostics.append(CaptionDiagnostic(line: 0, rule: "hls.timestamp-map", severity: .error, message: "\(segment.uri): \(problem)"))
            case nil: break
            }
            for block in document.headerBlocks where !styleBlocks.contains(block) {
                if case .note = block { continue }
                styleBlocks.append(block)
            }
            let shift = map.offset - presentationStart
            for var cue in document.cues {
                cue.start = CaptionTime(seconds: cue.start.seconds + shift)
                cue.end = CaptionTime(seconds: cue.end.seconds + shift)
                cue.line = 0
                cues.append(cue)
            }
        }
        return CaptionDocument(format: .webvtt, headerBlocks: styleBlocks, cues: joined(cues), diagnostics: diagnostics)
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
        guard let hours else { return nil }
        return CaptionTime(milliseconds: ((hours * 60 + minutes) * 60 + seconds) * 1000 + thousandths)
    }
}
