@_spi(Fuzzing) import Captions
import Foundation

// A libFuzzer target for the caption readers and writers (`make fuzz`). Each input is read as WebVTT
// (lenient and strict), SRT, TTML (lenient and strict), SCC, SAMI, ASS, SBV and EBU STL, or by one reader only
// (FUZZ_READER=webvtt, srt, ttml, scc, sami, ass, sbv or stl); every cue's text is
// walked by both markup readers; a long-file parse (in parts) must give the one-pass document; a timing edit
// must keep every cue; and what the writers produce must be a fixed point: written, read back and written
// again, in either format, it gives the same bytes.
//
// Built normally, this is a replay tool: `CaptionsFuzzer FILE...` runs the same checks on saved inputs
// (crash reproducers, the corpus). Built with `-DFUZZING -sanitize=fuzzer`, libFuzzer drives it.

/// Which readers to exercise (FUZZ_READER: webvtt, srt, ttml, scc, sami, ass, sbv, stl; anything else: all).
private let reader = ProcessInfo.processInfo.environment["FUZZ_READER"] ?? "all"

@_cdecl("LLVMFuzzerTestOneInput")
public func captionsFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var documents: [CaptionDocument] = []
    if reader == "all" || reader == "ttml" {
        if let ttml = try? TTMLReader().read(bytes) { documents.append(ttml) }
        if let strict = try? TTMLReader(mode: .strict).read(bytes) { documents.append(strict) }
    }
    if reader == "all" || reader == "scc", let scc = try? SCCReader().read(bytes) { documents.append(scc.document) }
    if reader == "all" || reader == "sami", let sami = try? SAMIReader().read(bytes) { documents.append(sami) }
    if reader == "all" || reader == "ass", let ass = try? ASSReader().read(bytes) { documents.append(ass) }
    if reader == "all" || reader == "sbv", let sbv = try? SBVReader().read(bytes) { documents.append(sbv) }
    if reader == "all" || reader == "stl", let stl = try? STLReader().read(bytes) { documents.append(stl) }
    if reader == "all" || reader == "webvtt" {
        if let vtt = try? WebVTTReader().read(bytes) {
            documents.append(vtt)
            if !bytes.contains(0), !bytes.starts(with: [0xEF, 0xBB, 0xBF]), bytes.withUnsafeBufferPointer({ String(validating: $0, as: UTF8.self) }) != nil {
                for parts in [2, 3] {
                    if let inParts = WebVTTReader().read(utf8: bytes, inParts: parts) { expectSame(inParts, vtt, "WebVTT in \(parts) parts") }
                }
            }
        }
        if let strict = try? WebVTTReader(mode: .strict).read(bytes) { documents.append(strict) }
    }
    if reader == "all" || reader == "srt", let srt = try? SRTReader().read(bytes) {
        documents.append(srt)
        if !bytes.starts(with: [0xEF, 0xBB, 0xBF]), bytes.withUnsafeBufferPointer({ String(validating: $0, as: UTF8.self) }) != nil {
            for parts in [2, 3] {
                if let inParts = SRTReader().read(utf8: bytes, inParts: parts) { expectSame(inParts, srt, "SRT in \(parts) parts") }
            }
        }
    }
    for document in documents {
        for cue in document.cues.prefix(200) {
            _ = cue.plainText(in: .webvtt)
            _ = cue.plainText(in: .srt)
            _ = cue.firstVoice
            _ = SRTMarkup.nodes(of: cue.text)
            _ = SRTMarkup.problems(of: cue.text)
        }
        var shifted = document
        _ = TimingEdit(offset: -1.5, scale: 1.001).apply(to: &shifted)
        precondition(shifted.cues.count == document.cues.count, "a timing edit lost cues")
        for format in CaptionFormat.writable {
            let first = CaptionFile.encode(document, as: format).bytes
            guard let reread = try? CaptionFile.read(first, format: format) else {
                // SRT output without a single cue is empty or blank, which reads back as a file without cues.
                fatalError("the \(format) writer's output does not read back")
            }
            let second = CaptionFile.encode(reread, as: format).bytes
            // SCC holds one pop-on caption at a time on 29.97 fps frames: it merges, shortens and drops cues (and
            // says so), and is not yet a fixed point on every pathological input; it must read back.
            guard format != .scc else { continue }
            precondition(first == second, "the \(format) writer's output is not a fixed point")
            // SAMI cannot hold a cue without text or time (it says so).
            guard format != .sami else { continue }
            precondition(reread.cues.count == document.cues.count, "cues lost writing \(format)")
        }
    }
    return 0
}

/// A document parsed in parts must be the one-pass document, cue lines and diagnostics included.
private func expectSame(_ parts: CaptionDocument, _ one: CaptionDocument, _ what: String) {
    precondition(parts.cues == one.cues && parts.cues.map(\.line) == one.cues.map(\.line), "\(what): cues differ from one pass")
    precondition(parts.diagnostics == one.diagnostics, "\(what): diagnostics differ from one pass")
    precondition(
        parts.notes == one.notes && parts.headerBlocks == one.headerBlocks && parts.header == one.header,
        "\(what): header or notes differ from one pass")
}

#if FUZZING
    /// libFuzzer's entry point for programs that have their own `main`.
    @_silgen_name("LLVMFuzzerRunDriver")
    private func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
    ) -> CInt
#endif

@main
struct CaptionsFuzzerMain {
    static func main() {
        #if FUZZING
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(runFuzzerDriver(&argc, &argv, captionsFuzzerTestOneInput))
        #else
            for path in CommandLine.arguments.dropFirst() {
                guard let bytes = try? CaptionFile.readBytes(path) else {
                    print("cannot read \(path)")
                    continue
                }
                _ = bytes.withUnsafeBufferPointer { captionsFuzzerTestOneInput($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
                print("ok \(path)")
            }
        #endif
    }
}
