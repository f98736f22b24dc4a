import Dispatch
import Foundation

/// A caption format's writer, in the pieces a document is written in.
protocol CueWriter: Sendable {
    /// What comes before the cues (WebVTT's signature and header blocks; nothing for SRT).
    func appendHeader(_ header: String, blocks: [HeaderBlock], to out: inout [UInt8], _ diagnostics: inout [CaptionDiagnostic])
    func appendCue(_ cue: Cue, index: Int, to out: inout [UInt8], _ diagnostics: inout [CaptionDiagnostic])
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
/// after the last cue. Long documents are written in windows of cues, each window's cues rendered in slices on
/// all cores (every slice into its own buffer, the buffers then added in order): the bytes are those of one
/// pass. With `flush`, the output is handed on a chunk at a time.
enum CaptionWriting {
    /// Below this many cues, one pass on one core.
    static let parallelThreshold = 20_000
    /// Cues per window and core.
    static let windowPerCore = 8_192

    static func write<Input: CaptionWriterInput, Writer: CueWriter>(
        _ input: inout Input, with writer: Writer, into out: inout [UInt8], flushing flush: ((inout [UInt8]) -> Void)?
    ) -> [CaptionDiagnostic] {
        var diagnostics: [CaptionDiagnostic] = []
        var replacedNulls = false
        func emit(_ out: inout [UInt8]) {
            if writer.replacesNulls, let replaced = replacingNulls(in: out) {
                out = replaced
                replacedNulls = true
            }
            flush?(&out)
        }
        writer.appendHeader(input.header, blocks: input.headerBlocks, to: &out, &diagnostics)

        // A note is written before cue max(1, cuesBefore); notes past the last cue after it.
        let allNotes = input.notes
        let notes = allNotes.indices.dropFirst().allSatisfy { allNotes[$0 - 1].cuesBefore <= allNotes[$0].cuesBefore }
            ? allNotes : allNotes.sorted { $0.cuesBefore < $1.cuesBefore }
        let count = input.count
        var notesBefore: [Int: [CaptionNote]] = [:]
        var trailingNotes: [CaptionNote] = []
        for note in notes {
            let target = max(1, note.cuesBefore)
            if target < count { notesBefore[target, default: []].append(note) } else { trailingNotes.append(note) }
        }

        let cores = ProcessInfo.processInfo.activeProcessorCount
        let slices = count >= parallelThreshold ? max(1, min(cores, 8)) : 1
        if slices == 1 {
            for index in 0..<count {
                if let before = notesBefore[index] { for note in before { writer.appendNote(note, to: &out, &diagnostics) } }
                writer.appendCue(input.cue(at: index), index: index, to: &out, &diagnostics)
                if flush != nil, out.count >= captionWriterChunkSize { emit(&out) }
            }
        } else {
            writeInSlices(&input, slices: slices, with: writer, notesBefore: notesBefore, into: &out, &diagnostics, &replacedNulls) {
                emit(&$0)
            }
        }
        for note in trailingNotes { writer.appendNote(note, to: &out, &diagnostics) }
        if flush != nil {
            if !out.isEmpty { emit(&out) }
        } else if writer.replacesNulls, let replaced = replacingNulls(in: out) {
            out = replaced
            replacedNulls = true
        }
        if replacedNulls {
            diagnostics.append(CaptionDiagnostic(line: 0, rule: "webvtt.write", severity: .info, message: "NUL characters written as U+FFFD"))
        }
        return diagnostics
    }

    /// The cues in windows, each window in `slices` slices rendered at once; `emit` gets `out` after each
    /// window that left it a chunk or more.
    private static func writeInSlices<Input: CaptionWriterInput, Writer: CueWriter>(
        _ input: inout Input, slices: Int, with writer: Writer, notesBefore: [Int: [CaptionNote]], into out: inout [UInt8],
        _ diagnostics: inout [CaptionDiagnostic], _ replacedNulls: inout Bool, emit: (inout [UInt8]) -> Void
    ) {
        let count = input.count
        let window = windowPerCore * slices
        var parts = (0..<slices).map { _ in WriterSlice(input: input) }
        var windowStart = 0
        while windowStart < count {
            let (start, end) = (windowStart, min(count, windowStart + window))
            parts.withUnsafeMutableBufferPointer { buffer in
                let shared = UnsafeWriterSlices(buffer)
                DispatchQueue.concurrentPerform(iterations: slices) { slice in
                    let from = start + (end - start) * slice / slices, to = start + (end - start) * (slice + 1) / slices
                    var part = shared.take(slice)
                    for index in from..<to {
                        if let before = notesBefore[index] { for note in before { writer.appendNote(note, to: &part.bytes, &part.diagnostics) } }
                        writer.appendCue(part.input.cue(at: index), index: index, to: &part.bytes, &part.diagnostics)
                    }
                    if writer.replacesNulls, let replaced = replacingNulls(in: part.bytes) {
                        part.bytes = replaced
                        part.replacedNulls = true
                    }
                    shared.put(part, at: slice)
                }
            }
            for slice in 0..<slices {
                out.append(contentsOf: parts[slice].bytes)
                parts[slice].bytes.removeAll(keepingCapacity: true)
                diagnostics += parts[slice].diagnostics
                parts[slice].diagnostics.removeAll()
                replacedNulls = replacedNulls || parts[slice].replacedNulls
                input.absorb(parts[slice].input)  // in slice order: what was noticed, in the order of one pass
            }
            if out.count >= captionWriterChunkSize { emit(&out) }
            windowStart = end
        }
    }
}

/// What one slice of a window writes from, and what it wrote.
private struct WriterSlice<Input> {
    var input: Input
    var bytes: [UInt8] = []
    var diagnostics: [CaptionDiagnostic] = []
    var replacedNulls = false
}

/// How much a streaming writer gathers before handing it on.
let captionWriterChunkSize = 256 * 1024

/// Slices handed to concurrent workers, each touching only its own element.
private struct UnsafeWriterSlices<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>
    init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }

    /// Moves the element out (so that its arrays stay uniquely referenced and grow in place) …
    func take(_ index: Int) -> Element { (buffer.baseAddress! + index).move() }
    /// … and back in.
    func put(_ element: Element, at index: Int) { (buffer.baseAddress! + index).initialize(to: element) }
}
