import ArgumentParser
import Foundation
import Findings
import Reports

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
