import Foundation

/// Reads Advanced SubStation Alpha and SubStation Alpha (`.ass`, `.ssa`: v4.00+ and v4.00 scripts): the `[Events]`
/// section's `Dialogue` lines, in the columns its `Format` line names, with their styles. Override tags map to WebVTT
/// where they can — `\i`, `\b`, `\u` to tags, `\an`/`\a` and `\pos` to the cue's alignment and position, `\r` back to
/// the style, `\N` to a line break — and the others (colours, fonts, moves, fades, karaoke) are dropped and counted;
/// drawings (`\p1`) are not text and are left out.
public struct ASSReader: Sendable {
    public init() {}

    /// A style's part that maps to WebVTT.
    struct Style {
        var italic = false, bold = false, underline = false
        /// Numpad alignment (1–9: bottom left … top right).
        var alignment = 2
    }

    public func read(_ bytes: [UInt8], encoding: String? = nil) throws(CaptionError) -> CaptionDocument {
        try bytes.withUnsafeBufferPointer { (buffer) throws(CaptionError) in try read(buffer: buffer, encoding: encoding) }
    }

    /// Reads ASS/SSA from `buffer` (in place when it is UTF-8).
    public func read(buffer: UnsafeBufferPointer<UInt8>, encoding: String? = nil) throws(CaptionError) -> CaptionDocument {
        try read(buffer: buffer, encoding: encoding, mapping: nil)
    }

