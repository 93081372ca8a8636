import Foundation
import SitegenPlatform

/// The names each folder of the site held when a build last read it, in the walk's order,
/// with the folder's stamp then. A folder whose stamp is the same still holds the same
/// names: adding, removing or renaming an entry sets its modification and change times, and
/// nothing sets a change time back. The next build then looks the folder's files up by
/// those names instead of reading and sorting the folder again, which is much of a rebuild
/// with nothing changed when a folder holds many files (the homework's).
public struct FolderListings: Sendable, Equatable {
    /// Who a folder is and when it last changed, from `fstat`.
    public struct Stamp: Sendable, Equatable {
        public var device: UInt64
        public var inode: UInt64
        public var modified: Int64
        public var changed: Int64

        public init(device: UInt64, inode: UInt64, modified: Int64, changed: Int64) {
            self.device = device
            self.inode = inode
            self.modified = modified
            self.changed = changed
        }
    }

    public struct Folder: Sendable, Equatable {
        public var stamp: Stamp
        /// The names in the order the walk takes them, each followed by a NUL.
        public var names: [UInt8]
        /// For each name, whether it is a folder (else a plain file).
        public var isFolder: [Bool]

        public init(stamp: Stamp, names: [UInt8], isFolder: [Bool]) {
            self.stamp = stamp
            self.names = names
            self.isFolder = isFolder
        }
    }

    /// By the folder's path as the walk opened it.
    public var folders: [String: Folder] = [:]

    public init() {}

    /// How long before a build began a file or folder must have last changed for its stamp
    /// to tell a later change: a file system stamps times from a clock that moves in ticks,
    /// and an entry added (or a file written) in the tick it was looked at in would leave
    /// the times as they were read. The kernel's tick is at most 10 ms, which is the tick of
    /// the file systems whose stamps are fine (`KernelFiles.hasFineTimestamps`); others may
    /// stamp whole seconds (two on FAT), or take the time from another machine's clock (NFS).
    public static func settledFor(fineTimestamps: Bool) -> Int64 {
        fineTimestamps ? 20_000_000 : 2_000_000_000
    }

    /// Stamps are trusted of what last changed before this time, in nanoseconds since 1970:
    /// now less `settledFor(fineTimestamps:)` of the file system `path` is on.
    public static func settledBefore(for path: String) -> Int64 {
        currentTime() - settledFor(fineTimestamps: KernelFiles.hasFineTimestamps(at: path))
    }

    public static func currentTime() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return OutputManifest.nanoseconds(now)
    }
}

extension FolderListings.Stamp {
    public init(_ info: stat) {
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), modified: OutputManifest.time(of: info),
                  changed: OutputManifest.nanoseconds(info.changeTime))
    }
}
