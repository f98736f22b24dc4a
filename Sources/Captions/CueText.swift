/// A node of a cue's text, as WebVTT's cue text parsing rules build it (SRT markup maps onto the same nodes).
public indirect enum CueNode: Sendable, Equatable {
    case text(String)
    /// A karaoke-style timestamp inside the cue (`<00:00:01.500>`).
    case timestamp(CaptionTime)
    case element(CueElement)
}

/// A span of cue text: class, italic, bold, underline, ruby, ruby text, voice, language, or (SRT) font.
public struct CueElement: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case `class` = "c", italic = "i", bold = "b", underline = "u", ruby, rubyText = "rt", voice = "v", language = "lang"
        /// SRT `<font color=…>` (no WebVTT equivalent tag; converted to a class).
        case font
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

extension Cue {
    /// The cue text parsed into nodes (WebVTT markup; SRT cues use `SRTMarkup.nodes(of:)`).
    public var nodes: [CueNode] { CueTextParser.parse(text) }

    /// The text with markup removed and character references decoded; ruby text is left out.
    public var plainText: String { CueNode.plainText(of: nodes) }
}

extension CueNode {
    /// Concatenated text of `nodes`, without markup, timestamps or ruby text.
    public static func plainText(of nodes: [CueNode]) -> String {
        var output = ""
        func walk(_ nodes: [CueNode]) {
            for node in nodes {
                switch node {
                case .text(let text): output += text
                case .timestamp: break
                case .element(let element): if element.kind != .rubyText { walk(element.children) }
                }
            }
        }
        walk(nodes)
        return output
    }
}

/// The WebVTT cue text tokenizer and tree builder (W3C WebVTT, "WebVTT cue text parsing rules").
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
        // Fast path: no markup, no references.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) {
            return text.isEmpty ? [] : [.text(text)]
        }
        var utf8 = Array(text.utf8)
        return utf8.withUnsafeMutableBufferPointer { buffer in
            var builder = TreeBuilder(language: language)
            var tokenizer = Tokenizer(bytes: UnsafeBufferPointer(buffer))
            while let token = tokenizer.next(problems: &problems) {
                builder.add(token, problems: &problems)
            }
            return builder.finish(problems: &problems)
        }
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
                       let match = CharacterReferences.consume(bytes, from: position + 1, end: end) {
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

    struct TreeBuilder {
        /// Open elements; the first is the root (its children are the result).
        private var open = [CueElement(kind: .class)]
        private var languages: [String] = []

        init(language: String?) {
            if let language {
                open[0].language = language
                languages.append(language)
            }
        }

        mutating func add(_ token: Token, problems: inout [CueTextProblem]?) {
            switch token {
            case .string(let text):
                open[open.count - 1].children.append(.text(text))
            case let .startTag(name, classes, annotation):
                let kind: CueElement.Kind
                switch name {
                case "c": kind = .class
                case "i": kind = .italic
                case "b": kind = .bold
                case "u": kind = .underline
                case "ruby": kind = .ruby
                case "rt":
                    guard open.count > 1, open[open.count - 1].kind == .ruby else {
                        problems?.append(CueTextProblem(message: "<rt> outside <ruby> ignored"))
                        return
                    }
                    kind = .rubyText
                case "v": kind = .voice
                case "lang":
                    languages.append(annotation ?? "")
                    kind = .language
                default:
                    problems?.append(CueTextProblem(message: "unknown tag <\(name)> ignored"))
                    return
                }
                if kind == .voice, (annotation ?? "").isEmpty {
                    problems?.append(CueTextProblem(message: "<v> without a speaker name"))
                }
                open.append(CueElement(kind: kind, classes: classes.filter { !$0.isEmpty }, annotation: annotation ?? "",
                                       language: languages.last))
            case .endTag(let name):
                let current = open.count > 1 ? open[open.count - 1].kind : nil
                if let current, current != .language, current.rawValue == name {
                    close()
                } else if current == .language, name == "lang" {
                    close()
                    languages.removeLast()
                } else if current == .rubyText, name == "ruby" {
                    close()
                    close()
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
                    open[open.count - 1].children.append(.timestamp(time))
                } else {
                    problems?.append(CueTextProblem(message: "invalid timestamp tag <\(value)> ignored"))
                }
            }
        }

        private mutating func close() {
            let element = open.removeLast()
            open[open.count - 1].children.append(.element(element))
        }

        mutating func finish(problems: inout [CueTextProblem]?) -> [CueNode] {
            if open.count > 1 {
                problems?.append(CueTextProblem(message: "<\(open[open.count - 1].kind.rawValue)> is not closed"))
            }
            while open.count > 1 { close() }
            return open[0].children
        }
    }
}
