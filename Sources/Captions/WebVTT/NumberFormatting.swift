/// Numbers as WebVTT settings write them: plain decimals, never exponents ("1e+34" is not WebVTT).
enum NumberFormatting {
    static func plainDecimal(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let text = String(value + 0)
        let negative = text.hasPrefix("-")
        let unsigned = negative ? String(text.dropFirst()) : text
        guard let e = unsigned.firstIndex(where: { $0 == "e" || $0 == "E" }) else {
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        }
        let mantissa = unsigned[..<e]
        let exponent = Int(unsigned[unsigned.index(after: e)...]) ?? 0
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0])
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = whole + fraction
        var point = whole.count + exponent
        if point <= 0 {
            digits = String(repeating: "0", count: 1 - point) + digits
            point = 1
        } else if point > digits.count {
            digits += String(repeating: "0", count: point - digits.count)
        }
        var result = String(digits.prefix(point))
        let tail = digits.dropFirst(point).reversed().drop { $0 == "0" }.reversed()
        if !tail.isEmpty { result += "." + String(tail) }
        return (negative ? "-" : "") + result
    }
}
