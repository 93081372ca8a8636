import Foundation
import SitegenContent
@testable import SitegenIncremental
import SitegenPipeline
@testable import SitegenFiles
import SitegenSupport
import Testing

@Suite("Model store")
struct ModelStoreTests {
    /// A new store is encoded a batch at a time on both cores: every model must still be
    /// where the store says, with its checksum, as it is encoded on its own, and the store
    /// as a whole must read back as the mark it returns.
    @Test func aNewStoreHoldsEveryModelWhereItSaysAsEncodedOnItsOwn() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let table = Self.table(count: 1_300)
        let path = folder.appendingPathComponent("site.models").path
        let saved = try #require(ModelStore.save(table, at: path, readAs: ModelStore.Mark()))
        #expect(saved.commit())
        try Self.expectHolds(table, saved, at: path)
    }

    /// A store none of whose models a build keeps (a cache of another sitegen, or of
    /// another site.yaml: every model new) is written anew, as a first build's, a batch at a
    /// time: appended to, it held every model encoded at once (120 MB more for the large
    /// corpus) and kept the old models, all dead, when they were fewer than the new.
    @Test func aStoreWhoseModelsAreAllReplacedIsWrittenAnew() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("site.models").path
        let old = try #require(ModelStore.save(Self.table(count: 10), at: path, readAs: ModelStore.Mark()))
        #expect(old.commit())
        let table = Self.table(count: 1_300, from: 10)
        let saved = try #require(ModelStore.save(table, at: path, readAs: old.mark))
        #expect(saved.replacement != nil)
        #expect(saved.mark.identity != old.mark.identity)
        #expect(saved.commit())
        try Self.expectHolds(table, saved, at: path)
    }

    private static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Models of many lengths, more of them than several batches hold.
    private static func table(count: Int, from first: Int = 0) -> ContentTable {
        var table = ContentTable()
        for number in first..<(first + count) {
            let notes = (0..<(number % 7)).map { Diagnostic.warning(at: SourceLocation(path: "Content/articles/\(number).md", line: $0 + 1, column: 1), String(repeating: "x", count: number % 13)) }
            table["articles/\(String(format: "%05d", number)).md"] = BuildCache.ContentEntry(stamp: FileStamp(size: number, modified: Int64(number)), hash: UInt64(number),
                                                                                                  model: .none, diagnostics: notes)
        }
        return table
    }

    /// Every model of `table` where `saved` says, with its checksum, as it is encoded on its
    /// own, one after the other from the header on; the store as a whole reads back as the
    /// mark `saved` returns, and holds nothing else.
    private static func expectHolds(_ table: ContentTable, _ saved: ModelStore.Saved, at path: String) throws {
        let bytes = try #require(ModelStore.read(path, as: saved.mark))
        #expect(bytes.count == saved.mark.length)
        #expect(saved.locations.count == table.count && saved.checksums.count == table.count)
        var end = ModelStore.headerLength
        for (index, entry) in table.entries.enumerated() {
            var alone = BinaryWriter()
            #expect(entry.encode(into: &alone))
            let location = saved.locations[index]
            #expect(location.lowerBound == end, "\(index)")
            #expect(Array(bytes[location]) == alone.bytes, "\(index)")
            #expect(saved.checksums[index] == Checksum.value(alone.bytes[...]), "\(index)")
            end = (location.upperBound + 7) / 8 * 8
        }
        #expect(end == bytes.count)
    }
}
