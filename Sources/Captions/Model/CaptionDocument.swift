/// The caption formats MediaLint reads and writes.
public enum CaptionFormat: String, Sendable, Codable, CaseIterable {
    case webvtt
    case srt
    /// Scenarist SCC: CEA-608 byte pairs with timecodes (read and written as pop-on captions; cue text in WebVTT's
    /// syntax).
    case scc
    /// TTML (IMSC 1.1 Text, EBU-TT-D, SMPTE-TT, DFXP): read with its timing, styles, speakers and regions; written as
    /// IMSC 1.1 Text (cue text in WebVTT's syntax).
    case ttml
    /// SAMI (`.smi`): Microsoft's HTML-like captions, the usual caption file in Korea (one language class read).
    case sami
    /// Advanced SubStation Alpha and SubStation Alpha (`.ass`, `.ssa`): read with styles' italics, bold and
    /// alignment; written as ASS v4.00+.
    case ass
    /// YouTube's SubViewer (`.sbv`): timing lines and plain text.
    case sbv
    /// EBU STL (Tech 3264, `.stl`): the binary exchange format of European broadcasters. Read, not written.
    case stl

    /// Whether MediaLint writes the format (EBU STL is read only).
    public var isWritable: Bool { self != .stl }

    /// The formats MediaLint writes.
    public static let writable = allCases.filter(\.isWritable)

    /// The usual file extension.
    public var fileExtension: String {
        switch self {
        case .webvtt: "vtt"
        case .srt: "srt"
        case .scc: "scc"
        case .ttml: "ttml"
        case .sami: "smi"
        case .ass: "ass"
        case .sbv: "sbv"
        case .stl: "stl"
        }
    }

    /// The syntax of the cue text of documents in this format: SubRip's for SRT, WebVTT's for the others (the readers
    /// of other formats give their styles as WebVTT tags).
    public var markup: CaptionFormat { self == .srt ? .srt : .webvtt }

    /// The format's name as people write it.
    public var displayName: String {
        switch self {
        case .webvtt: "WebVTT"
        case .srt: "SRT"
        case .scc: "SCC"
        case .ttml: "TTML"
        case .sami: "SAMI"
        case .ass: "ASS"
        case .sbv: "SBV"
        case .stl: "EBU STL"
        }
    }

    /// The format a file name's extension names (`.vtt`, `.webvtt`, `.srt`, `.scc`, `.ttml`, `.dfxp`, `.smi`,
    /// `.sami`, `.ass`, `.ssa`, `.sbv`, `.stl`), if any.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "vtt", "webvtt": self = .webvtt
        case "srt": self = .srt
        case "scc": self = .scc
        case "ttml", "dfxp": self = .ttml
        case "smi", "sami": self = .sami
        case "ass", "ssa": self = .ass
        case "sbv": self = .sbv
        case "stl": self = .stl
        default: return nil
        }
    }

    /// Extensions of caption and subtitle files MediaLint does not read (MicroDVD and VobSub `.sub`/`.idx`, Blu-ray
    /// `.sup`, USF, MPL2, LRC, Cheetah `.cap`): a sidecar named so is said to be there and unread, never taken for
    /// another format.
    public static let unreadExtensions: Set<String> = ["sub", "idx", "sup", "usf", "mpl", "lrc", "cap"]
}

/// A caption file: its cues and everything else the format holds, so that nothing is lost when it is
/// written back. Problems met while reading are collected in `diagnostics`, not thrown.
public struct CaptionDocument: Sendable, Equatable {
    public var format: CaptionFormat
    /// WebVTT: what follows `WEBVTT` up to the first blank line (the rest of the signature line and any
    /// header lines), e.g. `" - Interview"` or `"\nKind: captions"`. Empty for SRT.
    public var header: String
    /// WebVTT: the STYLE, REGION and NOTE blocks before the first cue, in file order.
    public var headerBlocks: [HeaderBlock]
    /// WebVTT: NOTE blocks after the first cue, each placed after `cuesBefore` cues.
    public var notes: [CaptionNote]
    public var cues: [Cue]
    /// What the reader noticed: recoverable problems, each with a line and column.
    public var diagnostics: [CaptionDiagnostic]
    /// The text encoding the file was read in (`utf-8`, `utf-16le`, `windows-1252` …).
    public var encoding: String
    /// The seconds between the times the file can hold, when coarser than a millisecond: ASS's centisecond, the frame
    /// of SCC, EBU STL and a TTML document timed in frames. Nil: milliseconds. A fix puts the times it makes on it.
    public var timeStep: Double?

