import Basics
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads TTML documents (IMSC 1.1 Text, EBU-TT-D, SMPTE-TT, DFXP) through an XML parser into cues: each `p` becomes
/// a cue for each stretch of time its content stays the same (spans with their own timing split it), its text in
/// WebVTT syntax (`<i>`, `<b>`, `<u>`, colour classes, `<v>` for `ttm:agent` speakers, `<lang>`), its region mapped to
/// WebVTT line and position where the region is given in percentages (or pixels or cells the document sizes).
///
/// Timing follows TTML2 for the media time base: clock and offset times (`h m s ms f t`), `ttp:frameRate`,
/// `ttp:frameRateMultiplier`, `ttp:subFrameRate`, `ttp:tickRate`, `begin`/`end`/`dur`, `par` and `seq` time containers.
/// Lenient (the default) reads what players read; strict also reports what IMSC 1.1's Text Profile forbids
/// (rule `ttml.profile`). A document that is not well-formed XML, or whose root is not `tt`, is refused.
public struct TTMLReader: Sendable {
    public var mode: WebVTTReader.Mode

    public init(mode: WebVTTReader.Mode = .lenient) {
        self.mode = mode
    }

    public func read(_ bytes: [UInt8]) throws(CaptionError) -> CaptionDocument {
        let result: Result<CaptionDocument, CaptionError> = bytes.withUnsafeBytes { buffer in
            do throws(CaptionError) { return .success(try read(buffer: buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Reads a TTML document in `buffer`; with `mapping`, the pages read are given back as the parser goes.
    func read(buffer: UnsafeRawBufferPointer, mapping: MappedFile? = nil) throws(CaptionError) -> CaptionDocument {
        let reading = TTMLParsing(strict: mode == .strict)
        let declared = reading.checkEncoding(buffer)
        // Bytes that are not UTF-8 in a UTF-8 document are a fatal error in XML (and Foundation's parser traps on
        // some of them in element names): refused before parsing, with their line. Documents in other encodings are
        // converted to UTF-8 by the parser itself.
        if declared == "utf-8", let offset = TextDecoding.firstInvalidUTF8(buffer.assumingMemoryBound(to: UInt8.self)) {
            let line = buffer.prefix(offset).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw CaptionError(rule: "ttml.xml", message: "not well-formed XML: bytes that are not UTF-8 at line \(line) (byte \(offset))")
        }
        // A stream, not one chunk: libxml2 refuses a single chunk over 10 MB, and memory holds a chunk, not the file.
        let parser = XMLParser(stream: BufferInputStream(buffer, mapping: mapping))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reading
        let parsed = parser.parse()
        if let failure = reading.failure { throw failure }
        guard parsed else {
            let code = (parser.parserError as NSError?)?.code ?? 0
            throw CaptionError(
                rule: "ttml.xml",
                message: "not well-formed XML (XML parser error \(code)) at line \(parser.lineNumber), column \(parser.columnNumber)")
        }
        guard reading.sawRoot else { throw CaptionError(rule: "ttml.root", message: "not a TTML document: no `tt` element in the TTML namespace") }
        return reading.finish()
    }
}

/// The XML parser's input: a buffer read front to back in chunks, the pages of a mapped file given back as they are
/// passed.
private final class BufferInputStream: InputStream {
    private let buffer: UnsafeRawBufferPointer
    private let mapping: MappedFile?
    private var offset = 0
    private var released = 0

    init(_ buffer: UnsafeRawBufferPointer, mapping: MappedFile?) {
        self.buffer = buffer
        self.mapping = mapping
        super.init(data: Data())
    }

    override func open() {}
    override func close() {}
    override var hasBytesAvailable: Bool { offset < buffer.count }
    override var streamStatus: Stream.Status { offset < buffer.count ? .open : .atEnd }

    override func read(_ target: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        let count = min(length, buffer.count - offset)
        guard count > 0, let base = buffer.baseAddress else { return 0 }
        UnsafeMutableRawPointer(target).copyMemory(from: base + offset, byteCount: count)
        offset += count
        if let mapping, offset - released >= MappedFile.releaseStep {
            mapping.release(released..<offset)
            released = offset
        }
        return count
    }
}

/// TTML's namespaces (and those of the 2006 DFXP drafts real files still carry).
enum TTMLNamespace {
    static let tt = "http://www.w3.org/ns/ttml"
    static let styling = "http://www.w3.org/ns/ttml#styling"
    static let parameter = "http://www.w3.org/ns/ttml#parameter"
    static let metadata = "http://www.w3.org/ns/ttml#metadata"
    static let xml = "http://www.w3.org/XML/1998/namespace"
    static let smpte = "http://www.smpte-ra.org/schemas/2052-1/2010/smpte-tt"
    static let textProfile = "http://www.w3.org/ns/ttml/profile/imsc1.1/text"

    /// The TT namespace bases that are TTML: the recommendation's and the DFXP drafts'.
    static let bases = [tt, "http://www.w3.org/2006/10/ttaf1", "http://www.w3.org/2006/04/ttaf1"]

    enum Kind { case tt, styling, parameter, metadata, xml, smpte, other }

    static func kind(of uri: String) -> Kind {
        if uri == xml { return .xml }
        if uri == smpte { return .smpte }
        for base in bases where uri.hasPrefix(base) {
            switch uri.dropFirst(base.count) {
            case "": return .tt
            case "#styling", "#style": return .styling
            case "#parameter": return .parameter
            case "#metadata": return .metadata
            default: return .other
            }
        }
        return .other
    }
}

/// A run of text's look in WebVTT terms; nil members are not specified (inherited or the default).
struct TTMLTextStyle: Equatable {
    var italic: Bool?
    var bold: Bool?
    var underline: Bool?
    var lineThrough: Bool?
    /// A WebVTT colour class (`yellow`, or `color-rrggbb` for colours without one).
    var color: String?
    var textAlign: String?

    /// `self` with what `other` specifies laid over it.
    func overlaid(with other: TTMLTextStyle) -> TTMLTextStyle {
        TTMLTextStyle(
            italic: other.italic ?? italic, bold: other.bold ?? bold, underline: other.underline ?? underline,
            lineThrough: other.lineThrough ?? lineThrough, color: other.color ?? color, textAlign: other.textAlign ?? textAlign)
    }
}

/// A region's place, in percentages of the root container.
struct TTMLRegionBox: Hashable {
    var x: Double, y: Double, width: Double, height: Double
    /// `before`, `center` or `after`.
    var displayAlign: String

    /// The usual bottom region: 10% in from each side, text after (read as WebVTT's default place when centred).
    static let bottom = TTMLRegionBox(x: 10, y: 10, width: 80, height: 80, displayAlign: "after")

    /// A band 10% in from the sides whose text sits 10% above the bottom: WebVTT's default place (the usual bottom
    /// region, or one just the height of its rows).
    var isBottomBand: Bool {
        x == 10 && width == 80 && displayAlign == "after" && abs(y + height - 90) < 0.001
    }

    /// A percentage to a thousandth (what the writer writes).
    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    func overlaps(_ other: TTMLRegionBox) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }
}

/// The XML parser's delegate: keeps the open elements, their times and styles, and makes cues as `p` elements close.
private final class TTMLParsing: NSObject, XMLParserDelegate {
    let strict: Bool
    private(set) var failure: CaptionError?
    private(set) var sawRoot = false

    init(strict: Bool) { self.strict = strict }

    // MARK: Document-wide state

    private var timing = TTMLTiming()
    private var rootExtent: (width: Double, height: Double)?
    private var cellResolution = (columns: 32.0, rows: 15.0)
    private var styles: [String: (style: TTMLTextStyle, references: [String], props: [String: String])] = [:]
    private var regions: [String: (box: TTMLRegionBox?, style: TTMLTextStyle)] = [:]
    private var regionProps: [String: [String: String]] = [:]
    private var agents: [String: String] = [:]
    private var diagnostics: [CaptionDiagnostic] = []
    private var violations: Set<String> = []
    private var cues: [Cue] = []
    /// For each cue, its region's identifier (for the profile's region checks).
    private var cueRegions: [String?] = []
    /// Cues whose end no element gave (shown to the end of the document).
    private var openEnded: [Int] = []
    private var latestTime: Int64 = 0
    private var customColors: [String: String] = [:]
    private var usedPixels = false
    /// Whether some cue's text is struck through (its STYLE rule is added).
    private var usesStrike = false
    /// Namespace kinds by URI (looked up for every attribute).
    private var kinds: [String: TTMLNamespace.Kind] = [:]
    private var prefixes: [String: [String]] = ["xml": [TTMLNamespace.xml]]
    /// The document's language (`xml:lang` on `tt`): text in it needs no `<lang>`.
    private var rootLanguage = ""

    // MARK: Open elements

    private enum Element {
        case tt, head, styling, style, layout, region, metadata, agent, agentName, body, div, p, span, br, set, ignored
    }

    private struct Open {
        var element: Element
        var line: Int
        /// Absolute active interval; `end` nil: not known yet (up to an ancestor's, or the document's).
        var begin: Int64
        var end: Int64?
        var explicitEnd: Bool
        var sequential: Bool
        /// seq: where the next child begins.
        var cursor: Int64
        /// The latest end of a timed child (the implicit end of a container).
        var latestChildEnd: Int64?
        /// Style properties specified here or on an ancestor (content elements).
        var specified: TTMLTextStyle
        var region: String?
        var agent: String?
        var language: String?
        var preserveSpace: Bool
        /// style/region being defined: its identifier.
        var identifier: String?
        /// True when the element's own timing made it never active (its content is skipped).
        var inactive: Bool
    }

    private var stack: [Open] = []

    /// The content of the `p` being read: text, line breaks and when each piece is shown.
    private struct Piece {
        var text: String  // "\n" for a `br`
        var isBreak: Bool
        var style: TTMLTextStyle
        var agent: String?
        var language: String?
        var begin: Int64?
        var end: Int64?
        var preserve: Bool
    }

    private var pieces: [Piece] = []
    private var textDepth = 0  // > 0 inside a p

    // MARK: Diagnostics

    private func note(_ parser: XMLParser?, _ rule: String, _ severity: CaptionDiagnostic.Severity, _ message: String) {
        guard diagnostics.count < CaptionDiagnostic.limitPerFile else { return }
        diagnostics.append(
            CaptionDiagnostic(line: parser?.lineNumber ?? 0, column: parser?.columnNumber ?? 1, rule: rule, severity: severity, message: message))
    }

    /// A profile violation (strict only), reported once per kind.
    private func violation(_ parser: XMLParser?, _ message: String) {
        guard strict, violations.insert(message).inserted else { return }
        note(parser, "ttml.profile", .error, "IMSC 1.1 Text Profile: \(message)")
    }

    /// The document's encoding as its byte order mark or XML declaration says (`utf-8` when neither does); strict
    /// mode reports any other (IMSC requires UTF-8).
    func checkEncoding(_ buffer: UnsafeRawBufferPointer) -> String {
        let head = Array(buffer.prefix(200))
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0x3C, 0x00]) || head.starts(with: [0x00, 0x3C]) {
            violation(nil, "the document is UTF-16; IMSC requires UTF-8")
            return "utf-16"
        }
        let declaration = String(decoding: head.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(head.dropFirst(3)) : head, as: UTF8.self)
        guard declaration.hasPrefix("<?xml"), let close = declaration.range(of: "?>"),
            let range = declaration[..<close.lowerBound].range(of: "encoding")
        else { return "utf-8" }
        let value = declaration[range.upperBound..<close.lowerBound].drop { $0 == " " || $0 == "=" }.dropFirst().prefix { $0 != "\"" && $0 != "'" }
            .lowercased()
        if value == "utf-8" || value == "utf8" { return "utf-8" }
        violation(nil, "the document declares encoding `\(value)`; IMSC requires UTF-8")
        return value
    }

    // MARK: Namespaces

    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        prefixes[prefix, default: []].append(namespaceURI)
    }

    func parser(_ parser: XMLParser, didEndMappingPrefix prefix: String) {
        prefixes[prefix]?.removeLast()
    }

    /// An element's attributes by namespace kind and local name.
    private struct Attributes {
        var plain: [String: String] = [:]
        var styling: [String: String] = [:]
        var parameter: [String: String] = [:]
        var metadata: [String: String] = [:]
        var xml: [String: String] = [:]
        var smpte: [String: String] = [:]
    }

    private func sort(_ attributes: [String: String]) -> Attributes {
        var sorted = Attributes()
        for (name, value) in attributes {
            guard let colon = name.firstIndex(of: ":") else {
                sorted.plain[name] = value
                continue
            }
            let prefix = String(name[..<colon])
            let local = String(name[name.index(after: colon)...])
            guard prefix != "xmlns", let uri = prefixes[prefix]?.last else { continue }
            let kind = kinds[uri] ?? TTMLNamespace.kind(of: uri)
            kinds[uri] = kind
            switch kind {
            case .styling: sorted.styling[local] = value
            case .parameter: sorted.parameter[local] = value
            case .metadata: sorted.metadata[local] = value
            case .xml: sorted.xml[local] = value
            case .smpte: sorted.smpte[local] = value
            case .tt, .other: break
            }
        }
        return sorted
    }

    // MARK: Elements

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        var kind = TTMLNamespace.Kind.other
        if let namespaceURI {
            kind = kinds[namespaceURI] ?? TTMLNamespace.kind(of: namespaceURI)
            kinds[namespaceURI] = kind
        }
        let attributes = sort(attributeDict)
        let parent = stack.last
        if parent == nil {
            guard kind == .tt, elementName == "tt" else {
                failure = CaptionError(rule: "ttml.root", message: "not a TTML document: the root element is `\(elementName)`, not `tt` in the TTML namespace")
                parser.abortParsing()
                return
            }
            sawRoot = true
            rootLanguage = attributes.xml["lang"] ?? ""
            readRoot(attributes, parser)
            stack.append(open(.tt, attributes, parser, parent: nil))
            return
        }
        guard let parent, parent.element != .ignored, parent.element != .set, parent.element != .br else {
            stack.append(open(.ignored, attributes, parser, parent: parent))
            return
        }
        let element: Element
        switch (kind, elementName, parent.element) {
        case (.tt, "head", .tt): element = .head
        case (.tt, "body", .tt): element = .body
        case (.tt, "styling", .head): element = .styling
        case (.tt, "layout", .head): element = .layout
        case (.tt, "metadata", .head): element = .metadata
        case (.tt, "style", .styling), (.tt, "style", .region): element = .style
        case (.tt, "region", .layout): element = .region
        case (.metadata, "agent", .metadata): element = .agent
        case (.metadata, "name", .agent): element = .agentName
        case (.tt, "div", .body), (.tt, "div", .div): element = .div
        case (.tt, "p", .body), (.tt, "p", .div): element = .p
        case (.tt, "span", .p), (.tt, "span", .span): element = .span
        case (.tt, "br", .p), (.tt, "br", .span): element = .br
        case (.tt, "set", _): element = .set
        case (.tt, "animate", _):
            violation(parser, "`animate` is not permitted (only `set`)")
            element = .set
        case (.tt, "image", _):
            violation(parser, "`image` is not permitted in the Text Profile")
            element = .ignored
        case (.tt, "audio", _), (.tt, "font", _), (.tt, "data", _), (.tt, "resources", _), (.tt, "source", _), (.tt, "chunk", _):
            violation(parser, "`\(elementName)` is not permitted")
            element = .ignored
        default: element = .ignored
        }
        if attributes.smpte["backgroundImage"] != nil { violation(parser, "`smpte:backgroundImage` is not permitted in the Text Profile") }
        if strict { checkLengths(attributes, parser) }
        stack.append(open(element, attributes, parser, parent: parent))
        switch element {
        case .style:
            let identifier = attributes.xml["id"] ?? ""
            if parent.element == .region, let region = parent.identifier {
                let nested = textStyle(attributes.styling, parser)
                regionProps[region, default: [:]].merge(attributes.styling) { $1 }
                let box = regionBox(regionProps[region]!, region: region, parser)
                if let entry = regions[region] { regions[region] = (box, entry.style.overlaid(with: nested)) }
            } else if !identifier.isEmpty {
                styles[identifier] = (textStyle(attributes.styling, parser), references(attributes), attributes.styling)
            }
        case .region:
            let identifier = attributes.xml["id"] ?? ""
            var style = TTMLTextStyle()
            var props: [String: String] = [:]
            for reference in references(attributes) {
                style = style.overlaid(with: resolvedStyle(reference))
                props.merge(resolvedProps(reference)) { $1 }
            }
            props.merge(attributes.styling) { $1 }
            style = style.overlaid(with: textStyle(attributes.styling, parser))
            regionProps[identifier] = props
            regions[identifier] = (regionBox(props, region: identifier, parser), style)
        case .agent:
            stack[stack.count - 1].identifier = attributes.xml["id"]
        case .br:
            if textDepth > 0, let open = stack.last, !open.inactive {
                pieces.append(
                    Piece(
                        text: "\n", isBreak: true, style: open.specified, agent: open.agent, language: open.language, begin: open.begin, end: open.end,
                        preserve: false))
            }
        case .p:
            textDepth += 1
            pieces.removeAll(keepingCapacity: true)
        case .span:
            textDepth += 1
        default: break
        }
    }

