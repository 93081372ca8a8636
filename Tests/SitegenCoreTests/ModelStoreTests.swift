import Foundation
@testable import SitegenCore
import SitegenSupport
import Testing

@Suite("Model store")
struct ModelStoreTests {
    /// A new store is encoded a batch at a time on both cores: every model must still be
    /// where the store says, with its checksum, as it is encoded on its own, and the store
    /// as a whole must read back as the mark it returns.
    @Test func aNewStoreHoldsEveryModelWhereItSaysAsEncodedOnItsOwn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var table = ContentTable()
        // Models of many lengths, more of them than several batches hold.
        for number in 0..<1_300 {
            let notes = (0..<(number % 7)).map { Diagnostic.warning(at: SourceLocation(path: "Content/articles/\(number).md", line: $0 + 1, column: 1), String(repeating: "x", count: number % 13)) }
            table["articles/\(String(format: "%05d", number)).md"] = BuildCache.ContentEntry(stamp: FileStamp(size: number, modified: Int64(number)), hash: UInt64(number),
                                                                                                  model: .none, diagnostics: notes)
        }
        let path = folder.appendingPathComponent("site.models").path
        let saved = try #require(ModelStore.save(table, at: path, readAs: ModelStore.Mark()))
        #expect(saved.commit())
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
