import Foundation

/// Another program run in this one's place for a while: it shares the terminal (standard
/// input, output and error), and its exit status is the caller's to return.
public enum Subprocess {
    /// Runs `path` with `arguments` and waits for it; its exit status, or 128 and the
    /// signal's number when a signal ended it, or 127 when it could not be started.
    public static func run(_ path: String, arguments: [String]) -> Int32 {
        var pid: pid_t = 0
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, path, nil, nil, argv, environ) == 0 else { return 127 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            if errno != EINTR { return 127 }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
