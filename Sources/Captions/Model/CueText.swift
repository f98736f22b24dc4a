import Basics

/// A node of a cue's text, as WebVTT's cue text parsing rules build it (SRT markup maps onto the same nodes).
public indirect enum CueNode: Sendable, Equatable {
    case text(String)
    /// A karaoke-style timestamp inside the cue (`<00:00:01.500>`).
    case timestamp(CaptionTime)
    case element(CueElement)
}

/// A span of cue text: class, italic, bold, underline, ruby, ruby text, voice, language, or (SRT) font and
/// strike-through.
public struct CueElement: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case `class` = "c", italic = "i", bold = "b", underline = "u", ruby, rubyText = "rt", voice = "v", language = "lang"
        /// SRT `<font color=…>` (no WebVTT equivalent tag; converted to a class).
        case font
        /// SRT `<s>` (no WebVTT equivalent tag; converted to a class styled `text-decoration: line-through`).
        case strike = "s"
    }

    public var kind: Kind
    /// Class names (`<c.yellow.loud>`), empty ones excluded.
    public var classes: [String]
    /// The annotation: a voice's name, a language tag, or an SRT font's colour; empty when absent.
    public var annotation: String
    /// The language in force (the innermost enclosing `<lang>`), if any.
    public var language: String?
    public var children: [CueNode]

    public init(kind: Kind, classes: [String] = [], annotation: String = "", language: String? = nil, children: [CueNode] = []) {
        self.kind = kind
        self.classes = classes
        self.annotation = annotation
        self.language = language
        self.children = children
    }
}

/// Something wrong in cue text (reported by the strict reader and the markup lint rule).
public struct CueTextProblem: Sendable, Equatable {
    public var message: String
}

/// One step of a depth-first walk over cue text's tree, met in document order without the tree being built:
/// an element's `start`, then its content, then its `end`. Walks are flat (no recursion) and need memory only
/// for the elements open at once, so any cue, however long or deeply nested, is read in flat memory.
public enum CueMarkupEvent: Sendable, Equatable {
    case text(String)
    /// A karaoke-style timestamp inside the cue (`<00:00:01.500>`).
    case timestamp(CaptionTime)
    /// An element opens; its `children` are empty (they follow, up to the matching `end`).
    case start(CueElement)
    case end(CueElement.Kind)
}

/// How deep elements may nest. Deeper start tags are ignored (their text is kept) and reported once, so that
/// the trees built from cue text stay shallow whatever the input (40,000 nested `<b>` in a real file).
public let maxCueMarkupDepth = 100

extension Cue {
    /// The cue text parsed into nodes by WebVTT's rules (`nodes(in:)` reads SRT markup by SubRip's).
    public var nodes: [CueNode] { CueTextParser.parse(text) }

    /// The text with markup removed and character references decoded by WebVTT's rules; ruby text is left out.
    /// `plainText(in:)` reads each format by its own rules.
    public var plainText: String { plainText(in: .webvtt) }

    /// The cue text parsed into nodes by the rules of `format`.
    public func nodes(in format: CaptionFormat) -> [CueNode] {
        format.markup == .webvtt ? CueTextParser.parse(text) : SRTMarkup.nodes(of: text)
    }

    /// The text as a viewer reads it in `format`: WebVTT markup and references, or SubRip tags (with `<br>` as a
    /// line break and unknown tags left out), removed; ruby text left out.
    public func plainText(in format: CaptionFormat) -> String {
        if let shape = SimpleMarkup.shape(of: text) { return SimpleMarkup.plainText(of: text, shape) }
        return format.markup == .webvtt ? CueTextParser.plainText(text) : SRTMarkup.plainText(of: text)
    }

    /// The name of the first voice span (`<v Ann>`) with a name, if any (WebVTT).
    public var firstVoice: String? {
        guard SimpleMarkup.shape(of: text) == nil, text.containsUTF8Byte(UInt8(ascii: "<")) else { return nil }
        var voice: String?
        CueTextParser.walk(text) { event in
            if voice == nil, case .start(let element) = event, element.kind == .voice, !element.annotation.isEmpty {
                voice = element.annotation
            }
        }
        return voice
    }
}

extension CueNode {
    /// Concatenated text of `nodes`, without markup, timestamps or ruby text.
    public static func plainText(of nodes: [CueNode]) -> String {
        var collector = PlainTextCollector()
        walk(nodes) { collector.add($0) }
        return collector.text
    }

