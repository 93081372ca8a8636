import Foundation

/// A process told apart from any later one that gets its number: the number and the time
/// it started, in clock ticks since boot (`/proc/<pid>/stat`).
public struct RunningProcess: Sendable, Hashable, CustomStringConvertible {
    public var id: Int32
    public var started: UInt64

    public static let current = RunningProcess(id: getpid(), started: startTime(of: getpid()) ?? 0)

    /// `pid <id> started <ticks>`, as `init?(description:)` reads it back.
    public var description: String { "pid \(id) started \(started)" }

    public init(id: Int32, started: UInt64) {
        self.id = id
        self.started = started
    }

    public init?(description: String) {
        let words = description.split(whereSeparator: \.isWhitespace)
        guard words.count == 4, words[0] == "pid", words[2] == "started", let id = Int32(words[1]), let started = UInt64(words[3]) else { return nil }
        self.init(id: id, started: started)
    }

    /// Whether this process still runs: its number is in use by a process that started
    /// when it did.
    public var isRunning: Bool {
        guard kill(id, 0) == 0 || errno == EPERM else { return false }
        return RunningProcess.startTime(of: id) == started
    }

    /// The 22nd field of `/proc/<pid>/stat`; the name before it, in parentheses, may hold
    /// spaces, so fields are counted after its closing parenthesis.
    private static func startTime(of pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let nameEnd = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        // After the name: state is field 3, start time field 22.
        guard fields.count > 19 else { return nil }
        return UInt64(fields[19])
    }
}
