import Foundation
import SitegenContent
@testable import SitegenPipeline
import SitegenSiteFixtures
import Testing

/// Restaurants as the index gathers them: one name at two places is two branches, each
/// with its page and title; an id joins or separates on purpose.
@Suite("Restaurant branches")
struct RestaurantBranchTests {
    private func article(_ slug: String, _ date: String, _ restaurant: String) throws -> Article {
        try IndexFixture.article(slug, date: date, tags: [], restaurant: restaurant)
    }

    /// Each restaurant page: its title, slug and articles.
    private func pages(_ articles: [Article]) -> [(String, String, [String])] {
        let index = IndexFixture.index(articles, drafts: false)
        return index.plan.compactMap { planned in
            guard case .restaurant(let page) = planned else { return nil }
            return (page.entry.name, page.entry.slug, page.articles.map(\.sourcePath))
        }
    }

    @Test func oneNameAtTwoPlacesIsTwoBranchesNamedByTheirDistricts() throws {
        let found = pages([
            try article("ssp", "2026-11-07", "{name: Tim Ho Wan, address: \"9-11 Fuk Wing St, Sham Shui Po\", lat: 22.33069, lon: 114.16239}"),
            try article("ifc", "2026-11-15", "{name: Tim Ho Wan, address: \"Shop 12A, IFC Mall, 8 Finance St, Central\", lat: 22.2851, lon: 114.1582}"),
            // 60 m from the first, written otherwise: the same branch.
            try article("again", "2026-11-20", "{name: TIM HO WAN, address: \"9–11 Fuk Wing Street, Sham Shui Po, Kowloon\", lat: 22.3310, lon: 114.1629}"),
            // Says nowhere: with the newest located article's branch.
            try article("nowhere", "2026-11-22", "{name: Tim Ho Wan}"),
        ])
        #expect(found.map(\.0) == ["Tim Ho Wan (Central)", "Tim Ho Wan (Kowloon)"])
        #expect(found.map(\.1) == ["tim-ho-wan-central", "tim-ho-wan-kowloon"])
        #expect(found.map(\.2) == [["Content/articles/ifc.md"], ["Content/articles/nowhere.md", "Content/articles/again.md", "Content/articles/ssp.md"]])
        let index = IndexFixture.index([try article("a", "2026-11-07", "{name: Tim Ho Wan, address: \"1 A St, Central\"}"),
                                        try article("b", "2026-11-08", "{name: Tim Ho Wan, address: \"2 B St, Central\"}")], drafts: false)
        // The last parts of the addresses are alike: as many as tell them apart.
        #expect(index.restaurants.map(\.name) == ["Tim Ho Wan (1 A St, Central)", "Tim Ho Wan (2 B St, Central)"])
        #expect(index.restaurantSlugs == ["Content/articles/a.md": "tim-ho-wan-1-a-st-central", "Content/articles/b.md": "tim-ho-wan-2-b-st-central"])
    }

    @Test func anAddressWrittenInPartOrShortIsOnePlace() throws {
        let found = pages([
            try article("bun", "2026-11-21", "{name: Kam Wah Cafe, address: 47 Bute St}"),
            try article("tea", "2026-09-12", "{name: Kam Wah Café, address: \"G/F, 47 Bute Street, Prince Edward\"}"),
        ])
        #expect(found.map(\.0) == ["Kam Wah Cafe"])
        #expect(found.map(\.1) == ["kam-wah-cafe"])
        // A district alone joins nothing.
        #expect(pages([try article("x", "2026-11-21", "{name: Kam Wah, address: \"1 Main St, Central\"}"),
                       try article("y", "2026-11-22", "{name: Kam Wah, address: Central}")]).count == 2)
    }

    @Test func anIdJoinsSpellingsAndSeparatesBranches() throws {
        let joined = pages([
            try article("en", "2026-11-21", "{name: Tim Ho Wan, id: tim-ho-wan, address: \"8 Finance St, Central\"}"),
            try article("zh", "2026-11-22", "{name: 添好運, id: tim-ho-wan, address: \"中環金融街8號\"}"),
        ])
        #expect(joined.map(\.0) == ["添好運"] && joined.map(\.1) == ["tim-ho-wan"] && joined.first?.2.count == 2)
        let apart = pages([
            try article("one", "2026-11-21", "{name: Tim Ho Wan, id: tim-ho-wan-ifc, branch: IFC Mall, lat: 22.2851, lon: 114.1582}"),
            try article("two", "2026-11-22", "{name: Tim Ho Wan, id: tim-ho-wan-hk-station, branch: Hong Kong Station, lat: 22.2852, lon: 114.1583}"),
        ])
        #expect(apart.map(\.1) == ["tim-ho-wan-hk-station", "tim-ho-wan-ifc"])
        // `branch` names a branch that its address would name otherwise.
        let named = pages([
            try article("ssp", "2026-11-07", "{name: Tim Ho Wan, branch: Sham Shui Po, address: \"9-11 Fuk Wing St\"}"),
            try article("ifc", "2026-11-15", "{name: Tim Ho Wan, branch: IFC Mall, address: \"8 Finance St\"}"),
        ])
        #expect(named.map(\.0) == ["Tim Ho Wan (IFC Mall)", "Tim Ho Wan (Sham Shui Po)"])
        #expect(named.map(\.1) == ["tim-ho-wan-ifc-mall", "tim-ho-wan-sham-shui-po"])
    }

    @Test func aBranchSlugNeverTakesAnotherRestaurantsPage() throws {
        let found = pages([
            try article("a", "2026-11-07", "{name: A, address: \"1 X St, B\"}"),
            try article("b", "2026-11-08", "{name: A, address: \"2 Y St, C\"}"),
            try article("ab", "2026-11-09", "{name: A B}"),
        ])
        #expect(Set(found.map(\.1)).count == 3)
        #expect(found.first { $0.2 == ["Content/articles/ab.md"] }?.1 == "a-b")
    }
}
