import Foundation
import SitegenPlatform

/// A file made at a path that had none, which appears there whole or not at all: a build
/// killed while writing it leaves no half of a page in the output. Its bytes go into a
/// file without a name (`O_TMPFILE`), which is linked at the path once full; a killed
/// build's nameless file is freed by the kernel.
enum NewFile {
    /// `__O_TMPFILE` with `O_DIRECTORY`, as the kernel expects it; the C macro does not
    /// reach Swift.
    private static let temporaryFlag = Int32(0o20000000) | O_DIRECTORY

    /// Makes the file at `path`, which must not exist, with what `fill` writes to it.
    static func make<Value>(at path: String, _ fill: (Int32) throws -> Value) throws -> Value {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let descriptor = open(folder, temporaryFlag | O_WRONLY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return try makeByName(at: path, in: folder, fill) }
        defer { close(descriptor) }
        let value = try fill(descriptor)
        guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 else { throw POSIXError.current }
        return value
    }

    /// For a file system without nameless files: a hidden name beside the path, linked to
    /// it (which, unlike a rename, never replaces a file) and then removed. A killed
    /// build's hidden file is removed by the next full build (`OutputWriter.removeStale`).
    private static func makeByName<Value>(at path: String, in folder: String, _ fill: (Int32) throws -> Value) throws -> Value {
        let temporary = folder + "/.sitegen-new-\(getpid())-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError.current }
        defer {
            close(descriptor)
            unlink(temporary)
        }
        let value = try fill(descriptor)
        guard link(temporary, path) == 0 else { throw POSIXError.current }
        return value
    }
}