    /// Calls `visit` with the events of a depth-first walk over `nodes` (without recursion).
    public static func walk(_ nodes: [CueNode], _ visit: (CueMarkupEvent) -> Void) {
        var stack: [(nodes: [CueNode], next: Int, kind: CueElement.Kind?)] = [(nodes, 0, nil)]
        while let top = stack.last {
            guard top.next < top.nodes.count else {
                stack.removeLast()
                if let kind = top.kind { visit(.end(kind)) }
                continue
            }
            let node = top.nodes[top.next]
            stack[stack.count - 1].next += 1
            switch node {
            case .text(let text): visit(.text(text))
            case .timestamp(let time): visit(.timestamp(time))
            case .element(let element):
                var opened = element
                opened.children = []
                visit(.start(opened))
                stack.append((element.children, 0, element.kind))
            }
        }
    }
}

/// Collects the text of a walk (`CueTextParser.walk`, `SRTMarkup.walk`), leaving out ruby text.
public struct PlainTextCollector {
    public private(set) var text = ""
    private var rubyTextDepth = 0

    public init() {}

    public mutating func add(_ event: CueMarkupEvent) {
        switch event {
        case .text(let value): if rubyTextDepth == 0 { text += value }
        case .timestamp: break
        case .start(let element): if element.kind == .rubyText || rubyTextDepth > 0 { rubyTextDepth += 1 }
        case .end: if rubyTextDepth > 0 { rubyTextDepth -= 1 }
        }
    }
}

/// Builds nodes from a walk's events.
struct CueTreeBuilder {
    /// Open elements; the first is the root (its children are the result).
    private var open = [CueElement(kind: .class)]

    mutating func add(_ event: CueMarkupEvent) {
        switch event {
        case .text(let value): open[open.count - 1].children.append(.text(value))
        case .timestamp(let time): open[open.count - 1].children.append(.timestamp(time))
        case .start(let element): open.append(element)
        case .end:
            guard open.count > 1 else { return }
            let element = open.removeLast()
            open[open.count - 1].children.append(.element(element))
        }
    }

    /// The nodes, every element still open closed.
    mutating func finish() -> [CueNode] {
        while open.count > 1 { add(.end(open[open.count - 1].kind)) }
        return open[0].children
    }
}

/// The WebVTT cue text tokenizer and tree builder (W3C WebVTT, "WebVTT cue text parsing rules"). The tree
/// builder's decisions are made on a stack of open elements and given out as events (`walk`); `parse` builds
/// the nodes from them.
public enum CueTextParser {
    /// Parses `text` into nodes.
    public static func parse(_ text: String, language: String? = nil) -> [CueNode] {
        var problems: [CueTextProblem]? = nil
        return parse(text, language: language, problems: &problems)
    }

    /// Parses `text` into nodes and reports every deviation from the cue text syntax in `problems`.
    public static func parse(_ text: String, language: String? = nil, problems: inout [CueTextProblem]) -> [CueNode] {
        var collected: [CueTextProblem]? = []
        let nodes = parse(text, language: language, problems: &collected)
        problems += collected ?? []
        return nodes
    }

    private static func parse(_ text: String, language: String?, problems: inout [CueTextProblem]?) -> [CueNode] {
        if !hasMarkup(text) { return text.isEmpty ? [] : [.text(text)] }
        var builder = CueTreeBuilder()
        walk(text, language: language, problems: &problems) { builder.add($0) }
        return builder.finish()
    }

    /// The text without markup, references decoded, ruby text left out.
    public static func plainText(_ text: String) -> String {
        if !hasMarkup(text) { return text }
        var collector = PlainTextCollector()
        walk(text) { collector.add($0) }
        return collector.text
    }

    /// Calls `visit` with the events of the tree the cue text parsing rules build from `text`, in order.
    public static func walk(_ text: String, language: String? = nil, _ visit: (CueMarkupEvent) -> Void) {
        var problems: [CueTextProblem]? = nil
        walk(text, language: language, problems: &problems, visit)
    }

    /// `walk`, reporting every deviation from the cue text syntax in `problems`.
    public static func walk(_ text: String, language: String? = nil, problems: inout [CueTextProblem], _ visit: (CueMarkupEvent) -> Void) {
        var collected: [CueTextProblem]? = []
        walk(text, language: language, problems: &collected, visit)
        problems += collected ?? []
    }