    /// Reads ASS/SSA from `buffer`, giving the pages of `mapping` back as it goes.
    func read(buffer: UnsafeBufferPointer<UInt8>, encoding: String?, mapping: MappedFile?) throws(CaptionError) -> CaptionDocument {
        var sawScriptInfo = false, sawEvents = false
        var dropped: [String: (count: Int, cue: Int)] = [:]
        var document = try TextDecoding.withUTF8(buffer, encoding: encoding) { (text, found) throws(CaptionError) in
            var document = CaptionDocument(format: .ass, encoding: found.encoding)
            document.timeStep = 0.01
            var section = ""
            var legacy = false  // SSA v4.00: its alignment numbering
            var playRes = (x: 384.0, y: 288.0), playResSet = (x: false, y: false)
            var styleColumns: [String] = []
            var events = EventColumns(names: EventColumns.standard)
            var styles: [String: Style] = [:]
            var lastStyle: (name: [UInt8], style: Style)?
            var lines = LineCursor(text)
            var pages = PageRelease(text: text, mapping: mapping)
            while let range = lines.next() {
                let number = lines.number
                pages.consumed(upTo: range.lowerBound)
                let line = text.trimmed(range)
                guard !line.isEmpty, text[line.lowerBound] != 0x3B else { continue }  // ";" comments
                if section == "events", text.hasPrefix(line, caseInsensitive: "dialogue:") {
                    guard let event = events.fields(text, (line.lowerBound + 9)..<line.upperBound),
                        let start = Self.time(text, event.start), let end = Self.time(text, event.end)
                    else {
                        document.diagnostics.append(
                            CaptionDiagnostic(
                                line: number, rule: "ass.event", message: "a Dialogue line without readable Start and End times (H:MM:SS.cc): skipped"))
                        continue
                    }
                    // The style by name (most events name the style the one before named).
                    let nameBytes = event.style.map { text.trimmed($0) } ?? (0..<0)
                    if lastStyle == nil || !text[nameBytes].elementsEqual(lastStyle!.name) {
                        var styleName = event.style == nil ? "default" : text.string(nameBytes).lowercased()
                        if styleName.hasPrefix("*") { styleName.removeFirst() }
                        lastStyle = (Array(text[nameBytes]), styles[styleName] ?? styles["default"] ?? Style())
                    }
                    let style = lastStyle!.style
                    let body = UnsafeBufferPointer(rebasing: text[event.text])
                    var converted = ASSText.convert(body, style: style, playRes: playRes, cue: document.cues.count + 1, dropped: &dropped)
                    if let nameRange = event.name.map({ text.trimmed($0) }), !nameRange.isEmpty {
                        // A speaker's name as a voice: without `>`, `<`, `&` and control characters (no name has them).
                        let name = String(String.UnicodeScalarView(text.string(nameRange).unicodeScalars.filter(ASSText.isKeptInName)))
                        if !name.isEmpty { converted.text = "<v \(name)>" + converted.text + "</v>" }
                    }
                    var cue = Cue(start: start, end: end, text: converted.text, settings: converted.settings)
                    cue.line = Int32(clamping: number)
                    if end < start {
                        document.diagnostics.append(CaptionDiagnostic(line: number, rule: "ass.event", message: "the caption ends before it starts"))
                    }
                    document.cues.append(cue)
                    continue
                }
                if text[line.lowerBound] == 0x5B, text[line.upperBound - 1] == 0x5D {  // "[Section]"
                    section = text.string((line.lowerBound + 1)..<(line.upperBound - 1)).lowercased()
                    if section == "script info" { sawScriptInfo = true }
                    if section == "events" { sawEvents = true }
                    if section == "v4 styles" { legacy = true }
                    continue
                }
                guard let colon = line.first(where: { text[$0] == 0x3A }) else { continue }
                let key = text.string(line.lowerBound..<colon).lowercased()
                let value = text.string(text.trimmed((colon + 1)..<line.upperBound))
                switch section {
                case "script info":
                    if key == "playresx", let x = Double(value), x > 0 { (playRes.x, playResSet.x) = (x, true) }
                    if key == "playresy", let y = Double(value), y > 0 { (playRes.y, playResSet.y) = (y, true) }
                    if key == "scripttype", value.lowercased() == "v4.00" { legacy = true }
                case "v4+ styles", "v4 styles":
                    if key == "format" {
                        styleColumns = Self.columns(value, count: Int.max)
                    } else if key == "style" {
                        let fields = Self.columns(value, count: styleColumns.count)
                        func field(_ name: String) -> String? { styleColumns.firstIndex(of: name).flatMap { $0 < fields.count ? fields[$0] : nil } }
                        var style = Style()
                        style.italic = field("italic").flatMap(Int.init).map { $0 != 0 } ?? false
                        style.bold = field("bold").flatMap(Int.init).map { $0 != 0 } ?? false
                        style.underline = field("underline").flatMap(Int.init).map { $0 != 0 } ?? false
                        if let alignment = field("alignment").flatMap(Int.init) {
                            style.alignment = legacy ? Self.numpad(legacy: alignment) ?? 2 : (1...9).contains(alignment) ? alignment : 2
                        }
                        styles[(field("name") ?? "").lowercased()] = style
                        lastStyle = nil
                    }
                case "events":
                    if key == "format" { events = EventColumns(names: Self.columns(value, count: Int.max)) }
                default: break
                }
            }
            if document.cues.contains(where: { $0.settings.position != nil }), !(playResSet.x && playResSet.y) {
                document.diagnostics.append(
                    CaptionDiagnostic(
                        line: 0, rule: "ass.script", severity: .info,
                        message: "no PlayResX/PlayResY in [Script Info]: positions are read against 384×288, as renderers assume"))
            }
            return document
        }
        guard sawScriptInfo || sawEvents else {
            throw CaptionError(rule: "ass.parse", message: "not an ASS/SSA file: no [Script Info] or [Events] section")
        }
        for (tag, seen) in dropped.sorted(by: { ($0.value.cue, $0.key) < ($1.value.cue, $1.key) }) {
            document.diagnostics.append(
                CaptionDiagnostic(
                    line: 0, rule: "ass.override", severity: .info,
                    message: "override tag \\\(tag) (\(seen.count)×, first in cue \(seen.cue)) has no WebVTT counterpart: dropped"))
        }
        return document
    }

    /// Where an event's fields are, by its section's `Format` line.
    struct EventColumns {
        static let standard = ["layer", "start", "end", "style", "name", "marginl", "marginr", "marginv", "effect", "text"]
        let count: Int
        let start: Int?, end: Int?, style: Int?, name: Int?, text: Int?

