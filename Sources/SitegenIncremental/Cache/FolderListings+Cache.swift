import SitegenFiles
import SitegenPipeline
import SitegenSupport

/// The listings are kept beside the build cache, in a file of their own: the walk reads it
/// before the cache is read, and it is rewritten only when a folder was read again.
extension FolderListings {
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
