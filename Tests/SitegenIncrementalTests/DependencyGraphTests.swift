import Foundation
import SitegenContent
@testable import SitegenIncremental
import SitegenPipeline
import SitegenSiteFixtures
import Testing

/// Two answers to "which pages show this article?" must agree: the index's, which the
/// server's warm rebuild renders (`SiteIndex.pages(showing:)`), and the page fingerprints',
/// which a command's rebuild compares (`PageFingerprints`).
@Suite("Which pages show an edit")
struct DependencyGraphTests {
    private func index() throws -> SiteIndex {
        let articles = try IndexFixture.articles() + [
            try IndexFixture.article("bun", date: "2026-11-21", tags: ["Toast"], restaurant: "{name: Kam Wah Cafe, lat: 22.32, lon: 114.17}"),
            try IndexFixture.article("tea", date: "2026-09-12", tags: [], restaurant: "{name: Kam Wah Cafe}"),
            try IndexFixture.article("dim-sum", date: "2026-10-01", tags: ["Tea"], restaurant: "{name: Tim Ho Wan, lat: 22.33, lon: 114.16}"),
        ]
        return IndexFixture.index(articles, drafts: false)
    }

    private func changedPages(_ index: SiteIndex, hashes: [String: UInt64], edited: [String: UInt64]) -> Set<String> {
        let before = PageFingerprints(index, hashes: hashes, context: 0, assets: [:]).of(index.plan, paths: index.planPaths)
        let after = PageFingerprints(index, hashes: hashes.merging(edited) { $1 }, context: 0, assets: [:]).of(index.plan, paths: index.planPaths)
        return Set(index.planPaths.indices.filter { before[$0] != after[$0] }.map { index.planPaths[$0] })
    }

    /// An edit of an article's text (its place, card and title kept): the fingerprints of
    /// exactly the pages the index says show it change.
    @Test func theIndexAndTheFingerprintsNameTheSamePagesForAnEditedArticle() throws {
        let index = try index()
        let hashes = Dictionary(uniqueKeysWithValues: index.articles.map { ($0.sourcePath, UInt64(1)) })
        #expect(index.articles.count == 7)
        for article in index.articles {
            let changed = changedPages(index, hashes: hashes, edited: [article.sourcePath: 2])
            let shown = Set(index.pages(showing: [article.sourcePath], onCards: [article.sourcePath], retitled: false).map(\.path))
            #expect(changed == shown, "\(article.sourcePath): fingerprints \(changed.sorted()), index \(shown.sorted())")
            #expect(shown.contains(article.pagePath + "index.html"))
        }
    }

    /// Every page the index names for an edit that changed no card is one a card-only
    /// edit would not touch: the article's own page and the feed, never a list.
    @Test func anEditThatChangesNoCardLeavesTheLists() throws {
        let index = try index()
        for article in index.articles {
            let shown = index.pages(showing: [article.sourcePath], onCards: [], retitled: false).map(\.path)
            #expect(Set(shown).isSubset(of: [article.pagePath + "index.html", "feed.xml"]), "\(shown)")
        }
    }
}
