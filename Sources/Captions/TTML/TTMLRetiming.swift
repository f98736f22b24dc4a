/// TTML's edits made in the document's own bytes: the `begin`, `end` and `dur` of each element whose times moved are
/// rewritten where they stand, each in the form it was written in (clock time with a fraction or frames, or an offset
/// in h, m, s, ms, f or t), relative to its parent as TTML times are. A `p` a cue was read from whole takes the cue's
/// edited times; when every cue moved (a shift, a sync) every other timed element — `div`s, `body`, regions, `set`s,
/// timed `span`s — moves with them (`TimeMoves`). Text, styles, metadata, languages and layout stay as they were.
///
/// Refused, with the reason: an edit of a cue's text (a paragraph's markup is more than the cue holds), a `seq` time
/// container, a cue that is not a whole paragraph (split by timed spans), a time an element does not hold itself, a
/// time before its parent's. The result is read back and must give the edited cues, to the document's frame or tick.
enum TTMLRetiming {
    static func apply(to bytes: [UInt8], original: CaptionDocument, edited: CaptionDocument) -> Result<[UInt8], CaptionPatch.Refusal> {
        if let changed = zip(original.cues, edited.cues).first(where: { $0.0.text != $0.1.text }) {
            return .failure(
                CaptionPatch.Refusal("the text of a TTML paragraph is not rewritten (line \(changed.0.line)): its markup is more than MediaLint reads"))
        }
        let changedCues = zip(original.cues, edited.cues).filter { $0.0.start != $0.1.start || $0.0.end != $0.1.end }
        guard !changedCues.isEmpty else { return .success(bytes) }
        let document = TTMLTimedElements(bytes)
        if let line = document.sequentialLine {
            return .failure(CaptionPatch.Refusal("the element at line \(line) times its children in sequence (`timeContainer=\"seq\"`): not retimed in place"))
        }
        // Every cue moved: every time moves with them.
        var moves: TimeMoves?
        if zip(original.cues, edited.cues).allSatisfy({ $0.0.start != $0.1.start || $0.0.end != $0.1.end }),
            case .success(let found) = TimeMoves.of(original.cues, edited.cues)
        {
            moves = found
        }
        // Each changed cue's paragraph: one whose tag spans the cue's line and whose times are the cue's (looked up by
        // its begin: a shift changes every cue).
        var paragraphs: [Int64: [Int]] = [:]
        for (index, element) in document.elements.enumerated() where element.name == "p" { paragraphs[element.begin, default: []].append(index) }
        var newTimes: [Int: (begin: Int64, end: Int64)] = [:]
        for (before, after) in changedCues {
            guard
                let element = paragraphs[before.start.milliseconds]?.first(where: {
                    let element = document.elements[$0]
                    return element.lines.contains(Int(before.line)) && (element.end ?? element.begin) == before.end.milliseconds
                })
            else {
                return .failure(
                    CaptionPatch.Refusal("the cue at line \(before.line) is not a whole paragraph (timed spans, or a shown part of one): not retimed in place"))
            }
            if let known = newTimes[element], known != (after.start.milliseconds, after.end.milliseconds) {
                return .failure(CaptionPatch.Refusal("two cues of the paragraph at line \(before.line) move two ways"))
            }
            newTimes[element] = (after.start.milliseconds, after.end.milliseconds)
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 256)
        var copied = 0
        var newBegins = [Int64](repeating: 0, count: document.elements.count)
        for (index, element) in document.elements.enumerated() {
            let reference = element.parent.map { newBegins[$0] } ?? 0
            // An element's own times move with the cues; one it inherits is its parent's, wherever that went.
            let target =
                newTimes[index]
                ?? (
                    begin: element.beginValue == nil ? reference : moves?.moved(element.begin) ?? element.begin,
                    end: element.end.map { moves?.moved($0) ?? $0 } ?? -1
                )
            newBegins[index] = element.timed ? target.begin : reference
            guard element.timed else { continue }
            var rewrites: [(Range<Int>, Int64)] = []
            if let value = element.beginValue {
                rewrites.append((value, target.begin - reference))
            } else if target.begin != reference {
                return .failure(
                    CaptionPatch.Refusal("the `\(element.name)` at line \(element.lines.lowerBound) has no `begin` of its own: not retimed in place"))
            }
            if element.endValue == nil, element.durValue == nil {
                // Ends with its parent: moved with it in a shift; a cue's own end cannot be given it here.
                if newTimes[index] != nil, moves == nil, target.end != element.end {
                    return .failure(
                        CaptionPatch.Refusal("the `\(element.name)` at line \(element.lines.lowerBound) ends with its parent: not retimed in place"))
                }
            } else if element.end != nil {
                if let value = element.endValue { rewrites.append((value, target.end - reference)) }
                if let value = element.durValue { rewrites.append((value, target.end - target.begin)) }
            }
            for (range, milliseconds) in rewrites.sorted(by: { $0.0.lowerBound < $1.0.lowerBound }) {
                guard milliseconds >= 0 else {
                    return .failure(
                        CaptionPatch.Refusal("the `\(element.name)` at line \(element.lines.lowerBound) would begin before its parent, or end before it begins")
                    )
                }
                var uses = TTMLTiming.Uses()
                let written = String(decoding: bytes[range], as: UTF8.self)
                // Unchanged values stay as written (a `p` under a moved `div` keeps its offset).
                guard document.timing.milliseconds(of: written, uses: &uses) != milliseconds else { continue }
                output.append(contentsOf: bytes[copied..<range.lowerBound])
                output.append(contentsOf: document.timing.expression(milliseconds, like: written).utf8)
                copied = range.upperBound
            }
        }
        output.append(contentsOf: bytes[copied...])
        // Read back: the edited cues, to the document's frame or tick; everything else the same.
        let tolerance = document.timing.resolution
        guard let reread = try? TTMLReader().read(output), reread.cues.count == edited.cues.count,
            zip(reread.cues, edited.cues).allSatisfy({ new, expected in
                new.text == expected.text && new.identifier == expected.identifier && new.settings == expected.settings
                    && abs(new.start.milliseconds - expected.start.milliseconds) <= tolerance
                    && abs(new.end.milliseconds - expected.end.milliseconds) <= tolerance
            })
        else { return .failure(CaptionPatch.Refusal("the retimed document would not read back as edited")) }
        return .success(output)
    }
}