        init(names: [String]) {
            count = names.count
            start = names.firstIndex(of: "start")
            end = names.firstIndex(of: "end")
            style = names.firstIndex(of: "style")
            name = names.firstIndex(of: "name")
            text = names.firstIndex(of: "text")
        }

        /// The byte ranges of a Dialogue value's fields (the last takes the rest of the line, commas and all).
        func fields(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> (
            start: Range<Int>, end: Range<Int>, style: Range<Int>?, name: Range<Int>?, text: Range<Int>
        )? {
            guard let startIndex = start, let endIndex = end, count > 0 else { return nil }
            var startRange = 0..<0, endRange = 0..<0, styleRange: Range<Int>?, nameRange: Range<Int>?, textRange = range.upperBound..<range.upperBound
            var field = 0
            var from = range.lowerBound
            var i = from
            func take(_ bounds: Range<Int>) {
                switch field {
                case startIndex: startRange = bounds
                case endIndex: endRange = bounds
                case style: styleRange = bounds
                case name: nameRange = bounds
                case text: textRange = bounds
                default: break
                }
            }
            while i < range.upperBound, field < count - 1 {
                if line[i] == 0x2C {
                    take(from..<i)
                    field += 1
                    from = i + 1
                }
                i += 1
            }
            guard field == count - 1 else { return nil }
            take(from..<range.upperBound)
            return (startRange, endRange, styleRange, nameRange, textRange)
        }
    }

