import SitegenContent
import SitegenPlatform

/// Where a command reads and writes. Tests hand in buffers; `standard` is the terminal.
public struct Console: Sendable {
    public var readInput: @Sendable () -> [UInt8]
    public var writeOutput: @Sendable ([UInt8]) -> Void
    public var writeError: @Sendable (String) -> Void

    public init(
        readInput: @escaping @Sendable () -> [UInt8],
        writeOutput: @escaping @Sendable ([UInt8]) -> Void,
        writeError: @escaping @Sendable (String) -> Void
    ) {
        self.readInput = readInput
        self.writeOutput = writeOutput
        self.writeError = writeError
    }

    public static let standard = Console(
        readInput: { readAll(from: 0) },
        writeOutput: { write($0, to: 1) },
        writeError: { write(Array($0.utf8), to: 2) }
    )

    func print(_ line: String) {
        writeOutput(Array((line + "\n").utf8))
    }

    func printError(_ line: String) {
        writeError(line + "\n")
    }
}

private func readAll(from descriptor: Int32) -> [UInt8] {
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            data.append(contentsOf: chunk[0..<count])
        } else if count == 0 || errno != EINTR {
            return data
        }
    }
}

private func write(_ bytes: [UInt8], to descriptor: Int32) {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { SystemCall.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
        if written > 0 {
            offset += written
        } else if written < 0, errno != EINTR {
            return
        }
    }
}
