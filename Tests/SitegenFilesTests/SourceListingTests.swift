import Foundation
@testable import SitegenFiles
import SitegenPlatform
import SitegenSupport
import Synchronization
import Testing

@Suite("Listing a site's files")
struct SourceListingTests {
    @Test func listsFilesInTheOrderTheirPathsSortAsStrings() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "b", "A", "-", ".", "0", "9", "z", "_", "~", "2026-08-31-grade-6-art-", "2026-08-31-grade-6-mathematics-", "x"]
        // Enough names for the radix sort of big folders, many sharing more than its 24 bytes,
        // and folders whose names begin other files' names ("a" beside "a-b.md" and "a.md").
        var names = Set<String>()
        while names.count < 700 {
            let stem = (0..<Int.random(in: 1...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            names.insert(stem + ".md")
        }
        let folders = ["a", "a-b", "2026-08-31-grade-6-art-1", "z"]
        let nested = folders.flatMap { folder in ["\(folder)/one.md", "\(folder)/b/two.md", "\(folder)-x.md", "\(folder).md"] }
        let all = names.union(nested)
        let root = try siteOfArticles(Array(all))
        defer { try? FileManager.default.removeItem(at: root) }

        let listed = SourceTree.load(siteRoot: root).markdown.map(\.contentPath)
        // Hidden files are left out.
        #expect(Set(listed) == Set(all.filter { !$0.hasPrefix(".") }.map { "articles/" + $0 }))
        #expect(listed == listed.sorted())
    }

    @Test func listsNamesBeyondASCIIAsStringsSortThem() throws {
        let names = ["é.md", "e\u{301}x.md", "e.md", "e/f.md", "ü/a.md", "z.md", "\u{1F354}.md", "E.md"]
        let root = try siteOfArticles(names)
        defer { try? FileManager.default.removeItem(at: root) }

        let listed = SourceTree.load(siteRoot: root).markdown.map(\.contentPath)
        #expect(Set(listed) == Set(names.map { "articles/" + $0 }))
        #expect(listed.count == names.count)
        #expect(listed == listed.sorted())
    }

    @Test func tellsMarkdownFilesByTheirFolder() {
        #expect(SourceTree.Kind(of: "articles/a.md") == .article)
        #expect(SourceTree.Kind(of: "articles/2026/a.md") == .article)
        #expect(SourceTree.Kind(of: "homework/a.md") == .assignment)
        #expect(SourceTree.Kind(of: "pages/about.md") == .page)
        #expect(SourceTree.Kind(of: "pages/caf\u{E9}.md") == .page)
        #expect(SourceTree.Kind(of: "articles/a.markdown") == nil)
        #expect(SourceTree.Kind(of: "articles.md") == nil)
        #expect(SourceTree.Kind(of: "images/a.md") == nil)
        #expect(SourceTree.Kind(of: ".md") == nil)
    }
}

@Suite("Folder listings kept between builds")
struct FolderListingTests {
    /// Every folder made by now counts as settled, as if the build ran an hour later: the
    /// folders of a test are too new for a listing otherwise.
    private let anHourFromNow = FolderListings.currentTime() + 3_600_000_000_000

    private func articles(_ tree: SourceTree) -> [String] { tree.markdown.map(\.contentPath) }

    /// The folder's times move on from those a listing was taken at: the clock the file
    /// system stamps them from moves in ticks of a few milliseconds.
    private func waitForTheNextTick() { usleep(50_000) }

    @Test func aFolderThatDidNotChangeIsNotReadAgain() throws {
        let root = try siteOfArticles(["a.md", "b.md", "sub/c.md"])
        defer { try? FileManager.default.removeItem(at: root) }
        let first = SourceTree.load(siteRoot: root, settledBefore: anHourFromNow)
        let folder = root.path + "/Content/articles"
        #expect(Set(first.listings.folders.keys) == [root.path + "/Content", folder, folder + "/sub"])
        #expect(first.listings.folders[folder]?.names == Array("a.md\0b.md\0sub\0".utf8))
        #expect(first.listings.folders[folder]?.isFolder == [false, false, true])

        let again = SourceTree.load(siteRoot: root, known: first.listings, settledBefore: anHourFromNow)
        #expect(articles(again) == ["articles/a.md", "articles/b.md", "articles/sub/c.md"])
        #expect(again.listings == first.listings)
        #expect(again.markdown.map(\.stamp) == first.markdown.map(\.stamp))

        // The listing is believed while the folder's stamp is the same: one that lacks b.md
        // and names a file that is not there lists a.md alone (its files are still looked up).
        var forged = first.listings
        forged.folders[folder]?.names = Array("a.md\0ghost.md\0sub\0".utf8)
        let believed = SourceTree.load(siteRoot: root, known: forged, settledBefore: anHourFromNow)
        #expect(articles(believed) == ["articles/a.md", "articles/sub/c.md"])
        // One whose names are more or fewer than its kinds is not: the folder is read.
        for kinds in [[false, false], [false, false, true, false]] {
            var mismatched = first.listings
            mismatched.folders[folder]?.isFolder = kinds
            #expect(articles(SourceTree.load(siteRoot: root, known: mismatched, settledBefore: anHourFromNow)) == articles(first))
        }
    }