    private func references(_ attributes: Attributes) -> [String] {
        (attributes.plain["style"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)
    }

    private func resolvedStyle(_ identifier: String, depth: Int = 0) -> TTMLTextStyle {
        guard depth < 32, let entry = styles[identifier] else { return TTMLTextStyle() }
        var style = TTMLTextStyle()
        for reference in entry.references { style = style.overlaid(with: resolvedStyle(reference, depth: depth + 1)) }
        return style.overlaid(with: entry.style)
    }

    private func resolvedProps(_ identifier: String, depth: Int = 0) -> [String: String] {
        guard depth < 32, let entry = styles[identifier] else { return [:] }
        var props: [String: String] = [:]
        for reference in entry.references { props.merge(resolvedProps(reference, depth: depth + 1)) { $1 } }
        return props.merging(entry.props) { $1 }
    }

    private func readRoot(_ attributes: Attributes, _ parser: XMLParser) {
        let bad = timing.apply(
            frameRate: attributes.parameter["frameRate"], multiplier: attributes.parameter["frameRateMultiplier"],
            subFrameRate: attributes.parameter["subFrameRate"], tickRate: attributes.parameter["tickRate"])
        for name in bad { note(parser, "ttml.timing", .warning, "`\(name)` is malformed; its default is used") }
        if let base = attributes.parameter["timeBase"], base != "media" {
            violation(parser, "`ttp:timeBase=\"\(base)\"` (only the media time base is permitted)")
            if base == "clock" { note(parser, "ttml.timing", .warning, "the clock time base is read as media time") }
        }
        for name in ["clockMode", "dropMode", "markerMode"] where attributes.parameter[name] != nil {
            violation(parser, "`ttp:\(name)` is not permitted")
        }
        if let extent = attributes.styling["extent"] {
            let parts = extent.split(separator: " ")
            if parts.count == 2, parts.allSatisfy({ $0.hasSuffix("px") }), let width = Double(parts[0].dropLast(2)), let height = Double(parts[1].dropLast(2)),
                width > 0, height > 0
            {
                rootExtent = (width, height)
            }
        }
        if let cells = attributes.parameter["cellResolution"] {
            let parts = cells.split(separator: " ").compactMap { Double($0) }
            if parts.count == 2, parts[0] > 0, parts[1] > 0 { cellResolution = (parts[0], parts[1]) }
        }
        if strict {
            let profiles = (attributes.parameter["contentProfiles"] ?? attributes.parameter["profile"] ?? "").split(separator: " ").map(String.init)
            if !profiles.contains(TTMLNamespace.textProfile) {
                note(parser, "ttml.profile", .warning, "IMSC 1.1 Text Profile: `ttp:contentProfiles` should name \(TTMLNamespace.textProfile)")
            }
        }
    }

    /// Where an element is active, from its parent's interval and its own `begin`, `end` and `dur`.
    private func open(_ element: Element, _ attributes: Attributes, _ parser: XMLParser, parent: Open?) -> Open {
        let timed: Bool
        switch element {
        case .body, .div, .p, .span, .br, .set: timed = true
        default: timed = false
        }
        let parentBegin = parent?.begin ?? 0
        let reference = parent.map { $0.sequential ? $0.cursor : $0.begin } ?? 0
        var begin = reference
        var end: Int64? = nil
        var explicitEnd = false
        if timed {
            if let value = attributes.plain["begin"] { begin = Self.sum(reference, time(value, parser) ?? 0) }
            let endValue = attributes.plain["end"].flatMap { time($0, parser) }.map { Self.sum(reference, $0) }
            let durValue = attributes.plain["dur"].flatMap { time($0, parser) }.map { Self.sum(begin, $0) }
            switch (endValue, durValue) {
            case (let e?, let d?): end = min(e, d)
            case (let e?, nil): end = e
            case (nil, let d?): end = d
            case (nil, nil): end = nil
            }
            explicitEnd = end != nil
        }
        begin = max(begin, parentBegin)
        if let parentEnd = parent?.end {
            end = min(end ?? parentEnd, parentEnd)
            if !explicitEnd, parent?.sequential == true { end = nil }
        }
        var inactive = parent?.inactive ?? false
        if let end, end < begin, timed, element != .br { inactive = true }
        if !inactive { latestTime = max(latestTime, begin, end ?? begin) }
        var specified = parent?.specified ?? TTMLTextStyle()
        var region = parent?.region
        var agent = parent?.agent
        var language = parent?.language
        var preserve = parent?.preserveSpace ?? false
        if timed {
            for reference in references(attributes) { specified = specified.overlaid(with: resolvedStyle(reference)) }
            specified = specified.overlaid(with: textStyle(attributes.styling, parser))
            if let name = attributes.plain["region"] { region = name }
            if let name = attributes.metadata["agent"] {
                agent = name.split(separator: " ").first.map(String.init)
            }
        }
        if let lang = attributes.xml["lang"] { language = lang }
        if let space = attributes.xml["space"] { preserve = space == "preserve" }
        return Open(
            element: element, line: parser.lineNumber, begin: begin, end: end, explicitEnd: explicitEnd,
            sequential: attributes.plain["timeContainer"] == "seq", cursor: begin, latestChildEnd: nil,
            specified: specified, region: region, agent: agent, language: language, preserveSpace: preserve,
            identifier: attributes.xml["id"], inactive: inactive)
    }

    /// Times add up to at most `TTMLTiming.ceiling` (nested offsets in a hostile file cannot overflow).
    private static func sum(_ a: Int64, _ b: Int64) -> Int64 { TTMLTiming.sum(a, b) }

    private func time(_ value: String, _ parser: XMLParser) -> Int64? {
        var uses: TTMLTiming.Uses = []
        let milliseconds = timing.milliseconds(of: value, uses: &uses)
        if uses.contains(.wallClock) { violation(parser, "wall-clock times are not permitted") }
        if uses.contains(.frames), !timing.hasFrameRate { violation(parser, "frames are used without `ttp:frameRate` on `tt`") }
        if uses.contains(.ticks), timing.tickRate == nil { violation(parser, "ticks are used without `ttp:tickRate` on `tt`") }
        if milliseconds == nil, !uses.contains(.wallClock) { note(parser, "ttml.timing", .warning, "`\(value)` is not a time expression; ignored") }
        return milliseconds
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard let top = stack.last else { return }
        switch top.element {
        case .p, .span:
            guard !top.inactive else { return }
            pieces.append(
                Piece(
                    text: string, isBreak: false, style: top.specified, agent: top.agent, language: top.language, begin: top.begin, end: top.end,
                    preserve: top.preserveSpace))
        case .agentName:
            if stack.count >= 2, let identifier = stack[stack.count - 2].identifier {
                agents[identifier, default: ""] += string.trimmingSpaces()
            }
        default: break
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard var closing = stack.popLast() else { return }
        // An element whose end no one gave ends with its children (seq) or its parent (par).
        if !closing.explicitEnd, let parent = stack.last, parent.sequential {
            closing.end = closing.latestChildEnd ?? closing.begin
        }
        if closing.element == .span { textDepth -= 1 }
        if closing.element == .region, strict, let identifier = closing.identifier, let props = regionProps[identifier] {
            if props["extent"] == nil { violation(parser, "every `region` needs a `tts:extent`") }
            if props["origin"] != nil, props["position"] != nil { violation(parser, "`tts:origin` and `tts:position` on one region") }
        }
        if closing.element == .p {
            textDepth -= 1
            if !closing.inactive { makeCues(from: closing, parser) }
        }
        if var parent = stack.popLast() {
            if let end = closing.end {
                parent.latestChildEnd = max(parent.latestChildEnd ?? end, end)
                if parent.sequential { parent.cursor = end }
            } else if parent.sequential {
                parent.cursor = closing.begin
            }
            stack.append(parent)
        }
    }

    // MARK: Cues

    private func makeCues(from p: Open, _ parser: XMLParser) {
        let pEnd = p.end
        // The instants where the content changes.
        var points = Set<Int64>([p.begin])
        if let pEnd { points.insert(pEnd) }
        for piece in pieces {
            if let begin = piece.begin, begin > p.begin { points.insert(begin) }
            if let end = piece.end, end > p.begin { points.insert(end) }
        }
        let instants = points.sorted()
        var intervals: [(Int64, Int64?)] = []
        for (k, start) in instants.enumerated() {
            if let pEnd, start >= pEnd { break }
            intervals.append((start, k + 1 < instants.count ? instants[k + 1] : nil))
        }
        let settings = cueSettings(region: p.region, style: p.specified, parser)
        if strict, p.region == nil, !regions.isEmpty {
            note(parser, "ttml.region", .warning, "a `p` not in any region is not presented when the document defines regions")
        }
        if intervals.isEmpty { intervals = [(p.begin, pEnd)] }  // no duration: one cue at its instant
        var made = 0
        for (start, end) in intervals {
            let active = pieces.filter { piece in
                guard (piece.begin ?? p.begin) <= start, let pieceEnd = piece.end else { return (piece.begin ?? p.begin) <= start }
                return end.map { pieceEnd >= $0 } ?? (pieceEnd > start)
            }
            let regionStyle = p.region.flatMap { regions[$0]?.style }
            let text = Self.cueText(active, agents: agents, regionStyle: regionStyle, rootLanguage: rootLanguage)
            if !usesStrike, active.contains(where: { ($0.style.lineThrough ?? regionStyle?.lineThrough) == true }) { usesStrike = true }
            // A paragraph with nothing to show is one empty cue (lint names it); a stretch of one with nothing, none.
            let last = made == 0 && start == intervals[intervals.count - 1].0
            guard !text.isEmpty || last else { continue }
            made += 1
            let cueEnd = end ?? pEnd
            var cue = Cue(start: CaptionTime(milliseconds: start), end: CaptionTime(milliseconds: cueEnd ?? start), text: text, settings: settings)
            cue.line = Int32(clamping: p.line)
            if made == 1, let identifier = p.identifier { cue.identifier = identifier }
            if cueEnd == nil { openEnded.append(cues.count) }
            cues.append(cue)
            cueRegions.append(p.region)
        }
    }

    /// The cue's text in WebVTT syntax: white space collapsed as XML's default space handling and TTML's line
    /// rules ask (each line trimmed), then tags opened and closed as the look changes (voice, language, colour,
    /// strike-through, italic, bold, underline, outermost first).
    private static func cueText(_ pieces: [Piece], agents: [String: String], regionStyle: TTMLTextStyle?, rootLanguage: String) -> String {
        // Runs of text (UTF-8) with the same tags; a line break goes with the tags the text before and after it share
        // (one break for several: WebVTT cue text has no empty lines).
        var runs: [(text: [UInt8], tags: [String])] = []
        var pendingSpace: [String]? = nil
        var pendingBreak = false
        var atLineStart = true
        func emit(_ text: ArraySlice<UInt8>, _ tags: [String]) {
            guard !text.isEmpty else { return }
            if pendingBreak, let last = runs.last {
                var shared = 0
                while shared < last.tags.count, shared < tags.count, last.tags[shared] == tags[shared] { shared += 1 }
                pendingBreak = false
                emit([0x0A], Array(tags[..<shared]))
            }
            pendingBreak = false
            if let last = runs.last, last.tags == tags {
                runs[runs.count - 1].text += text
            } else {
                runs.append((Array(text), tags))
            }
        }
        func lineBreak() {
            pendingSpace = nil
            atLineStart = true
            pendingBreak = true
        }
        for piece in pieces {
            if piece.isBreak {
                lineBreak()
                continue
            }
            let tags = Self.tags(of: piece, agents: agents, regionStyle: regionStyle, rootLanguage: rootLanguage)
            var bytes = Array(piece.text.utf8)
            var visibleStart = 0  // the start of visible bytes not yet emitted
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let isNewline = byte == 0x0A || byte == 0x0D
                if piece.preserve {
                    if isNewline {
                        emit(bytes[visibleStart..<index], tags)
                        if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                        lineBreak()
                        visibleStart = index + 1
                    } else {
                        atLineStart = false
                    }
                    index += 1
                    continue
                }
                if byte == 0x20 || byte == 0x09 || isNewline {
                    emit(bytes[visibleStart..<index], tags)
                    if !atLineStart, pendingSpace == nil { pendingSpace = tags }
                    index += 1
                    visibleStart = index
                    continue
                }
                if let spaceTags = pendingSpace {
                    pendingSpace = nil
                    emit([0x20], spaceTags)
                }
                atLineStart = false
                index += 1
            }
            emit(bytes[visibleStart..<index], tags)
            bytes.removeAll()
        }
        var text: [UInt8] = []
        text.reserveCapacity(runs.reduce(0) { $0 + $1.text.count + 16 })
        var open: [String] = []
        for run in runs {
            var shared = 0
            while shared < open.count, shared < run.tags.count, open[shared] == run.tags[shared] { shared += 1 }
            while open.count > shared { appendEndTag(open.removeLast(), to: &text) }
            for tag in run.tags[shared...] {
                text.append(UInt8(ascii: "<"))
                text += tag.utf8
                text.append(UInt8(ascii: ">"))
                open.append(tag)
            }
            WebVTTText.append(run.text, to: &text)
        }
        while let tag = open.popLast() { appendEndTag(tag, to: &text) }
        return String(decoding: text, as: UTF8.self)
    }

    /// `</i>` for `i`, `</c>` for `c.yellow`, `</v>` for `v Name`.
    private static func appendEndTag(_ tag: String, to text: inout [UInt8]) {
        text += "</".utf8
        text += tag.utf8.prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: ".") }
        text.append(UInt8(ascii: ">"))
    }

    /// The WebVTT tags a piece of text is shown with, outermost first.
    private static func tags(of piece: Piece, agents: [String: String], regionStyle: TTMLTextStyle?, rootLanguage: String) -> [String] {
        let style = (regionStyle ?? TTMLTextStyle()).overlaid(with: piece.style)
        var tags: [String] = []
        if let agent = piece.agent {
            let name = agents[agent].flatMap { $0.isEmpty ? nil : $0 } ?? agent
            tags.append("v " + name.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: ">", with: "&gt;"))
        }
        if let language = piece.language, !language.isEmpty, language != rootLanguage { tags.append("lang " + language) }
        if let color = style.color, color != "white" { tags.append("c." + color) }
        if style.lineThrough == true { tags.append("c." + CaptionConverter.strikeClass) }
        if style.italic == true { tags.append("i") }
        if style.bold == true { tags.append("b") }
        if style.underline == true { tags.append("u") }
        return tags
    }

    /// WebVTT settings for a region and text alignment. The standard bottom region (10% in from each side, text
    /// after, centred) is WebVTT's default placement.
    private func cueSettings(region: String?, style: TTMLTextStyle, _ parser: XMLParser) -> CueSettings {
        var settings = CueSettings()
        let regionEntry = region.flatMap { regions[$0] }
        let align = style.textAlign ?? regionEntry?.style.textAlign ?? "start"
        switch align {
        case "left": settings.align = .left
        case "right": settings.align = .right
        case "center": settings.align = .center
        case "end": settings.align = .end
        default: settings.align = .start
        }
        guard let box = regionEntry?.box else {
            return settings
        }
        if box.isBottomBand {
            return settings
        }
        settings.snapToLines = false
        switch box.displayAlign {
        case "after":
            settings.line = TTMLRegionBox.rounded(box.y + box.height)
            settings.lineAlign = .end
        case "center":
            settings.line = TTMLRegionBox.rounded(box.y + box.height / 2)
            settings.lineAlign = .center
        default:
            settings.line = TTMLRegionBox.rounded(box.y)
            settings.lineAlign = .start
        }
        settings.position = TTMLRegionBox.rounded(box.x)
        settings.positionAlign = .lineLeft
        settings.size = TTMLRegionBox.rounded(box.width)
        return settings
    }

    private func textStyle(_ styling: [String: String], _ parser: XMLParser) -> TTMLTextStyle {
        var style = TTMLTextStyle()
        if let value = styling["fontStyle"] { style.italic = value == "italic" || value == "oblique" }
        if let value = styling["fontWeight"] { style.bold = value == "bold" }
        if let value = styling["textDecoration"] {
            for word in value.split(separator: " ") {
                switch word {
                case "underline": style.underline = true
                case "noUnderline": style.underline = false
                case "lineThrough": style.lineThrough = true
                case "noLineThrough": style.lineThrough = false
                case "none":
                    style.underline = false
                    style.lineThrough = false
                default: break
                }
            }
        }
        if let value = styling["color"] {
            if let rgb = TTMLColor.rgb(value) {
                style.color = TTMLColor.className(rgb)
                if style.color!.hasPrefix("color-") { customColors[style.color!] = TTMLColor.hex(rgb) }
            } else {
                note(parser, "ttml.style", .warning, "`tts:color=\"\(value)\"` is not a colour; ignored")
            }
        }
        if let value = styling["textAlign"] { style.textAlign = value }
        return style
    }

    /// A region's box in percentages, when its origin (or position) and extent can be placed.
    private func regionBox(_ props: [String: String], region: String, _ parser: XMLParser) -> TTMLRegionBox? {
        guard let extent = props["extent"].flatMap({ pair($0) }) else { return nil }
        var origin = props["origin"].flatMap { pair($0) } ?? (0, 0)
        if props["origin"] == nil, let position = props["position"] {
            let parts = position.split(separator: " ")
            if parts.count == 2, let x = percentage(parts[0], horizontal: true), let y = percentage(parts[1], horizontal: false) {
                origin = (x * (100 - extent.0) / 100, y * (100 - extent.1) / 100)
            }
        }
        let box = TTMLRegionBox(x: origin.0, y: origin.1, width: extent.0, height: extent.1, displayAlign: props["displayAlign"] ?? "before")
        if strict, box.x < -0.001 || box.y < -0.001 || box.x + box.width > 100.001 || box.y + box.height > 100.001 {
            violation(parser, "region `\(region)` extends beyond the root container")
        }
        return box
    }

    private func pair(_ value: String) -> (Double, Double)? {
        let parts = value.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 2, let x = percentage(parts[0], horizontal: true), let y = percentage(parts[1], horizontal: false) else { return nil }
        return (x, y)
    }

    /// A length as a percentage of the root container's width or height.
    private func percentage(_ text: Substring, horizontal: Bool) -> Double? {
        func number(_ suffix: Int) -> Double? { Double(text.dropLast(suffix)) }
        if text.hasSuffix("%") { return number(1) }
        if text.hasSuffix("px") {
            usedPixels = true
            guard let extent = rootExtent, let value = number(2) else { return nil }
            return value * 100 / (horizontal ? extent.width : extent.height)
        }
        if text.hasSuffix("rw") { return number(2) }
        if text.hasSuffix("rh") { return number(2) }
        if text.hasSuffix("c"), let value = number(1) { return value * 100 / (horizontal ? cellResolution.columns : cellResolution.rows) }
        return nil
    }

    private func checkLengths(_ attributes: Attributes, _ parser: XMLParser) {
        for (name, value) in attributes.styling {
            if value.contains("px") { usedPixels = true }
            if name != "linePadding", name != "fontSize", name != "lineHeight",
                value.split(separator: " ").contains(where: { $0.hasSuffix("c") && Double($0.dropLast()) != nil })
            {
                violation(parser, "cell lengths (`c`) are only permitted in `ebutts:linePadding` (`tts:\(name)`)")
            }
            if name == "fontSize", value.split(separator: " ").count == 2 {
                violation(parser, "`tts:fontSize` with two values (only isomorphic sizes are permitted)")
            }
            if name == "textShadow", value.split(separator: ",").count > 4 { violation(parser, "`tts:textShadow` with more than 4 shadows") }
        }
    }

    // MARK: Finishing

    func finish() -> CaptionDocument {
        for index in openEnded {
            cues[index].end = max(cues[index].start, CaptionTime(milliseconds: latestTime))
        }
        if !openEnded.isEmpty {
            note(
                nil, "ttml.timing", .warning,
                "\(openEnded.count) paragraph\(openEnded.count == 1 ? " has" : "s have") no end; shown until the document's last time (\(CaptionTime(milliseconds: latestTime)))"
            )
        }
        if strict {
            if usedPixels, rootExtent == nil { violation(nil, "pixel lengths without `tts:extent` on `tt`") }
            checkPresentedRegions()
        }
        var headerBlocks: [HeaderBlock] = []
        if !customColors.isEmpty {
            let css = customColors.sorted { $0.key < $1.key }.map { "::cue(.\($0.key)) { color: \($0.value); }" }
            headerBlocks.append(.style(css.joined(separator: "\n")))
        }
        if usesStrike {
            headerBlocks.append(.style("::cue(.\(CaptionConverter.strikeClass)) { text-decoration: line-through; }"))
        }
        CaptionDiagnostic.cap(&diagnostics)
        return CaptionDocument(format: .ttml, headerBlocks: headerBlocks, cues: cues, diagnostics: diagnostics, encoding: "utf-8")
    }

    /// IMSC 1.1 §7.12.1: at most 4 regions presented at once, none overlapping.
    private func checkPresentedRegions() {
        var events: [(time: CaptionTime, opens: Bool, region: String)] = []
        for (cue, region) in zip(cues, cueRegions) {
            guard let region, cue.end > cue.start else { continue }
            events.append((cue.start, true, region))
            events.append((cue.end, false, region))
        }
        events.sort { ($0.time, $0.opens ? 1 : 0) < ($1.time, $1.opens ? 1 : 0) }
        var active: [String: Int] = [:]
        for event in events {
            if event.opens {
                active[event.region, default: 0] += 1
                if active.count > 4 { violation(nil, "more than 4 regions presented at once (at \(event.time))") }
                if let box = regions[event.region]?.box {
                    for other in active.keys where other != event.region {
                        if let otherBox = regions[other]?.box, box.overlaps(otherBox) {
                            violation(nil, "regions `\(min(other, event.region))` and `\(max(other, event.region))` overlap while both are presented")
                        }
                    }
                }
            } else {
                active[event.region]! -= 1
                if active[event.region] == 0 { active[event.region] = nil }
            }
        }
    }
}

