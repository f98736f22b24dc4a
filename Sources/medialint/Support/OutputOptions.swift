import ArgumentParser
import Foundation
import Reports

/// `-o FILE`: where a command's output goes (standard output by default). Files are written atomically.
struct OutputOptions: ParsableArguments {
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the output to this file instead of standard output.", valueName: "file"))
    var output: String?

    /// The style for text output: colour only when printing to a terminal that allows it.
    var textStyle: TextStyle {
        TextStyle(enabled: output == nil && Console.colorAllowed(on: STDOUT_FILENO))
    }

    /// Writes `text` to the chosen destination.
    func emit(_ text: String) throws {
        try OutputStream.write(to: output ?? "-") { write in
            var text = text
            text.withUTF8 { write($0) }
        }
    }

    /// Runs `body` with a function that writes bytes to the chosen destination as they are made.
    func stream(_ body: (_ write: @escaping (UnsafeBufferPointer<UInt8>) -> Void) throws -> Void) throws {
        try OutputStream.write(to: output ?? "-", body)
    }
}

/// Output written as it is made: to standard output (`-`), or to a file that appears complete when the writing
/// is done, or not at all (see `StreamingFile`).
enum OutputStream {
    static func write(to path: String, _ body: (_ write: @escaping (UnsafeBufferPointer<UInt8>) -> Void) throws -> Void) throws {
        if path == "-" {
            try body { StandardOutput.write($0) }
            return
        }
        let file = try StreamingFile(path: path)
        try body { file.write(chunk: $0) }
        try file.commit()
    }
}

extension JSONWriter {
    /// A writer that hands its bytes to `write` a chunk at a time (call `finish()` at the end).
    static func streaming(pretty: Bool, to write: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> JSONWriter {
        JSONWriter(pretty: pretty) { bytes in
            bytes.withUnsafeBufferPointer { write($0) }
            bytes.removeAll(keepingCapacity: true)
        }
    }
}

/// Standard output without Foundation's buffering or exceptions: bytes go to descriptor 1 as they come.
enum StandardOutput {
    static func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(STDOUT_FILENO, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
