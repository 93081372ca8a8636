import SitegenCLI
import Synchronization

/// A console whose input is given and whose output is kept for the test to read.
final class CapturedConsole: Sendable {
    private let state = Mutex<(output: [UInt8], error: String)>(([], ""))
    private let input: [UInt8]

    init(input: String = "") {
        self.input = Array(input.utf8)
    }

    var console: Console {
        Console(
            readInput: { [input] in input },
            writeOutput: { bytes in self.state.withLock { $0.output += bytes } },
            writeError: { text in self.state.withLock { $0.error += text } }
        )
    }

    var output: String { state.withLock { String(decoding: $0.output, as: UTF8.self) } }
    var error: String { state.withLock { $0.error } }

    /// Runs `sitegen` with these arguments and returns the exit status.
    func run(_ arguments: String...) -> Int32 {
        CommandLineTool.run(arguments: arguments, console: console)
    }
}
