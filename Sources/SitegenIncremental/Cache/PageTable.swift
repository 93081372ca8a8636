import SitegenContent
import SitegenFiles
import SitegenPipeline
import SitegenSupport

/// The pages of the build cache by path (relative to the output): each one's fingerprint,
/// templates and where it holds its article's HTML. A rebuild after an edit looks up two
/// or three pages, one with nothing changed none, so the pages are not decoded whole.
/// Read from the cache, the entries stay as written (`Stored`): found by a binary search
/// over their offsets, decoded when looked up. The pages a build makes are kept decoded
/// beside them (`added`), and take their place.
struct PageTable: Sendable {
    typealias Entry = BuildCache.PageEntry

    private var stored: Stored?
    private var added = PathTable<Entry>()

    init() {}

    init(_ dictionary: [String: Entry]) {
        added = PathTable(dictionary)
    }

    private init(stored: Stored) {
        self.stored = stored
    }

    var count: Int {
        guard let stored else { return added.count }
        return stored.count + added.keys.count(where: { storedEntry($0) == nil })
    }

    subscript(path: String) -> Entry? {
        if let entry = added[path] { return entry }
        return storedEntry(path)
    }

    /// The entry of the file `name` in `folder` (`articles/toast/` and `index.html`).
    subscript(folder folder: String, name name: StaticString) -> Entry? {
        PackedPaths.joining(folder, name) { path in added[bytes: path] ?? stored?.entry(at: path) }
    }

    private func storedEntry(_ path: String) -> Entry? {
        guard let stored else { return nil }
        if let found = path.utf8.withContiguousStorageIfAvailable({ stored.entry(at: $0) }) { return found }
        return Array(path.utf8).withUnsafeBufferPointer { stored.entry(at: $0) }
    }

    /// `other`'s entries in place of this table's, path by path.
    mutating func merge(_ other: [String: Entry]) {
        added.merge(other)
    }

    mutating func merge(_ other: PathTable<Entry>) {
        added.merge(other)
    }

    /// The entries of `paths`, every one of which the table holds.
    func only(_ paths: Set<String>) -> PageTable {
        PageTable(Dictionary(uniqueKeysWithValues: paths.map { ($0, self[$0]!) }))
    }

    /// Every entry decoded, in one table: to take the changes written beside the cache, and
    /// to write the cache whole (which a build that read it does after thousands of changes).
    func materialized() -> PathTable<Entry> {
        guard let stored else { return added }
        var table = PathTable<Entry>()
        table.reserveCapacity(stored.count + added.count)
        stored.withPaths { storedPath in
            added.paths.withView { addedPaths in
                var mine = 0
                var theirs = 0
                while mine < stored.count || theirs < added.count {
                    let order = mine == stored.count ? 1 : theirs == added.count ? -1 : PackedPaths.order(storedPath(mine), addedPaths[theirs])
                    if order < 0 {
                        if let entry = stored.entry(at: mine) { _ = table.append(storedPath(mine), entry) }
                        mine += 1
                    } else {
                        _ = table.append(addedPaths[theirs], added.values[theirs])
                        theirs += 1
                        if order == 0 { mine += 1 }
                    }
                }
            }
        }
        return table
    }

    // The cache file has the lists of templates the pages were made with (few: each is
    // written once), the number of pages, where each page's entry starts (four bytes each,
    // little-endian, from the first entry's start) and the entries, each its path first.

    func write(to writer: inout BinaryWriter) {
        let table = materialized()
        // Told apart by their hash, then by their names: hashing each page's dozen names,
        // twice, was most of the time of writing the cache.
        var lists: [UInt64: [(templates: [String], place: Int)]] = [:]
        var order: [[String]] = []
        var places: [Int] = []
        places.reserveCapacity(table.count)
        for entry in table.values {
            if let known = lists[entry.templatesHash]?.first(where: { $0.templates == entry.templates }) {
                places.append(known.place)
                continue
            }
            lists[entry.templatesHash, default: []].append((entry.templates, order.count))
            places.append(order.count)
            order.append(entry.templates)
        }
        writer.array(order) { writer, list in writer.array(list) { $0.string($1) } }
        var starts = BinaryWriter(reservingCapacity: table.count * 4)
        var entries = BinaryWriter(reservingCapacity: table.count * 96)
        table.paths.withView { paths in
            for (index, (entry, place)) in zip(table.values, places).enumerated() {
                starts.word32(UInt32(truncatingIfNeeded: entries.bytes.count))
                entries.slice(paths[index])
                entries.word(entry.fingerprint)
                entries.integer(place)
                entries.word(entry.templatesHash)
                entries.optional(entry.html) { $0.pageHTML($1) }
            }
        }
        writer.unsigned(UInt64(table.count))
        starts.bytes.withUnsafeBufferPointer { writer.slice($0) }
        entries.bytes.withUnsafeBufferPointer { writer.slice($0) }
    }

