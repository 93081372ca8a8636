import Foundation
import SitegenContent
import SitegenFiles
import SitegenPipeline
import SitegenPlatform
import SitegenSupport

/// The file beside a build cache that holds the encoded models, one per content file: a
/// build adds the models it made to its end instead of writing the whole file again, so a
/// rebuild after one edit writes kilobytes, not the whole store. The cache remembers which
/// store it was written with and how long it was, and each model's checksum; a store that
/// is not that one is not read, a model that does not match its checksum is made again.
/// When most of the store is models no longer used, a new one is written in its place.
enum ModelStore {
    /// Which store, and how much of it a cache uses.
    struct Mark: Sendable, Equatable {
        var identity: UInt64 = 0
        var length = 0
    }

    /// "sgmodel1" and the store's identity.
    static let headerLength = 16
    private static let magic = Array("sgmodel1".utf8)

    static func path(besides cachePath: String) -> String {
        (cachePath.hasSuffix(".cache") ? String(cachePath.dropLast(".cache".count)) : cachePath) + ".models"
    }

    /// The store's bytes, when it is the store of `mark` and holds its first `mark.length`
    /// bytes. Each model is checked against its own checksum when it is decoded
    /// (`ContentEntry.decoded`), on both cores: a running checksum of the whole store, one
    /// word after the other on one core, held up a rebuild of the large corpus before any
    /// model was decoded, and the store's writer and every append made it again.
    static func read(_ path: String, as mark: Mark) -> [UInt8]? {
        guard mark.length >= headerLength, mark.length % 8 == 0, let bytes = FileReader.read(path), bytes.count >= mark.length,
              Array(bytes[0..<8]) == magic, identity(in: bytes[8..<16]) == mark.identity
        else { return nil }
        return bytes
    }

    /// A store opened to read a few models one by one, its header checked once.
    final class Models: Sendable {
        private let descriptor: Int32

        /// Nil when the file at `path` is not the store of `mark`.
        init?(_ path: String, mark: Mark) {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            var header = [UInt8](repeating: 0, count: headerLength)
            guard pread(descriptor, &header, headerLength, 0) == headerLength, Array(header[0..<8]) == magic, identity(in: header[8..<16]) == mark.identity else {
                close(descriptor)
                return nil
            }
        }

        /// The bytes at `range`, when they are as written.
        func model(at range: Range<Int>, checksum: UInt64) -> [UInt8]? {
            ModelStore.model(from: descriptor, at: range, checksum: checksum)
        }

        deinit {
            close(descriptor)
        }
    }

