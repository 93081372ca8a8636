#if canImport(Glibc)
import Foundation
@testable import SitegenCLI
import Testing

@Suite("huge pages for a build's heap")
struct HugePagesTests {
    static let advised = "always [madvise] never\n"

    @Test func asksForThemWhereTheKernelGivesThemOnRequest() {
        #expect(HugePages.tunables(current: nil, kernelSetting: Self.advised) == "glibc.malloc.hugetlb=1")
        #expect(HugePages.tunables(current: "", kernelSetting: Self.advised) == "glibc.malloc.hugetlb=1")
    }

    @Test func keepsTheTunablesAlreadySet() {
        #expect(HugePages.tunables(current: "glibc.malloc.arena_max=2", kernelSetting: Self.advised)
            == "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1")
    }

    @Test func leavesAChoiceOfTheUsersAndItsOwnRestartAlone() {
        #expect(HugePages.tunables(current: "glibc.malloc.hugetlb=0", kernelSetting: Self.advised) == nil)
        #expect(HugePages.tunables(current: "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1", kernelSetting: Self.advised) == nil)
        #expect(HugePages.tunables(current: "glibc.malloc.hugetlb", kernelSetting: Self.advised) == nil)
        #expect(HugePages.tunables(current: "glibc.malloc.hugetlbx=1", kernelSetting: Self.advised) == "glibc.malloc.hugetlbx=1:glibc.malloc.hugetlb=1")
    }

    @Test func startsNoProcessWhereAskingChangesNothing() {
        #expect(HugePages.tunables(current: nil, kernelSetting: "[always] madvise never\n") == nil)
        #expect(HugePages.tunables(current: nil, kernelSetting: "always madvise [never]\n") == nil)
        #expect(HugePages.tunables(current: nil, kernelSetting: nil) == nil)
    }

    @Test func countsTheEntriesOfASiteThroughItsFoldersUntilThereAreEnough() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-huge-pages-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let content = root.appendingPathComponent("Content")
        // 2 folders + 3 files at the top, 4 files a level down, 2 in a folder below that: 12;
        // hidden files and folders are not counted, nor what is in them.
        for folder in ["articles", "homework", "homework/grade-8", ".git", "articles/.drafts"] {
            try FileManager.default.createDirectory(at: content.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for file in ["site.yaml", "teachers.yaml", "about.md", "articles/a.md", "articles/b.md", "articles/c.md", "homework/x.md", "homework/grade-8/y.md", "homework/grade-8/z.md",
                     ".DS_Store", ".git/HEAD", "articles/.drafts/d.md"] {
            try Data("x".utf8).write(to: content.appendingPathComponent(file))
        }
        #expect(HugePages.holds(atLeast: 12, entriesIn: content.path))
        #expect(!HugePages.holds(atLeast: 13, entriesIn: content.path))
        #expect(HugePages.holds(atLeast: 1, entriesIn: content.path))
        #expect(!HugePages.holds(atLeast: 1, entriesIn: root.appendingPathComponent("Nothing").path))
    }

    @Test func aSmallSiteIsNotLarge() throws {
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Content")
        #expect(HugePages.holds(atLeast: 10, entriesIn: sample.path))
        #expect(!HugePages.holds(atLeast: HugePages.largeSite, entriesIn: sample.path))
    }
}
#endif
