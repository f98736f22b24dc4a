import ArgumentParser
import Foundation
import Checks
import Library
import Findings
import Reports

/// Set once, from a signal handler; read by the workers.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
