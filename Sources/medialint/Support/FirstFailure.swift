import ArgumentParser
import Foundation
import Checks
import Library
import Findings
import Reports

/// The first of the errors met by the workers, and how many there were.
final class FirstFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var error: String?
    private var total = 0
    func record(_ error: Error) {
        lock.withLock {
            total += 1
            if self.error == nil { self.error = String(describing: error).split(whereSeparator: \.isNewline).first.map(String.init) }
        }
    }
    var first: String? { lock.withLock { error } }
    var count: Int { lock.withLock { total } }
}
