import Foundation
import SitegenCLI
import SitegenContent
@testable import SitegenIncremental
@testable import SitegenPipeline
@testable import SitegenFiles
import SitegenTestSupport
import Testing

@Suite("Build cache")
struct BuildCacheTests {
    func copySampleSite(into folder: TemporaryFolder, as name: String) throws -> URL {
        let site = folder.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        for part in ["Content", "Themes"] {
            try FileManager.default.copyItem(at: Repository.root.appendingPathComponent(part), to: site.appendingPathComponent(part))
        }
        return site
    }

    func build(_ site: URL, cache: URL?) -> String {
        let console = CapturedConsole()
        let arguments = ["build", "--source", site.path, "--today", SampleSiteTests.today] + (cache.map { ["--cache-dir", $0.path] } ?? ["--no-cache"])
        #expect(CommandLineTool.run(arguments: arguments, console: console.console) == 0, "\(console.error)")
        return console.output
    }

    /// Edits an article and an assignment; each call changes them again.
    func edit(_ site: URL) throws {
        let article = site.appendingPathComponent("Content/articles/dim-sum-in-sham-shui-po/index.md")
        try ((try String(contentsOf: article, encoding: .utf8)).replacingOccurrences(of: "The queue moves", with: "The line moves") + "\nAnother basket.\n")
            .write(to: article, atomically: true, encoding: .utf8)
        let assignment = site.appendingPathComponent("Content/homework/2026-11-24/read-act-2-grade-8.md")
        try (try String(contentsOf: assignment, encoding: .utf8)).replacingOccurrences(of: "act 2", with: "act 3").write(to: assignment, atomically: true, encoding: .utf8)
    }

    /// Two copies of the sample site, one to build through the cache (in `cache`) and one
    /// without it.
    func twinSites(in folder: TemporaryFolder) throws -> (cached: URL, plain: URL, cache: URL) {
        (try copySampleSite(into: folder, as: "cached"), try copySampleSite(into: folder, as: "plain"), folder.url.appendingPathComponent("cache"))
    }

    /// Whether the outputs of the two sites hold the same files with the same bytes.
    func sameOutputs(_ cached: URL, _ plain: URL) -> Bool {
        FolderSnapshot(cached.appendingPathComponent("Output")).files == FolderSnapshot(plain.appendingPathComponent("Output")).files
    }

    /// Edits both sites alike, builds one through the cache and the other without; whether
    /// their outputs are the same.
    func editAndBuild(_ cached: URL, _ plain: URL, cache: URL) throws -> Bool {
        try edit(cached)
        try edit(plain)
        _ = build(cached, cache: cache)
        _ = build(plain, cache: nil)
        return sameOutputs(cached, plain)
    }

