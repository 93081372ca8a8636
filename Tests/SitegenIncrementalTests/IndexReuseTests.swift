import Foundation
import SitegenContent
@testable import SitegenIncremental
import SitegenPipeline
import SitegenSiteFixtures
import SitegenSupport
import Testing

@Suite("What a rebuild keeps of the index")
struct IndexReuseTests {
    @Test func aTitleEditChangesTheFingerprintOfItsRestaurantsPageOnly() throws {
        func prints(tea title: String) throws -> [String: UInt64] {
            let index = IndexFixture.index([
                try IndexFixture.article("bun", date: "2026-11-21", tags: [], restaurant: "{name: Kam Wah Cafe, lat: 22.32, lon: 114.17}"),
                try IndexFixture.article("tea", date: "2026-09-12", tags: [], title: title, restaurant: "{name: Kam Wah Cafe}"),
                try IndexFixture.article("dim-sum", date: "2026-10-01", tags: [], restaurant: "{name: Tim Ho Wan, lat: 22.33, lon: 114.16}"),
            ], drafts: false)
            let pages = zip(index.plan, index.planPaths).filter { $0.1.hasPrefix("restaurants/") || $0.1.hasPrefix("map/") }
            let hashes = Dictionary(uniqueKeysWithValues: index.articles.map { ($0.sourcePath, UInt64(truncatingIfNeeded: $0.title.hashValue)) })
            let prints = PageFingerprints(index, hashes: hashes, context: 0, assets: [:]).of(pages.map(\.0), paths: pages.map(\.1))
            return Dictionary(uniqueKeysWithValues: zip(pages.map(\.1), prints))
        }
        let (before, after) = (try prints(tea: "Milk Tea"), try prints(tea: "Iced Tea"))
        #expect(before.keys.sorted() == ["map/index.html", "restaurants/index.html", "restaurants/kam-wah-cafe/index.html", "restaurants/tim-ho-wan/index.html"])
        #expect(before.keys.filter { before[$0] != after[$0] } == ["restaurants/kam-wah-cafe/index.html"])
    }

    @Test func listsKeptBesideTheCacheReadBackAndFindTheListPagesOfAnArticle() throws {
        let index = IndexFixture.index(try IndexFixture.articles(), drafts: false)
        let summary = HomeworkSummary(grades: [HomeworkSummary.Grade(name: "Grade 8", url: "/homework/grade-8/", sentence: "No homework", count: 0)],
                                      hasAssignments: false, updated: "Updated Monday", updatedISO: "2026-12-01T00:00:00+08:00", teachersURL: "/homework/teachers/")
        let lists = SiteLists(index: index, contextHash: 7, homeworkSummary: summary, homeworkSummaryPrint: 11)
        let names: ([String]) -> [String] = { paths in paths.map { String($0.dropFirst("Content/articles/".count)) } }
        #expect(names(Array(lists.articles)) == ["noodles.md", "milk-tea.md", "a-toast.md", "b-toast.md"])
        #expect(lists.draftCount == 1)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-lists-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cacheFile = folder.appendingPathComponent("site.cache").path
        let checksum = try #require(lists.write(besides: cacheFile))
        #expect(SiteLists.read(besides: cacheFile, checksum: checksum) == lists)
        #expect(SiteLists.read(besides: cacheFile, checksum: checksum ^ 1) == nil)

        // Two to a page: b-toast is the second on the home page's second page, and the
        // second of "toast", whose first page holds both; "Tea" has it alone.
        let pages = try #require(lists.listPages(showing: "Content/articles/b-toast.md", perPage: 2))
        let paths: [String] = pages.map { found in found.page.planned([]).path }
        #expect(paths == ["page/2/index.html", "tags/tea/index.html", "tags/toast/index.html"])
        let members: [[String]] = pages.map { found in names(found.members) }
        #expect(members == [["a-toast.md", "b-toast.md"], ["b-toast.md"], ["a-toast.md", "b-toast.md"]])
        #expect(pages[0].page == .home(number: 2, count: 2))
        // A draft is on no list.
        #expect(lists.listPages(showing: "Content/articles/congee.md", perPage: 2) == nil)
    }

    @Test func movesAnArticleBetweenGroupsOnlyWhenNoPageComesOrGoes() throws {
        let all = try IndexFixture.articles()
        let lists = SiteLists(index: IndexFixture.index(all, drafts: false), contextHash: 7,
                              homeworkSummary: HomeworkSummary(grades: [], hasAssignments: false, updated: "", updatedISO: "", teachersURL: ""),
                              homeworkSummaryPrint: 0)
        let noodles = all[2]
        func retagged(_ tags: [String]) throws -> Article { try IndexFixture.article("noodles", date: "2026-11-05", tags: tags) }
        func members(_ lists: SiteLists, _ slug: String) -> [String] {
            lists.groups.first { $0.heading.kind == .tag && $0.heading.label.slug.text == slug }!.members.map { String(lists.articles[$0].dropFirst("Content/articles/".count)) }
        }

        // Into "Tea", with b-toast: noodles is the newer, first of its members.
        var moved = lists
        let (into, newest) = try #require(moved.regroup(noodles.sourcePath, from: noodles, to: try retagged(["Noodles", "tea"]), perPage: 2))
        #expect(into == [SiteLists.GroupKey(kind: .tag, slug: Slug(making: "tea")!)] && newest == [SiteLists.GroupKey(kind: .tag, slug: Slug(making: "noodles")!)])
        #expect(members(moved, "tea") == ["noodles.md", "b-toast.md"])
        #expect(moved.headings(.tag).first { $0.label.slug.text == "tea" }?.count == 2)
        // Its label names the group now: "tea", where it was "Tea", and the tags' order holds.
        #expect(moved.rename(SiteLists.GroupKey(kind: .tag, slug: Slug(making: "tea")!), after: try retagged(["Noodles", "tea"])))
        #expect(moved.headings(.tag).map(\.label.name) == ["Congee", "Milk tea", "Noodles", "tea", "toast"])

        // One to a page: a second article in "Tea" is a second page.
        var paged = lists
        #expect(paged.regroup(noodles.sourcePath, from: noodles, to: try retagged(["Noodles", "tea"]), perPage: 1) == nil)
        // A group of drafts only would be published; a group no article had would appear;
        // "Noodles" would be left with no article.
        var drafts = lists
        #expect(drafts.regroup(noodles.sourcePath, from: noodles, to: try retagged(["Noodles", "congee"]), perPage: 2) == nil)
        var new = lists
        #expect(new.regroup(noodles.sourcePath, from: noodles, to: try retagged(["Noodles", "rice"]), perPage: 2) == nil)
        var gone = lists
        #expect(gone.regroup(noodles.sourcePath, from: noodles, to: try retagged(["toast"]), perPage: 2) == nil)
        // A draft is in no list to move it in.
        var draft = lists
        #expect(draft.regroup(all[3].sourcePath, from: all[3], to: try IndexFixture.article("congee", date: "2026-10-01", tags: ["tea"], draft: true), perPage: 2) == nil)
    }
}
