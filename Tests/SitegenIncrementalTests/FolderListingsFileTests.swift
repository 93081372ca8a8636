import Foundation
@testable import SitegenFiles
@testable import SitegenIncremental
import SitegenTestSupport
import Testing

@Suite("Folder listings beside the cache")
struct FolderListingsFileTests {
    @Test func aListingsFileReadsBackAsWrittenAndIsIgnoredWhenDamaged() throws {
        let site = TemporaryFolder()
        for name in ["a.md", "b.md", "sub/c.md"] { try site.write(name, to: "Content/articles/" + name) }
        try site.write("", to: "Content/site.yaml")
        // Every folder counts as settled, as if the build ran an hour later.
        let listings = SourceTree.load(siteRoot: site.url, settledBefore: FolderListings.currentTime() + 3_600_000_000_000).listings
        let file = site.url.path + "/site.listings"
        listings.save(to: file)
        #expect(FolderListings.load(from: file) == listings)
        #expect(!listings.folders.isEmpty)

        var bytes = try #require(FileReader.read(file))
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(FolderListings.load(from: file).folders.isEmpty)
        try Data(bytes.prefix(bytes.count - 3)).write(to: URL(fileURLWithPath: file))
        #expect(FolderListings.load(from: file).folders.isEmpty)
        #expect(FolderListings.load(from: site.url.path + "/missing.listings").folders.isEmpty)
        #expect(FolderListings.path(besides: "/cache/0f84fbcc.cache") == "/cache/0f84fbcc.listings")
    }
}
