import Basics
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The XML parser's delegate: keeps the open elements, their times and styles, and makes cues as `p` elements close.
final class TTMLParsing: NSObject, XMLParserDelegate {
    let strict: Bool
    private(set) var failure: CaptionError?
    private(set) var sawRoot = false

    init(strict: Bool) { self.strict = strict }

    // MARK: Document-wide state

    var timing = TTMLTiming()
    var rootExtent: (width: Double, height: Double)?
    var cellResolution = (columns: 32.0, rows: 15.0)
    var styles: [String: (style: TTMLTextStyle, references: [String], props: [String: String])] = [:]
    /// Styles resolved with their references (emptied whenever a style is defined), and those being resolved.
    var resolvedStyles: [String: TTMLTextStyle] = [:]
    var resolvedPropsByStyle: [String: [String: String]] = [:]
    var resolving: Set<String> = []
    var regions: [String: (box: TTMLRegionBox?, style: TTMLTextStyle)] = [:]
    /// Regions with their own `begin`/`end`: content in them shows only then (TTML2 §11.3.1.3).
    var regionTimes: [String: (begin: Int64, end: Int64?)] = [:]
    var regionProps: [String: [String: String]] = [:]
    var agents: [String: String] = [:]
    var diagnostics: [CaptionDiagnostic] = []
    var violations: Set<String> = []
    var cues: [Cue] = []
    /// For each cue, its region's identifier (for the profile's region checks).
    var cueRegions: [String?] = []
    /// Cues placed alike share their settings.
    var settingsPool = CueSettingsPool()
    /// Cues whose end no element gave (shown to the end of the document).
    var openEnded: [Int] = []
    var customColors: [String: String] = [:]
    var usedPixels = false
    /// Whether some cue's text is struck through (its STYLE rule is added).
    var usesStrike = false
    /// What the document's time expressions use (frames, ticks).
    var timeUses: TTMLTiming.Uses = []
    /// Namespace kinds by URI (looked up for every attribute).
    var kinds: [String: TTMLNamespace.Kind] = [:]
    var prefixes: [String: [String]] = ["xml": [TTMLNamespace.xml]]
    /// The document's language (`xml:lang` on `tt`): text in it needs no `<lang>`.
    var rootLanguage = ""

    // MARK: Open elements

    enum Element {
        case tt, head, styling, style, layout, region, metadata, agent, agentName, body, div, p, span, br, set, ignored
    }

    struct Open {
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
        /// `tts:display="none"` on the element (inline or by a style it references): it and its content are not shown,
        /// but where a `set` shows it.
        var displayNone = false
        /// The element's `set`s of `tts:display`: from `begin` to `end`, shown (`none` false) or not.
        var displaySets: [(begin: Int64, end: Int64?, none: Bool)] = []
    }

    var stack: [Open] = []

    /// The content of the `p` being read: text, line breaks and when each piece is shown.
    struct Piece {
        var text: String  // "\n" for a `br`
        var isBreak: Bool
        var style: TTMLTextStyle
        var agent: String?
        var language: String?
        var begin: Int64?
        var end: Int64?
        var preserve: Bool
    }

    var pieces: [Piece] = []
    /// The `p` being read has text that is never shown (`tts:display="none"`, an anonymous span in a `seq`).
    var hiddenText = false
    var textDepth = 0  // > 0 inside a p

    // MARK: Diagnostics

    func note(_ parser: XMLParser?, _ rule: String, _ severity: CaptionDiagnostic.Severity, _ message: String) {
        guard diagnostics.count < CaptionDiagnostic.limitPerFile else { return }
        diagnostics.append(
            CaptionDiagnostic(line: parser?.lineNumber ?? 0, column: parser?.columnNumber ?? 1, rule: rule, severity: severity, message: message))
    }

    /// A profile violation (strict only), reported once per kind.
    func violation(_ parser: XMLParser?, _ message: String) {
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
        // An XML declaration is `<?xml` and white space; `<?xml` and anything else is not one, and the document is
        // UTF-8 (whose bytes are then checked: Foundation's parser traps on some that are not, in a processing
        // instruction's target).
        guard declaration.hasPrefix("<?xml"), let next = declaration.dropFirst(5).unicodeScalars.first, [" ", "\t", "\r", "\n"].contains(next),
            let close = declaration.range(of: "?>"),
            let range = declaration[..<close.lowerBound].range(of: "encoding")
        else { return "utf-8" }
        let value = declaration[range.upperBound..<close.lowerBound].drop { $0 == " " || $0 == "=" }.dropFirst().prefix { $0 != "\"" && $0 != "'" }
            .lowercased()
        if value == "utf-8" || value == "utf8" { return "utf-8" }
        violation(nil, "the document declares encoding `\(value)`; IMSC requires UTF-8")
        return value
    }

    // MARK: Entities

