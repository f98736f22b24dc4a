import Basics
import Foundation

/// Moves and stretches cue times: `new = old × scale + offset`. Times that would fall below zero are
/// set to zero and reported. Timestamps inside WebVTT cue text (`<00:00:01.500>`) move with their cue.
public struct TimingEdit: Sendable, Equatable {
    /// Seconds added after scaling.
    public var offset: Double
    /// The stretch factor, e.g. 25/23.976 for a PAL speed-up.
    public var scale: Double

    public init(offset: Double = 0, scale: Double = 1) {
        self.offset = offset
        self.scale = scale
    }

    /// The time `t` is moved to (before clamping).
    public func apply(to time: CaptionTime) -> CaptionTime {
        CaptionTime(seconds: time.seconds * scale + offset)
    }

    /// Applies the edit to every cue of `document` (long documents in slices on all cores); returns what had to
    /// be clamped.
    public func apply(to document: inout CaptionDocument) -> [CaptionDiagnostic] {
        let count = document.cues.count
        let slices = ParallelSlices.count(for: count, minimum: ParallelSlices.minimumCues)
        let bounds = ParallelSlices.bounds(of: 0..<count, slices: slices)
        let movesTimestamps = document.format.markup == .webvtt
        let counts = document.cues.withUnsafeMutableBufferPointer { cues in
            ParallelSlices.map(slices) { slice -> (clamped: Int, first: Int?) in
                var clamped = 0, first: Int?
                for i in bounds[slice] {
                    var start = apply(to: cues[i].start), end = apply(to: cues[i].end)
                    if start < .zero || end < .zero {
                        clamped += 1
                        first = first ?? i
                        start = max(start, .zero)
                        end = max(end, .zero)
                    }
                    cues[i].start = start
                    cues[i].end = end
                    if movesTimestamps, cues[i].text.containsUTF8Byte(UInt8(ascii: "<")) {
                        cues[i].text = movingInlineTimestamps(in: cues[i].text)
                    }
                }
                return (clamped, first)
            }
        }
        let clamped = counts.reduce(0) { $0 + $1.clamped }
        let firstClamped = counts.lazy.compactMap(\.first).first
        return Self.clampedDiagnostics(clamped, first: firstClamped)
    }

    /// The warning that `clamped` cues (the first at index `first`) had times set to zero; none when none had.
    public static func clampedDiagnostics(_ clamped: Int, first: Int?) -> [CaptionDiagnostic] {
        guard clamped > 0, let first else { return [] }
        return [
            CaptionDiagnostic(
                line: 0, rule: "captions.timing-clamped", severity: .warning,
                message: clamped == 1
                    ? "1 cue would start or end before 0 and was set to 0 (cue \(first + 1))"
                    : "\(clamped) cues would start or end before 0 and were set to 0 (first: cue \(first + 1))")
        ]
    }

    /// Applies the edit to one cue of `document` (and its inline timestamps); returns whether a time had to be
    /// clamped to zero.
    public func apply(to document: inout CaptionDocument, cue index: Int) -> Bool {
        var start = apply(to: document.cues[index].start), end = apply(to: document.cues[index].end)
        let clamped = start < .zero || end < .zero
        start = max(start, .zero)
        end = max(end, .zero)
        document.cues[index].start = start
        document.cues[index].end = end
        if document.format.markup == .webvtt, document.cues[index].text.containsUTF8Byte(UInt8(ascii: "<")) {
            document.cues[index].text = movingInlineTimestamps(in: document.cues[index].text)
        }
        return clamped
    }

    /// The text with each valid `<timestamp>` tag moved by this edit. A tag ends before the next `<`, so no
    /// byte is looked at twice, whatever the text.
    private func movingInlineTimestamps(in text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 16)
            var i = 0
            let n = bytes.count
            while i < n {
                let byte = bytes[i]
                guard byte == UInt8(ascii: "<"), i + 1 < n, bytes[i + 1].isASCIIDigit else {
                    output.append(byte)
                    i += 1
                    continue
                }
                var close = i + 1
                while close < n, bytes[close] != UInt8(ascii: ">"), bytes[close] != UInt8(ascii: "<") { close += 1 }
                guard close < n, bytes[close] == UInt8(ascii: ">"),
                    let time = Self.timestamp(UnsafeBufferPointer(rebasing: bytes[(i + 1)..<close]))
                else {
                    output.append(byte)
                    i += 1
                    continue
                }
                output.append(UInt8(ascii: "<"))
                max(apply(to: time), .zero).appendFormatted(to: &output, separator: UInt8(ascii: "."))
                output.append(UInt8(ascii: ">"))
                i = close + 1
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    private static func timestamp(_ bytes: UnsafeBufferPointer<UInt8>) -> CaptionTime? {
        let view = ByteText(bytes: bytes)
        var position = 0
        let time = WebVTTSyntax.timestamp(view, &position, view.count)
        return position == view.count ? time : nil
    }
}

extension CaptionDocument {
    /// The document with the cues it shows until the presentation ends (ending at `CaptionTime.presentationEnd`)
    /// ending at `seconds`, the media's end, instead (or at their start, if that is later).
    public func endingPresentation(at seconds: Double) -> CaptionDocument {
        guard cues.contains(where: { $0.end == .presentationEnd }) else { return self }
        var document = self
        let end = CaptionTime(seconds: seconds)
        for index in document.cues.indices where document.cues[index].end == .presentationEnd {
            document.cues[index].end = max(document.cues[index].start, end)
        }
        return document
    }
}