/// TTML colour values (`#rrggbb`, `#rrggbbaa`, `rgb(…)`, `rgba(…)`, named colours) and their WebVTT classes.
enum TTMLColor {
    static let named: [String: UInt32] = [
        "transparent": 0x000000, "black": 0x000000, "silver": 0xC0C0C0, "gray": 0x808080, "white": 0xFFFFFF,
        "maroon": 0x800000, "red": 0xFF0000, "purple": 0x800080, "fuchsia": 0xFF00FF, "magenta": 0xFF00FF,
        "green": 0x008000, "lime": 0x00FF00, "olive": 0x808000, "yellow": 0xFFFF00, "navy": 0x000080, "blue": 0x0000FF,
        "teal": 0x008080, "aqua": 0x00FFFF, "cyan": 0x00FFFF,
    ]

    /// The colour as 0xRRGGBB (alpha ignored).
    static func rgb(_ value: String) -> UInt32? {
        let text = value.trimmingSpaces().lowercased()
        if let color = named[text] { return color }
        if text.hasPrefix("#"), text.count == 7 || text.count == 9, let number = UInt32(text.dropFirst().prefix(6), radix: 16) { return number }
        if text.hasPrefix("rgb(") || text.hasPrefix("rgba("), text.hasSuffix(")") {
            let inside = text.drop { $0 != "(" }.dropFirst().dropLast()
            let parts = inside.split(separator: ",").map { UInt32($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 3 || parts.count == 4, parts.allSatisfy({ $0 != nil && $0! <= 255 }) else { return nil }
            return parts[0]! << 16 | parts[1]! << 8 | parts[2]!
        }
        return nil
    }

    static func hex(_ rgb: UInt32) -> String {
        let digits = String(rgb, radix: 16)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// WebVTT's default colour class for the colour, else `color-rrggbb` (as SRT font colours are converted).
    static func className(_ rgb: UInt32) -> String {
        CaptionConverter.colorClassName(hex(rgb))?.name ?? "color-" + hex(rgb).dropFirst()
    }
}
