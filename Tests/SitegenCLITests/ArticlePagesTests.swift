import Foundation
import SitegenContent
import SitegenPipeline
import SitegenTestSupport
import Testing

/// Small sites built in a scratch folder, to see the pages of Step 3 say the right thing.
private struct ScratchSite {
    let folder = TemporaryFolder()
    var root: URL { folder.url.appendingPathComponent("site") }

    init(site: String = "title: Bites\nbase_url: https://example.org/\ntimezone: Asia/Hong_Kong\ncurrency: HKD\n", files: [String: String] = [:]) throws {
        try folder.write(site, to: "site/Content/site.yaml")
        for (path, text) in files { try folder.write(text, to: "site/\(path)") }
    }

    func build(_ options: (inout BuildOptions) -> Void = { _ in }) -> BuildReport {
        var buildOptions = BuildOptions(source: root.path, today: "2026-11-25T15:00")
        options(&buildOptions)
        return SiteBuilder.build(buildOptions)
    }

    func page(_ path: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent("Output/\(path)"), encoding: .utf8)) ?? ""
    }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("Output/\(path)").path)
    }
}

private func article(_ title: String, date: String, extra: String = "") -> String {
    "---\ntitle: \(title)\ndate: \(date)\n\(extra)---\nAbout \(title).\n"
}

@Suite("Article pages")
struct ArticlePagesTests {
    @Test func paginatesTheHomePageNewestFirstWithRelPrevAndNext() throws {
        var files: [String: String] = [:]
        for day in 1...5 { files["Content/articles/a\(day).md"] = article("Day \(day)", date: "2026-10-0\(day)") }
        let site = try ScratchSite(site: "title: Bites\nbase_url: https://example.org/\narticles_per_page: 2\n", files: files)
        #expect(site.build().succeeded)
        let first = site.page("index.html")
        #expect(first.contains("Day 5") && first.contains("Day 4") && !first.contains("Day 3"))
        #expect(first.contains("<link rel=\"next\" href=\"/page/2/\">") && !first.contains("rel=\"prev\""))
        let second = site.page("page/2/index.html")
        #expect(second.contains("Day 3") && second.contains("Day 2"))
        #expect(second.contains("<link rel=\"prev\" href=\"/\">") && second.contains("<link rel=\"next\" href=\"/page/3/\">"))
        #expect(second.contains("Page 2 of 3"))
        #expect(site.page("page/3/index.html").contains("Day 1"))
        #expect(!site.exists("page/4/index.html"))
    }

    @Test func groupsArticlesByMealAndTagWithCountedIndexes() throws {
        let site = try ScratchSite(files: [
            "Content/articles/a.md": article("Toast", date: "2026-10-01", extra: "meal: Breakfast\ntags: [toast, Milk Tea]\n"),
            "Content/articles/b.md": article("Tea", date: "2026-10-02", extra: "meal: breakfast\ntags: [milk tea]\n"),
        ])
        #expect(site.build().succeeded)
        let meal = site.page("meals/breakfast/index.html")
        #expect(meal.contains("Toast") && meal.contains("Tea") && meal.contains("2 articles"))
        let meals = site.page("meals/index.html")
        #expect(meals.contains("<span class=\"row-label\">breakfast</span><span class=\"row-value\">2 articles</span>"))
        let tags = site.page("tags/index.html")
        #expect(tags.contains("<span class=\"row-label\">milk tea</span><span class=\"row-value\">2 articles</span>"))
        #expect(tags.contains("<span class=\"row-label\">toast</span><span class=\"row-value\">1 article</span>"))
    }

    @Test func embedsTheOpenStreetMapPinAndLinks() throws {
        let site = try ScratchSite(files: [
            "Content/articles/a.md": article("Toast", date: "2026-10-01", extra: "restaurant: {name: Toast Box, address: Nathan Rd, lat: 22.30486488298268, lon: 114.1713863611221}\n"),
        ])
        #expect(site.build().succeeded)
        let page = site.page("articles/a/index.html")
        #expect(page.contains("https://www.openstreetmap.org/export/embed.html?bbox=114.167953%2C22.303277%2C114.174820%2C22.306453&amp;layer=mapnik&amp;marker=22.304865%2C114.171386"))
        #expect(page.contains("title=\"Map of Toast Box\""))
        #expect(page.contains("href=\"https://www.openstreetmap.org/?mlat=22.304865&amp;mlon=114.171386#map=17/22.304865/114.171386\""))
        #expect(page.contains("href=\"https://www.openstreetmap.org/directions?route=%3B22.304865%2C114.171386\""))
    }

    @Test func putsEveryRestaurantOnTheMapWithEscapedData() throws {
        let site = try ScratchSite(files: [
            "Content/articles/a.md": article("</script><b>x", date: "2026-10-01", extra: "restaurant: {name: \"Bar </script>\", lat: 22.3, lon: 114.1}\n"),
        ])
        #expect(site.build().succeeded)
        let map = site.page("map/index.html")
        #expect(map.contains("\"name\":\"Bar \\u003c/script\\u003e\""))
        #expect(map.components(separatedBy: "</script>").count == map.components(separatedBy: "<script").count)
        #expect(site.exists("assets/leaflet/leaflet.js"))
        #expect(map.contains("assets/leaflet/leaflet.js"))
    }

