import ArgumentParser
import Foundation

/// `-o FILE`: where a command's output goes (standard output by default). Files are written atomically.
struct OutputOptions: ParsableArguments {
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the output to this file instead of standard output.", valueName: "file"))
    var output: String?

    /// The style for text output: colour only when printing to a terminal that allows it.
    var textStyle: TextStyle {
        TextStyle(enabled: output == nil && Console.colorAllowed(on: STDOUT_FILENO))
    }

    /// Writes `text` to the chosen destination.
    func emit(_ text: String) throws {
        if let output {
            try AtomicFile.write(Data(text.utf8), to: output)
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}