    private static func walk(_ text: String, language: String?, problems: inout [CueTextProblem]?, _ visit: (CueMarkupEvent) -> Void) {
        if !hasMarkup(text) {
            if !text.isEmpty { visit(.text(text)) }
            return
        }
        var text = text
        text.withUTF8 { buffer in
            var builder = TreeBuilder(language: language)
            var tokenizer = Tokenizer(bytes: buffer)
            while let token = tokenizer.next(problems: &problems) {
                builder.add(token, problems: &problems, visit)
            }
            builder.finish(problems: &problems, visit)
        }
    }

    /// True when the text has a tag or a reference to parse.
    static func hasMarkup(_ text: String) -> Bool {
        text.withUTF8Bytes { bytes in bytes.contains { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") } }
    }

    // MARK: - Tokenizer

    enum Token {
        case string(String)
        case startTag(name: String, classes: [String], annotation: String?)
        case endTag(String)
        case timestamp(String)
    }

    struct Tokenizer {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        private enum State { case data, tag, startTag, startTagClass, startTagAnnotation, endTag, timestampTag }

        mutating func next(problems: inout [CueTextProblem]?) -> Token? {
            guard position < bytes.count else { return nil }
            var state = State.data
            var result: [UInt8] = []
            var buffer: [UInt8] = []
            var classes: [String] = []
            let end = bytes.count
            func string(_ b: [UInt8]) -> String { String(decoding: b, as: UTF8.self) }

            while true {
                let c: UInt8? = position < end ? bytes[position] : nil
                switch state {
                case .data:
                    guard let c else { return .string(string(result)) }
                    if c == UInt8(ascii: "&") {
                        if let match = CharacterReferences.consume(bytes, from: position + 1, end: end) {
                            result.append(contentsOf: match.text.utf8)
                            if let problem = match.problem { problems?.append(CueTextProblem(message: problem)) }
                            position = match.next
                            continue
                        }
                        problems?.append(CueTextProblem(message: "\"&\" that starts no character reference (write &amp;)"))
                        result.append(c)
                    } else if c == UInt8(ascii: "<") {
                        if !result.isEmpty { return .string(string(result)) }
                        state = .tag
                    } else {
                        result.append(c)
                    }
                case .tag:
                    guard let c else { return .startTag(name: "", classes: [], annotation: nil) }
                    switch c {
                    case 0x09, 0x0A, 0x0C, 0x20: state = .startTagAnnotation
                    case UInt8(ascii: "."): state = .startTagClass
                    case UInt8(ascii: "/"): state = .endTag
                    case UInt8(ascii: ">"):
                        position += 1
                        return .startTag(name: "", classes: [], annotation: nil)
                    case _ where c.isASCIIDigit:
                        result = [c]
                        state = .timestampTag
                    default:
                        result = [c]
                        state = .startTag
                    }
                case .startTag:
                    guard let c else { return .startTag(name: string(result), classes: [], annotation: nil) }
                    switch c {
                    case 0x09, 0x0C, 0x20: state = .startTagAnnotation
                    case 0x0A:
                        buffer = [c]
                        state = .startTagAnnotation
                    case UInt8(ascii: "."): state = .startTagClass
                    case UInt8(ascii: ">"):
                        position += 1
                        return .startTag(name: string(result), classes: [], annotation: nil)
                    default: result.append(c)
                    }
                case .startTagClass:
                    guard let c, c != UInt8(ascii: ">") else {
                        if c != nil { position += 1 }
                        classes.append(string(buffer))
                        return .startTag(name: string(result), classes: classes, annotation: nil)
                    }
                    switch c {
                    case 0x09, 0x0C, 0x20:
                        classes.append(string(buffer))
                        buffer = []
                        state = .startTagAnnotation
                    case 0x0A:
                        classes.append(string(buffer))
                        buffer = [c]
                        state = .startTagAnnotation
                    case UInt8(ascii: "."):
                        classes.append(string(buffer))
                        buffer = []
                    default: buffer.append(c)
                    }
                case .startTagAnnotation:
                    guard let c, c != UInt8(ascii: ">") else {
                        if c != nil { position += 1 }
                        let annotation = string(buffer).split(whereSeparator: { $0.isASCII && $0.asciiValue!.isASCIIWhitespace })
                            .joined(separator: " ")
                        return .startTag(name: string(result), classes: classes, annotation: annotation)
                    }
                    if c == UInt8(ascii: "&"), position + 1 < end, bytes[position + 1] != UInt8(ascii: ">"),
                        let match = CharacterReferences.consume(bytes, from: position + 1, end: end)
                    {
                        buffer.append(contentsOf: match.text.utf8)
                        if let problem = match.problem { problems?.append(CueTextProblem(message: problem)) }
                        position = match.next
                        continue
                    }
                    buffer.append(c)
                case .endTag:
                    guard let c, c != UInt8(ascii: ">") else {
                        if c != nil { position += 1 }
                        return .endTag(string(result))
                    }
                    result.append(c)
                case .timestampTag:
                    guard let c, c != UInt8(ascii: ">") else {
                        if c != nil { position += 1 }
                        return .timestamp(string(result))
                    }
                    result.append(c)
                }
                position += 1
            }
        }
    }

    // MARK: - Tree

    /// The tree construction of the cue text parsing rules, on a stack of open elements: each decision is given
    /// out as an event instead of changing a tree.
    struct TreeBuilder {
        /// Kinds of the open elements, innermost last (the root is not in it).
        private var open: [CueElement.Kind] = []
        private var languages: [String] = []
        /// Start tags ignored because elements nest too deep, not yet matched by an end tag.
        private var ignoredDepth = 0

        init(language: String?) {
            if let language { languages.append(language) }
        }

        mutating func add(_ token: Token, problems: inout [CueTextProblem]?, _ visit: (CueMarkupEvent) -> Void) {
            switch token {
            case .string(let text):
                visit(.text(text))
            case let .startTag(name, classes, annotation):
                let kind: CueElement.Kind
                switch name {
                case "c": kind = .class
                case "i": kind = .italic
                case "b": kind = .bold
                case "u": kind = .underline
                case "ruby": kind = .ruby
                case "rt":
                    guard open.last == .ruby else {
                        problems?.append(CueTextProblem(message: "<rt> outside <ruby> ignored"))
                        return
                    }
                    kind = .rubyText
                case "v": kind = .voice
                case "lang": kind = .language
                default:
                    problems?.append(CueTextProblem(message: "unknown tag <\(name)> ignored"))
                    return
                }
                guard open.count < maxCueMarkupDepth else {
                    if ignoredDepth == 0 {
                        problems?.append(CueTextProblem(message: "tags nested more than \(maxCueMarkupDepth) deep: the deeper ones ignored"))
                    }
                    ignoredDepth += 1
                    return
                }
                if kind == .language { languages.append(annotation ?? "") }
                if kind == .voice, (annotation ?? "").isEmpty {
                    problems?.append(CueTextProblem(message: "<v> without a speaker name"))
                }
                open.append(kind)
                visit(
                    .start(
                        CueElement(
                            kind: kind, classes: classes.filter { !$0.isEmpty }, annotation: annotation ?? "",
                            language: languages.last)))
            case .endTag(let name):
                if ignoredDepth > 0 {
                    ignoredDepth -= 1
                    return
                }
                let current = open.last
                if let current, current != .language, current.rawValue == name {
                    close(visit)
                } else if current == .language, name == "lang" {
                    close(visit)
                    languages.removeLast()
                } else if current == .rubyText, name == "ruby" {
                    close(visit)
                    close(visit)
                } else {
                    problems?.append(CueTextProblem(message: "end tag </\(name)> does not close the open element; ignored"))
                }
            case .timestamp(let value):
                var utf8 = Array(value.utf8)
                let time: CaptionTime? = utf8.withUnsafeMutableBufferPointer { buffer in
                    let text = ByteText(bytes: UnsafeBufferPointer(buffer))
                    var position = 0
                    let time = WebVTTSyntax.timestamp(text, &position, text.count)
                    return position == text.count ? time : nil
                }
                if let time {
                    visit(.timestamp(time))
                } else {
                    problems?.append(CueTextProblem(message: "invalid timestamp tag <\(value)> ignored"))
                }
            }
        }

        private mutating func close(_ visit: (CueMarkupEvent) -> Void) {
            visit(.end(open.removeLast()))
        }

        mutating func finish(problems: inout [CueTextProblem]?, _ visit: (CueMarkupEvent) -> Void) {
            if let last = open.last {
                problems?.append(CueTextProblem(message: "<\(last.rawValue)> is not closed"))
            }
            while !open.isEmpty { close(visit) }
        }
    }
}
