import Captions
import MediaIO

/// A failure the command line reports in one line on standard error with exit status 2 (a usage error, a path that
/// does not exist, an input no reader accepts): the one kind of error `main.swift` maps to an exit status.
protocol CommandLineFailure: Error {
    /// What standard error says.
    var lineForUser: String { get }
}

/// A failure of the command line itself (e.g. an output file that cannot be written).
struct CLIError: CommandLineFailure, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
    var lineForUser: String { message }
}

extension MediaError: CommandLineFailure {
    var lineForUser: String { description }
}

extension CaptionError: CommandLineFailure {
    var lineForUser: String { message }
}
