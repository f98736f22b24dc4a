import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What strict mode checks against IMSC 1.1's Text Profile, attribute by attribute: features it prohibits, and the
/// values it allows for those it permits.
extension TTMLParsing {
    /// TTML2 features IMSC 1.1's Text Profile prohibits or constrains (IMSC 1.1 §6, features table): `condition`,
    /// audio styling, kerning, text orientation, TTML2's background properties other than a colour, borders, block and
    /// inline progression dimensions, letter spacing; `tts:textAlign="justify"`; `tts:rubyAlign` other than `center`.
    func checkProhibited(_ attributes: Attributes, _ parser: XMLParser) {
        if attributes.plain["condition"] != nil { violation(parser, "`condition` is not permitted") }
        for name in attributes.audio.keys.sorted() { violation(parser, "`tta:\(name)` (audio styling) is not permitted") }
        for name in attributes.styling.keys.sorted() where Self.prohibitedStyling.contains(name) {
            violation(parser, "`tts:\(name)` is not permitted")
        }
        if attributes.styling["textAlign"] == "justify" {
            violation(parser, "`tts:textAlign=\"justify\"` is not permitted (left, center, right, start, end)")
        }
        if let align = attributes.styling["rubyAlign"], align != "center" {
            violation(parser, "`tts:rubyAlign=\"\(align)\"` is not permitted (only center)")
        }
        for (name, value) in attributes.styling.sorted(by: { $0.key < $1.key }) {
            if let expected = Self.valueProblem(name, value) { violation(parser, "`tts:\(name)=\"\(value.prefix(40))\"` is not \(expected)") }
        }
        if let value = attributes.styling["textEmphasis"], let problem = Self.textEmphasisProblem(value) {
            violation(parser, "`tts:textEmphasis=\"\(value.prefix(40))\"` \(problem)")
        }
    }

    /// What a styling attribute's value should have been, when the value is not one TTML2 allows for it (colours,
    /// `textCombine`, shears, `rubyReserve`; others are checked where they are read).
    static func valueProblem(_ name: String, _ value: String) -> String? {
        func isPercentage(_ word: Substring) -> Bool {
            guard word.hasSuffix("%") else { return false }
            let number = word.dropLast().drop { $0 == "+" || $0 == "-" }
            return !number.isEmpty && number.allSatisfy { $0.isASCIIDigit || $0 == "." } && Double(number) != nil
        }
        switch name {
        case "color", "backgroundColor":
            return TTMLColor.rgb(value) == nil ? "a colour" : nil
        case "textCombine":
            return value == "none" || value == "all" ? nil : "`none` or `all`"
        case "shear", "fontShear", "lineShear":
            return isPercentage(value[...]) ? nil : "a percentage"
        case "rubyReserve":
            let words = value.split(separator: " ")
            if words == ["none"] { return nil }
            let positions: Set<Substring> = ["both", "before", "after", "outside"]
            guard let first = words.first, positions.contains(first), words.count <= 2 else { return "`none`, or a position and a length" }
            if words.count == 2, words[1].first.map({ $0.isASCIIDigit || $0 == "." }) != true { return "`none`, or a position and a length" }
            return nil
        default:
            return nil
        }
    }

    /// What is wrong with a `tts:textEmphasis` value, if anything (TTML2 §10.2.44: `none`, `auto`, or a style, a
    /// colour and a position, each at most once, in any order; a style is `filled`/`open` and/or a shape). IMSC 1.1
    /// permits neither a quoted string as the mark nor an emphasis colour other than `current`.
    static func textEmphasisProblem(_ value: String) -> String? {
        let words = value.split(separator: " ")
        if words == ["none"] || words == ["auto"] { return nil }
        if value.contains("\"") || value.contains("'") { return "uses a quoted string as the mark (not permitted)" }
        var fill = 0, shape = 0, position = 0, color = 0
        for word in words {
            switch word {
            case "filled", "open": fill += 1
            case "circle", "dot", "sesame": shape += 1
            case "outside", "before", "after": position += 1
            case "current": color += 1
            case "auto":
                if words.count > 1 { shape += 1 }
            default:
                return TTMLColor.rgb(String(word)) == nil ? "is not a text emphasis" : "gives the marks a colour (only `current` is permitted)"
            }
        }
        return fill > 1 || shape > 1 || position > 1 || color > 1 || fill + shape == 0 && position + color > 0 && !words.contains("auto")
            ? "is not a text emphasis" : nil
    }

    /// The values of IMSC's document parameters (IMSC 1.1 §8.2, §8.4): aspect ratios are two positive integers
    /// (`16 9`), given once; `ittp:progressivelyDecodable` is `true` or `false`; `ittp:activeArea` four percentages.
    func checkParameters(_ attributes: Attributes, _ parser: XMLParser) {
        func isRatio(_ value: String) -> Bool {
            let parts = value.split(separator: " ", omittingEmptySubsequences: true)
            return parts.count == 2 && parts.allSatisfy { part in !part.isEmpty && part.allSatisfy(\.isASCIIDigit) && part.contains { $0 != "0" } }
                && value.allSatisfy { $0 == " " || $0.isASCIIDigit }
        }
        for (name, value) in [
            ("ttp:displayAspectRatio", attributes.parameter["displayAspectRatio"]), ("ittp:aspectRatio", attributes.imscParameter["aspectRatio"]),
        ] {
            if let value, !isRatio(value) { violation(parser, "`\(name)=\"\(value.prefix(40))\"` is not two positive integers") }
        }
        if attributes.parameter["displayAspectRatio"] != nil, attributes.imscParameter["aspectRatio"] != nil {
            violation(parser, "both `ttp:displayAspectRatio` and `ittp:aspectRatio` are given")
        }
        if let value = attributes.imscParameter["progressivelyDecodable"], value != "true", value != "false" {
            violation(parser, "`ittp:progressivelyDecodable=\"\(value.prefix(40))\"` is neither true nor false")
        }
        if let value = attributes.imscParameter["activeArea"] {
            let parts = value.split(separator: " ")
            if parts.count != 4 || !parts.allSatisfy({ $0.hasSuffix("%") && Double($0.dropLast()).map { (0...100).contains($0) } == true }) {
                violation(parser, "`ittp:activeArea=\"\(value.prefix(40))\"` is not four percentages")
            }
        }
    }

    static let prohibitedStyling: Set<String> = [
        "fontKerning", "textOrientation", "backgroundClip", "backgroundExtent", "backgroundImage", "backgroundOrigin", "backgroundPosition",
        "backgroundRepeat", "border", "bpd", "ipd", "letterSpacing",
    ]
}
