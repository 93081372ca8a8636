import Foundation
import SitegenCLI
import SitegenContent
@testable import SitegenIncremental
@testable import SitegenPipeline
@testable import SitegenFiles
import SitegenTestSupport
import Testing

/// Rebuilds of a few articles edited in place, and the lists kept beside the cache.
extension BuildCacheTests {
    @Test func rebuildsAnArticleEditedInPlaceFromItsOwnModelAsAFullBuildWould() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        #expect(report(cached, cache: cache).renderedCount > 40)
        // A new last paragraph shows only on the article's page and in the feed, which has
        // every article of the sample site.
        try append("\nAnother basket.\n", to: "dim-sum-in-sham-shui-po/index.md", in: cached, plain)
        let edited = report(cached, cache: cache)
        #expect(edited.succeeded && edited.renderedCount == 2 && edited.writtenCount == 2, "\(edited)")
        #expect(report(plain, cache: nil).succeeded)
        #expect(sameOutputs(cached, plain))
        // What such a rebuild changed is written beside the cache file, and read with it.
        func changesFile() throws -> Bool {
            try FileManager.default.contentsOfDirectory(atPath: cache.path).contains { $0.hasSuffix(".cache-changes") }
        }
        #expect(try changesFile())
        try append("\nAnd a third.\n", to: "lovely-breakfast/index.md", in: cached, plain)
        #expect(report(cached, cache: cache).renderedCount == 2)
        // Damaged changes are ignored: the cache file alone no longer matches the output.
        let changes = try #require(try FileManager.default.contentsOfDirectory(atPath: cache.path).first { $0.hasSuffix(".cache-changes") })
        var bytes = try Array(Data(contentsOf: cache.appendingPathComponent(changes)))
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: cache.appendingPathComponent(changes))
        try append("\nAnd more.\n", to: "lovely-breakfast/index.md", in: cached, plain)
        #expect(report(cached, cache: cache).renderedCount > 2)
        _ = report(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
        try append("\nAnd a fourth.\n", to: "dim-sum-in-sham-shui-po/index.md", in: cached, plain)
        #expect(report(cached, cache: cache).renderedCount == 2)
        _ = report(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
        #expect(report(cached, cache: cache).renderedCount == 0)
        // A new date moves the article in every list: a full build, which writes the cache
        // file whole again.
        try replace("date: 2026-11-07T10:00", with: "date: 2026-11-08T10:00", in: "dim-sum-in-sham-shui-po/index.md", in: cached, plain)
        let moved = report(cached, cache: cache)
        #expect(moved.renderedCount > 2, "\(moved)")
        #expect(try !changesFile())
        _ = report(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
        #expect(report(cached, cache: cache).renderedCount == 0)
    }

    /// Whether the last build through `cache` wrote only its changes beside the cache file,
    /// as a rebuild of edited articles does (a full build writes the file whole).
    func wroteChangesOnly(_ cache: URL) throws -> Bool {
        try FileManager.default.contentsOfDirectory(atPath: cache.path).contains { $0.hasSuffix(".cache-changes") }
    }

    @Test func rendersTheListsOfARetitledArticleFromTheListsKeptBesideTheCache() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        _ = report(cached, cache: cache)
        try replace("title: Dim Sum in Sham Shui Po", with: "title: Dim Sum <& Sham Shui Po>", in: "dim-sum-in-sham-shui-po/index.md", in: cached, plain)
        // Its page, the home page, its meal's and three tags' pages, its restaurant's page
        // and the feed, from the one model read again and those of the lists' articles: not
        // the index of restaurants nor the map, which show no titles.
        let retitled = report(cached, cache: cache)
        #expect(retitled.succeeded && retitled.parsedCount == 1 && retitled.renderedCount == 8, "\(retitled)")
        #expect(try wroteChangesOnly(cache))
        _ = report(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
        // The lists hold no titles: a second edit, and another article's, are made from the
        // models, which have the first.
        try replace("title: Dim Sum <& Sham Shui Po>", with: "title: Dim Sum, Again", in: "dim-sum-in-sham-shui-po/index.md", in: cached, plain)
        #expect(report(cached, cache: cache).renderedCount == 8)
        // The egg tarts are in four tags.
        try replace("title: Egg Tarts on Lyndhurst Terrace", with: "title: Egg Tarts", in: "egg-tarts-on-lyndhurst-terrace/index.md", in: cached, plain)
        #expect(report(cached, cache: cache).renderedCount == 9)
        _ = report(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
        // The older of Kam Wah's two articles: its restaurant's page lists both, the other
        // from its model.
        try replace("title: Milk Tea at Kam Wah", with: "title: Milk Tea, Pulled", in: "milk-tea-at-kam-wah/index.md", in: cached, plain)
        let older = report(cached, cache: cache)
        #expect(older.succeeded && older.parsedCount == 1 && older.renderedCount == 7, "\(older)")
        #expect(try wroteChangesOnly(cache))
        _ = report(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
        // A price is on the cards, not on a restaurant's page.
        try replace("price: 98", with: "price: 99", in: "dim-sum-in-sham-shui-po/index.md", in: cached, plain)
        #expect(report(cached, cache: cache).renderedCount == 7)
        #expect(try wroteChangesOnly(cache))
        _ = report(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
        #expect(report(cached, cache: cache).renderedCount == 0)
    }

    @Test func rendersTheListPagesOfAnEditedArticleWhereverItIsListed() throws {
        for perPage in [1, 2] {
            let folder = TemporaryFolder()
            let (cached, plain, cache) = try twinSites(in: folder)
            try showArticles(perPage, aPageIn: cached, plain)
            _ = report(cached, cache: cache)
            for article in ["claypot-rice-at-temple-street", "pineapple-bun-in-mong-kok", "lovely-breakfast", "wonton-noodles-in-central"] {
                let file = "Content/articles/\(article)/index.md"
                for site in [cached, plain] {
                    let url = site.appendingPathComponent(file)
                    let text = try String(contentsOf: url, encoding: .utf8)
                    try text.replacingOccurrences(of: "\ntitle: ", with: "\ntitle: Edited ").write(to: url, atomically: false, encoding: .utf8)
                }
                let edited = report(cached, cache: cache)
                #expect(edited.succeeded && edited.parsedCount == 1, "\(perPage) \(article): \(edited)")
                #expect(try wroteChangesOnly(cache), "\(perPage) \(article)")
                _ = report(plain, cache: nil)
                #expect(sameOutputs(cached, plain), "\(perPage) \(article)")
            }
        }
    }

    /// Makes each edit (the text replaced, in an article's file) to both sites, builds one
    /// through the cache and the other without, and checks that their outputs are the same
    /// and whether the cached build took the edit from the lists (`fromLists`) or in full;
    /// then that a rebuild finds nothing to render.
    func expectEdits(_ edits: [(String, String, String, Bool)], cached: URL, plain: URL, cache: URL) throws {
        for (text, replacement, article, fromLists) in edits {
            try replace(text, with: replacement, in: article, in: cached, plain)
            let edited = report(cached, cache: cache)
            #expect(edited.succeeded, "\(replacement): \(edited)")
            #expect(try wroteChangesOnly(cache) == fromLists, "\(replacement): \(edited)")
            _ = report(plain, cache: nil)
            #expect(sameOutputs(cached, plain), "\(replacement)")
        }
        #expect(report(cached, cache: cache).renderedCount == 0)
    }

    @Test func movesAnArticleBetweenMealsAndTagsInTheListsKeptBesideTheCache() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        _ = report(cached, cache: cache)
        let dimSum = "dim-sum-in-sham-shui-po/index.md"
        // Each edit, whether the build took it from the lists (true) or in full (false).
        let edits: [(String, String, String, Bool)] = [
            // Into "bakery", of two articles: its pages, the article's, the home page, the
            // other groups that list it, /tags/ and the feed.
            ("tags: [dim sum, brunch, kowloon]", "tags: [dim sum, brunch, kowloon, bakery]", dimSum, true),
            // Out of "kowloon", where it was the newest: its four articles, three to a page,
            // become three on one page, and the page that goes needs the full build.
            ("tags: [dim sum, brunch, kowloon, bakery]", "tags: [dim sum, brunch, bakery]", dimSum, false),
            // Another meal: the one of two articles, both with more left.
            ("meal: Breakfast", "meal: Brunch", "pineapple-bun-in-mong-kok/index.md", true),
            // Its only tag written otherwise: the group is named as its newest article
            // writes it, and /tags/ may order it otherwise.
            ("tags: [dim sum, brunch, bakery]", "tags: [Dim Sum, brunch, bakery]", dimSum, true),
            // A tag no article had: a new group, its pages and the sitemap.
            ("tags: [Dim Sum, brunch, bakery]", "tags: [Dim Sum, brunch, bakery, harbour]", dimSum, false),
            // The last article of a group leaves: the group goes.
            ("tags: [Dim Sum, brunch, bakery, harbour]", "tags: [Dim Sum, brunch, bakery]", dimSum, false),
        ]
        try expectEdits(edits, cached: cached, plain: plain, cache: cache)
    }

    @Test func movesAnArticleBetweenRestaurantsInTheListsKeptBesideTheCache() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        _ = report(cached, cache: cache)
        let (dimSum, bun, milkTea) = ("dim-sum-in-sham-shui-po/index.md", "pineapple-bun-in-mong-kok/index.md", "milk-tea-at-kam-wah/index.md")
        // Each edit, whether the build took it from the lists (true) or in full (false).
        let edits: [(String, String, String, Bool)] = [
            // The newest of Kam Wah's two articles spells it otherwise, at the same place:
            // the restaurant is named as its newest article now names it ("KAM WAH CAFE"),
            // and the index of restaurants, the map and its page show it.
            ("name: Kam Wah Cafe", "name: KAM WAH CAFE", bun, true),
            // The older one, then back: nothing the lists show changes but its own page.
            ("name: Kam Wah Café", "name: kam wah café", milkTea, true),
            ("name: KAM WAH CAFE", "name: Kam Wah Cafe", bun, true),
            // Another address for one of Tim Ho Wan's branches, which may join or split
            // branches: a full build, whose pages the lists then keep.
            ("address: 9-11 Fuk Wing St", "address: 10 Fuk Wing St", dimSum, false),
            // A story edit of a branch's article: its page links to its branch's page,
            // which the lists tell.
            ("Share everything.", "Share everything, always.", dimSum, true),
            // The newest of Kam Wah's articles to Tim Ho Wan: at Kam Wah's place, so a third
            // branch of Tim Ho Wan (Prince Edward); and back.
            ("name: Kam Wah Cafe", "name: Tim Ho Wan", bun, false),
            ("name: Tim Ho Wan", "name: Kam Wah Cafe", bun, false),
            // No coordinates: the restaurant's place is its address alone.
            ("  lat: 22.33069\n  lon: 114.16239\n", "", dimSum, false),
            // A name with no letters to make a slug of has one made from a hash of it.
            ("name: Tim Ho Wan", "name: \"!!!\"", dimSum, false),
            ("name: \"!!!\"", "name: Tim Ho Wan", dimSum, false),
        ]
        try expectEdits(edits, cached: cached, plain: plain, cache: cache)
    }

    @Test func listsAGroupsNewPageInTheSitemapWhenAnotherGroupLostOne() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        try showArticles(1, aPageIn: cached, plain)
        _ = report(cached, cache: cache)
        // Breakfast goes from two pages to one and Brunch from one to two: as many pages
        // as before, one of them at another path.
        try replace("meal: Breakfast", with: "meal: Brunch", in: "pineapple-bun-in-mong-kok/index.md", in: cached, plain)
        #expect(report(cached, cache: cache).succeeded)
        _ = report(plain, cache: nil)
        let sitemap = try String(contentsOf: cached.appendingPathComponent("Output/sitemap.xml"), encoding: .utf8)
        #expect(sitemap.contains("/meals/brunch/page/2/") && !sitemap.contains("/meals/breakfast/page/2/"))
        #expect(sameOutputs(cached, plain))
    }

    @Test func rendersTheListsOfAnEditedDraftWhenDraftsArePublished() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        _ = report(cached, cache: cache, drafts: true)
        let guide = "2026-11-23-cha-chaan-teng-guide.md"
        for (text, replacement) in [("title: A Cha Chaan Teng Guide", "title: The Cha Chaan Teng Guide"), ("meal: Breakfast", "meal: Brunch")] {
            try replace(text, with: replacement, in: guide, in: cached, plain)
            let edited = report(cached, cache: cache, drafts: true)
            #expect(edited.succeeded && edited.parsedCount == 1, "\(replacement): \(edited)")
            #expect(try wroteChangesOnly(cache), "\(replacement)")
            _ = report(plain, cache: nil, drafts: true)
            #expect(sameOutputs(cached, plain), "\(replacement)")
        }
        // Without --drafts the draft is on no list: another meal is the full build's to count.
        _ = report(cached, cache: cache)
        try replace("meal: Brunch", with: "meal: Lunch", in: guide, in: cached, plain)
        #expect(report(cached, cache: cache).succeeded)
        #expect(try !wroteChangesOnly(cache))
        _ = report(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
    }

    @Test func rebuildsInFullWhenTheListsBesideTheCacheAreDamagedOrGone() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        _ = report(cached, cache: cache)
        func lists() throws -> URL {
            cache.appendingPathComponent(try #require(try FileManager.default.contentsOfDirectory(atPath: cache.path).first { $0.hasSuffix(".cache-lists") }))
        }
        var bytes = try Array(Data(contentsOf: try lists()))
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: try lists())
        try replace("title: Dim Sum in Sham Shui Po", with: "title: Dim Sum", in: "dim-sum-in-sham-shui-po/index.md", in: cached, plain)
        #expect(report(cached, cache: cache).succeeded)
        #expect(try !wroteChangesOnly(cache))
        _ = report(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
        // The full build wrote them again.
        try replace("title: Dim Sum", with: "title: Dim Sum Again", in: "dim-sum-in-sham-shui-po/index.md", in: cached, plain)
        #expect(report(cached, cache: cache).renderedCount == 8)
        #expect(try wroteChangesOnly(cache))
        try FileManager.default.removeItem(at: try lists())
        try replace("title: Dim Sum Again", with: "title: Dim Sum Once More", in: "dim-sum-in-sham-shui-po/index.md", in: cached, plain)
        #expect(report(cached, cache: cache).succeeded)
        #expect(try !wroteChangesOnly(cache))
        _ = report(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
    }

    @Test func rendersTheListsAgainWhenTheirCardsShowWhatWasEdited() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        for site in [cached, plain] {
            let card = site.appendingPathComponent("Themes/default/article.card.mustache")
            try ("<div class=\"story\">{{{body}}}</div>\n" + (try String(contentsOf: card, encoding: .utf8))).write(to: card, atomically: false, encoding: .utf8)
        }
        _ = report(cached, cache: cache)
        try append("\nAnother basket.\n", to: "dim-sum-in-sham-shui-po/index.md", in: cached, plain)
        #expect(report(cached, cache: cache).renderedCount > 2)
        _ = report(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
    }

    @Test func rebuildsInFullWhenTheEditedArticlesModelIsDamagedOrHasErrors() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        _ = report(cached, cache: cache)
        // Every byte of the store damaged: the edited article's old model does not read back.
        try damageStore(in: cache) { models in
            for index in ModelStore.headerLength..<models.count { models[index] ^= 0x20 }
        }
        try append("\nAnother basket.\n", to: "dim-sum-in-sham-shui-po/index.md", in: cached, plain)
        #expect(report(cached, cache: cache).renderedCount > 2)
        _ = report(plain, cache: nil)
        #expect(sameOutputs(cached, plain))

        // An error in an edited article fails the build as it would without the cache.
        try append("\n![](missing.jpg)\n", to: "dim-sum-in-sham-shui-po/index.md", in: cached, plain)
        let failed = report(cached, cache: cache)
        let expected = report(plain, cache: nil)
        #expect(!failed.succeeded && failed.diagnostics == expected.diagnostics, "\(failed.diagnostics)")
        #expect(sameOutputs(cached, plain))
    }

    @Test func keepsTheWarningsOfArticlesNotEditedAndReplacesThoseOfTheEditedOne() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        try replace("title:", with: "colour: red\ntitle:", in: "lovely-breakfast/index.md", in: cached, plain)
        try replace("title:", with: "flavour: salty\ntitle:", in: "dim-sum-in-sham-shui-po/index.md", in: cached, plain)
        _ = report(cached, cache: cache)
        try replace("flavour: salty", with: "flavor: salty", in: "dim-sum-in-sham-shui-po/index.md", in: cached, plain)
        let edited = report(cached, cache: cache)
        let expected = report(plain, cache: nil)
        #expect(edited.renderedCount == 2)
        #expect(edited.diagnostics == expected.diagnostics && !expected.diagnostics.isEmpty, "\(edited.diagnostics)")
        #expect(sameOutputs(cached, plain))
    }

    /// Edits of the kinds writers make, to every article in turn, each built through the
    /// cache and without it: the same bytes every time, whichever way the cached build went.
    @Test func buildsWhatABuildWithoutTheCacheBuildsAfterEditsOfArticles() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        _ = report(cached, cache: cache)
        let articles = ["claypot-rice-at-temple-street/index.md", "dim-sum-in-sham-shui-po/index.md", "egg-tarts-on-lyndhurst-terrace/index.md",
                        "lovely-breakfast/index.md", "pineapple-bun-in-mong-kok/index.md", "wonton-noodles-in-central/index.md", "2026-11-23-cha-chaan-teng-guide.md"]
        // Each edit replaces the first match of a pattern (or appends) in the front matter or the story.
        let edits: [(pattern: String, replacement: (Int) -> String, inFrontMatter: Bool)] = [
            ("$", { "\n\nAnother paragraph, \($0).\n" }, false),
            ("^", { "A new opening, \($0).\n\n" }, false),
            ("(?m)^title: .*$", { "title: Renamed \($0)" }, true),
            ("(?m)^price: [0-9]+$", { "price: \($0 % 90 + 1)" }, true),
            ("(?m)^date: 20", { _ in "date: 19" }, true),
            ("(?m)^tags: \\[", { "tags: [t\($0 % 3), " }, true),
            ("(?m)^meal: .*$", { "meal: Meal \($0 % 2)" }, true),
            ("(?m)^title:", { "summary: Said \($0).\ntitle:" }, true),
            ("(?m)^title:", { _ in "draft: true\ntitle:" }, true),
        ]
        var quick = 0
        for round in 1...24 {
            // Seven articles and nine kinds of edit (4 and 9 coprime): every article and every
            // kind of edit comes up, in changing pairs.
            let article = articles[round % articles.count]
            let edit = edits[round * 4 % edits.count]
            for site in [cached, plain] {
                let file = site.appendingPathComponent("Content/articles/\(article)")
                let text = try String(contentsOf: file, encoding: .utf8)
                let split = try #require(text.range(of: "\n---\n"))
                var head = String(text[..<split.lowerBound])
                var body = String(text[split.upperBound...])
                if edit.inFrontMatter {
                    if let match = head.range(of: edit.pattern, options: .regularExpression) { head.replaceSubrange(match, with: edit.replacement(round)) }
                } else if let match = body.range(of: edit.pattern, options: .regularExpression) {
                    body.replaceSubrange(match, with: edit.replacement(round))
                }
                try (head + "\n---\n" + body).write(to: file, atomically: false, encoding: .utf8)
            }
            let built = report(cached, cache: cache)
            if built.renderedCount <= 2 { quick += 1 }
            _ = report(plain, cache: nil)
            #expect(sameOutputs(cached, plain), "round \(round): \(edit.pattern) in \(article)")
        }
        // Edits of the story alone are rebuilt from the article's own model.
        #expect(quick >= 4, "\(quick)")
    }
}