    /// External entities the prolog declares (`<!ENTITY name SYSTEM "…">`): never read (nothing outside the file is
    /// opened), and the parser leaves the text where one is used, and the rest of that text, out — said, not silent.
    func noteExternalEntities(_ buffer: UnsafeRawBufferPointer) {
        let prolog = String(decoding: buffer.prefix(1 << 20), as: UTF8.self)
        var rest = prolog[...]
        while let declaration = rest.range(of: "<!ENTITY") {
            let after = rest[declaration.upperBound...]
            let end = after.firstIndex(of: ">") ?? after.endIndex
            let words = after[..<end].split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            let name = words.first.map(String.init) ?? "?"
            if words.contains("SYSTEM") || words.contains("PUBLIC") {
                note(
                    nil, "ttml.entity", .warning,
                    "the document declares the external entity `\(name.prefix(40))`: it is not read, and text where it is used (and after it in that text) is lost"
                )
            }
            rest = after[end...]
        }
    }

    // MARK: Namespaces

    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        prefixes[prefix, default: []].append(namespaceURI)
    }

    func parser(_ parser: XMLParser, didEndMappingPrefix prefix: String) {
        prefixes[prefix]?.removeLast()
    }

    /// An element's attributes by namespace kind and local name.
    struct Attributes {
        var plain: [String: String] = [:]
        var styling: [String: String] = [:]
        var parameter: [String: String] = [:]
        var metadata: [String: String] = [:]
        var xml: [String: String] = [:]
        var smpte: [String: String] = [:]
        /// TTML2's audio styling (`tta:`): not permitted in the Text Profile.
        var audio: [String: String] = [:]
        /// IMSC's parameters (`ittp:`).
        var imscParameter: [String: String] = [:]
    }

    func sort(_ attributes: [String: String]) -> Attributes {
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
            case .audio: sorted.audio[local] = value
            case .imscParameter: sorted.imscParameter[local] = value
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
        if strict {
            checkLengths(attributes, parser)
            checkProhibited(attributes, parser)
        }
        let opened = open(element, attributes, parser, parent: parent)
        // A `set` of `tts:display` changes its parent's display for its interval (TTML1 §12.2).
        if element == .set, let value = attributes.styling["display"], value == "none" || value == "auto" {
            stack[stack.count - 1].displaySets.append((opened.begin, opened.end, value == "none"))
        }
        stack.append(opened)
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
                resolvedStyles = [:]
                resolvedPropsByStyle = [:]
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
            let begin = attributes.plain["begin"].flatMap { time($0, parser) }
            let end = attributes.plain["end"].flatMap { time($0, parser) }
            let dur = attributes.plain["dur"].flatMap { time($0, parser) }
            if begin != nil || end != nil || dur != nil {
                let start = begin ?? 0
                let ends = [end, dur.map { Self.sum(start, $0) }].compactMap { $0 }
                regionTimes[identifier] = (start, ends.min())
            }
        case .agent:
            stack[stack.count - 1].identifier = attributes.xml["id"]
        case .br:
            if textDepth > 0, let open = stack.last, !open.inactive {
                for (begin, end) in shownIntervals(open) {
                    pieces.append(
                        Piece(
                            text: "\n", isBreak: true, style: open.specified, agent: open.agent, language: open.language, begin: begin, end: end,
                            preserve: false))
                }
            }
        case .p:
            textDepth += 1
            pieces.removeAll(keepingCapacity: true)
            hiddenText = false
        case .span:
            textDepth += 1
        default: break
        }
    }

    func references(_ attributes: Attributes) -> [String] {
        (attributes.plain["style"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)
    }

    /// A style with the styles it refers to under it, each resolved once (a chain of styles each referring to the
    /// ones before would otherwise cost exponential time); a reference back to a style being resolved is ignored.
    func resolvedStyle(_ identifier: String) -> TTMLTextStyle {
        if let known = resolvedStyles[identifier] { return known }
        guard let entry = styles[identifier], resolving.insert(identifier).inserted else { return TTMLTextStyle() }
        defer { resolving.remove(identifier) }
        var style = TTMLTextStyle()
        for reference in entry.references { style = style.overlaid(with: resolvedStyle(reference)) }
        style = style.overlaid(with: entry.style)
        resolvedStyles[identifier] = style
        return style
    }

    /// The styling properties of a style and those it refers to, each resolved once (as `resolvedStyle`).
    func resolvedProps(_ identifier: String) -> [String: String] {
        if let known = resolvedPropsByStyle[identifier] { return known }
        guard let entry = styles[identifier], resolving.insert(identifier).inserted else { return [:] }
        defer { resolving.remove(identifier) }
        var props: [String: String] = [:]
        for reference in entry.references { props.merge(resolvedProps(reference)) { $1 } }
        props.merge(entry.props) { $1 }
        resolvedPropsByStyle[identifier] = props
        return props
    }

    func readRoot(_ attributes: Attributes, _ parser: XMLParser) {
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
            checkParameters(attributes, parser)
            let profiles = (attributes.parameter["contentProfiles"] ?? attributes.parameter["profile"] ?? "").split(separator: " ").map(String.init)
            if !profiles.contains(TTMLNamespace.textProfile) {
                note(parser, "ttml.profile", .warning, "IMSC 1.1 Text Profile: `ttp:contentProfiles` should name \(TTMLNamespace.textProfile)")
            }
        }
    }

    /// Where an element is active, from its parent's interval and its own `begin`, `end` and `dur`.
    func open(_ element: Element, _ attributes: Attributes, _ parser: XMLParser, parent: Open?) -> Open {
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
        var specified = parent?.specified ?? TTMLTextStyle()
        var region = parent?.region
        var agent = parent?.agent
        var language = parent?.language
        var preserve = parent?.preserveSpace ?? false
        var displayNone = false
        if timed {
            // `tts:display` is not inherited: the element's own, inline or by the styles it references.
            var display: String?
            for reference in references(attributes) { display = resolvedProps(reference)["display"] ?? display }
            display = attributes.styling["display"] ?? display
            displayNone = display == "none"
            for reference in references(attributes) { specified = specified.overlaid(with: resolvedStyle(reference)) }
            specified = specified.overlaid(with: textStyle(attributes.styling, parser))
            if let name = attributes.plain["region"] {
                // Content in another region than an ancestor's is in neither (TTML1 §9.3.3: each region's content
                // leaves out what is associated with another).
                if let outer = parent?.region, outer != name, !(parent?.inactive ?? false) {
                    note(
                        parser, "ttml.region", .warning,
                        "a `\(element)` in region `\(name)` inside content of region `\(outer)` is presented in no region (TTML region association): not shown")
                    inactive = true
                }
                region = name
            }
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
            identifier: attributes.xml["id"], inactive: inactive, displayNone: element == .set ? false : displayNone)
    }

    /// Where the content of `element` (the top of the stack) is shown: its interval, less where it or an ancestor has
    /// `tts:display="none"` (by `set`s too). Most content has no display at all: its interval, whole.
    func shownIntervals(_ element: Open) -> [(Int64, Int64?)] {
        let path = stack
        guard path.contains(where: { $0.displayNone || !$0.displaySets.isEmpty }) else { return [(element.begin, element.end)] }
        // The instants where some display on the path changes.
        var points = Set([element.begin])
        for open in path {
            for set in open.displaySets {
                if set.begin > element.begin, element.end.map({ set.begin < $0 }) ?? true { points.insert(set.begin) }
                if let end = set.end, end > element.begin, element.end.map({ end < $0 }) ?? true { points.insert(end) }
            }
        }
        let instants = points.sorted()
        func shown(at time: Int64) -> Bool {
            path.allSatisfy { open in
                let set = open.displaySets.last { $0.begin <= time && ($0.end.map { time < $0 } ?? true) }
                return !(set?.none ?? open.displayNone)
            }
        }
        var result: [(Int64, Int64?)] = []
        for (k, start) in instants.enumerated() {
            let end = k + 1 < instants.count ? instants[k + 1] : element.end
            guard shown(at: start) else { continue }
            if let last = result.last, last.1 == start {
                result[result.count - 1].1 = end
            } else {
                result.append((start, end))
            }
        }
        return result
    }

    /// Times add up to at most `TTMLTiming.ceiling` (nested offsets in a hostile file cannot overflow).
    static func sum(_ a: Int64, _ b: Int64) -> Int64 { TTMLTiming.sum(a, b) }

    func time(_ value: String, _ parser: XMLParser) -> Int64? {
        var uses: TTMLTiming.Uses = []
        let milliseconds = timing.milliseconds(of: value, uses: &uses)
        timeUses.formUnion(uses)
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
            // Text directly in a `seq` container is an anonymous span of no duration (TTML1 §10.4): never shown.
            guard !top.inactive else { return }
            let intervals = top.sequential ? [] : shownIntervals(top)
            if intervals.isEmpty, !string.allSatisfy(\.isWhitespace) { hiddenText = true }
            for (begin, end) in intervals {
                pieces.append(
                    Piece(
                        text: string, isBreak: false, style: top.specified, agent: top.agent, language: top.language, begin: begin, end: end,
                        preserve: top.preserveSpace))
            }
        case .agentName:
            // (The parser may hand a name over in pieces: it is trimmed once whole, as its element closes.)
            if stack.count >= 2, let identifier = stack[stack.count - 2].identifier {
                agents[identifier, default: ""] += string
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
        if closing.element == .agentName, let agent = stack.last?.identifier, let name = agents[agent] {
            agents[agent] = name.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
        }
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
}
