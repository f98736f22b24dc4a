// The small grammars of WebVTT: timestamps, percentages, numbers, cue settings and region settings,
// each as the W3C WebVTT specification's parsing rules state them.

enum WebVTTSyntax {
    /// "Collect a WebVTT timestamp" at `position` in `text[..<end]`; advances `position`. Nil on failure.
    static func timestamp(_ text: ByteText, _ position: inout Int, _ end: Int) -> CaptionTime? {
        var hoursUnits = false
        guard position < end, text[position].isASCIIDigit else { return nil }
        let first = digits(text, &position, end)
        if first.count != 2 || first.value > 59 { hoursUnits = true }
        guard position < end, text[position] == 0x3A else { return nil }
        position += 1
        let second = digits(text, &position, end)
        guard second.count == 2 else { return nil }
        var value1 = first.value, value2 = second.value, value3: Int64
        if hoursUnits || (position < end && text[position] == 0x3A) {
            guard position < end, text[position] == 0x3A else { return nil }
            position += 1
            let third = digits(text, &position, end)
            guard third.count == 2 else { return nil }
            value3 = third.value
        } else {
            value3 = value2
            value2 = value1
            value1 = 0
        }
        guard position < end, text[position] == 0x2E else { return nil }
        position += 1
        let fraction = digits(text, &position, end)
        guard fraction.count == 3, value2 <= 59, value3 <= 59, first.overflowed == false else { return nil }
        let (hoursMs, o1) = value1.multipliedReportingOverflow(by: 3_600_000)
        guard !o1 else { return nil }
        let (total, o2) = hoursMs.addingReportingOverflow(value2 * 60_000 + value3 * 1000 + fraction.value)
        guard !o2 else { return nil }
        return CaptionTime(milliseconds: total)
    }

    /// Collects ASCII digits: their count and value (`overflowed` when the value does not fit).
    @inline(__always)
    static func digits(_ text: ByteText, _ position: inout Int, _ end: Int) -> (count: Int, value: Int64, overflowed: Bool) {
        var count = 0
        var value: Int64 = 0
        var overflowed = false
        while position < end {
            let d = text[position] &- 0x30
            guard d < 10 else { break }
            value = value &* 10 &+ Int64(d)
            count += 1
            position += 1
        }
        if count > 18 { overflowed = true }  // more digits than an Int64 holds
        return (count, value, overflowed)
    }

    /// Skips ASCII whitespace.
    @inline(__always)
    static func skipWhitespace(_ text: ByteText, _ position: inout Int, _ end: Int) {
        while position < end, text[position].isASCIIWhitespace { position += 1 }
    }

    /// "Parse a percentage string": digits, optionally `.` and digits, then `%`; 0…100.
    static func percentage(_ value: Substring) -> Double? {
        let utf8 = Array(value.utf8)
        guard utf8.count >= 2, utf8.last == UInt8(ascii: "%") else { return nil }
        let number = utf8.dropLast()
        guard let dot = number.firstIndex(of: UInt8(ascii: ".")) else {
            guard number.allSatisfy(\.isASCIIDigit) else { return nil }
            return clampedPercentage(number)
        }
        let whole = number[..<dot], fraction = number[(dot + 1)...]
        guard !whole.isEmpty, !fraction.isEmpty, whole.allSatisfy(\.isASCIIDigit), fraction.allSatisfy(\.isASCIIDigit) else { return nil }
        return clampedPercentage(number)
    }

    private static func clampedPercentage(_ digits: ArraySlice<UInt8>) -> Double? {
        guard let value = Double(String(decoding: digits, as: UTF8.self)), value >= 0, value <= 100 else { return nil }
        return value + 0  // no negative zero
    }

    /// A line number: an optional leading `-`, digits, at most one `.` between digits.
    static func lineNumber(_ value: Substring) -> Double? {
        let utf8 = Array(value.utf8)
        guard utf8.contains(where: \.isASCIIDigit) else { return nil }
        for (i, b) in utf8.enumerated() {
            guard b.isASCIIDigit || b == UInt8(ascii: ".") || (b == UInt8(ascii: "-") && i == 0) else { return nil }
        }
        let dots = utf8.indices.filter { utf8[$0] == UInt8(ascii: ".") }
        if dots.count > 1 { return nil }
        if let dot = dots.first {
            guard dot > 0, dot < utf8.count - 1, utf8[dot - 1].isASCIIDigit, utf8[dot + 1].isASCIIDigit else { return nil }
        }
        // HTML's rules for parsing floating-point numbers: a value that rounds beyond the largest double is
        // an error, and there is no negative zero.
        guard let number = Double(String(decoding: utf8, as: UTF8.self)), number.isFinite else { return nil }
        return number + 0
    }

