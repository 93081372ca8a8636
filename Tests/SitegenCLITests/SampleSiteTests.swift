import Foundation
import SitegenCLI
import SitegenContent
@testable import SitegenIncremental
@testable import SitegenPipeline
@testable import SitegenFiles
import SitegenTestSupport
import Testing

/// The sample site built at a fixed moment, compared file by file with
/// Tests/Golden/sample-site. Set SITEGEN_UPDATE_GOLDEN=1 to rewrite the golden files
/// after a deliberate change, then review the diff.
@Suite("Sample site")
struct SampleSiteTests {
    static let today = "2026-11-25T15:00"
    static let textExtensions: Set<String> = ["html", "css", "js", "xml", "ics", "json", "txt", "svg"]

    private func build(into output: URL, _ extra: [String] = []) -> (Int32, CapturedConsole) {
        let console = CapturedConsole()
        let status = CommandLineTool.run(
            arguments: ["build", "--no-cache", "--source", Repository.root.path, "--output", output.path, "--today", Self.today, "--quiet"] + extra,
            console: console.console)
        return (status, console)
    }

    /// Every output file: text files whole, other files by size, so the manifest catches
    /// a missing or extra image without storing it twice.
    private func manifest(of snapshot: FolderSnapshot) -> String {
        snapshot.files.keys.sorted().map { "\($0) \(snapshot.files[$0]!.count)" }.joined(separator: "\n") + "\n"
    }

    @Test func matchesTheGoldenFiles() throws {
        let scratch = TemporaryFolder()
        let output = scratch.url.appendingPathComponent("Output")
        // A stand-in Leaflet keeps the golden files the same whichever Debian's Leaflet the
        // binary carries.
        var options = BuildOptions(source: Repository.root.path, output: output.path, today: Self.today)
        options.leaflet = try #require(LeafletFiles.folder(Repository.root.appendingPathComponent("Tests/Fixtures/leaflet-stub").path))
        let report = SiteBuilder.build(options)
        #expect(report.succeeded)
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let built = FolderSnapshot(output)
        let textFiles = built.files.filter { Self.textExtensions.contains(URL(fileURLWithPath: $0.key).pathExtension) }

        if ProcessInfo.processInfo.environment["SITEGEN_UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.removeItem(at: Repository.golden)
            for (path, data) in textFiles {
                let target = Repository.golden.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: target)
            }
            try Data(manifest(of: built).utf8).write(to: Repository.golden.appendingPathComponent("MANIFEST"))
            return
        }

        let golden = FolderSnapshot(Repository.golden)
        #expect(manifest(of: built) == String(decoding: golden.files["MANIFEST"] ?? Data(), as: UTF8.self), "the set of output files changed")
        for path in Set(golden.files.keys).union(textFiles.keys).sorted() where path != "MANIFEST" {
            let expected = golden.files[path].map { String(decoding: $0, as: UTF8.self) }
            let actual = textFiles[path].map { String(decoding: $0, as: UTF8.self) }
            #expect(actual == expected, "\(path) differs from Tests/Golden/sample-site/\(path)\n\(firstDifference(expected ?? "", actual ?? ""))")
        }
    }

    @Test func twoBuildsOfTheSameInputAreByteIdentical() throws {
        let scratch = TemporaryFolder()
        let first = scratch.url.appendingPathComponent("one")
        let second = scratch.url.appendingPathComponent("two")
        #expect(build(into: first).0 == 0)
        #expect(build(into: second).0 == 0)
        #expect(FolderSnapshot(first).files == FolderSnapshot(second).files)
    }

    @Test func includesDraftsOnlyWhenAsked() throws {
        let scratch = TemporaryFolder()
        let output = scratch.url.appendingPathComponent("Output")
        #expect(build(into: output).0 == 0)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("articles/cha-chaan-teng-guide/index.html").path))
        #expect(build(into: output, ["--drafts"]).0 == 0)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("articles/cha-chaan-teng-guide/index.html").path))
    }

    @Test func replacesTheOutputFolderAndKeepsItsHiddenFiles() throws {
        let scratch = TemporaryFolder()
        try scratch.write("stale\n", to: "Output/old-page/index.html")
        try scratch.write("ref: refs/heads/gh-pages\n", to: "Output/.git/HEAD")
        let output = scratch.url.appendingPathComponent("Output")
        #expect(build(into: output).0 == 0)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("old-page").path))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(".git/HEAD").path))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("index.html").path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.contains("sitegen-") }
        #expect(leftovers.isEmpty)
    }

    @Test func printsASummary() {
        let scratch = TemporaryFolder()
        let console = CapturedConsole()
        let output = scratch.url.appendingPathComponent("Output")
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--source", Repository.root.path, "--output", output.path, "--today", Self.today], console: console.console) == 0)
        #expect(console.output.hasPrefix("Built 65 pages in "))
        #expect(console.output.contains(" s → \(output.path) ("))
        #expect(console.output.hasSuffix(" files written)\n"))
    }

    private func firstDifference(_ expected: String, _ actual: String) -> String {
        let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(a.count, b.count) where index >= a.count || index >= b.count || a[index] != b[index] {
            return "line \(index + 1):\n- \(index < a.count ? String(a[index]) : "(none)")\n+ \(index < b.count ? String(b[index]) : "(none)")"
        }
        return ""
    }
}

