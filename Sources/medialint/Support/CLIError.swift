/// A failure of the command line itself (e.g. an output file that cannot be written): exit status 2.
struct CLIError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