    @Test func aSitesOwnStylesheetComesAfterTheThemesWithoutCopyingTheTheme() throws {
        let site = try ScratchSite(site: "title: Bites\nbase_url: https://example.org/\ntheme: mine\n", files: [
            "Content/articles/a.md": article("Toast", date: "2026-10-01"),
            "Themes/mine/assets/custom.css": ":root { --accent: #b30059; }\n",
        ])
        #expect(site.build().diagnostics.isEmpty)
        let page = site.page("articles/a/index.html")
        let style = try #require(page.range(of: "<link rel=\"stylesheet\" href=\"/assets/style."))
        let custom = try #require(page.range(of: "<link rel=\"stylesheet\" href=\"/assets/custom."))
        #expect(style.upperBound < custom.lowerBound)
        let published = try FileManager.default.contentsOfDirectory(atPath: site.root.appendingPathComponent("Output/assets").path)
        #expect(published.contains { $0.hasPrefix("custom.") && $0.hasSuffix(".css") })
        // Without the file, no link.
        let plain = try ScratchSite(files: ["Content/articles/a.md": article("Toast", date: "2026-10-01")])
        #expect(plain.build().diagnostics.isEmpty)
        #expect(!plain.page("articles/a/index.html").contains("/assets/custom."))
    }

    @Test func publishesTheLeafletItCarriesWithoutLookingForOne() throws {
        let site = try ScratchSite(files: [
            "Content/articles/a.md": article("Toast", date: "2026-10-01", extra: "restaurant: {name: Toast Box, lat: 22.3, lon: 114.1}\n"),
        ])
        let report = site.build { $0.leaflet = .embedded }
        #expect(report.succeeded && report.diagnostics.isEmpty)
        let map = site.page("map/index.html")
        #expect(map.contains("assets/leaflet/leaflet.js") && map.contains("assets/leaflet/leaflet.markercluster.js"))
        // Debian's files, as they were when sitegen was compiled: Leaflet's own banner, the
        // marker clusters and the marker images the stylesheet names.
        #expect(site.page("assets/leaflet/leaflet.js").contains("Leaflet"))
        for file in ["leaflet.css", "leaflet.markercluster.js", "MarkerCluster.css", "MarkerCluster.Default.css",
                     "images/marker-icon.png", "images/marker-icon-2x.png", "images/marker-shadow.png", "images/layers.png", "images/layers-2x.png"] {
            #expect(site.exists("assets/leaflet/" + file), "\(file)")
        }
        #expect(LeafletFiles.embedded.files["leaflet.js"] == Array(site.page("assets/leaflet/leaflet.js").utf8))
    }

    @Test func explainsAnEmptySiteAndASiteOfDrafts() throws {
        let empty = try ScratchSite()
        #expect(empty.build().succeeded)
        #expect(empty.page("index.html").contains("No articles yet"))
        #expect(empty.page("map/index.html").contains("No restaurant on the map yet"))
        #expect(empty.page("tags/index.html").contains("No tags yet"))

        let drafts = try ScratchSite(files: ["Content/articles/a.md": article("Soon", date: "2026-10-01", extra: "draft: true\ntags: [soon]\n")])
        #expect(drafts.build().succeeded)
        #expect(drafts.page("index.html").contains("<h2 id=\"empty-title\">Nothing published yet</h2>\n  <p>Articles appear here once they are published.</p>"))
        #expect(drafts.page("tags/soon/index.html").contains("The one article tagged “soon” is a draft"))
        // The page says why it is empty, but search engines are not to list a draft's tag.
        #expect(drafts.page("tags/soon/index.html").contains("<meta name=\"robots\" content=\"noindex\">"))
        #expect(!drafts.page("sitemap.xml").contains("tags/soon/"))
        #expect(drafts.page("sitemap.xml").contains("<loc>https://example.org/tags/</loc>"))
        #expect(!drafts.page("tags/index.html").contains("noindex"))
        #expect(!drafts.page("tags/index.html").contains("tags/soon/"))
        #expect(drafts.page("tags/index.html").contains("No tags yet"))
    }

    @Test func publishesTheAuthorsOwnRobotsFileInPlaceOfTheOneItMakes() throws {
        let made = try ScratchSite()
        #expect(made.build().succeeded)
        #expect(made.page("robots.txt") == "User-agent: *\nAllow: /\n\nSitemap: https://example.org/sitemap.xml\n")
        let own = try ScratchSite(files: ["Content/robots.txt": "User-agent: *\nDisallow: /\n"])
        let report = own.build()
        #expect(report.succeeded)
        #expect(report.diagnostics.isEmpty)
        #expect(own.page("robots.txt") == "User-agent: *\nDisallow: /\n")
    }

    @Test func publishesTheWellKnownFolderButNoOtherHiddenFile() throws {
        let site = try ScratchSite(files: [
            "Content/.well-known/security.txt": "Contact: mailto:security@example.org\n",
            "Content/.DS_Store": "x", "Content/images/.gitkeep": "", "Content/images/logo.svg": "<svg viewBox=\"0 0 2 1\"/>",
        ])
        #expect(site.build().succeeded)
        #expect(site.page(".well-known/security.txt") == "Contact: mailto:security@example.org\n")
        #expect(!site.exists(".DS_Store") && !site.exists("images/.gitkeep") && site.exists("images/logo.svg"))
        // Published like any other folder: what the site no longer has goes, and a hidden
        // folder of the output's own (a deploy branch's .git) stays.
        let output = site.root.appendingPathComponent("Output")
        try FileManager.default.createDirectory(at: output.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("Content/.well-known"))
        #expect(site.build().succeeded)
        #expect(!site.exists(".well-known") && site.exists(".git"))
    }

    @Test func letsASiteOverrideOneTemplate() throws {
        let site = try ScratchSite(files: [
            "Content/articles/a.md": article("Toast", date: "2026-10-01"),
            "Themes/default/article.card.mustache": "<p class=\"my-card\">{{title}}</p>\n",
        ])
        #expect(site.build().succeeded)
        #expect(site.page("index.html").contains("<p class=\"my-card\">Toast</p>"))
        #expect(site.page("articles/a/index.html").contains("<h1 id=\"article-title\" class=\"article-title\">Toast</h1>"))
    }
}
