import ArgumentParser
import Checks
import Findings
import Foundation
import Library

/// `--tolerance 0.1` or `--tolerance 0.1,0.25`: seconds before a warning, and before an error.
struct Tolerance: ExpressibleByArgument {
    var warn: Double
    var fail: Double?

    init?(argument: String) {
        let parts = argument.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard (1...2).contains(parts.count), let warn = parts[0], warn > 0, warn.isFinite else { return nil }
        self.warn = warn
        if parts.count == 2 {
            guard let fail = parts[1], fail >= warn, fail.isFinite else { return nil }
            self.fail = fail
        }
    }
}