    @Test func buildsTheSameBytesWithAndWithoutTheCache() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        _ = build(cached, cache: cache)
        #expect(build(cached, cache: cache).hasPrefix("Nothing changed: "))
        #expect(try editAndBuild(cached, plain, cache: cache))
    }

    /// The cache keeps content paths as bytes and compares them as `String` does: names
    /// past ASCII, one of them with its accent as a scalar of its own (as macOS names
    /// files), are found again after a build, and an edit of one is answered alike.
    @Test func findsPathsPastASCIIInTheCache() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        let names = ["café-crème", "e\u{301}clair-stand", "f-stand", "Ärger-bowl", "ö-stand"]
        for site in [cached, plain] {
            for (index, name) in names.enumerated() {
                try "---\ntitle: Stand \(index)\ndate: 2016-05-2\(index)\nslug: stand-\(index)\n---\nA stand.\n"
                    .write(to: site.appendingPathComponent("Content/articles/\(name).md"), atomically: true, encoding: .utf8)
            }
        }
        _ = build(cached, cache: cache)
        _ = build(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
        #expect(build(cached, cache: cache).hasPrefix("Nothing changed: "))
        try append("\nAnother stand.\n", toFile: "Content/articles/e\u{301}clair-stand.md", in: [cached, plain])
        _ = build(cached, cache: cache)
        _ = build(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
        let page = try String(contentsOf: cached.appendingPathComponent("Output/articles/stand-1/index.html"), encoding: .utf8)
        #expect(page.contains("Another stand."))
    }

    @Test func findsFilesAddedToAndRemovedFromFoldersItKeptTheListingsOf() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        func listingsFile() throws -> String? {
            try FileManager.default.contentsOfDirectory(atPath: cache.path).first { $0.hasSuffix(".listings") }
        }
        // Folders are listed for the next build once they stopped changing for a while (a
        // file added in the clock tick a folder was read in would not change its times),
        // by the first build too, before it made the cache's folder.
        usleep(2_200_000)
        _ = build(cached, cache: cache)
        let listings = try #require(try listingsFile())
        let kept = try Data(contentsOf: cache.appendingPathComponent(listings))
        #expect(build(cached, cache: cache).hasPrefix("Nothing changed: "))
        #expect(try Data(contentsOf: cache.appendingPathComponent(listings)) == kept)

        let article = "Content/articles/dim-sum-in-sham-shui-po"
        for site in [cached, plain] {
            try FileManager.default.copyItem(at: site.appendingPathComponent(article), to: site.appendingPathComponent(article + "-again"))
            let copy = site.appendingPathComponent(article + "-again/index.md")
            try (try String(contentsOf: copy, encoding: .utf8)).replacingOccurrences(of: "title: ", with: "title: Again, ").write(to: copy, atomically: false, encoding: .utf8)
        }
        _ = build(cached, cache: cache)
        _ = build(plain, cache: nil)
        #expect(FileManager.default.fileExists(atPath: cached.appendingPathComponent("Output/articles/dim-sum-in-sham-shui-po-again/index.html").path))
        #expect(sameOutputs(cached, plain))
        for site in [cached, plain] { try FileManager.default.removeItem(at: site.appendingPathComponent(article)) }
        _ = build(cached, cache: cache)
        _ = build(plain, cache: nil)
        #expect(!FileManager.default.fileExists(atPath: cached.appendingPathComponent("Output/articles/dim-sum-in-sham-shui-po/index.html").path))
        #expect(sameOutputs(cached, plain))
    }

    /// Writes `find` → `replacement` (as many bytes) into `file` and puts its modification
    /// time back: what a file written twice within one tick of the file system's clock looks like.
    func rewriteKeepingStamp(_ file: URL, _ find: String, _ replacement: String) throws {
        #expect(find.utf8.count == replacement.utf8.count)
        var info = stat()
        #expect(stat(file.path, &info) == 0)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(find))
        try text.replacingOccurrences(of: find, with: replacement).write(to: file, atomically: false, encoding: .utf8)
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, file.path, &times, 0) == 0)
        var after = stat()
        #expect(stat(file.path, &after) == 0 && after.st_size == info.st_size && after.st_mtim.tv_nsec == info.st_mtim.tv_nsec)
    }

    /// Stamps `file` a minute from now: a stamp the build cannot trust yet, as one made
    /// in the tick the build looks at it in.
    func stampInTheFuture(_ file: URL) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var times = [now, timespec(tv_sec: now.tv_sec + 60, tv_nsec: now.tv_nsec)]
        #expect(utimensat(AT_FDCWD, file.path, &times, 0) == 0)
    }

    @Test func tellsAFileRewrittenWithinTheTickOfItsStampByItsBytes() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        stampInTheFuture(cached.appendingPathComponent("Content/articles/dim-sum-in-sham-shui-po/index.md"))
        stampInTheFuture(cached.appendingPathComponent("Themes/default/article.card.mustache"))
        _ = build(cached, cache: cache)
        for site in [cached, plain] {
            try rewriteKeepingStamp(site.appendingPathComponent("Content/articles/dim-sum-in-sham-shui-po/index.md"), "The queue moves", "The queux moves")
            try rewriteKeepingStamp(site.appendingPathComponent("Themes/default/article.card.mustache"), "<article class=\"card\">", "<article class=\"cord\">")
        }
        _ = build(cached, cache: cache)
        _ = build(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
        let page = try String(contentsOf: cached.appendingPathComponent("Output/articles/dim-sum-in-sham-shui-po/index.html"), encoding: .utf8)
        #expect(page.contains("The queux moves"))
        #expect(try String(contentsOf: cached.appendingPathComponent("Output/index.html"), encoding: .utf8).contains("class=\"cord\""))
        #expect(build(cached, cache: cache).hasPrefix("Nothing changed: "))
    }

    @Test func ignoresACorruptCache() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        _ = build(cached, cache: cache)
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: cache.path).first { $0.hasSuffix(".cache") })
        var bytes = try Array(Data(contentsOf: cache.appendingPathComponent(file)))
        for index in stride(from: bytes.count / 3, to: bytes.count, by: 997) { bytes[index] ^= 0x5A }
        try Data(bytes).write(to: cache.appendingPathComponent(file))
        #expect(try editAndBuild(cached, plain, cache: cache))
        try Data([1, 2, 3]).write(to: cache.appendingPathComponent(file))
        _ = build(cached, cache: cache)
        #expect(FolderSnapshot(cached.appendingPathComponent("Output")).files == FolderSnapshot(plain.appendingPathComponent("Output")).files)

        // The models are in a store beside the cache, each with its checksum: a damaged one
        // is made again from its source.
        let store = cache.appendingPathComponent(file.replacingOccurrences(of: ".cache", with: ".models"))
        var models = try Array(Data(contentsOf: store))
        models[models.count / 2] ^= 0x01
        try Data(models).write(to: store)
        #expect(try editAndBuild(cached, plain, cache: cache))
    }

    /// The store is read without a checksum of the whole: each model is checked against its
    /// own when it is decoded, and one whose bytes changed is made again from its source.
    @Test func makesADamagedModelAgainFromItsSource() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        _ = build(cached, cache: cache)
        try damageStore(in: cache) { models in
            for index in stride(from: ModelStore.headerLength + 5, to: models.count, by: 61) { models[index] ^= 0x01 }
        }
        // Every page shows the layout: every model is decoded and every page rendered again.
        try append("{{! edited }}\n", toFile: "Themes/default/layout.mustache", in: [cached, plain])
        _ = build(cached, cache: cache)
        _ = build(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
    }

    /// A build that fails (here the index: a page taking the slug of sitegen's map) leaves
    /// the store as the last cache uses it, and nothing half written.
    @Test func aBuildThatFailsLeavesTheStoreAsTheLastCacheUsesIt() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        let clash = cached.appendingPathComponent("Content/pages/clash.md")
        func failingBuild() throws {
            try "---\ntitle: Clash\nslug: map\n---\nWhere the map is.\n".write(to: clash, atomically: false, encoding: .utf8)
            let console = CapturedConsole()
            let arguments = ["build", "--source", cached.path, "--today", SampleSiteTests.today, "--cache-dir", cache.path]
            #expect(CommandLineTool.run(arguments: arguments, console: console.console) == 1)
            #expect(console.error.contains("the slug 'map' is taken by sitegen's own pages"))
            try FileManager.default.removeItem(at: clash)
        }
        func cacheFiles() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? [] }

        // A first build that fails puts no store in place (an empty file may be left: the lock).
        try failingBuild()
        #expect(!cacheFiles().contains { $0.hasSuffix(".tmp") })
        for name in cacheFiles() where name.hasSuffix(".models") {
            #expect(try Data(contentsOf: cache.appendingPathComponent(name)).isEmpty)
        }

        _ = build(cached, cache: cache)
        let name = try #require(cacheFiles().first { $0.hasSuffix(".models") })
        let before = try Array(Data(contentsOf: cache.appendingPathComponent(name)))
        try edit(cached)
        try edit(plain)
        try failingBuild()
        let after = try Array(Data(contentsOf: cache.appendingPathComponent(name)))
        #expect(after.count >= before.count && Array(after[..<before.count]) == before)
        #expect(!cacheFiles().contains { $0.hasSuffix(".tmp") })
        _ = build(cached, cache: cache)
        _ = build(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
    }

    @Test func writesAFirstBuildAsOneFolderThatBecomesTheOutput() throws {
        let folder = TemporaryFolder()
        let site = try copySampleSite(into: folder, as: "site")
        let empty = folder.url.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let reference = folder.url.appendingPathComponent("reference")
        mkdir(reference.path, 0o755)
        for output in [folder.url.appendingPathComponent("new/output"), empty] {
            let console = CapturedConsole()
            #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--source", site.path, "--output", output.path, "--today", SampleSiteTests.today, "--quiet"],
                                        console: console.console) == 0)
            let siblings = try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path)
            #expect(!siblings.contains { $0.contains("sitegen-staging") }, "\(siblings)")
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: output.path)[.posixPermissions] as? Int)
            let expected = try #require(try FileManager.default.attributesOfItem(atPath: reference.path)[.posixPermissions] as? Int)
            #expect(mode == expected)
        }
        // A folder with something in it is written file by file: the same files.
        let kept = folder.url.appendingPathComponent("kept")
        try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: kept.appendingPathComponent(".keep"))
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--source", site.path, "--output", kept.path, "--today", SampleSiteTests.today, "--quiet"],
                                    console: CapturedConsole().console) == 0)
        var written = FolderSnapshot(kept).files
        #expect(written.removeValue(forKey: ".keep") != nil)
        #expect(FolderSnapshot(folder.url.appendingPathComponent("new/output")).files == written)
        #expect(FolderSnapshot(empty).files == written)
        #expect(written["articles/lovely-breakfast/index.html"] != nil)
    }

    @Test func addsOnlyEditedModelsToTheStoreAndStartsANewOneWhenMostAreOld() throws {
        let folder = TemporaryFolder()
        let site = try copySampleSite(into: folder, as: "site")
        let cache = folder.url.appendingPathComponent("cache")
        _ = build(site, cache: cache)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: cache.path).first { $0.hasSuffix(".models") })
        let store = cache.appendingPathComponent(name).path
        func size() throws -> Int { try #require(try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int) }
        let first = try size()
        let article = site.appendingPathComponent("Content/articles/dim-sum-in-sham-shui-po/index.md")
        let original = try String(contentsOf: article, encoding: .utf8)
        var sizes: [Int] = []
        for edit in 1...12 {
            try (original + String(repeating: "\nAnother basket.", count: edit)).write(to: article, atomically: false, encoding: .utf8)
            _ = build(site, cache: cache)
            sizes.append(try size())
        }
        // One article's model is added each time, until the old ones outweigh the live ones.
        #expect(sizes[0] > first && sizes[0] - first < first / 4)
        #expect(sizes.max()! < first * 2 + first / 4)
        #expect(sizes.contains { $0 < sizes.max()! })
        #expect(build(site, cache: cache).hasPrefix("Nothing changed: "))
    }

    @Test func removesWhatADeletedArticleLeftAndRestoresWhatWasDeletedByHand() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        _ = build(cached, cache: cache)
        for site in [cached, plain] {
            try FileManager.default.removeItem(at: site.appendingPathComponent("Content/articles/dim-sum-in-sham-shui-po"))
        }
        _ = build(cached, cache: cache)
        _ = build(plain, cache: nil)
        let output = cached.appendingPathComponent("Output")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("articles/dim-sum-in-sham-shui-po").path))
        #expect(sameOutputs(cached, plain))
        try FileManager.default.removeItem(at: output.appendingPathComponent("about"))
        for site in [cached, plain] {
            let assignment = site.appendingPathComponent("Content/homework/2026-11-24/read-act-2-grade-8.md")
            try (try String(contentsOf: assignment, encoding: .utf8)).replacingOccurrences(of: "act 2", with: "act 3").write(to: assignment, atomically: true, encoding: .utf8)
        }
        _ = build(cached, cache: cache)
        _ = build(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
    }

    /// A rebuild that found the output as the last build left it removes a deleted article's
    /// files by that build's list and takes new times only for the folders it changed: the
    /// next build finds nothing changed, and still finds files others put in a folder the
    /// rebuild changed and in one it did not.
    @Test func findsStrangersAfterARebuildThatChangedAnOutputFoundAsLeft() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        _ = build(cached, cache: cache)
        _ = build(plain, cache: nil)
        for site in [cached, plain] {
            let article = site.appendingPathComponent("Content/articles/egg-tarts-on-lyndhurst-terrace/index.md")
            try (try String(contentsOf: article, encoding: .utf8)).replacingOccurrences(of: "title: Egg Tarts on", with: "title: Egg Tarts of")
                .write(to: article, atomically: true, encoding: .utf8)
            try FileManager.default.removeItem(at: site.appendingPathComponent("Content/articles/lovely-breakfast"))
        }
        #expect(build(cached, cache: cache).contains(" removed)"))
        _ = build(plain, cache: nil)
        let output = cached.appendingPathComponent("Output")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("articles/lovely-breakfast").path))
        #expect(sameOutputs(cached, plain))
        #expect(cacheHoldsTheFolderTimesOfTheOutput(of: cached, cache: cache))
        let strangers = ["articles/egg-tarts-on-lyndhurst-terrace/stranger.html", "articles/wonton-noodles-in-central/stranger.html"]
        for site in [cached, plain] {
            for path in strangers { try Data("not ours\n".utf8).write(to: site.appendingPathComponent("Output/" + path)) }
        }
        _ = build(cached, cache: cache)
        _ = build(plain, cache: nil)
        for path in strangers { #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent(path).path), "\(path)") }
        #expect(sameOutputs(cached, plain))
        #expect(cacheHoldsTheFolderTimesOfTheOutput(of: cached, cache: cache))
    }

    /// Whether the folder times the cache of `site` holds are those of its output's folders
    /// now: the next build takes a folder with another time for one that others changed.
    func cacheHoldsTheFolderTimesOfTheOutput(of site: URL, cache: URL) -> Bool {
        let output = site.appendingPathComponent("Output")
        guard let saved = BuildCache.load(from: BuildCache.file(in: cache.path, site: site, output: output)) else { return false }
        return Dictionary(uniqueKeysWithValues: zip(saved.folders.keys, saved.folders.values)) == OutputWriter.folderTimes(of: saved.outputs.keys, in: output.path)
    }

    @Test func removesFilesOthersPutInTheOutputAsABuildWithoutTheCacheDoes() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        _ = build(cached, cache: cache)
        _ = build(plain, cache: nil)
        func addStrangers() throws {
            for site in [cached, plain] {
                let output = site.appendingPathComponent("Output")
                try FileManager.default.createDirectory(at: output.appendingPathComponent("old/deeper"), withIntermediateDirectories: true)
                for path in ["articles/stranger.html", "tags/x.txt", "old/deeper/page.html", ".kept"] {
                    try Data("not ours\n".utf8).write(to: output.appendingPathComponent(path))
                }
            }
        }
        // Nothing changed but what others put there.
        try addStrangers()
        _ = build(cached, cache: cache)
        _ = build(plain, cache: nil)
        let output = cached.appendingPathComponent("Output")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("articles/stranger.html").path))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("old").path))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(".kept").path))
        #expect(sameOutputs(cached, plain))
        // An edit that keeps the same pages.
        try addStrangers()
        #expect(try editAndBuild(cached, plain, cache: cache))
        // And a rebuild after that, with nothing left to remove, rewrites nothing.
        let before = FolderSnapshot(output)
        #expect(build(cached, cache: cache).contains("0 files written"))
        #expect(FolderSnapshot(output) == before)
    }

    /// The model store leaves out the HTML of an article whose page holds it; a build that
    /// renders the article again reads the HTML back from the page, and makes the article
    /// again from its source when the page is not as written or no longer holds it.
    @Test func readsAnArticlesHTMLFromItsPageAndNeverTrustsAChangedPage() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        let phrase = Data("Two people and four baskets".utf8)
        func stored() throws -> Data { try modelStore(in: cache) }
        // Every article page is rendered again from the cached models.
        func editArticleTemplate(_ text: String, _ replacement: String) throws {
            for site in [cached, plain] {
                let template = site.appendingPathComponent("Themes/default/article.mustache")
                let original = try String(contentsOf: template, encoding: .utf8)
                #expect(original.contains(text))
                try original.replacingOccurrences(of: text, with: replacement).write(to: template, atomically: true, encoding: .utf8)
            }
            _ = build(cached, cache: cache)
            _ = build(plain, cache: nil)
        }

        _ = build(cached, cache: cache)
        #expect(try stored().range(of: phrase) == nil)
        try editArticleTemplate("<div class=\"prose\">\n      {{{body}}}", "<div class=\"prose main\">\n      {{{body}}}")
        #expect(sameOutputs(cached, plain))
        #expect(try stored().range(of: phrase) == nil)

        // Changed by hand, same size: the build must not show what the page says now.
        let page = cached.appendingPathComponent("Output/articles/dim-sum-in-sham-shui-po/index.html")
        let original = try String(contentsOf: page, encoding: .utf8)
        #expect(original.contains("Two people and four baskets"))
        try original.replacingOccurrences(of: "Two people", with: "Two PEOPLE").write(to: page, atomically: false, encoding: .utf8)
        try editArticleTemplate("prose main", "prose first")
        #expect(sameOutputs(cached, plain))

        // A theme that escapes the HTML: the pages no longer hold it, and the models that
        // were stored without it are made again, then stored with it.
        try editArticleTemplate("{{{body}}}", "{{body}}")
        #expect(sameOutputs(cached, plain))
        try editArticleTemplate("prose first", "prose")
        #expect(sameOutputs(cached, plain))
        #expect(try stored().range(of: phrase) != nil)
    }
}