/// The timed elements of a TTML document in document order, with their absolute times (milliseconds, as
/// `TTMLParsing` computes them for parallel time containers) and where their `begin`, `end` and `dur` values are.
struct TTMLTimedElements {
    struct Element {
        /// The local name (`p` for `tt:p`).
        var name: String
        var parent: Int?
        /// The lines the start tag spans.
        var lines: ClosedRange<Int>
        var timed: Bool
        var begin: Int64
        var end: Int64?
        var beginValue: Range<Int>?
        var endValue: Range<Int>?
        var durValue: Range<Int>?
    }

    var elements: [Element] = []
    var timing = TTMLTiming()
    /// The line of the first element with `timeContainer="seq"`, if any.
    var sequentialLine: Int?

    private static let timedNames: Set<String> = ["body", "div", "p", "span", "br", "set", "region"]

    init(_ bytes: [UInt8]) {
        let count = bytes.count
        var index = 0
        var line = 1
        var open: [Int] = []
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        while index < count {
            let byte = bytes[index]
            index += 1
            if byte == 0x0A { line += 1 }
            guard byte == UInt8(ascii: "<"), index < count else { continue }
            if TTMLMarkupScan.skipNonElement(bytes, &index, &line) { continue }
            switch bytes[index] {
            case UInt8(ascii: "/"):
                while index < count, bytes[index] != UInt8(ascii: ">") {
                    if bytes[index] == 0x0A { line += 1 }
                    index += 1
                }
                _ = open.popLast()
            default:
                let firstLine = line
                let nameStart = index
                while index < count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "/") { index += 1 }
                let name = Self.localName(bytes[nameStart..<index])
                var attributes: [(name: String, value: Range<Int>)] = []
                var selfClosing = false
                while index < count {
                    let next = bytes[index]
                    if next == 0x0A { line += 1 }
                    if next == UInt8(ascii: ">") {
                        index += 1
                        break
                    }
                    if next == UInt8(ascii: "/") {
                        selfClosing = true
                        index += 1
                        continue
                    }
                    if isSpace(next) {
                        index += 1
                        continue
                    }
                    selfClosing = false
                    // name = "value"
                    let attributeStart = index
                    while index < count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ">") { index += 1 }
                    let attributeName = String(decoding: bytes[attributeStart..<index], as: UTF8.self)
                    while index < count, isSpace(bytes[index]) {
                        if bytes[index] == 0x0A { line += 1 }
                        index += 1
                    }
                    guard index < count, bytes[index] == UInt8(ascii: "=") else { continue }
                    index += 1
                    while index < count, isSpace(bytes[index]) {
                        if bytes[index] == 0x0A { line += 1 }
                        index += 1
                    }
                    guard index < count, bytes[index] == 0x22 || bytes[index] == 0x27 else { continue }
                    let quote = bytes[index]
                    index += 1
                    let valueStart = index
                    while index < count, bytes[index] != quote {
                        if bytes[index] == 0x0A { line += 1 }
                        index += 1
                    }
                    attributes.append((attributeName, valueStart..<index))
                    index += 1
                }
                add(name: name, attributes: attributes, bytes: bytes, lines: firstLine...line, parent: open.last)
                if !selfClosing { open.append(elements.count - 1) }
            }
        }
    }

    private static func localName(_ bytes: ArraySlice<UInt8>) -> String {
        let name = bytes.lastIndex(of: UInt8(ascii: ":")).map { bytes[($0 + 1)...] } ?? bytes
        return String(decoding: name, as: UTF8.self)
    }

    private mutating func add(name: String, attributes: [(name: String, value: Range<Int>)], bytes: [UInt8], lines: ClosedRange<Int>, parent: Int?) {
        func value(_ wanted: String) -> Range<Int>? { attributes.first { $0.name == wanted }?.value }
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        if name == "tt" {
            let parameter = { (local: String) in
                attributes.first { $0.name.hasSuffix(":" + local) && !$0.name.hasPrefix("xmlns") }.map { text($0.value) }
            }
            _ = timing.apply(
                frameRate: parameter("frameRate"), multiplier: parameter("frameRateMultiplier"), subFrameRate: parameter("subFrameRate"),
                tickRate: parameter("tickRate"))
        }
        let timed = Self.timedNames.contains(name)
        let parentElement = parent.map { elements[$0] }
        let reference = parentElement?.begin ?? 0
        var element = Element(name: name, parent: parent, lines: lines, timed: timed, begin: reference, end: nil)
        if timed {
            if value("timeContainer").map(text) == "seq", sequentialLine == nil { sequentialLine = lines.lowerBound }
            var uses = TTMLTiming.Uses()
            element.beginValue = value("begin")
            element.endValue = value("end")
            element.durValue = value("dur")
            if let range = element.beginValue { element.begin = TTMLTiming.sum(reference, timing.milliseconds(of: text(range), uses: &uses) ?? 0) }
            let end = element.endValue.flatMap { timing.milliseconds(of: text($0), uses: &uses) }.map { TTMLTiming.sum(reference, $0) }
            let dur = element.durValue.flatMap { timing.milliseconds(of: text($0), uses: &uses) }.map { TTMLTiming.sum(element.begin, $0) }
            element.end = [end, dur].compactMap { $0 }.min()
            element.begin = max(element.begin, reference)
        }
        if let parentEnd = parentElement?.end { element.end = min(element.end ?? parentEnd, parentEnd) }
        elements.append(element)
    }
}

