import Foundation
@testable import SitegenFiles
import Testing

@Suite("Path tables")
struct PathTableTests {
    /// A file in a folder is found as its whole path is, whatever the folder's length
    /// (small strings and heap ones), and not found when the table has only its neighbours.
    @Test func findsAFileByItsFolderAndName() {
        let long = "articles/" + String(repeating: "crispy-pork-", count: 12) + "/"
        let table = PathTable(["articles/a/index.html": 1, "articles/a/index.htm": 2, "articles/ab/index.html": 3, long + "index.html": 4, "index.html": 5])
        #expect(table[folder: "articles/a/", name: "index.html"] == 1)
        #expect(table[folder: "articles/ab/", name: "index.html"] == 3)
        #expect(table[folder: long, name: "index.html"] == 4)
        #expect(table[folder: "", name: "index.html"] == 5)
        #expect(table[folder: "articles/", name: "index.html"] == nil)
        #expect(table[folder: "articles/a/", name: "feed.xml"] == nil)
        for path in table.keys {
            let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
            if path[slash...] == "index.html" { #expect(table[folder: String(path[..<slash]), name: "index.html"] == table[path]) }
        }
    }

    /// Paths in and below several first folders, and at the top: each is looked up from the
    /// first folder it shares with the path before it.
    @Test func stampsEveryPathFromItsFirstFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-pathtable-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = ["a/x": 1, "a/b/y": 22, "ab/z": 333, "c/d/e/f": 4444, "top": 55555]
        for (path, size) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: 7, count: size).write(to: url)
        }
        let table = PathTable(files.merging(["": -1, "a/b": -1, "c": -1]) { $1 })
        let root = try #require(OpenFolder(folder.path))
        let sizesMatch: @Sendable (FileStamp?, Int) -> Bool = { stamp, size in stamp != nil && (size < 0 || stamp!.size == size) }
        #expect(table.allMatch(in: root, sizesMatch))

        try Data(repeating: 7, count: 2).write(to: folder.appendingPathComponent("c/d/e/f"))
        #expect(!table.allMatch(in: root, sizesMatch))
        try Data(repeating: 7, count: 4444).write(to: folder.appendingPathComponent("c/d/e/f"))
        #expect(table.allMatch(in: root, sizesMatch))

        // A first folder that became a file: nothing below it is there.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("ab"))
        try Data().write(to: folder.appendingPathComponent("ab"))
        #expect(!table.allMatch(in: root, sizesMatch))
        #expect(PathTable(["a/x": 1, "ab/z": 333]).allMatch(in: root) { stamp, size in (stamp == nil) == (size == 333) })
    }

    /// Two tables looked at together (the output's folders along its files), in the order
    /// of all their paths: each path is matched by its own table's test, and a path that
    /// is not as left in either table fails the whole.
    @Test func looksAtTwoTablesTogetherEachPathByItsOwnTest() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-pathtable-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = ["articles/a/index.html": 1, "articles/a-b/index.html": 22, "articles/b/index.html": 333, "index.html": 4444]
        for (path, size) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: 7, count: size).write(to: url)
        }
        let root = try #require(OpenFolder(folder.path))
        let folders = PathTable(["": true, "articles": true, "articles/a": true, "articles/a-b": true, "articles/b": true])
        let sizes = PathTable(files)
        let isFolder: @Sendable (FileStamp?, Bool) -> Bool = { stamp, _ in stamp != nil }
        let sizeMatches: @Sendable (FileStamp?, Int) -> Bool = { stamp, size in stamp?.size == size }
        #expect(folders.allMatch(in: root, isFolder, along: sizes, sizeMatches))
        #expect(sizes.allMatch(in: root, sizeMatches, along: folders, isFolder))
        // Each table's paths are matched by their own test only: sizes taken for folders fail.
        #expect(!folders.allMatch(in: root, isFolder, along: PathTable(["articles/b": 333]), sizeMatches))

        try Data(repeating: 7, count: 2).write(to: folder.appendingPathComponent("articles/a-b/index.html"))
        #expect(!folders.allMatch(in: root, isFolder, along: sizes, sizeMatches))
        try Data(repeating: 7, count: 22).write(to: folder.appendingPathComponent("articles/a-b/index.html"))
        #expect(folders.allMatch(in: root, isFolder, along: sizes, sizeMatches))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("articles/b"))
        #expect(!folders.allMatch(in: root, isFolder, along: PathTable(["index.html": 4444]), sizeMatches))
        #expect(!PathTable(["index.html": true]).allMatch(in: root, isFolder, along: sizes, sizeMatches))
    }
}
