/// The exit statuses of the command-line contract (docs/cli.md).
enum ExitStatus: Int32 {
    /// Nothing at error severity.
    case ok = 0
    /// At least one check failed.
    case checkFailed = 1
    /// A usage error, or an input that could not be read.
    case unreadableInput = 2
}

/// A failure of the command line itself (e.g. an output file that cannot be written): exit status 2.
struct CLIError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
