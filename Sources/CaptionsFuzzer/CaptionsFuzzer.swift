import Captions
import Foundation

// A libFuzzer target for the caption readers and writers (`make fuzz`). Each input is read as WebVTT
// (lenient and strict) and as SRT; every cue's text is parsed; and what the writers produce must be a
// fixed point: written, read back and written again, in either format, it gives the same bytes.
//
// Built normally, this is a replay tool: `CaptionsFuzzer FILE...` runs the same checks on saved inputs
// (crash reproducers, the corpus). Built with `-DFUZZING -sanitize=fuzzer`, libFuzzer drives it.

@_cdecl("LLVMFuzzerTestOneInput")
public func captionsFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var documents: [CaptionDocument] = []
    if let vtt = try? WebVTTReader().read(bytes) { documents.append(vtt) }
    if let strict = try? WebVTTReader(mode: .strict).read(bytes) { documents.append(strict) }
    if let srt = try? SRTReader().read(bytes) { documents.append(srt) }
    for document in documents {
        for cue in document.cues.prefix(200) {
            _ = cue.plainText
            _ = SRTMarkup.nodes(of: cue.text)
        }
        for format in CaptionFormat.allCases {
            let first = CaptionFile.encode(document, as: format).bytes
            guard let reread = try? CaptionFile.read(first, format: format) else {
                fatalError("the \(format) writer's output does not read back")
            }
            let second = CaptionFile.encode(reread, as: format).bytes
            precondition(first == second, "the \(format) writer's output is not a fixed point")
            precondition(reread.cues.count == document.cues.count, "cues lost writing \(format)")
        }
    }
    return 0
}

#if FUZZING
/// libFuzzer's entry point for programs that have their own `main`.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>,
                             _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                             _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt
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