extension TTMLTiming {
    /// How far a time written in the document's frames or ticks may be from the millisecond asked for.
    var resolution: Int64 { Int64((1000 / min(effectiveFrameRate, effectiveTickRate, 1000)).rounded(.up)) }

    /// `milliseconds` written in the form of `written`: clock time with as many fraction digits (more when the time
    /// needs them) or with frames; an offset in the same metric (in seconds when minutes or hours cannot hold it), with
    /// the digits it needs (one at least when it had a fraction).
    func expression(_ milliseconds: Int64, like written: String) -> String {
        let trimmed = written.trimmingSpaces()
        let clockParts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        func digits(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        func fraction(_ thousandths: Int64, atLeast minimum: Int) -> String {
            var text = digits(thousandths, 3)
            while text.count > max(minimum, 0), text.hasSuffix("0") { text.removeLast() }
            while text.count < minimum { text += "0" }
            return text.isEmpty ? "" : "." + text
        }
        if clockParts.count >= 3 {
            let hoursWidth = max(2, clockParts[0].count)
            var seconds = milliseconds / 1000
            var remainder = milliseconds % 1000
            if clockParts.count == 4 {
                // hh:mm:ss:ff — the nearest frame.
                let perSecond = Int64(effectiveFrameRate.rounded(.up))
                var frames = Int64((Double(remainder) * effectiveFrameRate / 1000).rounded())
                if frames >= perSecond {
                    seconds += 1
                    frames = 0
                }
                remainder = 0
                return
                    "\(digits(seconds / 3600, hoursWidth)):\(digits(seconds / 60 % 60, 2)):\(digits(seconds % 60, 2)):\(digits(frames, max(2, clockParts[3].split(separator: ".")[0].count)))"
            }
            let written = clockParts[2].split(separator: ".", omittingEmptySubsequences: false)
            let fractionDigits = written.count > 1 ? written[1].count : 0
            return
                "\(digits(seconds / 3600, hoursWidth)):\(digits(seconds / 60 % 60, 2)):\(digits(seconds % 60, 2))\(fraction(remainder, atLeast: fractionDigits))"
        }
        let metric = String(trimmed.drop { $0.isNumber || $0 == "." })
        let countText = trimmed.prefix { $0.isNumber || $0 == "." }
        let fractionDigits = countText.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first?.count ?? 0
        switch metric {
        case "h" where milliseconds % 3_600_000 == 0: return "\(milliseconds / 3_600_000)h"
        case "m" where milliseconds % 60_000 == 0: return "\(milliseconds / 60_000)m"
        case "ms": return "\(milliseconds)ms"
        case "f": return "\(Int64((Double(milliseconds) * effectiveFrameRate / 1000).rounded()))f"
        case "t"
        where effectiveTickRate >= 1000 || (Double(milliseconds) * effectiveTickRate / 1000).rounded() == Double(milliseconds) * effectiveTickRate / 1000:
            return "\(Int64((Double(milliseconds) * effectiveTickRate / 1000).rounded()))t"
        default: return "\(milliseconds / 1000)\(fraction(milliseconds % 1000, atLeast: metric == "s" ? min(1, fractionDigits) : 0))s"
        }
    }
}
