import Foundation
import SitegenContent
import SitegenFiles
import SitegenPipeline
import SitegenPlatform
import SitegenSupport

/// The cache's entry of each Markdown file, in the order of their paths (`String`'s, as
/// the site's tree lists them): compared with the tree in one pass and looked up by
/// binary search, without a table of hashed paths.
struct ContentTable: Sendable {
    private(set) var paths = PackedPaths()
    private(set) var entries: [BuildCache.ContentEntry] = []

    init() {}

    /// `paths` in their order, each with its entry.
    init(sorted paths: [String], entries: [BuildCache.ContentEntry]) {
        self.paths = PackedPaths(paths)
        self.entries = entries
    }

    var count: Int { paths.count }
    var isEmpty: Bool { paths.isEmpty }

    mutating func reserveCapacity(_ count: Int) {
        paths.reserveCapacity(count)
        entries.reserveCapacity(count)
    }

    /// Adds an entry whose path comes after every path of the table.
    mutating func append(_ path: String, _ entry: BuildCache.ContentEntry) {
        paths.append(path)
        entries.append(entry)
    }

    /// Adds an entry whose path is given as bytes; false, adding nothing, when the path
    /// does not come after every path of the table.
    mutating func append(_ path: UnsafeBufferPointer<UInt8>, _ entry: BuildCache.ContentEntry) -> Bool {
        guard paths.append(inOrder: path) else { return false }
        entries.append(entry)
        return true
    }

    private func place(of path: String) -> Int {
        paths.indices.partitioningIndex { paths.order(at: $0, path) >= 0 }
    }

    subscript(path: String) -> BuildCache.ContentEntry? {
        get {
            let place = place(of: path)
            return place < paths.count && paths.order(at: place, path) == 0 ? entries[place] : nil
        }
        set {
            let place = place(of: path)
            paths.set(newValue, of: path, at: (place, place < paths.count && paths.order(at: place, path) == 0), in: &entries)
        }
    }

    /// The entries of `files` (in the order of their paths), nil for those without one,
    /// found in one pass over both lists.
    func entries(for files: [SourceTree.MarkdownFile]) -> [BuildCache.ContentEntry?] {
        var found: [BuildCache.ContentEntry?] = []
        found.reserveCapacity(files.count)
        var index = 0
        paths.withView { paths in
            for file in files {
                var order = 1
                while index < entries.count {
                    order = paths.order(at: index, file.contentPath)
                    guard order < 0 else { break }
                    index += 1
                }
                found.append(index < entries.count && order == 0 ? entries[index] : nil)
            }
        }
        return found
    }

    mutating func updateEach(_ update: (inout BuildCache.ContentEntry) -> Void) {
        for index in entries.indices { update(&entries[index]) }
    }
}
