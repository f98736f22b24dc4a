/// When a media file makes sound: its length and its audible stretches (after short gaps are bridged and
/// short bursts dropped).
public struct AudioActivity: Sendable, Equatable {
    public var duration: Double
    /// False when the file has no audio stream.
    public var hasAudio: Bool
    public var audible: [ClosedRange<Double>]

    public init(duration: Double, hasAudio: Bool, audible: [ClosedRange<Double>]) {
        self.duration = duration
        self.hasAudio = hasAudio
        self.audible = audible
    }

    /// Seconds of sound between `from` and `to`.
    public func audibleSeconds(from: Double, to: Double) -> Double {
        audible.reduce(0) { $0 + max(0, min($1.upperBound, to) - max($1.lowerBound, from)) }
    }

    /// Audible stretches from frame levels (dBFS, one per `frameSeconds`): above `threshold`, gaps shorter than
    /// `bridge` joined, stretches shorter than `minimumBurst` dropped.
    public static func stretches(
        levels: [Float], frameSeconds: Double, threshold: Double = -50, bridge: Double = 0.5,
        minimumBurst: Double = 0.1
    ) -> [ClosedRange<Double>] {
        var raw: [ClosedRange<Double>] = []
        var start: Int?
        for (index, level) in levels.enumerated() {
            if Double(level) > threshold {
                if start == nil { start = index }
            } else if let from = start {
                raw.append(Double(from) * frameSeconds...Double(index) * frameSeconds)
                start = nil
            }
        }
        if let from = start { raw.append(Double(from) * frameSeconds...Double(levels.count) * frameSeconds) }
        var joined: [ClosedRange<Double>] = []
        for stretch in raw {
            if let last = joined.last, stretch.lowerBound - last.upperBound < bridge {
                joined[joined.count - 1] = last.lowerBound...stretch.upperBound
            } else {
                joined.append(stretch)
            }
        }
        return joined.filter { $0.upperBound - $0.lowerBound >= minimumBurst }
    }
}

/// The rules of WCAG 2.x SC 1.4.2 and the Korean guideline 3.4 for sound that plays by itself.
public struct AutoplayRules: Sendable {
    public enum Profile: String, Sendable, CaseIterable {
        /// WCAG 1.4.2: more than 3 s of sound fails unless the page gives a way to stop it (`controls`).
        case wcag
        /// KWCAG 3.4: 3 s or more fails; controls are not a way out.
        case kwcag
    }

    public var profile: Profile
    /// Seconds of sound allowed (3).
    public var allowed: Double

    public init(profile: Profile = .wcag, allowed: Double = 3) {
        self.profile = profile
        self.allowed = allowed
    }

    public var guideline: String { profile == .wcag ? "WCAG 1.4.2" : "KWCAG 3.4" }

    /// Whether `seconds` of sound (infinity: endless) from an element fails.
    public func fails(audibleSeconds seconds: Double, controls: Bool) -> Bool {
        switch profile {
        case .wcag: seconds > allowed + 1e-9 && !controls
        case .kwcag: seconds >= allowed - 1e-9
        }
    }
}

/// A media fragment's time range (`#t=10,20`, `#t=,5`, `#t=npt:1:05`), in seconds.
public enum MediaFragment {
    /// The path without its fragment, and the `t=` range if there is one (nil bounds: from the start / to the end).
    public static func split(_ source: String) -> (path: String, start: Double?, end: Double?) {
        guard let hash = source.firstIndex(of: "#") else { return (source, nil, nil) }
        let path = String(source[..<hash])
        for parameter in source[source.index(after: hash)...].split(separator: "&") where parameter.hasPrefix("t=") {
            var value = parameter.dropFirst(2)
            if value.hasPrefix("npt:") { value = value.dropFirst(4) }
            let parts = value.split(separator: ",", omittingEmptySubsequences: false)
            let start = parts.first.flatMap { $0.isEmpty ? nil : seconds($0) }
            let end = parts.count > 1 ? seconds(parts[1]) : nil
            return (path, start, end)
        }
        return (path, nil, nil)
    }

    /// `12.5`, `1:05`, `01:02:03.5` in seconds.
    static func seconds(_ text: Substring) -> Double? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count) else { return nil }
        var total = 0.0
        for field in fields {
            guard let value = Double(field), value >= 0 else { return nil }
            total = total * 60 + value
        }
        return total
    }
}
