import Foundation
import SitegenCLI
import SitegenTestSupport
import Testing

/// Articles dated after the build: the sample site's "Hot Pot on Christmas Eve" (dated
/// 2026-12-24T18:00) is out of the site before then, in it from then on, and shown marked
/// as scheduled with --future; `updated:` in pages, the feed and the sitemap.
@Suite("Scheduled articles")
struct SchedulingTests {
    private static let hotPot = "articles/hot-pot-on-christmas-eve/index.html"

    /// The sample site built at `today` into a new folder, with `arguments` more.
    private func build(_ folder: TemporaryFolder, _ output: String, today: String, _ arguments: [String] = []) -> (status: Int32, output: URL) {
        let url = folder.url.appendingPathComponent(output)
        let console = CapturedConsole()
        let status = CommandLineTool.run(arguments: ["build", "--source", Repository.root.path, "--output", url.path, "--today", today, "--quiet"]
                                         + (arguments.contains("--cache-dir") ? arguments : arguments + ["--no-cache"]), console: console.console)
        #expect(console.error == "", "\(today) \(arguments)")
        return (status, url)
    }

    private func text(_ output: URL, _ path: String) -> String {
        (try? String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    /// Every file of a built site that mentions the article.
    private func mentions(_ output: URL) -> [String] {
        FolderSnapshot(output).files.compactMap { path, bytes in
            String(decoding: bytes, as: UTF8.self).contains("hot-pot-on-christmas-eve") || String(decoding: bytes, as: UTF8.self).contains("Hot Pot on Christmas Eve") ? path : nil
        }.sorted()
    }

    @Test func isLeftOutOfEveryPageUntilItsMinute() {
        let folder = TemporaryFolder()
        let before = build(folder, "before", today: "2026-12-24T17:59").output
        #expect(mentions(before) == [])
        #expect(!FileManager.default.fileExists(atPath: before.appendingPathComponent("meals/dinner/index.html").path) || !text(before, "meals/dinner/index.html").contains("Hot Pot"))
        #expect(!FileManager.default.fileExists(atPath: before.appendingPathComponent("tags/hot-pot").path))

        let after = build(folder, "after", today: "2026-12-24T18:00").output
        let shown = mentions(after)
        for path in [Self.hotPot, "index.html", "feed.xml", "sitemap.xml", "meals/dinner/index.html", "tags/hot-pot/index.html"] {
            #expect(shown.contains(path), "\(path)")
        }
        #expect(!text(after, Self.hotPot).contains("Scheduled"))
        // A day alone reads as its release time (14:00 here), before 18:00.
        #expect(mentions(build(folder, "day", today: "2026-12-24").output) == [])
        #expect(mentions(build(folder, "next-day", today: "2026-12-25").output).contains(Self.hotPot))
    }

    @Test func futureShowsItMarkedAsScheduled() {
        let folder = TemporaryFolder()
        let output = build(folder, "future", today: SampleSiteTests.today, ["--future"]).output
        let page = text(output, Self.hotPot)
        #expect(page.contains("<p class=\"meta\"><strong class=\"badge\">Scheduled</strong> <time datetime=\"2026-12-24T18:00\">Dec 24, 2026</time>"))
        #expect(text(output, "index.html").contains("<span class=\"card-meta\"><strong class=\"badge\">Scheduled</strong> <time datetime=\"2026-12-24T18:00\">"))
        // Nothing else is marked: the other articles are in the past.
        #expect(text(output, "index.html").components(separatedBy: "class=\"badge\"").count == 2)
    }

    /// Two builds the cache takes for one moment (both after the release time, the same
    /// day): the second must still publish what came due between them.
    @Test func theCacheKnowsWhenAScheduledArticleComesDue() {
        let folder = TemporaryFolder()
        let cache = ["--cache-dir", folder.url.appendingPathComponent("cache").path]
        let first = build(folder, "out", today: "2026-12-24T17:59", cache).output
        #expect(mentions(first) == [])
        _ = build(folder, "out", today: "2026-12-24T18:00", cache)
        let fresh = build(folder, "fresh", today: "2026-12-24T18:00").output
        #expect(FolderSnapshot(first).files == FolderSnapshot(fresh).files)
        #expect(mentions(first).contains(Self.hotPot))
    }

    @Test func updatedIsShownAndDatesTheFeedAndTheSitemap() {
        let folder = TemporaryFolder()
        let output = build(folder, "out", today: SampleSiteTests.today).output
        let page = text(output, "articles/lovely-breakfast/index.html")
        #expect(page.contains("<time datetime=\"2016-05-20\">May 20, 2016</time> · Updated <time datetime=\"2026-11-20\">Nov 20, 2026</time>"))
        #expect(page.contains("\"datePublished\":\"2016-05-20T00:00:00+08:00\",\"dateModified\":\"2026-11-20T00:00:00+08:00\""))
        #expect(text(output, "feed.xml").contains("<published>2016-05-20T00:00:00+08:00</published>\n    <updated>2026-11-20T00:00:00+08:00</updated>"))
        #expect(text(output, "sitemap.xml").contains("<loc>https://example.org/articles/lovely-breakfast/</loc><lastmod>2026-11-20</lastmod>"))
    }

    @Test func updatedBeforeTheDateIsAnErrorAtIt() throws {
        let folder = TemporaryFolder()
        try folder.write("title: T\nbase_url: https://example.org/\n", to: "site/Content/site.yaml")
        try folder.write("---\ntitle: A\ndate: 2026-10-02T12:00\nupdated: 2026-10-01\n---\nText.\n", to: "site/Content/articles/a.md")
        try folder.write("---\ntitle: B\ndate: 2026-10-02T12:00\nupdated: 2026-10-02\n---\nText.\n", to: "site/Content/articles/b.md")
        try folder.write("---\ntitle: C\ndate: 2026-10-02T12:00\nupdated: 2026-10-02T11:59\n---\nText.\n", to: "site/Content/articles/c.md")
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--source", folder.url.appendingPathComponent("site").path, "--today", "2026-11-01"], console: console.console) == 1)
        #expect(console.error.hasPrefix("""
            Content/articles/a.md:4:10: error: 'updated' must not be before 'date' (2026-10-02T12:00), found '2026-10-01'
            Content/articles/c.md:4:10: error: 'updated' must not be before 'date' (2026-10-02T12:00), found '2026-10-02T11:59'

            """))
    }
}
