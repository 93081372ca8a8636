import Foundation
import SitegenPlatform
import SitegenSupport

/// A file's size and modification time: when both are as before, the file is taken to
/// be as before (as make, rsync and git do).
public struct FileStamp: Sendable, Hashable {
    public var size: Int
    public var modified: Int64

    public static func of(_ path: String) -> FileStamp? {
        of(path, in: AT_FDCWD)
    }

    /// The stamp of `path` relative to `folder` (a descriptor of an open folder): the
    /// kernel looks up only the folders below it, not the whole path again, for each file.
    public static func of(_ path: String, in folder: Int32) -> FileStamp? {
        path.withCString { of($0, in: folder) }
    }

    /// The stamp of the NUL-terminated name `path` in `folder`, for names read by
    /// `readdir` that were never made into strings.
    public static func of(_ path: UnsafePointer<UInt8>, in folder: Int32) -> FileStamp? {
        path.withMemoryRebound(to: CChar.self, capacity: 1) { of($0, in: folder) }
    }

    private static func of(_ path: UnsafePointer<CChar>, in folder: Int32) -> FileStamp? {
        var info = stat()
        guard fstatat(folder, path, &info, 0) == 0 else { return nil }
        return FileStamp(size: Int(info.st_size), modified: OutputManifest.time(of: info))
    }

    public init(size: Int, modified: Int64) {
        self.size = size
        self.modified = modified
    }
}

/// A folder held open while files in it are looked at by relative path.
public final class OpenFolder: Sendable {
    public let descriptor: Int32

    public init?(_ path: String) {
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
    }

    /// The folder `name` (NUL-terminated) in the open folder `parent`.
    public init?(_ name: UnsafePointer<CChar>, in parent: Int32) {
        descriptor = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
    }

    public func stamp(of path: String) -> FileStamp? {
        FileStamp.of(path, in: descriptor)
    }

    deinit {
        close(descriptor)
    }
}
