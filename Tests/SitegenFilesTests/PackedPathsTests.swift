import Foundation
@testable import SitegenFiles
import Testing

@Suite("Packed paths")
struct PackedPathsTests {
    /// Paths whose bytes' order is not String's (a letter and its accent as two scalars
    /// sort by the letter they make), beside ASCII ones.
    static let paths = ["articles/a.md", "articles/b.md", "articles/e\u{301}clair.md", "articles/f.md", "articles/é.md",
                        "articles/z.md", "articles/Ärger.md", "homework/x.md", "articles/b.md/", "articles", ""]

    @Test func comparesWithStringsAsStringsDo() {
        for table in [Self.paths, Self.paths.filter { $0.utf8.allSatisfy { $0 < 0x80 } }] {
            let packed = PackedPaths(table)
            #expect(Array(packed) == table)
            for index in table.indices {
                for other in Self.paths {
                    let expected = table[index] == other ? 0 : (table[index] < other ? -1 : 1)
                    #expect(packed.order(at: index, other) == expected, "\(table[index]) against \(other)")
                    #expect(packed.isSame(at: index, as: other) == (Array(table[index].utf8) == Array(other.utf8)))
                }
                for other in table {
                    var pair = PackedPaths([table[index]])
                    let appended = Array(other.utf8).withUnsafeBufferPointer { pair.append(inOrder: $0) }
                    #expect(appended == (table[index] < other), "\(table[index]) before \(other)")
                    #expect(Array(pair) == (appended ? [table[index], other] : [table[index]]))
                }
            }
        }
    }

    @Test func keepsItsOrderThroughInsertsAndRemovals() {
        var packed = PackedPaths(["a", "c"])
        packed.insert("b", at: 1)
        packed.append("d")
        packed.remove(at: 0)
        #expect(Array(packed) == ["b", "c", "d"])
        #expect(Array("e\u{301}".utf8).withUnsafeBufferPointer { packed.append(inOrder: $0) })
        #expect(packed.last == "e\u{301}")
        #expect(packed.order(at: 3, "é") == 0 && !packed.isSame(at: 3, as: "é"))
    }

    /// A cache whose paths are out of order is refused, not searched wrong.
    @Test func findsAPathAndEqualsTheSamePathsWhateverBytesItKeepsUnused() {
        var paths = PackedPaths(["Content/b.md", "Content/é.md", "Content/a.md"])
        #expect(paths.firstIndex(of: "Content/é.md") == 1 && paths.firstIndex(of: "Content/a.md") == 2 && paths.firstIndex(of: "Content/c.md") == nil)
        var unchecked = PackedPaths()
        for path in ["Content/b.md", "Content/x.md", "Content/é.md", "Content/a.md"] {
            var path = path
            path.withUTF8 { unchecked.append(unchecked: $0) }
        }
        #expect(unchecked != paths)
        unchecked.remove(at: 1)
        #expect(unchecked == paths)
        paths.remove(at: 0)
        #expect(unchecked != paths && Array(paths) == ["Content/é.md", "Content/a.md"])
    }

    /// The output's manifest and folder times: looked up, changed and merged by path as a
    /// dictionary would be, paths told apart by their bytes.
    @Test func pathTableActsAsADictionaryOfPaths() {
        var table = PathTable(["b/index.html": 2, "a/index.html": 1, "": 0, "e\u{301}.html": 3])
        #expect(table.keys == ["", "a/index.html", "b/index.html", "e\u{301}.html"])
        #expect(table["a/index.html"] == 1 && table[""] == 0 && table["é.html"] == nil && table["e\u{301}.html"] == 3)
        table["c/index.html"] = 4
        table["a/index.html"] = nil
        table["b/index.html"] = 5
        #expect(table.keys == ["", "b/index.html", "c/index.html", "e\u{301}.html"] && table.values == [0, 5, 4, 3])
        table.merge(["a": 6, "b/index.html": 7])
        #expect(table.keys == ["", "a", "b/index.html", "c/index.html", "e\u{301}.html"] && table.values == [0, 6, 7, 4, 3])
        let many = Dictionary(uniqueKeysWithValues: (0..<100).map { ("p/\($0)", $0) })
        table.merge(many)
        #expect(table.count == 105 && table["p/42"] == 42 && table["c/index.html"] == 4)
        #expect(table.keys == table.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    @Test func pathTableReadsBackOnlyInOrder() {
        var table = PathTable<Int>()
        func append(_ path: String) -> Bool { Array(path.utf8).withUnsafeBufferPointer { table.append($0, 1) } }
        #expect(append("") && append("a") && append("a/b") && append("b"))
        #expect(!append("b") && !append("a/c"))
        #expect(table.keys == ["", "a", "a/b", "b"])
    }

    @Test func pathTableLooksAtEveryPathOnDisk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-path-table-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("a"), withIntermediateDirectories: true)
        let paths = [""] + (0..<600).map { "a/\($0).html" }
        for path in paths.dropFirst() { try Data(path.utf8).write(to: folder.appendingPathComponent(path)) }
        let root = try #require(OpenFolder(folder.path))
        let sizes = PathTable(Dictionary(uniqueKeysWithValues: paths.map { ($0, $0.isEmpty ? -1 : $0.utf8.count) }))
        #expect(sizes.allMatch(in: root) { stamp, size in size < 0 ? stamp != nil : stamp?.size == size })
        try FileManager.default.removeItem(at: folder.appendingPathComponent("a/599.html"))
        #expect(!sizes.allMatch(in: root) { stamp, size in size < 0 ? stamp != nil : stamp?.size == size })
    }
}
