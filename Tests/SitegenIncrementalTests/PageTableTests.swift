import Foundation
import SitegenContent
@testable import SitegenIncremental
import SitegenPipeline
import SitegenSupport
import Testing

@Suite("Page tables")
struct PageTableTests {
    private static func entry(_ fingerprint: UInt64, templates: [String] = ["layout", "article"], html: PageHTML? = nil) -> BuildCache.PageEntry {
        BuildCache.PageEntry(fingerprint: fingerprint, templates: templates, templatesHash: fingerprint &* 31, html: html)
    }

    private static let pages: [String: BuildCache.PageEntry] = [
        "articles/a/index.html": entry(1, html: PageHTML(span: 10..<40, checksum: 99, pieces: [10..<20, 25..<40])),
        "articles/a-b/index.html": entry(2),
        "articles/ab/index.html": entry(3, templates: ["layout", "list"]),
        "feed.xml": entry(4, templates: []),
        "index.html": entry(5, templates: ["layout", "list"]),
        "tags/caf\u{E9}/index.html": entry(6),
    ]

    /// The table as the cache file has it, read back.
    private static func readBack(_ table: PageTable) throws -> PageTable {
        var writer = BinaryWriter()
        table.write(to: &writer)
        writer.word(0xEE)
        return try BinaryReader.reading(writer.bytes) { reader throws(BinaryReader.Corrupt) in
            let table = try PageTable.read(&reader)
            guard try reader.word() == 0xEE, reader.isAtEnd else { throw BinaryReader.Corrupt() }
            return table
        }
    }

    /// Read back from the cache's bytes, every page is found by its path (and an article's
    /// by its folder and name) with the entry it was written with; paths beside them are not.
    @Test func findsEachPageReadBackAsItWasWritten() throws {
        let table = try Self.readBack(PageTable(Self.pages))
        #expect(table.count == Self.pages.count)
        #expect(table.materialized().keys == Self.pages.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        for (path, entry) in Self.pages { #expect(table[path] == entry) }
        #expect(table[folder: "articles/a/", name: "index.html"] == Self.pages["articles/a/index.html"])
        #expect(table[folder: "", name: "index.html"] == Self.pages["index.html"])
        for missing in ["", "articles", "articles/a/", "articles/a/index.htm", "articles/b/index.html", "zzz", "a"] {
            #expect(table[missing] == nil)
        }
        #expect(table[folder: "articles/", name: "index.html"] == nil)
        #expect(try Self.readBack(PageTable()).materialized().isEmpty)
    }

    /// Pages a build makes take the place of those read back, the rest stay; written
    /// again, the table reads back as one.
    @Test func takesNewPagesInPlaceOfThoseReadBack() throws {
        var table = try Self.readBack(PageTable(Self.pages))
        let changed = ["articles/a-b/index.html": Self.entry(20), "articles/aa/index.html": Self.entry(30), "zz/index.html": Self.entry(40)]
        table.merge(changed)
        let expected = Self.pages.merging(changed) { $1 }
        #expect(table.count == expected.count)
        for (path, entry) in expected { #expect(table[path] == entry) }
        #expect(table.materialized().keys == expected.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })

        let again = try Self.readBack(table)
        for (path, entry) in expected { #expect(again[path] == entry) }
        let only = table.only(["articles/a/index.html", "zz/index.html"])
        #expect(only.count == 2 && only["articles/a/index.html"] == Self.pages["articles/a/index.html"] && only["index.html"] == nil)
    }

    /// Entries out of the order of their paths (which the search needs) do not read back;
    /// an entry that does not decode is no entry, and its page is rendered again.
    @Test func refusesEntriesOutOfOrderAndForgetsOneThatDoesNotDecode() throws {
        func bytes(paths: [String], list: Int) -> [UInt8] {
            var entries = BinaryWriter()
            var starts = BinaryWriter()
            for path in paths {
                starts.word32(UInt32(entries.bytes.count))
                entries.string(path)
                entries.word(7)
                entries.integer(list)
                entries.word(8)
                entries.optional(nil as PageHTML?) { $0.pageHTML($1) }
            }
            var writer = BinaryWriter()
            writer.array([["layout"]]) { writer, list in writer.array(list) { $0.string($1) } }
            writer.unsigned(UInt64(paths.count))
            starts.bytes.withUnsafeBufferPointer { writer.slice($0) }
            entries.bytes.withUnsafeBufferPointer { writer.slice($0) }
            return writer.bytes
        }
        func read(_ bytes: [UInt8]) throws(BinaryReader.Corrupt) -> PageTable {
            try BinaryReader.reading(bytes) { reader throws(BinaryReader.Corrupt) in try PageTable.read(&reader) }
        }
        let inOrder = try read(bytes(paths: ["a/index.html", "b/index.html"], list: 0))
        #expect(inOrder["b/index.html"] == BuildCache.PageEntry(fingerprint: 7, templates: ["layout"], templatesHash: 8, html: nil))
        #expect(throws: BinaryReader.Corrupt.self) { try read(bytes(paths: ["b/index.html", "a/index.html"], list: 0)) }
        #expect(throws: BinaryReader.Corrupt.self) { try read(bytes(paths: ["a/index.html", "a/index.html"], list: 0)) }
        let badList = try read(bytes(paths: ["a/index.html"], list: 1))
        #expect(badList["a/index.html"] == nil)
    }
}
