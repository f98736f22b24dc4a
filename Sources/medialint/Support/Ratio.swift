import ArgumentParser

/// A positive ratio: `1.001`, `25/23.976`.
struct Ratio: ExpressibleByArgument {
    var value: Double

    init(value: Double) { self.value = value }

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == parts.count, (1...2).contains(numbers.count) else { return nil }
        let value = numbers.count == 2 ? numbers[0] / numbers[1] : numbers[0]
        guard value.isFinite, value > 0 else { return nil }
        self.value = value
    }
}