    /// Splits on ASCII whitespace.
    static func tokens(_ text: Substring) -> [Substring] {
        text.split(whereSeparator: { $0.isASCII && $0.asciiValue!.isASCIIWhitespace })
    }

    /// Splits a `name:value` setting; nil when the first colon is missing, first or last.
    static func nameAndValue(_ setting: Substring) -> (name: Substring, value: Substring)? {
        guard let colon = setting.firstIndex(of: ":"), colon != setting.startIndex,
            setting.index(after: colon) != setting.endIndex
        else { return nil }
        return (setting[..<colon], setting[setting.index(after: colon)...])
    }

    /// Splits `a,b` at the first comma.
    static func splitAtComma(_ value: Substring) -> (Substring, Substring?) {
        guard let comma = value.firstIndex(of: ",") else { return (value, nil) }
        return (value[..<comma], value[value.index(after: comma)...])
    }

    /// "Parse the WebVTT cue settings"; calls `ignored` for each setting it drops.
    static func cueSettings(_ text: Substring, regions: [CueRegion], ignored: (Substring) -> Void) -> CueSettings {
        var settings = CueSettings()
        for setting in tokens(text) {
            guard let (name, value) = nameAndValue(setting) else {
                ignored(setting)
                continue
            }
            switch name {
            case "region":
                settings.region = regions.last(where: { $0.identifier == value })?.identifier
                if settings.region == nil { ignored(setting) }
            case "vertical":
                if value == "rl" {
                    settings.vertical = .verticalGrowingLeft
                } else if value == "lr" {
                    settings.vertical = .verticalGrowingRight
                } else {
                    ignored(setting)
                }
                if settings.vertical != .horizontal { settings.region = nil }
            case "line":
                let (linePosition, lineAlign) = splitAtComma(value)
                guard linePosition.utf8.contains(where: \.isASCIIDigit) else { ignored(setting); continue }
                let isPercentage = linePosition.last == "%"
                guard let number = isPercentage ? percentage(linePosition) : lineNumber(linePosition) else {
                    ignored(setting)
                    continue
                }
                var alignment = settings.lineAlign
                if let lineAlign {
                    guard let parsed = CueSettings.LineAlignment(rawValue: String(lineAlign)) else { ignored(setting); continue }
                    alignment = parsed
                }
                settings.lineAlign = alignment
                settings.line = number
                settings.snapToLines = !isPercentage
                settings.region = nil
            case "position":
                let (columnPosition, columnAlign) = splitAtComma(value)
                guard let number = percentage(columnPosition) else { ignored(setting); continue }
                var alignment = settings.positionAlign
                if let columnAlign {
                    guard let parsed = CueSettings.PositionAlignment(rawValue: String(columnAlign)), parsed != .auto else {
                        ignored(setting)
                        continue
                    }
                    alignment = parsed
                }
                settings.positionAlign = alignment
                settings.position = number
            case "size":
                guard let number = percentage(value) else { ignored(setting); continue }
                settings.size = number
                if number != 100 { settings.region = nil }
            case "align":
                guard let alignment = CueSettings.TextAlignment(rawValue: String(value)) else { ignored(setting); continue }
                settings.align = alignment
            default:
                ignored(setting)
            }
        }
        return settings
    }

    /// "Collect WebVTT region settings"; calls `ignored` for each setting it drops.
    static func region(_ text: Substring, ignored: (Substring) -> Void) -> CueRegion {
        var region = CueRegion()
        for setting in tokens(text) {
            guard let (name, value) = nameAndValue(setting) else {
                ignored(setting)
                continue
            }
            switch name {
            case "id":
                region.identifier = String(value)
            case "width":
                if let width = percentage(value) { region.width = width } else { ignored(setting) }
            case "lines":
                guard value.utf8.allSatisfy(\.isASCIIDigit), let lines = Double(String(value)) else { ignored(setting); continue }
                region.lines = lines
            case "regionanchor", "viewportanchor":
                let (x, y) = splitAtComma(value)
                guard let y, let anchorX = percentage(x), let anchorY = percentage(y) else { ignored(setting); continue }
                if name == "regionanchor" {
                    (region.anchorX, region.anchorY) = (anchorX, anchorY)
                } else {
                    (region.viewportAnchorX, region.viewportAnchorY) = (anchorX, anchorY)
                }
            case "scroll":
                if value == "up" { region.scrollUp = true } else { ignored(setting) }
            default:
                ignored(setting)
            }
        }
        return region
    }
}
