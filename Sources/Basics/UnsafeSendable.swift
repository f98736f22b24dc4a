/// A value handed to concurrent workers that each touch their own part of it (or only read it): what makes
/// that safe is the caller's to ensure.
struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