@Suite("Rebuilds")
struct RebuildTests {
    private func copySampleSite(into folder: TemporaryFolder) throws -> URL {
        let site = folder.url.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        for name in ["Content", "Themes"] {
            try FileManager.default.copyItem(at: Repository.root.appendingPathComponent(name), to: site.appendingPathComponent(name))
        }
        return site
    }

    private func build(_ site: URL, _ extra: [String] = []) -> (Int32, String) {
        let console = CapturedConsole()
        let status = CommandLineTool.run(arguments: ["build", "--no-cache", "--source", site.path, "--today", SampleSiteTests.today] + extra, console: console.console)
        return (status, console.output + console.error)
    }

    @Test func rewritesNothingWhenNothingChanged() throws {
        let folder = TemporaryFolder()
        let site = try copySampleSite(into: folder)
        #expect(build(site).0 == 0)
        let before = FolderSnapshot(site.appendingPathComponent("Output"))
        Thread.sleep(forTimeInterval: 0.01)
        let (status, output) = build(site)
        #expect(status == 0)
        #expect(output.contains("(0 files written, "), "\(output)")
        #expect(FolderSnapshot(site.appendingPathComponent("Output")) == before)
    }

    @Test func rewritesOnlyWhatAnEditChangesAndRemovesWhatIsGone() throws {
        let folder = TemporaryFolder()
        let site = try copySampleSite(into: folder)
        #expect(build(site).0 == 0)
        let output = site.appendingPathComponent("Output")
        let before = FolderSnapshot(output)
        let article = site.appendingPathComponent("Content/articles/egg-tarts-on-lyndhurst-terrace/index.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        try text.replacingOccurrences(of: "wobbles when you pick it up", with: "trembles when you lift it").write(to: article, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: site.appendingPathComponent("Content/pages/about.md"))
        Thread.sleep(forTimeInterval: 0.01)
        #expect(build(site).0 == 0)
        let after = FolderSnapshot(output)
        let changed = Set(after.files.keys.filter { before.dates[$0] != after.dates[$0] })
        #expect(changed.contains("articles/egg-tarts-on-lyndhurst-terrace/index.html"))
        #expect(changed.contains("feed.xml"))
        #expect(!changed.contains("articles/lovely-breakfast/toast.jpg"))
        #expect(!changed.contains("homework/grade-6/feed.xml"))
        #expect(after.files["about/index.html"] == nil)
        for path in changed { #expect(before.files[path] != after.files[path], "\(path) was rewritten with the same bytes") }
    }
}

@Suite("Build cache")
struct BuildCacheTests {
    private func copySampleSite(into folder: TemporaryFolder, as name: String) throws -> URL {
        let site = folder.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        for part in ["Content", "Themes"] {
            try FileManager.default.copyItem(at: Repository.root.appendingPathComponent(part), to: site.appendingPathComponent(part))
        }
        return site
    }

    private func build(_ site: URL, cache: URL?) -> String {
        let console = CapturedConsole()
        let arguments = ["build", "--source", site.path, "--today", SampleSiteTests.today] + (cache.map { ["--cache-dir", $0.path] } ?? ["--no-cache"])
        #expect(CommandLineTool.run(arguments: arguments, console: console.console) == 0, "\(console.error)")
        return console.output
    }

    /// Edits an article and an assignment; each call changes them again.
    private func edit(_ site: URL) throws {
        let article = site.appendingPathComponent("Content/articles/dim-sum-in-sham-shui-po/index.md")
        try ((try String(contentsOf: article, encoding: .utf8)).replacingOccurrences(of: "The queue moves", with: "The line moves") + "\nAnother basket.\n")
            .write(to: article, atomically: true, encoding: .utf8)
        let assignment = site.appendingPathComponent("Content/homework/2026-11-24/read-act-2-grade-8.md")
        try (try String(contentsOf: assignment, encoding: .utf8)).replacingOccurrences(of: "act 2", with: "act 3").write(to: assignment, atomically: true, encoding: .utf8)
    }

    /// Two copies of the sample site, one to build through the cache (in `cache`) and one
    /// without it.
    private func twinSites(in folder: TemporaryFolder) throws -> (cached: URL, plain: URL, cache: URL) {
        (try copySampleSite(into: folder, as: "cached"), try copySampleSite(into: folder, as: "plain"), folder.url.appendingPathComponent("cache"))
    }

    /// Whether the outputs of the two sites hold the same files with the same bytes.
    private func sameOutputs(_ cached: URL, _ plain: URL) -> Bool {
        FolderSnapshot(cached.appendingPathComponent("Output")).files == FolderSnapshot(plain.appendingPathComponent("Output")).files
    }

    /// Edits both sites alike, builds one through the cache and the other without; whether
    /// their outputs are the same.
    private func editAndBuild(_ cached: URL, _ plain: URL, cache: URL) throws -> Bool {
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
    private func rewriteKeepingStamp(_ file: URL, _ find: String, _ replacement: String) throws {
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
    private func stampInTheFuture(_ file: URL) {
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
    private func cacheHoldsTheFolderTimesOfTheOutput(of site: URL, cache: URL) -> Bool {
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

    /// The content files of `site`, and those of its articles that have a page: a draft
    /// has none, so the cache stores its HTML whole from the start.
    private func contentFiles(of site: URL) throws -> (sources: [String], articles: [String]) {
        let content = site.appendingPathComponent("Content")
        let sources = FolderSnapshot(content).files.keys.filter { $0.hasSuffix(".md") }
        let articles = try sources.filter { $0.hasPrefix("articles/") }.filter {
            !(try String(contentsOf: content.appendingPathComponent($0), encoding: .utf8)).contains("\ndraft: true\n")
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
    private func modelStore(in cache: URL) throws -> Data {
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
        let photo = cached.appendingPathComponent("Content/articles/lovely-breakfast/tea.jpg")
        let published = cached.appendingPathComponent("Output/articles/lovely-breakfast/tea.jpg")
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
        #expect(release.renderedCount < release.pageCount / 2, "\(release.renderedCount) of \(release.pageCount) pages rendered at the release time")
        #expect(store() == models)
        #expect(nothingChanged(build(cached, at: "23:59", cache: cache)))
        _ = build(plain, at: "17:45", cache: nil)
        #expect(output(plain).files == afternoon.files)
        #expect(String(decoding: try #require(afternoon.files["homework/index.html"]), as: UTF8.self).contains("Updated Wednesday, Nov 25, 2:00\u{202F}PM"))

        // The next day any page may show another `today`: every page is rendered again,
        // from the cache's models, as a build without the cache makes it.
        let nextDay = build(cached, at: "08:00", on: "2026-11-26", cache: cache)
        #expect(nextDay.renderedCount == nextDay.pageCount)
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
        try (try String(contentsOf: template, encoding: .utf8)).replacingOccurrences(of: "article", with: "story").write(to: template, atomically: true, encoding: .utf8)
        let output = build(site, cache: cache)
        let after = FolderSnapshot(site.appendingPathComponent("Output"))
        let changed = Set(after.files.keys.filter { before.dates[$0] != after.dates[$0] })
        #expect(changed == ["meals/index.html", "tags/index.html"], "\(output)")
    }

    /// An assignment is on its day's page, its grade's page, feed and calendar; the home
    /// pages, `/homework/` and the other days show only the digest day's work of it.
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
    private func damageStore(in cache: URL, _ damage: (inout [UInt8]) -> Void) throws {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: cache.path).first { $0.hasSuffix(".models") })
        let store = cache.appendingPathComponent(name)
        var models = try Array(Data(contentsOf: store))
        damage(&models)
        try Data(models).write(to: store)
    }

    /// Builds `site` through the cache in `cache` (nil: without it) and tells what the
    /// build did.
    private func report(_ site: URL, cache: URL?, drafts: Bool = false) -> BuildReport {
        var options = BuildOptions(source: site.path, today: SampleSiteTests.today, drafts: drafts)
        options.useCache = cache != nil
        options.cacheFolder = cache?.path
        return SiteBuilder.build(options, reuse: CachedBuild.reusing(options))
    }

    /// Sets `articles_per_page` (3 in the sample site) in each of `sites`.
    private func showArticles(_ perPage: Int, aPageIn sites: URL...) throws {
        for site in sites {
            let settings = site.appendingPathComponent("Content/site.yaml")
            try (try String(contentsOf: settings, encoding: .utf8)).replacingOccurrences(of: "articles_per_page: 3", with: "articles_per_page: \(perPage)")
                .write(to: settings, atomically: false, encoding: .utf8)
        }
    }

    private func append(_ text: String, to article: String, in sites: URL...) throws {
        try append(text, toFile: "Content/articles/\(article)", in: sites)
    }

    /// Appends `text` to the file at `path`, relative to the site, of each of `sites`.
    private func append(_ text: String, toFile path: String, in sites: [URL]) throws {
        for site in sites {
            let file = site.appendingPathComponent(path)
            try (try String(contentsOf: file, encoding: .utf8) + text).write(to: file, atomically: false, encoding: .utf8)
        }
    }

    private func replace(_ text: String, with replacement: String, in article: String, in sites: URL...) throws {
        for site in sites {
            let file = site.appendingPathComponent("Content/articles/\(article)")
            let original = try String(contentsOf: file, encoding: .utf8)
            #expect(original.contains(text))
            try original.replacingOccurrences(of: text, with: replacement).write(to: file, atomically: false, encoding: .utf8)
        }
    }

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
    private func wroteChangesOnly(_ cache: URL) throws -> Bool {
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
        try replace("title: Egg Tarts on Lyndhurst Terrace", with: "title: Egg Tarts", in: "egg-tarts-on-lyndhurst-terrace/index.md", in: cached, plain)
        #expect(report(cached, cache: cache).renderedCount == 8)
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
    private func expectEdits(_ edits: [(String, String, String, Bool)], cached: URL, plain: URL, cache: URL) throws {
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
            ("tags: [Dim Sum, brunch, bakery, harbour]", "tags: [brunch, bakery, harbour]", dimSum, false),
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
            // Another address: the restaurants, the map, the restaurant's page and the
            // article's lists.
            ("address: 9-11 Fuk Wing St", "address: 10 Fuk Wing St", dimSum, true),
            // The newest of Kam Wah's two articles to Tim Ho Wan, written otherwise: both
            // restaurants keep an article, the one left is named as its newest article now
            // names it ("Kam Wah Café"), and the one joined stays as its own newest names it.
            ("name: Kam Wah Cafe", "name: TIM HO WAN", bun, true),
            // And back: Kam Wah is named after its newest article again, Tim Ho Wan is not
            // changed by the older article that left it.
            ("name: TIM HO WAN", "name: Kam Wah Cafe", bun, true),
            // The older article to the newer one's restaurant, then back.
            ("name: Kam Wah Café", "name: Tim Ho Wan", milkTea, true),
            ("name: Tim Ho Wan", "name: Kam Wah Café", milkTea, true),
            // No coordinates, while other restaurants keep theirs.
            ("  lat: 22.33069\n  lon: 114.16239\n", "", dimSum, true),
            // A restaurant left without articles: its page goes, a full build.
            ("name: Tim Ho Wan", "name: Kam Wah Cafe", dimSum, false),
            // One that is new: its page comes, a full build; a name with no letters to make
            // a slug of has one made from a hash of it.
            ("name: Kam Wah Cafe", "name: \"!!!\"", dimSum, false),
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
        let guide = "2026-12-01-cha-chaan-teng-guide.md"
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
                        "lovely-breakfast/index.md", "pineapple-bun-in-mong-kok/index.md", "wonton-noodles-in-central/index.md", "2026-12-01-cha-chaan-teng-guide.md"]
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
