import Findings
import Foundation

/// Standard output without Foundation's buffering or exceptions: bytes go to descriptor 1 as they come (the progress
/// line cleared first when standard output is the terminal it is on).
enum StandardOutput {
    static let isTerminal = isatty(STDOUT_FILENO) == 1

    static func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        if isTerminal { ProgressLine.clear() }
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