    /// The table `write` wrote; its entries are checked to be in the order of their paths
    /// (which the binary search needs), each is checked whole when it is looked up.
    static func read(_ reader: inout BinaryReader) throws(BinaryReader.Corrupt) -> PageTable {
        let lists = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.array { reader throws(BinaryReader.Corrupt) in try reader.string() } }
        let count = try reader.count()
        let starts = try reader.bytes()
        let entries = try reader.bytes()
        guard starts.count == count * 4 else { throw BinaryReader.Corrupt() }
        return PageTable(stored: try Stored(lists: lists, starts: starts, entries: entries))
    }

    /// Entries as the cache file has them, copied out of it.
    private final class Stored: Sendable {
        let lists: [[String]]
        /// Where each entry starts in `entries`, then where the last one ends.
        let bounds: [Int]
        /// Where each entry's path is in `entries`: the search compares them in place.
        let paths: [Range<Int>]
        let entries: [UInt8]

        var count: Int { paths.count }

        init(lists: [[String]], starts: UnsafeBufferPointer<UInt8>, entries: UnsafeBufferPointer<UInt8>) throws(BinaryReader.Corrupt) {
            let count = starts.count / 4
            var bounds: [Int] = []
            bounds.reserveCapacity(count + 1)
            for index in 0..<count {
                bounds.append(Int(UInt32(littleEndian: UnsafeRawPointer(starts.baseAddress! + index * 4).loadUnaligned(as: UInt32.self))))
            }
            bounds.append(entries.count)
            guard bounds.first == 0, zip(bounds, bounds.dropFirst()).allSatisfy({ $0 < $1 }) else { throw BinaryReader.Corrupt() }
            var paths: [Range<Int>] = []
            paths.reserveCapacity(count)
            for index in 0..<count {
                let start = bounds[index]
                let path = try BinaryReader.reading(UnsafeBufferPointer(rebasing: entries[start..<bounds[index + 1]])) { reader throws(BinaryReader.Corrupt) in
                    let path = try reader.bytes()
                    return (start + reader.offset - path.count)..<(start + reader.offset)
                }
                if let previous = paths.last,
                   PackedPaths.order(UnsafeBufferPointer(rebasing: entries[previous]), UnsafeBufferPointer(rebasing: entries[path])) >= 0 {
                    throw BinaryReader.Corrupt()
                }
                paths.append(path)
            }
            self.lists = lists
            self.bounds = bounds
            self.paths = paths
            self.entries = [UInt8](copying: entries)
        }

        /// What `body` does with a function giving the path of the entry at an index.
        func withPaths<Result>(_ body: ((Int) -> UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            entries.withUnsafeBufferPointer { entries in
                body { UnsafeBufferPointer(rebasing: entries[paths[$0]]) }
            }
        }

        func entry(at path: UnsafeBufferPointer<UInt8>) -> Entry? {
            let index = withPaths { pathAt in
                let index = paths.indices.partitioningIndex { PackedPaths.order(pathAt($0), path) >= 0 }
                return index < count && PackedPaths.order(pathAt(index), path) == 0 ? index : nil
            }
            return index.flatMap(entry(at:))
        }

        /// The entry at `index`; nil when it does not read back, which makes its page
        /// rendered again.
        func entry(at index: Int) -> Entry? {
            entries.withUnsafeBufferPointer { entries in
                try? BinaryReader.reading(UnsafeBufferPointer(rebasing: entries[paths[index].upperBound..<bounds[index + 1]])) { reader throws(BinaryReader.Corrupt) -> Entry in
                    let fingerprint = try reader.word()
                    let list = try reader.integer()
                    guard lists.indices.contains(list) else { throw BinaryReader.Corrupt() }
                    let templatesHash = try reader.word()
                    let html = try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.pageHTML() }
                    guard reader.isAtEnd else { throw BinaryReader.Corrupt() }
                    return Entry(fingerprint: fingerprint, templates: lists[list], templatesHash: templatesHash, html: html)
                }
            }
        }
    }
}