    public init(
        format: CaptionFormat, header: String = "", headerBlocks: [HeaderBlock] = [], notes: [CaptionNote] = [],
        cues: [Cue] = [], diagnostics: [CaptionDiagnostic] = [], encoding: String = "utf-8"
    ) {
        self.format = format
        self.header = header
        self.headerBlocks = headerBlocks
        self.notes = notes
        self.cues = cues
        self.diagnostics = diagnostics
        self.encoding = encoding
    }

    /// The regions defined in the header.
    public var regions: [CueRegion] {
        headerBlocks.compactMap { if case .region(let region) = $0 { region } else { nil } }
    }

    /// About how many bytes a writer produces, to size its buffer once: timing lines, identifiers and text
    /// (a UTF-8 count is free for native strings).
    var estimatedWrittenSize: Int {
        cues.reduce(256 + header.utf8.count) { $0 + 48 + $1.identifier.utf8.count + $1.text.utf8.count }
    }

    /// The style sheets (CSS text) defined in the header.
    public var styleSheets: [String] {
        headerBlocks.compactMap { if case .style(let css) = $0 { css } else { nil } }
    }
}

/// A block of a WebVTT header area.
public enum HeaderBlock: Sendable, Equatable {
    /// A STYLE block's CSS text.
    case style(String)
    case region(CueRegion)
    /// A NOTE block's text (after `NOTE`, as written: `" text"` or `"\nmore lines"`).
    case note(String)
}

/// A WebVTT comment between cues.
public struct CaptionNote: Sendable, Equatable {
    /// How many cues come before it.
    public var cuesBefore: Int
    /// The text after `NOTE`, as written.
    public var text: String

    public init(cuesBefore: Int, text: String) {
        self.cuesBefore = cuesBefore
        self.text = text
    }
}

/// One cue: identifier, timing, settings and text.
public struct Cue: Sendable, Equatable {
    /// WebVTT cue identifier, or the SRT index line as written; empty when there is none.
    public var identifier: String
    public var start: CaptionTime
    public var end: CaptionTime
    /// The cue text as written, lines separated by `\n`, markup included (WebVTT tags or SRT tags).
    public var text: String
    /// The line of the cue's timing line in the file it was read from (1-based; 0 when not read from a file).
    /// Where a cue is, not what it is: not part of equality.
    public var line: Int32 = 0
    // Most cues have default settings: they share no storage, which keeps a cue small.
    fileprivate var settingsStorage: SettingsStorage?

    public init(
        identifier: String = "", start: CaptionTime, end: CaptionTime, text: String,
        settings: CueSettings
    ) {
        self.identifier = identifier
        self.start = start
        self.end = end
        self.text = text
        self.settings = settings
    }

    /// A cue with default settings.
    public init(identifier: String = "", start: CaptionTime, end: CaptionTime, text: String) {
        self.identifier = identifier
        self.start = start
        self.end = end
        self.text = text
    }

    /// Position, alignment, size, writing direction and region (WebVTT semantics; SRT positions map onto them).
    public var settings: CueSettings {
        get { settingsStorage?.settings ?? CueSettings() }
        set { settingsStorage = newValue == CueSettings() ? nil : SettingsStorage(newValue) }
    }

    /// True when the settings are all defaults.
    public var hasDefaultSettings: Bool { settingsStorage == nil }

    public static func == (lhs: Cue, rhs: Cue) -> Bool {
        lhs.identifier == rhs.identifier && lhs.start == rhs.start && lhs.end == rhs.end && lhs.text == rhs.text
            && lhs.settings == rhs.settings
    }
}

/// Immutable boxed settings: replacing them allocates a new box, so copies never share a mutation.
private final class SettingsStorage: Sendable {
    let settings: CueSettings
    init(_ settings: CueSettings) { self.settings = settings }
}

/// One box for each of the few settings a reader gives its cues (a TTML document's cues take their region's): a
/// million cues placed alike hold one box, not a million. Past `capacity` distinct settings, cues get their own.
struct CueSettingsPool {
    private var boxes: [CueSettings: SettingsStorage] = [:]
    static let capacity = 1024