    /// `H:MM:SS.cc` from bytes (a fraction of one to three digits taken as written: `.5` is half a second).
    static func time(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> CaptionTime? {
        var fields: (Int64, Int64, Int64, Int64) = (0, 0, 0, 0)
        var field = 0, digits = 0, fractionDigits = 0
        for i in text.trimmed(range) {
            let byte = text[i]
            switch byte {
            case 0x30...0x39:
                guard digits < 16 else { return nil }
                let digit = Int64(byte - 0x30)
                switch field {
                case 0: fields.0 = fields.0 * 10 + digit
                case 1: fields.1 = fields.1 * 10 + digit
                case 2: fields.2 = fields.2 * 10 + digit
                default:
                    fields.3 = fields.3 * 10 + digit
                    fractionDigits += 1
                }
                digits += 1
            case 0x3A where field < 2 && digits > 0:
                field += 1
                digits = 0
            case 0x2E where field == 2 && digits > 0:
                field = 3
                digits = 0
            default: return nil
            }
        }
        guard field >= 2, digits > 0, fields.1 < 60, fields.2 < 60, fractionDigits <= 3 else { return nil }
        let millis = field == 3 ? fields.3 * [1, 100, 10, 1][fractionDigits] : 0
        return CaptionTime.checked(hours: fields.0, milliseconds: (fields.1 * 60 + fields.2) * 1000 + millis)
    }

    /// A `Format`, `Style` or `Dialogue` value's comma-separated fields (lower-cased names for `Format`); the last of
    /// `count` takes the rest of the line, commas and all.
    static func columns(_ value: String, count: Int) -> [String] {
        let parts = value.split(separator: ",", maxSplits: max(0, count - 1), omittingEmptySubsequences: false)
        return parts.enumerated().map { index, part in
            let trimmed = index == count - 1 ? String(part) : part.trimmingCharacters(in: .whitespaces)
            return count == Int.max ? trimmed.trimmingCharacters(in: .whitespaces).lowercased() : trimmed
        }
    }

    /// SSA v4's alignment (1–3 bottom, 5–7 top, 9–11 middle; left, centre, right) as a numpad number.
    static func numpad(legacy value: Int) -> Int? {
        switch value {
        case 1...3: value
        case 5...7: value + 2
        case 9...11: value - 5
        default: nil
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
    fileprivate func trimmingPrefix(_ prefix: String) -> String { hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self }
}

/// An ASS event's text in WebVTT's terms.
enum ASSText {
    /// Whether a speaker's name keeps `scalar` when read as a voice: not `<`, `>`, `&` or a control character.
    static func isKeptInName(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x20 && scalar.value != 0x7F && !"<>&".unicodeScalars.contains(scalar)
    }

    /// `text` (override blocks and all) as WebVTT cue text and settings, starting from `style`.
    static func convert(
        _ bytes: UnsafeBufferPointer<UInt8>, style: ASSReader.Style, playRes: (x: Double, y: Double), cue: Int,
        dropped: inout [String: (count: Int, cue: Int)]
    ) -> (text: String, settings: CueSettings) {
        // Most events are words alone: no override block, escape, reference, tag, tab, or space at either end.
        if !style.italic, !style.bold, !style.underline, let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20,
            !bytes.contains(where: { $0 == 0x7B || $0 == 0x5C || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 < 0x20 || $0 == 0x7F })
        {
            return (String(decoding: bytes, as: UTF8.self), settings(alignment: style.alignment, position: nil, playRes: playRes))
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var wanted = (i: style.italic, b: style.bold, u: style.underline)
        var open: [UInt8] = []  // the tags open in `out`, outermost first
        var alignment = style.alignment
        var position: (x: Double, y: Double)?
        var drawing = false
        // Spaces not yet written: written before the next character shown, never at a line's end — those typed before
        // an override block in the style before it, those after it in the style after it.
        var spacesBefore = 0, spaces = 0
        var spacesBeforeStyle = wanted
        var breaks = 0  // line breaks not yet written: written before the next character shown
        func flushSpaces() {
            if breaks > 0 {
                out += repeatElement(0x0A, count: breaks)
                breaks = 0
            }
            let atLineStart = out.isEmpty || out.last == 0x0A
            if spacesBefore > 0, !atLineStart {
                let current = wanted
                wanted = spacesBeforeStyle
                sync()
                out += repeatElement(0x20, count: spacesBefore)
                wanted = current
            }
            sync()
            if spaces > 0, !(out.isEmpty || out.last == 0x0A) || (spacesBefore > 0 && !atLineStart) { out += repeatElement(0x20, count: spaces) }
            (spacesBefore, spaces) = (0, 0)
        }
        var synced = (i: false, b: false, u: false)  // the styles `open` holds
        func sync() {
            guard wanted != synced else { return }
            synced = wanted
            let wantedTags = [wanted.i ? UInt8(ascii: "i") : nil, wanted.b ? UInt8(ascii: "b") : nil, wanted.u ? UInt8(ascii: "u") : nil].compactMap { $0 }
            // The tags open and still wanted stay open (as far as none before them closes); the others close, and
            // what is newly wanted opens inside them.
            var keep = 0
            while keep < open.count, wantedTags.contains(open[keep]) { keep += 1 }
            let desired = Array(open[..<keep]) + wantedTags.filter { !open[..<keep].contains($0) }
            guard desired != open else { return }
            for tag in open[keep...].reversed() {
                out.append(0x3C)
                out.append(0x2F)
                out.append(tag)
                out.append(0x3E)
            }
            for tag in desired[keep...] {
                out.append(0x3C)
                out.append(tag)
                out.append(0x3E)
            }
            open = desired
        }
        func drop(_ tag: String) {
            let name = String(tag.prefix { $0.isLetter })
            let key = name.isEmpty ? String(tag.prefix(4)) : name
            dropped[key, default: (0, cue)].count += 1
        }
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x7B, let close = bytes[i...].firstIndex(of: 0x7D) {  // "{…}": an override block, or a comment
                let block = String(decoding: bytes[(i + 1)..<close], as: UTF8.self)
                if spacesBefore == 0 { spacesBeforeStyle = wanted }
                (spacesBefore, spaces) = (spacesBefore + spaces, 0)
                for tag in block.split(separator: "\\", omittingEmptySubsequences: true).dropFirst(block.hasPrefix("\\") ? 0 : 1) {
                    let tag = tag.trimmingCharacters(in: .whitespaces)
                    if tag.hasPrefix("pos("), let args = Self.arguments(tag), args.count == 2 {
                        position = (args[0], args[1])
                    } else if tag.hasPrefix("an"), let value = Int(tag.dropFirst(2)), (1...9).contains(value) {
                        alignment = value
                    } else if tag.hasPrefix("a"), !tag.hasPrefix("alpha"), let value = Int(tag.dropFirst(1)), let numpad = ASSReader.numpad(legacy: value) {
                        alignment = numpad
                    } else if tag == "i0" || tag == "i1" {
                        wanted.i = tag == "i1"
                    } else if tag.hasPrefix("b"), !tag.hasPrefix("blur"), !tag.hasPrefix("be"), !tag.hasPrefix("bord"), let weight = Int(tag.dropFirst()) {
                        wanted.b = weight == 1 || weight >= 600
                    } else if tag == "u0" || tag == "u1" {
                        wanted.u = tag == "u1"
                    } else if tag.hasPrefix("r") && !tag.hasPrefix("rnd") {
                        wanted = (style.italic, style.bold, style.underline)
                        if tag != "r" { drop("r") }  // another style by name: its looks are not read
                    } else if tag.hasPrefix("p"), !tag.hasPrefix("pos"), !tag.hasPrefix("pbo"), let level = Int(tag.dropFirst()) {
                        drawing = level > 0
                        if drawing { drop("p") }
                    } else if !tag.isEmpty {
                        drop(tag)
                    }
                }
                i = close + 1
                continue
            }
            if drawing {
                i += 1
                continue
            }
            if byte == 0x5C, i + 1 < bytes.count, bytes[i + 1] == 0x4E || bytes[i + 1] == 0x6E || bytes[i + 1] == 0x68 {  // \N, \n, \h
                switch bytes[i + 1] {
                case 0x4E:
                    (spacesBefore, spaces) = (0, 0)  // spaces at a line's end show nothing
                    // Line breaks before the first character shown, or after the last, show nothing either.
                    if !out.isEmpty {
                        sync()
                        breaks += 1
                    }
                case 0x6E: spaces += 1  // a soft break: where the renderer wraps, a space here
                default:
                    flushSpaces()
                    out += [0xC2, 0xA0]
                }
                i += 2
                continue
            }
            if byte == 0x20 || byte == 0x09 {
                spaces += 1
            } else {
                flushSpaces()
                WebVTTEscaping.append(byte, to: &out)
            }
            i += 1
        }
        // Close what is open; trailing line breaks and spaces are nothing to show.
        for tag in open.reversed() {
            out.append(0x3C)
            out.append(0x2F)
            out.append(tag)
            out.append(0x3E)
        }
        return (String(decoding: out, as: UTF8.self), settings(alignment: alignment, position: position, playRes: playRes))
    }

    /// The cue settings of a numpad `alignment` and a `\pos` on a `playRes` canvas.
    static func settings(alignment: Int, position: (x: Double, y: Double)?, playRes: (x: Double, y: Double)) -> CueSettings {
        var settings = CueSettings()
        let horizontal = (alignment - 1) % 3  // 0 left, 1 centre, 2 right
        let vertical = (alignment - 1) / 3  // 0 bottom, 1 middle, 2 top
        settings.align = [.left, .center, .right][horizontal]
        if let position {
            settings.position = max(0, min(100, position.x / playRes.x * 100))
            settings.positionAlign = [.lineLeft, .center, .lineRight][horizontal]
            settings.snapToLines = false
            settings.line = max(0, min(100, position.y / playRes.y * 100))
            settings.lineAlign = [.end, .center, .start][vertical]
        } else if vertical == 2 {
            settings.line = 0
        } else if vertical == 1 {
            settings.snapToLines = false
            settings.line = 50
            settings.lineAlign = .center
        }
        return settings
    }

    /// The numbers of `name(a,b,…)`.
    static func arguments(_ tag: String) -> [Double]? {
        guard let open = tag.firstIndex(of: "("), let close = tag.lastIndex(of: ")"), open < close else { return nil }
        let values = tag[tag.index(after: open)..<close].split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        return values.contains(nil) ? nil : values.map { $0! }
    }
}
