import Foundation
import SitegenCLI
import SitegenContent
@testable import SitegenIncremental
@testable import SitegenPipeline
@testable import SitegenFiles
import SitegenTestSupport
import Testing

/// What a cached build takes from the last one: articles' HTML, models, static files,
/// and the pages an edit of a template or an assignment renders again.
extension BuildCacheTests {
    /// The content files of `site`, and those of its articles that have a page: a draft
    /// has none, so the cache stores its HTML whole from the start.
    func contentFiles(of site: URL) throws -> (sources: [String], articles: [String]) {
        let content = site.appendingPathComponent("Content")
        let sources = FolderSnapshot(content).files.keys.filter { $0.hasSuffix(".md") }
        // The articles with a page: not drafts, nor scheduled after the tests' day.
        let articles = try sources.filter { $0.hasPrefix("articles/") }.filter {
            let text = try String(contentsOf: content.appendingPathComponent($0), encoding: .utf8)
            let date = text.split(separator: "\n").first { $0.hasPrefix("date: ") }?.dropFirst(6) ?? ""
            return !text.contains("\ndraft: true\n") && String(date) <= SampleSiteTests.today
        }
        return (sources, articles)
    }

    /// With the output gone (`rm -rf Output`, a CI machine that restores only the cache)
    /// there are no pages to read the articles' HTML from: the articles are parsed again,
    /// all at once as a first build parses them, and only they; their HTML is then stored
    /// whole, so that the next build without pages parses nothing.
    @Test func parsesTheArticlesAgainWhenTheirPagesAreGone() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        let (sources, articles) = try contentFiles(of: cached)
        #expect(articles.count > 1 && articles.count < sources.count)
        #expect(report(cached, cache: cache).parsedCount == sources.count)
        #expect(report(cached, cache: cache).parsedCount == 0)

        // What is left at the output's top when it is a deploy branch's checkout.
        let output = cached.appendingPathComponent("Output")
        try FileManager.default.removeItem(at: output)
        try FileManager.default.createDirectory(at: output.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let again = report(cached, cache: cache)
        #expect(again.parsedCount == articles.count)
        #expect(again.writtenCount == again.fileCount)
        _ = build(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
        try FileManager.default.removeItem(at: output)
        #expect(report(cached, cache: cache).parsedCount == 0)
        #expect(sameOutputs(cached, plain))

        // With the pages in place, an edited template parses nothing, and the articles are
        // stored without their HTML again: the next build without pages parses them.
        for site in [cached, plain] {
            let template = site.appendingPathComponent("Themes/default/article.mustache")
            let original = try String(contentsOf: template, encoding: .utf8)
            #expect(original.contains("<div class=\"prose\">"))
            try original.replacingOccurrences(of: "<div class=\"prose\">", with: "<div class=\"prose main\">").write(to: template, atomically: true, encoding: .utf8)
        }
        #expect(report(cached, cache: cache).parsedCount == 0)
        _ = build(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
        try FileManager.default.removeItem(at: output)
        #expect(report(cached, cache: cache).parsedCount == articles.count)
        #expect(sameOutputs(cached, plain))
    }

    /// The bytes of the model store in `cache`.
    func modelStore(in cache: URL) throws -> Data {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: cache.path).first { $0.hasSuffix(".models") })
        return try Data(contentsOf: cache.appendingPathComponent(name))
    }

    /// The models are kept by the hash of their sources' bytes and of the static files':
    /// a `touch` or a fresh clone (a CI machine that restores the cache) changes every
    /// stamp and no model, and a static file changed in its bytes changes every model.
    @Test func keepsTheModelsOfFilesWhoseStampsChangedButNotTheirBytes() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        let (sources, articles) = try contentFiles(of: cached)
        #expect(report(cached, cache: cache).parsedCount == sources.count)

