import Foundation
import SitegenContent
@testable import SitegenCore
import SitegenSupport
import SitegenYAML
import Testing

@Suite("Index stage")
struct IndexStageTests {
    private static let site = Site(node: try! YAMLReader.read(Array("title: Food\nbase_url: https://example.org/\n".utf8), path: "Content/site.yaml"), log: DiagnosticLog())

    private func article(_ slug: String, date: String, tags: [String], draft: Bool = false, title: String? = nil, restaurant: String? = nil) throws -> Article {
        let yaml = """
        title: \(title ?? slug)
        date: \(date)
        tags: [\(tags.joined(separator: ", "))]
        draft: \(draft)
        """ + (restaurant.map { "\nrestaurant: \($0)" } ?? "")
        let path = "articles/\(slug).md"
        let file = ContentFile(path: "Content/" + path, contentPath: path, frontMatter: try YAMLReader.read(Array(yaml.utf8), path: "Content/" + path),
                               body: Array("Text.\n".utf8), bodyFirstLine: 6)
        let log = DiagnosticLog()
        let article = try Article(file: file, context: ModelContext(site: Self.site, teachers: [:], images: ImageLookup(staticFiles: []) { _, _ in nil }), log: log)
        #expect(!log.hasErrors, "\(log.entries)")
        return article
    }

    private func articles() throws -> [Article] {
        [
            try article("b-toast", date: "2026-11-02", tags: ["Toast", "toast", "Tea"]),
            try article("a-toast", date: "2026-11-02", tags: ["toast"]),
            try article("noodles", date: "2026-11-05", tags: ["Noodles"]),
            try article("congee", date: "2026-10-01", tags: ["Congee", "tea"], draft: true),
            try article("milk-tea", date: "2026-11-03T09:00", tags: ["Milk tea"]),
        ]
    }

    private func index(_ articles: [Article], drafts: Bool) -> SiteIndex {
        var content = SiteContent()
        content.articles = articles
        let moment = BuildMoment(date: CalendarDate(parsing: "2026-12-01")!, time: nil)
        return SiteIndex(content: content, site: Self.site, moment: moment, includeDrafts: drafts, staticFiles: [], themeAssets: [], log: DiagnosticLog())
    }

    @Test func groupsCountAnArticleOnceAndTheDraftsTheyLeaveOut() throws {
        let index = index(try articles(), drafts: false)
        // "toast" as a-toast writes it: the first of the newest articles, the same time
        // ordered by slug; b-toast's "Toast" and "toast" are one label.
        let tags = index.tags.map { ($0.label.name, $0.articles.map(\.slug.text), $0.draftCount) }
        #expect(tags.map(\.0) == ["Congee", "Milk tea", "Noodles", "Tea", "toast"])
        #expect(tags.map(\.1) == [[], ["milk-tea"], ["noodles"], ["b-toast"], ["a-toast", "b-toast"]])
        #expect(tags.map(\.2) == [1, 0, 0, 1, 0])
        let withDrafts = self.index(try articles(), drafts: true)
        #expect(withDrafts.tags.map(\.articles.count) == [1, 1, 1, 2, 2])
        #expect(withDrafts.tags.allSatisfy { $0.draftCount == 0 })
    }

    @Test func gathersRestaurantsBySlugEachWithItsPage() throws {
        let articles = [
            try article("bun", date: "2026-11-21", tags: [], restaurant: "{name: Kam Wah Cafe, address: 47 Bute St, lat: 22.32, lon: 114.17}"),
            try article("tea", date: "2026-09-12", tags: [], restaurant: "{name: Kam Wah Café, address: 47 Bute Street}"),
            try article("odd", date: "2026-10-01", tags: [], restaurant: "{name: \"!!!\"}"),
            try article("plain", date: "2026-10-02", tags: [], restaurant: "{address: 9 Fuk Wing St}"),
            try article("draft", date: "2026-10-03", tags: [], draft: true, restaurant: "{name: Tim Ho Wan}"),
        ]
        let index = index(articles, drafts: false)
        // Named, addressed and placed as the newest article has them; no page for a draft's.
        let pages = index.plan.compactMap { planned -> RestaurantPage? in
            if case .restaurant(let page) = planned { page } else { nil }
        }
        #expect(pages.map(\.entry) == index.restaurants && index.restaurants.map(\.count) == [1, 1, 2])
        let entries = pages.map { ($0.entry.name, $0.entry.slug, $0.entry.address, $0.articles.map(\.pagePath)) }
        #expect(entries.map(\.0) == ["!!!", "9 Fuk Wing St", "Kam Wah Cafe"])
        #expect(entries.map(\.2) == [nil, "9 Fuk Wing St", "47 Bute St"])
        #expect(entries.map(\.3) == [["articles/odd/"], ["articles/plain/"], ["articles/bun/", "articles/tea/"]])
        // A name with no letter or digit is told by a hash of it, the same in every build.
        let odd = entries[0].1
        #expect(odd.hasPrefix("restaurant-") && odd.count == "restaurant-".count + 8 && Slug(validating: odd) != nil)
        #expect(Restaurant.slug(of: "!!!") == odd && Restaurant.slug(of: "???") != odd)
        #expect(entries.map(\.1).dropFirst() == ["9-fuk-wing-st", "kam-wah-cafe"])
        let paths = index.planPaths.filter { $0.hasPrefix("restaurants/") }
        #expect(paths == ["restaurants/index.html", "restaurants/\(odd)/index.html", "restaurants/9-fuk-wing-st/index.html", "restaurants/kam-wah-cafe/index.html"])
        // The view of an article's restaurant links to its page, whatever the spelling.
        let context = ViewContext(site: Self.site, formats: Formats(language: Self.site.language))
        for article in articles.prefix(2) {
            guard case .string(let url)? = context.restaurant(article.restaurant!).member("url") else { Issue.record("no url"); continue }
            #expect(url == "/restaurants/kam-wah-cafe/")
        }
    }

    @Test func aTitleEditChangesTheFingerprintOfItsRestaurantsPageOnly() throws {
        func prints(tea title: String) throws -> [String: UInt64] {
            let index = index([
                try article("bun", date: "2026-11-21", tags: [], restaurant: "{name: Kam Wah Cafe, lat: 22.32, lon: 114.17}"),
                try article("tea", date: "2026-09-12", tags: [], title: title, restaurant: "{name: Kam Wah Cafe}"),
                try article("dim-sum", date: "2026-10-01", tags: [], restaurant: "{name: Tim Ho Wan, lat: 22.33, lon: 114.16}"),
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
        let index = index(try articles(), drafts: false)
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
        let all = try articles()
        let lists = SiteLists(index: index(all, drafts: false), contextHash: 7,
                              homeworkSummary: HomeworkSummary(grades: [], hasAssignments: false, updated: "", updatedISO: "", teachersURL: ""),
                              homeworkSummaryPrint: 0)
        let noodles = all[2]
        func retagged(_ tags: [String]) throws -> Article { try article("noodles", date: "2026-11-05", tags: tags) }
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
        #expect(draft.regroup(all[3].sourcePath, from: all[3], to: try article("congee", date: "2026-10-01", tags: ["tea"], draft: true), perPage: 2) == nil)
    }
}
