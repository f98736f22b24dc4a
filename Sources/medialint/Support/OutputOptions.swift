import ArgumentParser
import Foundation
import Findings
import Reports

/// `-o FILE`: where a command's output goes (standard output by default). Files are written atomically.
struct OutputOptions: ParsableArguments {
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the output to this file instead of standard output.", valueName: "file"))
    var output: String?

    /// The style for text output: colour only when printing to a terminal that allows it.
    var textStyle: TextStyle {
        TextStyle(enabled: output == nil && Console.colorAllowed(on: STDOUT_FILENO))
    }

    /// Throws when `-o` names one of the command's inputs (by name, link or hard link): a report never replaces
    /// what it reports on.
    func refuse(inputs: [String]) throws {
        if let output { try OutputStream.refuseInputs(output, inputs) }
    }

    /// Writes `text` to the chosen destination.
    func emit(_ text: String) throws {
        try OutputStream.write(to: output ?? "-") { sink in
            var text = text
            text.withUTF8 { sink.write($0) }
        }
    }

    /// Runs `body` with a sink that writes bytes to the chosen destination as they are made.
    func stream(_ body: (OutputSink) throws -> Void) throws {
        try OutputStream.write(to: output ?? "-", body)
    }
}

/// Output written as it is made, to where `OutputDestination` says: standard output (`-`), a device or FIFO
/// written through, or a file that appears complete when the writing is done, or not at all (see `StreamingFile`).
enum OutputStream {
    /// Writes to `path`; `refusing` names inputs the output must not be (the same file, through any name or link).
    static func write(to path: String, refusing inputs: [String] = [], _ body: (OutputSink) throws -> Void) throws {
        try refuseInputs(path, inputs)
        let file = try StreamingFile(path: path)
        let sink = OutputSink { file.write(chunk: $0) }
        do {
            try body(sink)
        } catch {
            sink.finish()
            throw error
        }
        sink.finish()
        try file.commit()
    }

    /// Throws when `path` would write over one of `inputs` (compared by device and inode, so links and other
    /// names of the same file count).
    static func refuseInputs(_ path: String, _ inputs: [String]) throws(CLIError) {
        guard !inputs.isEmpty, let output = try OutputDestination.resolve(path).existingIdentity else { return }
        for input in inputs where FileIdentity(path: input) == output {
            throw CLIError("\(path) is the input file \(input); write elsewhere (or use --in-place where offered)")
        }
    }
}

/// Where output goes while it is being made: chunks handed over are written on a thread of their own, so that
/// making the next chunk and writing the last one overlap. At most a few chunks wait (memory stays flat); their
/// buffers come back to be filled again.
final class OutputSink: @unchecked Sendable {
    /// A chunk on its way: owned by the writing thread until it is written, then given back.
    private final class Chunk: @unchecked Sendable {
        var bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    private let queue = DispatchQueue(label: "medialint.output")
    private let slots = DispatchSemaphore(value: 4)
    private let lock = NSLock()
    private var spare: [[UInt8]] = []
    private let writeOut: (UnsafeBufferPointer<UInt8>) -> Void

    /// `writeOut` writes bytes where they go (it runs on the sink's thread, one chunk at a time, in order).
    init(_ writeOut: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.writeOut = writeOut
    }

    /// Takes `bytes` to be written, leaving in their place an empty buffer with capacity to fill again.
    func take(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        slots.wait()
        var empty = lock.withLock { spare.popLast() } ?? []
        swap(&empty, &bytes)
        let chunk = Chunk(empty)
        queue.async { [self] in
            chunk.bytes.withUnsafeBufferPointer { writeOut($0) }
            chunk.bytes.removeAll(keepingCapacity: true)
            let buffer = chunk.bytes
            chunk.bytes = []
            lock.withLock { spare.append(buffer) }
            slots.signal()
        }
    }

    /// Writes a copy of borrowed bytes.
    func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        var copy = lock.withLock { spare.popLast() } ?? []
        copy.append(contentsOf: bytes)
        take(&copy)
    }

    /// Waits until everything handed over is written.
    func finish() {
        queue.sync {}
    }
}

extension JSONWriter {
    /// A writer that hands its bytes to `sink` a chunk at a time (call `finish()` at the end).
    static func streaming(pretty: Bool, to sink: OutputSink) -> JSONWriter {
        JSONWriter(pretty: pretty) { sink.write($0) }
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
