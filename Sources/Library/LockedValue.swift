import Foundation

/// A value behind a lock, for what the workers of a run share.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    /// Changes the value (and gives what `body` returns) while holding the lock.
    @discardableResult
    func update<Result>(_ body: (inout Value) -> Result) -> Result { lock.withLock { body(&stored) } }
}
