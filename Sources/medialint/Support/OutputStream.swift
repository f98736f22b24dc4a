import FileAccess
import Findings
import Foundation
import Streaming

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
    /// names of the same file count). `option`: the option that named `path`, when not `-o`.
    static func refuseInputs(_ path: String, _ inputs: [String], option: String? = nil) throws(CLIError) {
        guard !inputs.isEmpty, let output = try OutputDestination.resolve(path).existingIdentity else { return }
        for input in inputs where FileIdentity(path: input) == output {
            if let option { throw CLIError("\(option) \(path) is the input file \(input), which this run reads; write elsewhere") }
            throw CLIError("\(path) is the input file \(input); write elsewhere (or use --in-place where offered)")
        }
        // An HLS package is its playlists and segments too: every file a run reads is an input.
        for input in inputs where (input as NSString).pathExtension.lowercased() == "m3u8" {
            guard let package = try? HLSPackage.readPlaylists(input) else { continue }
            for member in package.memberFiles() where FileIdentity(path: member) == output {
                throw CLIError("\(path) is part of the HLS package \(input) (\(member)); write elsewhere")
            }
        }
    }
}
