import Basics
import Foundation

/// A caption format's writer, in the pieces a document is written in.
protocol CueWriter: Sendable {
    /// What comes before the cues (WebVTT's signature and header blocks; nothing for SRT).
    func appendHeader(_ header: String, blocks: [HeaderBlock], to out: inout [UInt8], _ diagnostics: inout [CaptionDiagnostic])
    /// One cue; with `spill`, a long text is written in pieces, `spill` getting `out` after each.
    func appendCue(
        _ cue: Cue, index: Int, to out: inout [UInt8], _ diagnostics: inout [CaptionDiagnostic],
        spill: ((inout [UInt8]) -> Void)?)
    func appendNote(_ note: CaptionNote, to out: inout [UInt8], _ diagnostics: inout [CaptionDiagnostic])
    /// True when NUL characters are written as U+FFFD (WebVTT readers read them so).
    var replacesNulls: Bool { get }
}

extension SRTWriter: CueWriter {
    func appendHeader(_ header: String, blocks: [HeaderBlock], to out: inout [UInt8], _ diagnostics: inout [CaptionDiagnostic]) {}
    func appendNote(_ note: CaptionNote, to out: inout [UInt8], _ diagnostics: inout [CaptionDiagnostic]) {}
    var replacesNulls: Bool { false }
}

extension WebVTTWriter: CueWriter {
    var replacesNulls: Bool { true }
}

/// Writes a document with a format's writer: the header, the cues with the notes between them, and the notes
/// after the last cue. Long documents are rendered on all cores (`OrderedParallelRendering`): the bytes are
/// those of one pass. With `flush`, the output is handed on a chunk at a time.
enum CaptionWriting {
    /// What a slice of cues is written from, and what it noticed.
    private struct SliceState<Input> {
        var input: Input
        var diagnostics: [CaptionDiagnostic] = []
        var replacedNulls = false
    }

    static func write<Input: CaptionWriterInput, Writer: CueWriter>(
        _ input: inout Input, with writer: Writer, into out: inout [UInt8], flushing flush: ((inout [UInt8]) -> Void)?
    ) -> [CaptionDiagnostic] {
        var diagnostics: [CaptionDiagnostic] = []
        var replacedNulls = false
        // WebVTT readers turn NUL into U+FFFD: write it so, and the file reads back as written.
        func replaceNulls(_ bytes: inout [UInt8]) {
            guard writer.replacesNulls, let replaced = replacingNulls(in: bytes) else { return }
            bytes = replaced
            replacedNulls = true
        }
        writer.appendHeader(input.header, blocks: input.headerBlocks, to: &out, &diagnostics)
        replaceNulls(&out)

        // A note is written before cue max(1, cuesBefore); notes past the last cue after it.
        let allNotes = input.notes
        let notes =
            allNotes.indices.dropFirst().allSatisfy { allNotes[$0 - 1].cuesBefore <= allNotes[$0].cuesBefore }
            ? allNotes : allNotes.sorted { $0.cuesBefore < $1.cuesBefore }
        let count = input.count
        var notesBefore: [Int: [CaptionNote]] = [:]
        var trailingNotes: [CaptionNote] = []
        for note in notes {
            let target = max(1, note.cuesBefore)
            if target < count { notesBefore[target, default: []].append(note) } else { trailingNotes.append(note) }
        }

        // A document with a very long cue (one line of 100 MB) is written on one thread, its long texts handed on
        // in pieces as they are written: memory holds the document and a chunk, never a whole cue's output.
        let longCues = flush != nil && input.hasLongCue
        let output = OutputBox(out)  // reached from both closures below (on this one thread when `longCues`)
        out = []  // the box's buffer is now the only reference: it grows in place
        OrderedParallelRendering.render(count: count, state: SliceState(input: input), parallel: !longCues) { range, slice in
            for index in range {
                if let before = notesBefore[index] { for note in before { writer.appendNote(note, to: &slice.bytes, &slice.state.diagnostics) } }
                writer.appendCue(
                    slice.state.input.cue(at: index), index: index, to: &slice.bytes, &slice.state.diagnostics,
                    spill: longCues
                        ? { bytes in
                            replaceNulls(&bytes)
                            output.bytes.append(contentsOf: bytes)
                            bytes.removeAll(keepingCapacity: true)
                            if output.bytes.count >= captionWriterChunkSize { flush?(&output.bytes) }
                        } : nil)
            }
        } windowDone: { slices in
            for index in slices.indices {
                replaceNulls(&slices[index].bytes)
                output.bytes.append(contentsOf: slices[index].bytes)
                slices[index].bytes.removeAll(keepingCapacity: true)
                diagnostics += slices[index].state.diagnostics
                slices[index].state.diagnostics.removeAll()
                input.absorb(slices[index].state.input)  // in slice order: what was noticed, in the order of one pass
            }
            if let flush, output.bytes.count >= captionWriterChunkSize { flush(&output.bytes) }
        }
        out = output.bytes
        for note in trailingNotes { writer.appendNote(note, to: &out, &diagnostics) }
        replaceNulls(&out)
        if let flush, !out.isEmpty { flush(&out) }
        if replacedNulls {
            diagnostics.append(CaptionDiagnostic(line: 0, rule: "webvtt.write", severity: .info, message: "NUL characters written as U+FFFD"))
        }
        return diagnostics
    }
}

/// The output buffer, shared by the closures that render and that hand on.
private final class OutputBox {
    var bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

/// How much a streaming writer gathers before handing it on.
let captionWriterChunkSize = 256 * 1024
