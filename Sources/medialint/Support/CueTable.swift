import Basics
import Captions
import Findings
import Reports

/// The text form: one line per cue (long files in slices on all cores, written in order).
struct CueTable {
    let style: TextStyle

    func write(_ document: CaptionDocument, to out: inout ByteWriter) {
        let count = document.cues.count
        out.append(style.bold("\(count) cue\(count == 1 ? "" : "s")") + style.dim(" · \(document.format.rawValue) · \(document.encoding)") + "\n")
        let width = decimalDigits(count)
        let style = self.style
        let lineBreak = Array(style.dim(" ⏎ ").utf8)
        let cyan = style.cyanCodes
        let (timingStart, arrow, timingEnd) = (Array(cyan.start.utf8), Array(" → ".utf8), Array(cyan.end.utf8))
        OrderedParallelRendering.render(count: count, state: ()) { range, slice in
            // Each row in bytes: the number right-aligned, the timing in cyan, the text with its breaks as ⏎.
            var timing: [UInt8] = []
            for index in range {
                let cue = document.cues[index]
                slice.bytes.append(contentsOf: repeatElement(0x20, count: width - decimalDigits(index + 1)))
                timing.removeAll(keepingCapacity: true)
                timing.append(contentsOf: String(index + 1).utf8)
                timing.append(contentsOf: [0x20, 0x20])
                timing.append(contentsOf: timingStart)
                cue.start.appendFormatted(to: &timing, separator: UInt8(ascii: "."))
                timing.append(contentsOf: arrow)
                cue.end.appendFormatted(to: &timing, separator: UInt8(ascii: "."))
                timing.append(contentsOf: timingEnd)
                timing.append(contentsOf: [0x20, 0x20])
                slice.bytes.append(contentsOf: timing)
                var text = cue.plainText(in: document.format)
                text.withUTF8 { utf8 in
                    var rest = utf8[...]
                    while let newline = rest.firstIndex(of: 0x0A) {
                        slice.bytes.append(contentsOf: rest[..<newline])
                        slice.bytes.append(contentsOf: lineBreak)
                        rest = rest[(newline + 1)...]
                    }
                    slice.bytes.append(contentsOf: rest)
                }
                slice.bytes.append(0x0A)
            }
        } windowDone: { slices in
            for index in slices.indices {
                slices[index].bytes.withUnsafeBufferPointer { out.append($0) }
                slices[index].bytes.removeAll(keepingCapacity: true)
                out.handOnIfFull()
            }
        }
    }
}

/// How many decimal digits `number` (≥ 0) has.
private func decimalDigits(_ number: Int) -> Int {
    var digits = 1, rest = number
    while rest >= 10 { rest /= 10; digits += 1 }
    return digits
}
