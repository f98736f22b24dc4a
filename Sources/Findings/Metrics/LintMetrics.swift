import Basics

/// The metrics of a `lint` result.
public struct LintMetrics: CheckMetrics, Equatable {
    public static let check = CheckKind.lint

    public var cues: Int
    /// `webvtt` or `srt`.
    public var format: String
    /// The text encoding the file was read in.
    public var encoding: String
    /// The caption style profile judged by.
    public var profile: String
    /// The frame rate frame-based rules count in.
    public var fps: Double
    /// How many findings each rule made (written in rule order).
    public var findingsByRule: [String: Int]

    public init(cues: Int, format: String, encoding: String, profile: String, fps: Double, findingsByRule: [String: Int]) {
        self.cues = cues
        self.format = format
        self.encoding = encoding
        self.profile = profile
        self.fps = fps
        self.findingsByRule = findingsByRule
    }

    private enum CodingKeys: String, CodingKey { case cues, format, encoding, profile, fps, findingsByRule }

    /// As declared, with `findingsByRule` sorted by rule (a dictionary has no order of its own).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cues, forKey: .cues)
        try container.encode(format, forKey: .format)
        try container.encode(encoding, forKey: .encoding)
        try container.encode(profile, forKey: .profile)
        try container.encode(fps, forKey: .fps)
        let counts = findingsByRule.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.integer(Int64($0.value))) }
        try container.encode(JSONValue.object(counts), forKey: .findingsByRule)
    }
}