    @Test func aFolderIsReadAgainOnceAnEntryIsAddedRemovedOrRenamed() throws {
        let root = try siteOfArticles(["a.md", "b.md"])
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("Content/articles")
        var known = SourceTree.load(siteRoot: root, settledBefore: anHourFromNow).listings
        func load() -> [String] {
            waitForTheNextTick()
            let tree = SourceTree.load(siteRoot: root, known: known, settledBefore: anHourFromNow)
            known = tree.listings
            return articles(tree)
        }
        waitForTheNextTick()
        try Data("new".utf8).write(to: folder.appendingPathComponent("c.md"))
        #expect(load() == ["articles/a.md", "articles/b.md", "articles/c.md"])
        try FileManager.default.removeItem(at: folder.appendingPathComponent("a.md"))
        #expect(load() == ["articles/b.md", "articles/c.md"])
        try FileManager.default.moveItem(at: folder.appendingPathComponent("b.md"), to: folder.appendingPathComponent("d.md"))
        #expect(load() == ["articles/c.md", "articles/d.md"])
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("e"), withIntermediateDirectories: false)
        try Data("e".utf8).write(to: folder.appendingPathComponent("e/f.md"))
        #expect(load() == ["articles/c.md", "articles/d.md", "articles/e/f.md"])
        // A file edited in place leaves its folder as it was: its new stamp is still read.
        let before = SourceTree.load(siteRoot: root, known: known, settledBefore: anHourFromNow).markdown.map(\.stamp)
        try Data("longer than before".utf8).write(to: folder.appendingPathComponent("c.md"))
        let after = SourceTree.load(siteRoot: root, known: known, settledBefore: anHourFromNow)
        #expect(after.listings == known)
        #expect(after.markdown.map(\.stamp) != before)
    }

    @Test func aFolderWhoseNamesAreTheSameAfterAFileIsReplacedKeepsItsListing() throws {
        let root = try siteOfArticles(["a.md", "b.md"])
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("Content/articles")
        let path = folder.path
        let first = SourceTree.load(siteRoot: root, settledBefore: anHourFromNow)
        // Kept in an order of its own, to tell the kept listing from one sorted again.
        var known = first.listings
        known.folders[path]?.names = Array("b.md\0a.md\0".utf8)
        func replace(_ name: String, with text: String) throws {
            waitForTheNextTick()
            try Data(text.utf8).write(to: folder.appendingPathComponent(".\(name).new"))
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            try FileManager.default.moveItem(at: folder.appendingPathComponent(".\(name).new"), to: folder.appendingPathComponent(name))
        }
        // b.md saved as editors save, by a rename: the folder's time changes, its names not.
        try replace("b.md", with: "new text")
        let replaced = SourceTree.load(siteRoot: root, known: known, settledBefore: anHourFromNow)
        #expect(replaced.listings.folders[path]?.names == Array("b.md\0a.md\0".utf8))
        #expect(replaced.listings.folders[path]?.stamp != known.folders[path]?.stamp)
        #expect(Set(articles(replaced)) == ["articles/a.md", "articles/b.md"])
        #expect(replaced.markdown.first { $0.contentPath == "articles/b.md" }?.stamp.size == 8)
        // As many names, but another: the folder is read and sorted again.
        waitForTheNextTick()
        try FileManager.default.moveItem(at: folder.appendingPathComponent("a.md"), to: folder.appendingPathComponent("c.md"))
        let renamed = SourceTree.load(siteRoot: root, known: replaced.listings, settledBefore: anHourFromNow)
        #expect(articles(renamed) == ["articles/b.md", "articles/c.md"])
        #expect(renamed.listings.folders[path]?.names == Array("b.md\0c.md\0".utf8))
        // The same name, now a folder: read again.
        waitForTheNextTick()
        try FileManager.default.removeItem(at: folder.appendingPathComponent("c.md"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("c.md"), withIntermediateDirectories: false)
        try Data("x".utf8).write(to: folder.appendingPathComponent("c.md/d.md"))
        let refolded = SourceTree.load(siteRoot: root, known: renamed.listings, settledBefore: anHourFromNow)
        #expect(articles(refolded) == ["articles/b.md", "articles/c.md/d.md"])
        #expect(refolded.listings.folders[path]?.isFolder == [false, true])
    }

    @Test func noListingIsKeptOfAFolderThatChangedLatelyOrHoldsALink() throws {
        let root = try siteOfArticles(["a.md"])
        defer { try? FileManager.default.removeItem(at: root) }
        // Changed after the time stamps are trusted from: an entry added in the same tick
        // would not change its times.
        #expect(SourceTree.load(siteRoot: root, settledBefore: FolderListings.currentTime() - 3_600_000_000_000).listings.folders.isEmpty)

        let folder = root.appendingPathComponent("Content/articles")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link.md", withDestinationPath: folder.path + "/a.md")
        let tree = SourceTree.load(siteRoot: root, settledBefore: anHourFromNow)
        #expect(articles(tree) == ["articles/a.md", "articles/link.md"])
        #expect(Set(tree.listings.folders.keys) == [root.path + "/Content"])
    }

    @Test func stampsAreTrustedSoonerOnFileSystemsWithAFineClock() {
        // ext4, xfs, btrfs, tmpfs: the kernel's tick; FAT (0x4D44), NFS (0x6969), unknown: two seconds.
        for type in [0xEF53, 0x5846_5342, 0x9123_683E, 0x0102_1994] { #expect(KernelFiles.fineTimestampFileSystems.contains(type)) }
        for type in [0x4D44, 0x6969, 0] { #expect(!KernelFiles.fineTimestampFileSystems.contains(type)) }
        #expect(FolderListings.settledFor(fineTimestamps: true) == 20_000_000)
        #expect(FolderListings.settledFor(fineTimestamps: false) == 2_000_000_000)
        let now = FolderListings.currentTime()
        let settled = FolderListings.settledBefore(for: FileManager.default.temporaryDirectory.path)
        #expect(settled < now && settled >= now - 2_100_000_000)
    }
}
