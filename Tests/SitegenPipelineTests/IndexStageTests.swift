import Foundation
import SitegenContent
@testable import SitegenPipeline
import SitegenSiteFixtures
import SitegenSupport
import Testing

@Suite("Index stage")
struct IndexStageTests {
    @Test func groupsCountAnArticleOnceAndTheDraftsTheyLeaveOut() throws {
        let index = IndexFixture.index(try IndexFixture.articles(), drafts: false)
        // "toast" as a-toast writes it: the first of the newest articles, the same time
        // ordered by slug; b-toast's "Toast" and "toast" are one label.
        let tags = index.tags.map { ($0.label.name, $0.articles.map(\.slug.text), $0.draftCount) }
        #expect(tags.map(\.0) == ["Congee", "Milk tea", "Noodles", "Tea", "toast"])
        #expect(tags.map(\.1) == [[], ["milk-tea"], ["noodles"], ["b-toast"], ["a-toast", "b-toast"]])
        #expect(tags.map(\.2) == [1, 0, 0, 1, 0])
        let withDrafts = IndexFixture.index(try IndexFixture.articles(), drafts: true)
        #expect(withDrafts.tags.map(\.articles.count) == [1, 1, 1, 2, 2])
        #expect(withDrafts.tags.allSatisfy { $0.draftCount == 0 })
    }

    @Test func gathersRestaurantsBySlugEachWithItsPage() throws {
        let articles = [
            try IndexFixture.article("bun", date: "2026-11-21", tags: [], restaurant: "{name: Kam Wah Cafe, address: 47 Bute St, lat: 22.32, lon: 114.17}"),
            try IndexFixture.article("tea", date: "2026-09-12", tags: [], restaurant: "{name: Kam Wah Café, address: 47 Bute Street}"),
            try IndexFixture.article("odd", date: "2026-10-01", tags: [], restaurant: "{name: \"!!!\"}"),
            try IndexFixture.article("plain", date: "2026-10-02", tags: [], restaurant: "{address: 9 Fuk Wing St}"),
            try IndexFixture.article("draft", date: "2026-10-03", tags: [], draft: true, restaurant: "{name: Tim Ho Wan}"),
        ]
        let index = IndexFixture.index(articles, drafts: false)
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
        let context = ViewContext(site: IndexFixture.site, formats: Formats(language: IndexFixture.site.language))
        for article in articles.prefix(2) {
            guard case .string(let url)? = context.restaurant(article.restaurant!, of: article.sourcePath).member("url") else { Issue.record("no url"); continue }
            #expect(url == "/restaurants/kam-wah-cafe/")
        }
    }
}