    /// The bytes at `range` of the store open at `descriptor`, when they are as written.
    private static func model(from descriptor: Int32, at range: Range<Int>, checksum: UInt64) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: range.count)
        guard bytes.withUnsafeMutableBytes({ pread(descriptor, $0.baseAddress, range.count, off_t(range.lowerBound)) }) == range.count,
              Checksum.value(bytes[...]) == checksum
        else { return nil }
        return bytes
    }

    /// Adds `models` after the first `mark.length` bytes of the store of `mark`, for a
    /// save of a few changes; the new mark and where each model went, with its checksum.
    static func append(_ models: [ArraySlice<UInt8>], at path: String, readAs mark: Mark) -> (Mark, [(range: Range<Int>, checksum: UInt64)])? {
        guard !models.isEmpty else { return (mark, []) }
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        flock(descriptor, LOCK_EX)
        var info = stat()
        var header = [UInt8](repeating: 0, count: headerLength)
        guard fstat(descriptor, &info) == 0, Int(info.st_size) >= mark.length, mark.length >= headerLength,
              pread(descriptor, &header, headerLength, 0) == headerLength, Array(header[0..<8]) == magic, identity(in: header[8..<16]) == mark.identity
        else { return nil }
        var tail: [UInt8] = []
        var places: [(range: Range<Int>, checksum: UInt64)] = []
        for model in models {
            let start = mark.length + tail.count
            tail += model
            tail += repeatElement(0, count: padded(model.count) - model.count)
            places.append((start..<(start + model.count), Checksum.value(model)))
        }
        guard ftruncate(descriptor, off_t(mark.length)) == 0, writeAll(tail[...], to: descriptor, at: mark.length) else { return nil }
        return (Mark(identity: mark.identity, length: mark.length + tail.count), places)
    }

    /// Where a save put each model, for the cache file to name, with the stamp and hash
    /// of its source, so that the cache file is written without looking each up again.
    struct Saved: Sendable {
        var mark: Mark
        /// Relative to Content/, in the order of `locations`.
        var paths: PackedPaths
        var locations: [Range<Int>]
        /// Of each model's bytes.
        var checksums: [UInt64]
        var stamps: [FileStamp]
        var hashes: [UInt64]
        /// A new store written beside the old one (its temporary path), put in the old one's
        /// place by `commit` once the build it was saved for succeeds: a build that fails
        /// leaves the last cache's store as that cache needs it.
        var replacement: (temporary: String, path: String)?

        /// Puts a new store in place; false when it cannot be.
        func commit() -> Bool {
            guard let replacement else { return true }
            guard rename(replacement.temporary, replacement.path) == 0 else {
                unlink(replacement.temporary)
                return false
            }
            return true
        }

        /// Removes a new store that will not be used.
        func discard() {
            if let replacement { unlink(replacement.temporary) }
        }
    }

    /// Stores the models of `table` that are not in the store read as `mark`;
    /// nil when the store cannot be written. The store is locked meanwhile, so that two
    /// sitegens do not write it at once; a cache file naming a store that another build
    /// changed since does not read back (checksum) and is ignored. `pages`: the pages the
    /// build made, whose articles are stored without the HTML the pages hold.
    static func save(_ table: ContentTable, at path: String, readAs mark: Mark, htmlIn pages: PageTable? = nil) -> Saved? {
        let paths = table.paths
        let entries = table.entries
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        flock(descriptor, LOCK_EX)

        var info = stat()
        var header = [UInt8](repeating: 0, count: headerLength)
        let readable = fstat(descriptor, &info) == 0 && Int(info.st_size) >= mark.length && mark.length >= headerLength
            && pread(descriptor, &header, headerLength, 0) == headerLength
        let appendable = readable && Array(header[0..<8]) == magic && identity(in: header[8..<16]) == mark.identity
        var kept: [Range<Int>?] = []
        var stamps: [FileStamp] = []
        var hashes: [UInt64] = []
        kept.reserveCapacity(paths.count)
        stamps.reserveCapacity(paths.count)
        hashes.reserveCapacity(paths.count)
        for entry in entries {
            kept.append(appendable && !entry.storedWithHTMLItsPageHolds(pages) ? entry.stored : nil)
            stamps.append(entry.stamp)
            hashes.append(entry.hash)
        }
        // Models left unread in the store are where they were only in the same store.
        guard appendable || !entries.contains(where: { if case .unread = $0.payload { true } else { false } }) else { return nil }
        // A new store encodes each model as it is written, rather than every model at once
        // held in memory. So does a store none of whose models are kept (every model new: a
        // first build, a cache of another sitegen or of another site.yaml), which an append
        // would leave all dead.
        let anew = !appendable || kept.allSatisfy { $0 == nil }
        let fresh = !anew
            ? parallelMap(Array(kept.enumerated())) { index, kept -> (bytes: ArraySlice<UInt8>, checksum: UInt64) in
                guard kept == nil, let bytes = entries[index].encoded(htmlIn: pages) else { return ([], entries[index].storedChecksum) }
                return (bytes, Checksum.value(bytes))
            }
            : []
        let live = kept.reduce(0) { $0 + ($1?.count ?? 0) }
        let added = zip(kept, fresh).reduce(0) { $0 + ($1.0 == nil ? padded($1.1.bytes.count) : 0) }
        // A new store's are taken as each model is written.
        let checksums = anew ? [UInt64](repeating: 0, count: entries.count) : fresh.map(\.checksum)
        let saving = Saving(paths: paths, entries: entries, pages: pages, kept: kept, fresh: fresh, checksums: checksums, stamps: stamps, hashes: hashes)
        // Mostly dead models, or none kept: a new store with only the live ones, written as
        // it is assembled, a megabyte at a time.
        if anew || (mark.length - headerLength - live) * 2 > mark.length + added {
            return rewrite(saving, at: path, anew: anew, reading: descriptor)
        }
        return append(saving, to: descriptor, after: mark, adding: added)
    }

    /// What `save` writes: the table's models, those kept where the store has them, and
    /// those encoded afresh (none, for a new store, whose models are encoded as written).
    private struct Saving {
        let paths: PackedPaths
        let entries: [BuildCache.ContentEntry]
        let pages: PageTable?
        let kept: [Range<Int>?]
        let fresh: [(bytes: ArraySlice<UInt8>, checksum: UInt64)]
        var checksums: [UInt64]
        let stamps: [FileStamp]
        let hashes: [UInt64]
    }

    /// A new store at `path` (written beside it, to replace it), with the live models only.
    private static func rewrite(_ saving: Saving, at path: String, anew: Bool, reading descriptor: Int32) -> Saved? {
        var saving = saving
        let (paths, entries, pages, kept, fresh) = (saving.paths, saving.entries, saving.pages, saving.kept, saving.fresh)
        let identity = UInt64.random(in: 1...UInt64.max)
        let temporary = path + ".\(getpid()).tmp"
        let output = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { return nil }
        func abandon() -> Saved? {
            close(output)
            unlink(temporary)
            return nil
        }
        var writer = ChunkWriter(descriptor: output)
        writer.append(magic[...])
        withUnsafeBytes(of: identity.littleEndian) { writer.append(ArraySlice($0)) }
        var locations: [Range<Int>] = []
        locations.reserveCapacity(paths.count)
        if anew {
            // Every model of a new store is new: encoded on both cores, a batch at a time
            // (each core's half into a buffer of its own, copied into the chunk once),
            // and written as the batches come, rather than one after the other as the
            // last work of a first build, on one core.
            for batch in stride(from: 0, to: entries.count, by: newStoreBatch).map({ $0..<min($0 + newStoreBatch, entries.count) }) {
                let middle = batch.lowerBound + batch.count / 2
                let halves = [batch.lowerBound..<middle, middle..<batch.upperBound]
                for (indices, half) in zip(halves, parallelMap(halves, { encodedPadded(entries[$0], htmlIn: pages) })) {
                    guard let half else { return abandon() }
                    let start = writer.length
                    writer.append(half.bytes[...])
                    for (index, model) in zip(indices, half.models) {
                        locations.append((start + model.start)..<(start + model.start + model.count))
                        saving.checksums[index] = model.checksum
                    }
                }
            }
        } else {
            for index in entries.indices {
                if kept[index] == nil, !fresh.isEmpty {
                    locations.append(writer.appendPadded(fresh[index].bytes))
                } else if let (location, checksum) = writer.appendPadded(entries[index], htmlIn: pages) {
                    locations.append(location)
                    saving.checksums[index] = checksum
                } else if let range = kept[index], let bytes = model(from: descriptor, at: range, checksum: saving.checksums[index]) {
                    locations.append(writer.appendPadded(bytes[...]))
                } else {
                    return abandon()
                }
            }
        }
        let written = writer.finish()
        close(output)
        guard written else {
            unlink(temporary)
            return nil
        }
        return Saved(mark: Mark(identity: identity, length: writer.length), paths: paths, locations: locations, checksums: saving.checksums,
                     stamps: saving.stamps, hashes: saving.hashes, replacement: (temporary, path))
    }

    /// The new models after the ones the cache uses; whatever another build left after
    /// those is not part of this cache.
    private static func append(_ saving: Saving, to descriptor: Int32, after mark: Mark, adding added: Int) -> Saved? {
        var tail: [UInt8] = []
        tail.reserveCapacity(added)
        var locations: [Range<Int>] = []
        locations.reserveCapacity(saving.paths.count)
        for (kept, model) in zip(saving.kept, saving.fresh) {
            if let kept {
                locations.append(kept)
            } else {
                let start = mark.length + tail.count
                tail += model.bytes
                tail += repeatElement(0, count: padded(model.bytes.count) - model.bytes.count)
                locations.append(start..<(start + model.bytes.count))
            }
        }
        guard ftruncate(descriptor, off_t(mark.length)) == 0, writeAll(tail[...], to: descriptor, at: mark.length) else { return nil }
        return Saved(mark: Mark(identity: mark.identity, length: mark.length + tail.count),
                     paths: saving.paths, locations: locations, checksums: saving.checksums, stamps: saving.stamps, hashes: saving.hashes)
    }

    /// How many models of a new store are encoded before they are written.
    private static let newStoreBatch = 512

    /// `entries` encoded one after the other, each padded to whole 8-byte words: where each
    /// starts in the bytes, its length and checksum; nil when one of them is in a store,
    /// unread (which a new store cannot take).
    private static func encodedPadded(_ entries: ArraySlice<BuildCache.ContentEntry>, htmlIn pages: PageTable?)
        -> (bytes: [UInt8], models: [(start: Int, count: Int, checksum: UInt64)])? {
        var writer = BinaryWriter(reservingCapacity: entries.count * 2_048)
        var models: [(start: Int, count: Int, checksum: UInt64)] = []
        models.reserveCapacity(entries.count)
        for entry in entries {
            let start = writer.bytes.count
            guard let (count, checksum) = append(entry, htmlIn: pages, to: &writer) else { return nil }
            models.append((start, count, checksum))
            writer.zeros(padded(count) - count)
        }
        return (writer.bytes, models)
    }

    /// Encodes `entry`'s model at the end of `writer`, its HTML left out where its page
    /// among `pages` holds it: how many bytes, and their checksum; nil when it is in the
    /// store, unread.
    private static func append(_ entry: BuildCache.ContentEntry, htmlIn pages: PageTable?, to writer: inout BinaryWriter)
        -> (count: Int, checksum: UInt64)? {
        let start = writer.bytes.count
        guard entry.encode(into: &writer, leavingOutHTML: entry.leavesOutHTML(pages)) else { return nil }
        return (writer.bytes.count - start, Checksum.value(writer.bytes[start...]))
    }

    /// Writes a new store through a buffer, keeping its length.
    private struct ChunkWriter {
        let descriptor: Int32
        var buffer = BinaryWriter(reservingCapacity: ChunkWriter.chunk + 65_536)
        var length = 0
        var failed = false
        static let chunk = 1 << 20

        init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        /// Appends `bytes` as they are.
        mutating func append(_ bytes: ArraySlice<UInt8>) {
            buffer.raw(bytes)
            placed(bytes.count, padding: 0)
        }

        /// Appends `model` padded to whole 8-byte words; where it went.
        mutating func appendPadded(_ model: ArraySlice<UInt8>) -> Range<Int> {
            buffer.raw(model)
            return placed(model.count, padding: ModelStore.padded(model.count) - model.count)
        }

        /// Encodes `entry`'s model where it goes, padded to whole 8-byte words: where it went
        /// and its checksum; nil when it is in the store, unread. For a store written anew
        /// from an old one, one model after the other (a new store's are encoded by the
        /// batch, on both cores).
        mutating func appendPadded(_ entry: BuildCache.ContentEntry, htmlIn pages: PageTable?) -> (location: Range<Int>, checksum: UInt64)? {
            guard let (count, checksum) = ModelStore.append(entry, htmlIn: pages, to: &buffer) else { return nil }
            return (placed(count, padding: ModelStore.padded(count) - count), checksum)
        }

        /// Counts in the `count` bytes just put at the end of the buffer, followed by
        /// `padding` zeros, and writes a chunk when one is full; where the bytes went.
        @discardableResult
        private mutating func placed(_ count: Int, padding: Int) -> Range<Int> {
            buffer.zeros(padding)
            let location = length..<(length + count)
            length += count + padding
            if buffer.bytes.count >= ChunkWriter.chunk { flush() }
            return location
        }

        /// Writes whole words; a partial word waits for the next chunk.
        private mutating func flush() {
            let whole = buffer.bytes.count / 8 * 8
            if !failed, !ModelStore.writeAll(buffer.bytes[..<whole], to: descriptor, at: length - buffer.bytes.count) { failed = true }
            buffer.removeFirst(whole)
        }

        mutating func finish() -> Bool {
            flush()
            return !failed && buffer.bytes.isEmpty
        }
    }

    /// Writes `bytes` to a new file at `path`.
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return writeAll(bytes[...], to: descriptor, at: 0)
    }

    private static func writeAll(_ bytes: ArraySlice<UInt8>, to descriptor: Int32, at start: Int) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + written, $0.count - written, off_t(start + written)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }

    private static func padded(_ count: Int) -> Int { (count + 7) / 8 * 8 }

    private static func identity(in bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
}
