/// Writes YouTube's SubViewer captions (`.sbv`): each cue's timing line and its plain text, a blank line after it. SBV
/// has no markup and no positions: styles and settings are lost (said once each).
public struct SBVWriter: Sendable {
    public init() {}

    /// Writes `count` cues (`cue(i)`: its text in WebVTT's syntax), handing the output to `sink` a chunk at a time.
    func write(count: Int, cue: (Int) -> Cue, to sink: (inout [UInt8]) -> Void) -> [CaptionDiagnostic] {
        var out: [UInt8] = []
        out.reserveCapacity(captionWriterChunkSize + 4096)
        var losses = LossNotes(format: "SBV")
        for index in 0..<count {
            let cue = cue(index)
            Self.appendTime(cue.start, to: &out)
            out.append(0x2C)
            Self.appendTime(cue.end, to: &out)
            out.append(0x0A)
            let plain = cue.plainText(in: .webvtt)
            if cue.text.utf8.contains(0x3C) { losses.note("styles or voices (italics, bold, speakers' tags)", cue: index + 1) }
            if !cue.hasDefaultSettings { losses.note("positions or alignment", cue: index + 1) }
            var wroteLine = false  // (a line of spaces and tabs alone would end the block: left out)
            for line in plain.split(separator: "\n", omittingEmptySubsequences: true) where !line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                for byte in line.utf8 {
                    // A control character (other than a tab) is written as U+FFFD, as it is read.
                    if (byte < 0x20 && byte != 0x09) || byte == 0x7F { out += [0xEF, 0xBF, 0xBD] } else { out.append(byte) }
                }
                out.append(0x0A)
                wroteLine = true
            }
            if !wroteLine { out.append(0x0A) }  // an empty cue keeps its blank text line
            out.append(0x0A)
            if out.count >= captionWriterChunkSize { sink(&out) }
        }
        if !out.isEmpty { sink(&out) }
        return losses.diagnostics
    }

    /// `H:MM:SS.mmm` (hours without padding).
    static func appendTime(_ time: CaptionTime, to out: inout [UInt8]) {
        let total = max(0, time.milliseconds)
        out.append(contentsOf: String(total / 3_600_000).utf8)
        out.append(0x3A)
        appendTwo(Int(total / 60_000 % 60), to: &out)
        out.append(0x3A)
        appendTwo(Int(total / 1000 % 60), to: &out)
        out.append(0x2E)
        let millis = Int(total % 1000)
        out.append(0x30 + UInt8(millis / 100))
        appendTwo(millis % 100, to: &out)
    }

    static func appendTwo(_ value: Int, to out: inout [UInt8]) {
        out.append(0x30 + UInt8(value / 10))
        out.append(0x30 + UInt8(value % 10))
    }
}
