import Foundation
import SitegenContent
import SitegenPlatform

/// The names each folder of the site held when a build last read it, in the walk's order,
/// with the folder's stamp then. A folder whose stamp is the same still holds the same
/// names: adding, removing or renaming an entry sets its modification and change times, and
/// nothing sets a change time back. The next build then looks the folder's files up by
/// those names instead of reading and sorting the folder again, which is much of a rebuild
/// with nothing changed when a folder holds many files (the homework's).
///
/// Kept beside the build cache, in a file of its own: the walk reads it before the cache
/// is read, and it is rewritten only when a folder was read again.
struct FolderListings: Sendable, Equatable {
    /// Who a folder is and when it last changed, from `fstat`.
    struct Stamp: Sendable, Equatable {
        var device: UInt64
        var inode: UInt64
        var modified: Int64
        var changed: Int64
    }

    struct Folder: Sendable, Equatable {
        var stamp: Stamp
        /// The names in the order the walk takes them, each followed by a NUL.
        var names: [UInt8]
        /// For each name, whether it is a folder (else a plain file).
        var isFolder: [Bool]
    }

    /// By the folder's path as the walk opened it.
    var folders: [String: Folder] = [:]

    /// How long before a build began a file or folder must have last changed for its stamp
    /// to tell a later change: a file system stamps times from a clock that moves in ticks,
    /// and an entry added (or a file written) in the tick it was looked at in would leave
    /// the times as they were read. The kernel's tick is at most 10 ms, which is the tick of
    /// the file systems whose stamps are fine (`KernelFiles.hasFineTimestamps`); others may
    /// stamp whole seconds (two on FAT), or take the time from another machine's clock (NFS).
    static func settledFor(fineTimestamps: Bool) -> Int64 {
        fineTimestamps ? 20_000_000 : 2_000_000_000
    }

    /// Stamps are trusted of what last changed before this time, in nanoseconds since 1970:
    /// now less `settledFor(fineTimestamps:)` of the file system `path` is on.
    static func settledBefore(for path: String) -> Int64 {
        currentTime() - settledFor(fineTimestamps: KernelFiles.hasFineTimestamps(at: path))
    }

    static func currentTime() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return OutputManifest.nanoseconds(now)
    }

    /// `<cache>.listings` beside the cache file.
    static func path(besides cachePath: String) -> String {
        (cachePath.hasSuffix(".cache") ? String(cachePath.dropLast(".cache".count)) : cachePath) + ".listings"
    }

    static let format = "sitegen-listings-1"

    /// The listings in `path`; none when there is no such file or it is not exactly as
    /// written (a listing read wrong would hide or invent files).
    static func load(from path: String) -> FolderListings {
        let read = BuildCache.readChecked(path) { reader, _ throws(BinaryReader.Corrupt) -> FolderListings? in
            var listings = FolderListings()
            guard try reader.string() == format else { return nil }
            let count = try reader.count()
            listings.folders.reserveCapacity(count)
            for _ in 0..<count {
                let path = try reader.string()
                let stamp = Stamp(device: try reader.word(), inode: try reader.word(),
                                  modified: Int64(bitPattern: try reader.word()), changed: Int64(bitPattern: try reader.word()))
                // Whether the names are as many as the kinds is seen when the walk splits
                // them, once, and a listing that is not is not used.
                listings.folders[path] = Folder(stamp: stamp, names: [UInt8](copying: try reader.bytes()), isFolder: try reader.bytes().map { $0 != 0 })
            }
            return listings
        }
        return read ?? FolderListings()
    }

    func save(to path: String) {
        var writer = BinaryWriter(reservingCapacity: folders.values.reduce(4096) { $0 + $1.names.count + $1.isFolder.count + 96 })
        writer.string(Self.format)
        writer.unsigned(UInt64(folders.count))
        for (path, folder) in folders.sorted(by: { $0.key < $1.key }) {
            writer.string(path)
            writer.word(folder.stamp.device)
            writer.word(folder.stamp.inode)
            writer.word(UInt64(bitPattern: folder.stamp.modified))
            writer.word(UInt64(bitPattern: folder.stamp.changed))
            folder.names.withUnsafeBufferPointer { writer.slice($0) }
            folder.isFolder.map { $0 ? UInt8(1) : 0 }.withUnsafeBufferPointer { writer.slice($0) }
        }
        BuildCache.writeChecked(&writer, to: path)
    }
}

extension FolderListings.Stamp {
    init(_ info: stat) {
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), modified: OutputManifest.time(of: info),
                  changed: OutputManifest.nanoseconds(info.changeTime))
    }
}
