import ArgumentParser
import Foundation
import Checks
import Library
import Findings
import Reports

/// Where results are kept unless `--db` says otherwise, and what must match for them to be reused.
enum ResultStoreDefaults {
    static let path = ".medialint/results.sqlite"
    /// Results depend on the tool's version (and, as options are added to `check`, on them).
    static let setup = "\(ToolInfo.name) \(ToolInfo.version) check"
}
