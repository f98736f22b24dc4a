import ArgumentParser
import Foundation
import Checks
import Library
import Findings
import Reports

/// Files done so far, and a lock for writing their results in turn.
final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() -> Int {
        lock.withLock {
            count += 1; return count
        }
    }
    func withLock(_ body: () -> Void) { lock.withLock(body) }
}