        let later = Date().addingTimeInterval(10)
        for path in FolderSnapshot(cached.appendingPathComponent("Content")).files.keys {
            try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: cached.appendingPathComponent("Content/" + path).path)
        }
        let touched = report(cached, cache: cache)
        #expect(touched.parsedCount == 0)
        #expect(touched.renderedCount == 0)
        #expect(touched.writtenCount == 0)

        // A clone of the site where it was, without its output.
        try FileManager.default.removeItem(at: cached)
        let clone = try copySampleSite(into: folder, as: "cached")
        #expect(report(clone, cache: cache).parsedCount == articles.count)
        _ = build(plain, cache: nil)
        #expect(sameOutputs(clone, plain))

        // A cover whose size is read from its file, replaced by another photo.
        for site in [clone, plain] {
            let cover = site.appendingPathComponent("Content/articles/pineapple-bun-in-mong-kok/bun.jpg")
            try FileManager.default.removeItem(at: cover)
            try FileManager.default.copyItem(at: site.appendingPathComponent("Content/articles/egg-tarts-on-lyndhurst-terrace/tarts.jpg"), to: cover)
        }
        #expect(report(clone, cache: cache).parsedCount == sources.count)
        _ = build(plain, cache: nil)
        #expect(sameOutputs(clone, plain))
    }

    /// A static file is trusted by its stamp, like every input: a full build through the
    /// cache does not read it again when the output has it as written, and copies it when
    /// its stamp changed.
    @Test func copiesAStaticFileAgainOnlyWhenItsStampChanged() throws {
        let folder = TemporaryFolder()
        let (cached, _, cache) = try twinSites(in: folder)
        // Not a photo: a photo is published in the sizes made of it, not copied.
        let photo = cached.appendingPathComponent("Content/articles/lovely-breakfast/menu.txt")
        let published = cached.appendingPathComponent("Output/articles/lovely-breakfast/menu.txt")
        try Data("Kaya toast 18\nMilk tea 16\n".utf8).write(to: photo)
        let original = try Data(contentsOf: photo)
        // Long settled: a stamp within the clock's tick of a build is checked by the bytes.
        let stamp = Date(timeIntervalSinceNow: -3600)
        try FileManager.default.setAttributes([.modificationDate: stamp], ofItemAtPath: photo.path)
        _ = report(cached, cache: cache)
        // The same size and time, other bytes: what no editor does.
        var other = original
        other[other.count - 3] ^= 0xFF
        try other.write(to: photo)
        try FileManager.default.setAttributes([.modificationDate: stamp], ofItemAtPath: photo.path)
        let footer = cached.appendingPathComponent("Themes/default/footer.mustache")
        try (try String(contentsOf: footer, encoding: .utf8) + "{{! a full build }}").write(to: footer, atomically: true, encoding: .utf8)
        #expect(report(cached, cache: cache).renderedCount > 0)
        #expect(try Data(contentsOf: published) == original)

        try FileManager.default.setAttributes([.modificationDate: stamp.addingTimeInterval(1)], ofItemAtPath: photo.path)
        _ = report(cached, cache: cache)
        #expect(try Data(contentsOf: published) == other)
    }

    @Test func buildsBetweenTwoChangesOfTheHomeworkAreOneBuild() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        // The sample site releases the day's homework at 14:00.
        func build(_ site: URL, at time: String, on day: String = "2026-11-25", cache: URL?) -> BuildReport {
            var options = BuildOptions(source: site.path, today: day + "T" + time)
            options.useCache = cache != nil
            options.cacheFolder = cache?.path
            let report = SiteBuilder.build(options, reuse: CachedBuild.reusing(options))
            #expect(report.succeeded)
            return report
        }
        func nothingChanged(_ report: BuildReport) -> Bool { report.renderedCount == 0 && report.unchangedCount == report.fileCount }
        func output(_ site: URL) -> FolderSnapshot { FolderSnapshot(site.appendingPathComponent("Output")) }
        _ = build(cached, at: "09:00", cache: cache)
        let morning = output(cached)
        // The model store: a build that takes every model from the cache adds none to it.
        let storeName = try #require(try FileManager.default.contentsOfDirectory(atPath: cache.path).first { $0.hasSuffix(".models") })
        func store() -> Data? { FileManager.default.contents(atPath: cache.appendingPathComponent(storeName).path) }
        let models = try #require(store())
        #expect(nothingChanged(build(cached, at: "09:01", cache: cache)))
        #expect(nothingChanged(build(cached, at: "13:59", cache: cache)))
        #expect(output(cached) == morning)
        #expect(String(decoding: try #require(morning.files["homework/index.html"]), as: UTF8.self).contains("Updated Wednesday, Nov 25, 12:00\u{202F}AM"))

        // At the release time the models come from the cache and only the pages that show
        // the homework are rendered again.
        let release = build(cached, at: "14:00", cache: cache)
        let afternoon = output(cached)
        let changed = afternoon.files.keys.filter { morning.dates[$0] != afternoon.dates[$0] }
        #expect(!changed.isEmpty)
        for path in changed {
            #expect(path.hasPrefix("homework/") || path == "index.html" || path.hasPrefix("page/") || path == "sitemap.xml", "\(path) changed at the release time")
        }
        // Pages, and each grade's tonight.txt and JSON Feed (its Atom feed and calendar
        // are the same until an assignment changes).
        #expect(release.renderedCount < release.pageCount / 2 + 3 * 2, "\(release.renderedCount) of \(release.pageCount) pages rendered at the release time")
        #expect(store() == models)
        #expect(nothingChanged(build(cached, at: "23:59", cache: cache)))
        _ = build(plain, at: "17:45", cache: nil)
        #expect(output(plain).files == afternoon.files)
        #expect(String(decoding: try #require(afternoon.files["homework/index.html"]), as: UTF8.self).contains("Updated Wednesday, Nov 25, 2:00\u{202F}PM"))

        // The next day any page may show another `today`: every page is rendered again,
        // from the cache's models, as a build without the cache makes it.
        let nextDay = build(cached, at: "08:00", on: "2026-11-26", cache: cache)
        // The 62 pages, and the site's feed, sitemap and robots.txt and each grade's feeds,
        // calendar and tonight.txt.
        #expect(nextDay.pageCount == 62 && nextDay.renderedCount == 62 + 3 + 3 * 4)
        #expect(store() == models)
        _ = build(plain, at: "08:00", on: "2026-11-26", cache: nil)
        #expect(output(plain).files == output(cached).files)
    }

    @Test func rendersAgainOnlyThePagesAnEditedTemplateIsPartOf() throws {
        let folder = TemporaryFolder()
        let site = try copySampleSite(into: folder, as: "site")
        let cache = folder.url.appendingPathComponent("cache")
        _ = build(site, cache: cache)
        let before = FolderSnapshot(site.appendingPathComponent("Output"))
        let template = site.appendingPathComponent("Themes/default/group.row.mustache")
        try (try String(contentsOf: template, encoding: .utf8)).replacingOccurrences(of: "row-value", with: "row-value count").write(to: template, atomically: true, encoding: .utf8)
        let output = build(site, cache: cache)
        let after = FolderSnapshot(site.appendingPathComponent("Output"))
        let changed = Set(after.files.keys.filter { before.dates[$0] != after.dates[$0] })
        #expect(changed == ["meals/index.html", "tags/index.html"], "\(output)")
    }

    /// An assignment is on its day's page, its grade's feeds and calendar, and while it is
    /// due its grade's page; the home pages, `/homework/` and the other days show only the
    /// digest day's work of it.
    @Test func rendersAgainOnlyThePagesThatShowAnEditedAssignment() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        _ = report(cached, cache: cache)
        func edit(_ path: String, _ old: String, _ new: String) throws {
            for site in [cached, plain] {
                let file = site.appendingPathComponent("Content/homework/" + path)
                try (try String(contentsOf: file, encoding: .utf8)).replacingOccurrences(of: old, with: new).write(to: file, atomically: true, encoding: .utf8)
            }
        }
        // A day before the digest day's.
        try edit("2026-11-23/linear-equations-grade-8.md", "15 equations", "16 equations")
        let old = report(cached, cache: cache)
        _ = report(plain, cache: nil)
        // Its day's page, its grade's Atom feed, JSON Feed and calendar: no longer due, it
        // is not on the grade's page.
        #expect(old.renderedCount == 4, "\(old.renderedCount) pages rendered")
        #expect(sameOutputs(cached, plain))
        // The digest day's: its sentence on every page of the homework and the home page.
        try edit("2026-11-25/poetry-analysis-grade-8.md", "grade: 8", "grade: 7")
        let digest = report(cached, cache: cache)
        _ = report(plain, cache: nil)
        #expect(digest.renderedCount > old.renderedCount + 10, "\(digest.renderedCount) pages rendered")
        #expect(sameOutputs(cached, plain))
    }

    /// A group whose last published article leaves it keeps its page, for its drafts, but
    /// leaves the sitemap.
    @Test func takesAGroupLeftWithDraftsOnlyOutOfTheSitemap() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        func tag(_ tags: String) throws {
            for site in [cached, plain] {
                let file = site.appendingPathComponent("Content/articles/claypot-rice-at-temple-street/index.md")
                try (try String(contentsOf: file, encoding: .utf8)).replacing(#/tags: \[.*\]/#, with: "tags: [\(tags)]")
                    .write(to: file, atomically: true, encoding: .utf8)
            }
        }
        try tag("claypot, dinner, kowloon, guide")
        _ = report(cached, cache: cache)
        let sitemap = cached.appendingPathComponent("Output/sitemap.xml")
        #expect(try String(contentsOf: sitemap, encoding: .utf8).contains("/tags/guide/"))
        try tag("claypot, dinner, kowloon")
        _ = report(cached, cache: cache)
        _ = report(plain, cache: nil)
        #expect(try !String(contentsOf: sitemap, encoding: .utf8).contains("/tags/guide/"))
        #expect(sameOutputs(cached, plain))
    }

    /// Changes the bytes of the model store in `cache` with `damage`.
    func damageStore(in cache: URL, _ damage: (inout [UInt8]) -> Void) throws {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: cache.path).first { $0.hasSuffix(".models") })
        let store = cache.appendingPathComponent(name)
        var models = try Array(Data(contentsOf: store))
        damage(&models)
        try Data(models).write(to: store)
    }

    /// Builds `site` through the cache in `cache` (nil: without it) and tells what the
    /// build did.
    func report(_ site: URL, cache: URL?, drafts: Bool = false) -> BuildReport {
        var options = BuildOptions(source: site.path, today: SampleSiteTests.today, drafts: drafts)
        options.useCache = cache != nil
        options.cacheFolder = cache?.path
        return SiteBuilder.build(options, reuse: CachedBuild.reusing(options))
    }

    /// Sets `articles_per_page` (3 in the sample site) in each of `sites`.
    func showArticles(_ perPage: Int, aPageIn sites: URL...) throws {
        for site in sites {
            let settings = site.appendingPathComponent("Content/site.yaml")
            try (try String(contentsOf: settings, encoding: .utf8)).replacingOccurrences(of: "articles_per_page: 3", with: "articles_per_page: \(perPage)")
                .write(to: settings, atomically: false, encoding: .utf8)
        }
    }

    func append(_ text: String, to article: String, in sites: URL...) throws {
        try append(text, toFile: "Content/articles/\(article)", in: sites)
    }

    /// Appends `text` to the file at `path`, relative to the site, of each of `sites`.
    func append(_ text: String, toFile path: String, in sites: [URL]) throws {
        for site in sites {
            let file = site.appendingPathComponent(path)
            try (try String(contentsOf: file, encoding: .utf8) + text).write(to: file, atomically: false, encoding: .utf8)
        }
    }

    func replace(_ text: String, with replacement: String, in article: String, in sites: URL...) throws {
        for site in sites {
            let file = site.appendingPathComponent("Content/articles/\(article)")
            let original = try String(contentsOf: file, encoding: .utf8)
            #expect(original.contains(text))
            try original.replacingOccurrences(of: text, with: replacement).write(to: file, atomically: false, encoding: .utf8)
        }
    }
}