    /// Gives `cue` `settings`, shared with the cues given the same before.
    mutating func give(_ settings: CueSettings, to cue: inout Cue) {
        guard settings != CueSettings() else {
            cue.settingsStorage = nil
            return
        }
        if let box = boxes[settings] {
            cue.settingsStorage = box
        } else if boxes.count < Self.capacity {
            let box = SettingsStorage(settings)
            boxes[settings] = box
            cue.settingsStorage = box
        } else {
            cue.settings = settings
        }
    }
}

/// A cue's rendering settings, with the defaults and meanings of WebVTT's `VTTCue`.
public struct CueSettings: Sendable, Hashable {
    public enum WritingDirection: String, Sendable {
        case horizontal = ""
        case verticalGrowingLeft = "rl"
        case verticalGrowingRight = "lr"
    }

    public enum LineAlignment: String, Sendable {
        case start, center, end
    }

    public enum PositionAlignment: String, Sendable {
        case lineLeft = "line-left", center, lineRight = "line-right", auto
    }

    public enum TextAlignment: String, Sendable {
        case start, center, end, left, right
    }

    public var vertical: WritingDirection = .horizontal
    /// The line position: a line number when `snapToLines`, else a percentage; nil is `auto`.
    public var line: Double?
    public var snapToLines = true
    public var lineAlign: LineAlignment = .start
    /// The position as a percentage; nil is `auto`.
    public var position: Double?
    public var positionAlign: PositionAlignment = .auto
    /// Size as a percentage.
    public var size: Double = 100
    public var align: TextAlignment = .center
    /// The identifier of the region the cue belongs to.
    public var region: String?
    /// SRT: the `X1:… X2:… Y1:… Y2:…` coordinates after the timing, as written.
    public var srtCoordinates: String?

    public init() {}
}

/// A WebVTT region (a REGION block), with the defaults of `VTTRegion`.
public struct CueRegion: Sendable, Hashable {
    public var identifier: String = ""
    /// Width as a percentage of the video.
    public var width: Double = 100
    public var lines: Double = 3
    public var anchorX: Double = 0
    public var anchorY: Double = 100
    public var viewportAnchorX: Double = 0
    public var viewportAnchorY: Double = 100
    /// True for `scroll:up`.
    public var scrollUp = false

    public init(identifier: String = "") { self.identifier = identifier }
}

/// Something a reader or converter noticed, located in the source file.
public struct CaptionDiagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable {
        case error, warning, info
    }

    /// 1-based line and column in the source (0 when not tied to a place).
    public var line: Int
    public var column: Int
    /// A stable rule id, e.g. `webvtt.timing` or `srt.index`.
    public var rule: String
    public var severity: Severity
    public var message: String

    public init(line: Int, column: Int = 1, rule: String, severity: Severity = .warning, message: String) {
        self.line = line
        self.column = column
        self.rule = rule
        self.severity = severity
        self.message = message
    }

    public var description: String {
        line > 0 ? "\(line):\(column): \(severity.rawValue): \(message) [\(rule)]" : "\(severity.rawValue): \(message) [\(rule)]"
    }
}

/// A caption file that cannot be read at all (only a bad WebVTT signature or unreadable text).
public struct CaptionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var rule: String
    public var message: String

    public init(rule: String, message: String) {
        self.rule = rule
        self.message = message
    }

    public var description: String { message }
}

extension CaptionDiagnostic {
    /// The most diagnostics a reader keeps for one file: a file of millions of broken blocks is reported by its
    /// first ones and a count, in flat memory.
    public static let limitPerFile = 1000

    /// Keeps the first `limitPerFile` of `diagnostics` and adds one saying how many more there were (those beyond
    /// the limit, and `dropped` that a parser already counted without keeping).
    static func cap(_ diagnostics: inout [CaptionDiagnostic], dropped: Int = 0) {
        let over = max(0, diagnostics.count - limitPerFile) + dropped
        guard over > 0 else { return }
        if diagnostics.count > limitPerFile { diagnostics.removeSubrange(limitPerFile...) }
        diagnostics.append(
            CaptionDiagnostic(
                line: 0, rule: "captions.diagnostics-limit", severity: .info,
                message: "\(over) more diagnostic\(over == 1 ? "" : "s") not listed (the first \(limitPerFile) of a file are kept)"))
    }
}
