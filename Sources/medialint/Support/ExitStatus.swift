/// The exit statuses of the command-line contract (docs/cli.md).
enum ExitStatus: Int32 {
    /// Nothing at error severity.
    case ok = 0
    /// At least one check failed.
    case checkFailed = 1
    /// A usage error, or an input that could not be read.
    case unreadableInput = 2
}
