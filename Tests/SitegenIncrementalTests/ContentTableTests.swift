import SitegenFiles
@testable import SitegenIncremental
import SitegenPipeline
import Testing

struct ContentTableTests {
    @Test func contentTableTakesPathsOnlyInOrder() {
        var table = ContentTable()
        let entry = BuildCache.ContentEntry(stamp: FileStamp(size: 1, modified: 1), hash: 1, stored: 8..<9, storedChecksum: 0)
        func append(_ path: String) -> Bool { Array(path.utf8).withUnsafeBufferPointer { table.append($0, entry) } }
        // A letter and its accent as two scalars sort as the letter they make, after "f".
        #expect(append("articles/f.md"))
        #expect(append("articles/e\u{301}clair.md"))
        #expect(!append("articles/e.md"))
        #expect(append("articles/ö.md"))
        #expect(!append("articles/ö.md"))
        #expect(table.count == 3)
        #expect(table["articles/f.md"] != nil && table["articles/e.md"] == nil && table["articles/éclair.md"] != nil)
        table["articles/e.md"] = entry
        #expect(Array(table.paths) == ["articles/e.md", "articles/f.md", "articles/e\u{301}clair.md", "articles/ö.md"])
        table["articles/f.md"] = nil
        #expect(Array(table.paths) == ["articles/e.md", "articles/e\u{301}clair.md", "articles/ö.md"])
    }
}
