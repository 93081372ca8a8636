import Foundation
import SitegenContent
@testable import SitegenIncremental
@testable import SitegenPipeline
import SitegenTestSupport
import Testing

/// Random series of the edits writers make — every key of an article's front matter, its
/// story, photos, new and deleted articles and assignments, teachers, templates, settings,
/// mistakes and their fixes — made to three copies of the sample site: one built through
/// the cache, one as `sitegen serve` builds it, and one without either. After every build:
/// the same bytes in the three outputs, the same diagnostics, a failed build that changed
/// nothing, and no file rewritten whose bytes stayed the same.
///
/// The cache has many ways to rebuild less than everything (an article's own page, the
/// lists kept beside the cache, moves between groups and restaurants, the homework's
/// moment); the tests of each take the edits their author thought of, and these take the
/// ones nobody did. `SITEGEN_CACHE_ROUNDS` and `SITEGEN_CACHE_SEED` run longer or other
/// series by hand; a failure names the seed, the round and the edits that led to it, and
/// `SITEGEN_CACHE_KEEP=<folder>` keeps both sites and the cache as they were before each
/// build, to build again by hand.
@Suite("Build cache against random edits")
struct CacheDifferentialTests {
    static let rounds = ProcessInfo.processInfo.environment["SITEGEN_CACHE_ROUNDS"].flatMap(Int.init) ?? 30
    static let seeds: [UInt64] = ProcessInfo.processInfo.environment["SITEGEN_CACHE_SEED"].flatMap { UInt64($0) }.map { [$0] } ?? [1, 2]

    @Test(arguments: seeds)
    func buildsWhatABuildWithoutTheCacheBuildsAfterRandomEdits(seed: UInt64) throws {
        let folder = TemporaryFolder()
        var sites = try EditedSites(in: folder, seed: seed)
        var history: [String] = []
        sites.start(&history)
        try sites.build(round: 0, history: history)
        for round in 1...Self.rounds {
            let edits = try sites.editAtRandom()
            history.append("\(round): " + edits.joined(separator: "; "))
            history[history.count - 1] += " → " + (try sites.build(round: round, history: history))
            if let mistake = try sites.makeAMistake() {
                history.append("\(round): \(mistake), then undone")
                try sites.build(round: round, history: history, expectingFailure: true)
                try sites.undoTheMistake()
                try sites.build(round: round, history: history)
            }
        }
    }
}

/// Three copies of the sample site edited alike — built through the cache, without it, and
/// as `sitegen serve` builds, from memory and told which files changed — with the articles
/// the edits are made to.
private struct EditedSites {
    let cached: URL
    let plain: URL
    let served: URL
    let cache: URL
    let servedOutput: URL
    /// What a dev server keeps between builds; a new one when the drafts are shown or
    /// hidden, as `sitegen serve --drafts` is another server.
    var memory = BuildMemory()
    /// The files edited since the last build, relative to the site, as a dev server's
    /// watcher reports them.
    var changed: Set<String> = []
    var random: SplitMix
    var articles: [String: WrittenArticle] = [:]
    var newArticles = 0
    var assignments: Set<String> = []
    var newAssignments = 0
    var drafts = false
    var mistake: (path: String, text: String)?

    var copies: [URL] { [cached, plain, served] }

    init(in folder: TemporaryFolder, seed: UInt64) throws {
        cached = folder.url.appendingPathComponent("cached")
        plain = folder.url.appendingPathComponent("plain")
        served = folder.url.appendingPathComponent("served")
        cache = folder.url.appendingPathComponent("cache")
        servedOutput = folder.url.appendingPathComponent("served-output")
        random = SplitMix(seed: seed)
        for site in copies {
            try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
            for part in ["Content", "Themes"] {
                try FileManager.default.copyItem(at: Repository.root.appendingPathComponent(part), to: site.appendingPathComponent(part))
            }
        }
    }

    /// Articles of its own beside the sample site's, fewer articles a page, so that lists
    /// run over several pages, and now and then a site published below a path of its host.
    mutating func start(_ history: inout [String]) {
        for _ in 0..<4 { _ = addArticle() }
        let perPage = Int.random(in: 1...3, using: &random)
        replaceEverywhere("Content/site.yaml", "articles_per_page: 3", "articles_per_page: \(perPage)")
        let base = Bool.random(using: &random) ? "https://example.org/" : "https://example.org/food/"
        replaceEverywhere("Content/site.yaml", "base_url: https://example.org/", "base_url: \(base)")
        history.append("0: \(articles.count) articles, \(perPage) a page, at \(base)")
    }

    // MARK: Building and comparing

    /// Builds the three sites and checks what the cached and the served builds did against
    /// the one without the cache.
    @discardableResult
    mutating func build(round: Int, history: [String], expectingFailure: Bool = false) throws -> String {
        if let keep = ProcessInfo.processInfo.environment["SITEGEN_CACHE_KEEP"] {
            let folder = URL(fileURLWithPath: keep).appendingPathComponent("seed-\(random.seed)-round-\(round)\(expectingFailure ? "-failing" : "")")
            try? FileManager.default.removeItem(at: folder)
            for part in [cached, plain, served, cache, servedOutput] where FileManager.default.fileExists(atPath: part.path) {
                try copyFolder(part, to: folder.appendingPathComponent(part.lastPathComponent))
            }
        }
        let output = cached.appendingPathComponent("Output")
        let before = FolderSnapshot(output)
        let edited = report(cached, cache: cache)
        let expected = report(plain, cache: nil)
        let after = FolderSnapshot(output)
        let servedBefore = FolderSnapshot(servedOutput)
        let serving = served(changed: round == 0 ? nil : changed.sorted())
        changed = []
        let story = "seed \(random.seed), round \(round), drafts \(drafts); the cached build parsed \(edited.parsedCount) files, rendered \(edited.renderedCount) pages\n" + history.suffix(8).joined(separator: "\n")
        #expect(edited.succeeded == !expectingFailure && expected.succeeded == !expectingFailure, "\(edited.diagnostics)\n\(story)")
        #expect(edited.diagnostics == expected.diagnostics, "\(edited.diagnostics)\nagainst\n\(expected.diagnostics)\n\(story)")
        #expect(serving.succeeded == expected.succeeded && serving.diagnostics == expected.diagnostics, "served: \(serving.diagnostics)\n\(story)")
        guard edited.succeeded else {
            #expect(after == before, "a failed build changed the output\n\(story)")
            #expect(FolderSnapshot(servedOutput) == servedBefore, "a failed build changed the served output\n\(story)")
            return "failed"
        }
        let plainFiles = FolderSnapshot(plain.appendingPathComponent("Output")).files
        let servedAfter = FolderSnapshot(servedOutput)
        for (name, before, after) in [("cached", before, after), ("served", servedBefore, servedAfter)] {
            if after.files != plainFiles {
                let differing = Set(after.files.keys).union(plainFiles.keys).filter { after.files[$0] != plainFiles[$0] }.sorted()
                Issue.record("the \(name) output differs in \(differing.prefix(6)) (\(differing.count) files)\n\(firstDifference(after.files[differing[0]], plainFiles[differing[0]]))\n\(story)")
            }
            let rewritten = before.files.keys.filter { before.files[$0] == after.files[$0] && before.dates[$0] != after.dates[$0] }.sorted()
            #expect(rewritten.isEmpty, "\(name): files rewritten with the same bytes: \(rewritten.prefix(6))\n\(story)")
        }
        if round % 5 == 0 {
            let again = report(cached, cache: cache)
            #expect(again.renderedCount == 0 && again.writtenCount == 0, "a rebuild with nothing changed: \(again)\n\(story)")
        }
        return "parsed \(edited.parsedCount), rendered \(edited.renderedCount); served: rendered \(serving.renderedCount)"
    }

    /// The first line where a file of a copy's output differs from the one built without
    /// the cache.
    private func firstDifference(_ cached: Data?, _ plain: Data?) -> String {
        guard let cached, let plain else { return cached == nil ? "missing from the copy's output" : "only in the copy's output" }
        guard cached.prefix(512).allSatisfy({ $0 >= 0x09 && $0 != 0xFF }) else { return "\(cached.count) bytes against \(plain.count)" }
        let cachedLines = String(decoding: cached, as: UTF8.self).components(separatedBy: "\n")
        let plainLines = String(decoding: plain, as: UTF8.self).components(separatedBy: "\n")
        let line = zip(cachedLines, plainLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(cachedLines.count, plainLines.count)
        let shown = { (lines: [String]) in lines.indices.contains(line) ? lines[line] : "(end)" }
        return "line \(line + 1): \(shown(cachedLines))\nagainst: \(shown(plainLines))"
    }

    /// The served copy built as `sitegen serve` builds it after its watcher saw `changed`.
    private func served(changed: [String]?) -> BuildReport {
        var options = BuildOptions(source: served.path, output: servedOutput.path, today: SampleSiteTests.today, drafts: drafts)
        options.useCache = true
        options.cacheFolder = cache.appendingPathComponent("served").path
        return SiteBuilder.build(options, reuse: CachedBuild(options: options, memory: memory, changed: changed.map { $0.map { served.path + "/" + $0 } }))
    }

    private func report(_ site: URL, cache: URL?) -> BuildReport {
        var options = BuildOptions(source: site.path, today: SampleSiteTests.today, drafts: drafts)
        options.useCache = cache != nil
        options.cacheFolder = cache?.path
        return SiteBuilder.build(options, reuse: CachedBuild.reusing(options))
    }

    // MARK: Edits

    /// One to three edits; what they were, for the history.
    mutating func editAtRandom() throws -> [String] {
        var said: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            said.append(try editOnce())
        }
        if Int.random(in: 0..<8, using: &random) == 0 {
            drafts.toggle()
            memory = BuildMemory()
            said.append(drafts ? "built with drafts" : "built without drafts")
        }
        return said
    }

    private mutating func editOnce() throws -> String {
        let file = articles.keys.sorted().randomElement(using: &random)!
        var article = articles[file]!
        let said: String
        switch Int.random(in: 0..<22, using: &random) {
        case 19, 20, 21:
            return try editAssignment()
        case 0, 1:
            article.body += "\nAnother paragraph, \(Int.random(in: 0..<1000, using: &random)).\n"
            said = "story of \(file)"
        case 2, 3:
            article.title = Pools.titles.randomElement(using: &random)!
            said = "title of \(file): \(article.title)"
        case 4:
            article.price = Bool.random(using: &random) ? Int.random(in: 0...200, using: &random) : nil
            said = "price of \(file): \(article.price.map(String.init) ?? "none")"
        case 5:
            article.meal = Pools.meals.randomElement(using: &random)!
            said = "meal of \(file): \(article.meal ?? "none")"
        case 6, 7:
            article.tags = Pools.tags.randomSubset(using: &random)
            said = "tags of \(file): \(article.tags?.description ?? "none")"
        case 8, 9:
            article.restaurant = Pools.restaurant(using: &random)
            said = "restaurant of \(file): \(article.restaurant.map { "\($0)" } ?? "none")"
        case 10:
            article.date = Pools.dates.randomElement(using: &random)!
            said = "date of \(file): \(article.date)"
        case 11:
            article.draft.toggle()
            said = "draft of \(file): \(article.draft)"
        case 12:
            article.summary = Bool.random(using: &random) ? "Said in short, \(Int.random(in: 0..<100, using: &random))." : nil
            said = "summary of \(file): \(article.summary ?? "none")"
        case 13:
            return addArticle()
        case 14 where articles.count > 1:
            articles[file] = nil
            for site in copies { try FileManager.default.removeItem(at: site.appendingPathComponent(file)) }
            changed.insert(file)
            return "deleted \(file)"
        case 15, 16:
            return try editSampleSite()
        case 17:
            article.cover = Pools.photos.randomElement(using: &random)!
            said = "cover of \(file): \(article.cover ?? "none")"
        default:
            // The same bytes written again: a new time stamp, nothing else.
            said = "touched \(file)"
        }
        articles[file] = article
        writeEverywhere(file, article.text)
        return said
    }

    private mutating func addArticle() -> String {
        newArticles += 1
        let file = "Content/articles/random-\(newArticles).md"
        let article = WrittenArticle(
            title: Pools.titles.randomElement(using: &random)!, date: Pools.dates.randomElement(using: &random)!,
            cover: Pools.photos.randomElement(using: &random)!, meal: Pools.meals.randomElement(using: &random)!, price: Int.random(in: 5...150, using: &random),
            restaurant: Pools.restaurant(using: &random), tags: Pools.tags.randomSubset(using: &random),
            slug: Bool.random(using: &random) ? "slug-\(newArticles)" : nil, draft: Int.random(in: 0..<6, using: &random) == 0,
            body: "A story of its own, number \(newArticles).\n")
        articles[file] = article
        writeEverywhere(file, article.text)
        return "new \(file)"
    }

    /// An edit of the sample site's own files: its articles, photos, assignments,
    /// teachers, plain pages, templates or settings.
    private mutating func editSampleSite() throws -> String {
        switch Int.random(in: 0..<11, using: &random) {
        case 0:
            let title = Pools.titles.randomElement(using: &random)!
            try replaceLineEverywhere("Content/articles/dim-sum-in-sham-shui-po/index.md", startingWith: "title: ", with: "title: \(WrittenArticle.quoted(title))")
            return "title of the dim sum: \(title)"
        case 1:
            let tags = Pools.tags.randomSubset(using: &random) ?? ["kowloon"]
            try replaceLineEverywhere("Content/articles/pineapple-bun-in-mong-kok/index.md", startingWith: "tags: ", with: "tags: \(WrittenArticle.flow(tags))")
            return "tags of the pineapple bun: \(tags)"
        case 2:
            let number = Int.random(in: 0..<100, using: &random)
            try replaceLineEverywhere("Content/homework/2026-11-24/read-act-2-grade-8.md", startingWith: "title: ", with: "title: \"Read: scene \(number)\"")
            return "assignment's title: scene \(number)"
        case 3:
            let due = Pools.days.filter { $0 >= "2026-11-25" }.randomElement(using: &random)!
            try replaceLineEverywhere("Content/homework/2026-11-25/poetry-analysis-grade-8.md", startingWith: "due: ", with: "due: \(due)")
            return "assignment due \(due)"
        case 4:
            return addOrDeleteAssignment()
        case 5:
            let name = ["Mr. Ho", "Mr. Ho Jr.", "Mr. Ho <Ka-ming>"].randomElement(using: &random)!
            try replaceLineEverywhere("Content/teachers.yaml", startingWith: "  name: ", containing: "Mr. Ho", with: "  name: \(WrittenArticle.quoted(name))")
            return "teacher named \(name)"
        case 6:
            appendEverywhere("Content/pages/about.md", "\nMore about us, \(Int.random(in: 0..<100, using: &random)).\n")
            return "about page"
        case 7:
            // Another photo's bytes: another size, on every page that shows it.
            let photos = Pools.photos.compactMap { $0 } + ["claypot-rice-at-temple-street/claypot.jpg"]
            let (from, to) = (photos.randomElement(using: &random)!, photos.dropLast().randomElement(using: &random)!)
            for site in copies {
                let folder = site.appendingPathComponent("Content/articles")
                try Data(contentsOf: folder.appendingPathComponent(from)).write(to: folder.appendingPathComponent(to))
            }
            changed.insert("Content/articles/" + to)
            return "photo \(to) replaced"
        case 8:
            let template = ["article.card.mustache", "footer.mustache", "list.mustache", "restaurants.mustache", "grade.mustache", "article.mustache"]
                .randomElement(using: &random)!
            appendEverywhere("Themes/default/\(template)", "<!-- \(Int.random(in: 0..<100, using: &random)) -->\n")
            return "template \(template)"
        case 9:
            let tags = Pools.tags.randomSubset(using: &random) ?? []
            try replaceLineEverywhere("Content/articles/2026-11-23-cha-chaan-teng-guide.md", startingWith: "tags: ", with: "tags: \(WrittenArticle.flow(tags))")
            return "tags of the draft: \(tags)"
        default:
            let perPage = Int.random(in: 1...4, using: &random)
            try replaceLineEverywhere("Content/site.yaml", startingWith: "articles_per_page: ", with: "articles_per_page: \(perPage)")
            return "\(perPage) articles a page"
        }
    }

    /// An assignment of the sample site's, or one of those added, edited in place: its
    /// details, title, due date, day, grade or draft state.
    private mutating func editAssignment() throws -> String {
        let folder = plain.appendingPathComponent("Content/homework")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".md") }.sorted()
        let file = "Content/homework/" + files.randomElement(using: &random)!
        var lines = try String(contentsOf: plain.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
        func value(_ key: String) -> String? {
            lines.first { $0.hasPrefix(key + ": ") }.map { String($0.dropFirst(key.count + 2)) }
        }
        func set(_ key: String, _ value: String) -> Bool {
            guard let index = lines.firstIndex(where: { $0.hasPrefix(key + ": ") }) else { return false }
            lines[index] = key + ": " + value
            return true
        }
        let days = Pools.days + ["2026-12-02", "2026-12-03"]
        var said: String?
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            let title = "Task, take \(Int.random(in: 0..<100, using: &random))"
            if set("title", WrittenArticle.quoted(title)) { said = "title of \(file): \(title)" }
        case 1:
            if let assigned = value("assigned"), let due = days.filter({ $0 >= assigned }).randomElement(using: &random), set("due", due) { said = "\(file) due \(due)" }
        case 2:
            if let due = value("due").map({ String($0.prefix(10)) }), let day = days.filter({ $0 <= due }).randomElement(using: &random), set("assigned", day) {
                said = "\(file) assigned \(day)"
            }
        case 3:
            let grade = Int.random(in: 6...8, using: &random)
            if set("grade", "\(grade)") { said = "\(file) for grade \(grade)" }
        case 4:
            if let index = lines.firstIndex(of: "draft: true") {
                lines.remove(at: index)
                said = "\(file) published"
            } else {
                lines.insert("draft: true", at: 1)
                said = "\(file) a draft"
            }
        default:
            break
        }
        if said == nil {
            lines.append("And one more thing, \(Int.random(in: 0..<100, using: &random)).")
            said = "details of \(file)"
        }
        writeEverywhere(file, lines.joined(separator: "\n"))
        return said!
    }

    /// A new assignment on a day around the build's, or one of those deleted.
    private mutating func addOrDeleteAssignment() -> String {
        if let old = assignments.randomElement(using: &random), Bool.random(using: &random) {
            assignments.remove(old)
            for site in copies { try? FileManager.default.removeItem(at: site.appendingPathComponent(old)) }
            changed.insert(old)
            return "deleted \(old)"
        }
        newAssignments += 1
        let day = Pools.days.randomElement(using: &random)!
        let file = "Content/homework/\(day)/random-task-\(newAssignments).md"
        let grade = Int.random(in: 6...8, using: &random)
        let text = "---\ntitle: \"Task \(newAssignments)\"\nteacher: mr-ho\ngrade: \(grade)\nassigned: \(day)\ndue: \(Pools.days.filter { $0 >= day }.randomElement(using: &random)!)\n---\nDo it.\n"
        for site in copies {
            let url = site.appendingPathComponent(file)
            try! FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try! Data(text.utf8).write(to: url)
        }
        assignments.insert(file)
        changed.insert(file)
        return "new \(file), grade \(grade)"
    }

    /// Now and then a mistake a writer makes (coordinates without their pair, a date that
    /// is none, a slug taken, an assignment's day that is none; or a key given twice, where
    /// the article had it already), kept to be undone: both builds fail, and the cached
    /// output stays as it was.
    mutating func makeAMistake() throws -> String? {
        guard Int.random(in: 0..<6, using: &random) == 0 else { return nil }
        var file = articles.keys.sorted().randomElement(using: &random)!
        var text = articles[file]!.text
        let said: String
        let broken: String
        switch Int.random(in: 0..<4, using: &random) {
        case 3:
            file = "Content/homework/2026-11-24/read-act-2-grade-8.md"
            text = try String(contentsOf: plain.appendingPathComponent(file), encoding: .utf8)
            broken = text.components(separatedBy: "\n").map { $0.hasPrefix("assigned: ") ? "assigned: 2026-02-30" : $0 }.joined(separator: "\n")
            said = "no such day in \(file)"
        case 0:
            broken = text.replacingOccurrences(of: "---\ntitle:", with: "---\nrestaurant: {name: Half, lat: 22.3}\ntitle:")
            said = "coordinates without their pair in \(file)"
        case 1:
            broken = text.replacingOccurrences(of: "\ndate: ", with: "\ndate: 2026-02-30T")
            said = "no such date in \(file)"
        default:
            broken = text.replacingOccurrences(of: "---\ntitle:", with: "---\nslug: dim-sum-in-sham-shui-po\ntitle:")
            said = "a slug taken in \(file)"
        }
        mistake = (file, text)
        writeEverywhere(file, broken)
        return said
    }

    mutating func undoTheMistake() throws {
        let (file, text) = try #require(mistake)
        writeEverywhere(file, text)
        mistake = nil
    }

    // MARK: Files

    private mutating func writeEverywhere(_ path: String, _ text: String) {
        changed.insert(path)
        for site in copies {
            let url = site.appendingPathComponent(path)
            try! Data(text.utf8).write(to: url)
        }
    }

    private mutating func appendEverywhere(_ path: String, _ text: String) {
        changed.insert(path)
        for site in copies {
            let url = site.appendingPathComponent(path)
            try! Data((try! String(contentsOf: url, encoding: .utf8) + text).utf8).write(to: url)
        }
    }

    private mutating func replaceEverywhere(_ path: String, _ text: String, _ replacement: String) {
        changed.insert(path)
        for site in copies {
            let url = site.appendingPathComponent(path)
            let old = try! String(contentsOf: url, encoding: .utf8)
            try! Data(old.replacingOccurrences(of: text, with: replacement).utf8).write(to: url)
        }
    }

    private mutating func replaceLineEverywhere(_ path: String, startingWith start: String, containing part: String = "", with line: String) throws {
        changed.insert(path)
        for site in copies {
            let url = site.appendingPathComponent(path)
            var lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
            let index = try #require(lines.firstIndex { $0.hasPrefix(start) && (part.isEmpty || $0.contains(part)) }, "\(path) has no \(start)")
            lines[index] = line
            try Data(lines.joined(separator: "\n").utf8).write(to: url)
        }
    }
}

/// An article the test writes, as the values of its front matter.
private struct WrittenArticle {
    var title: String
    var date: String
    var summary: String?
    /// A photo of the sample site's, by its path from Content/articles/.
    var cover: String?
    var meal: String?
    var price: Int?
    var restaurant: Pools.Restaurant?
    var tags: [String]?
    var slug: String?
    var draft: Bool
    var body: String

    var text: String {
        var lines = ["---", "title: \(Self.quoted(title))", "date: \(date)"]
        if let summary { lines.append("summary: \(Self.quoted(summary))") }
        if let cover { lines.append("cover: {src: \(Self.quoted(cover)), alt: \"A photo\"}") }
        if let meal { lines.append("meal: \(Self.quoted(meal))") }
        if let price { lines.append("price: \(price)") }
        if let restaurant {
            lines.append("restaurant:")
            lines.append("  name: \(Self.quoted(restaurant.name))")
            if let address = restaurant.address { lines.append("  address: \(Self.quoted(address))") }
            if let (lat, lon) = restaurant.coordinates { lines += ["  lat: \(lat)", "  lon: \(lon)"] }
        }
        if let tags { lines.append("tags: \(Self.flow(tags))") }
        if let slug { lines.append("slug: \(slug)") }
        if draft { lines.append("draft: true") }
        lines.append("---")
        return lines.joined(separator: "\n") + "\n" + body
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    static func flow(_ items: [String]) -> String {
        "[" + items.map(quoted).joined(separator: ", ") + "]"
    }
}

/// What the edits choose from: values the sample site has (so that articles join and leave
/// its groups and restaurants), new ones, and text that needs escaping.
private enum Pools {
    typealias Restaurant = (name: String, address: String?, coordinates: (Double, Double)?)

    static let titles = ["Dim Sum <& Sham Shui Po>", "Café \"Crème\" & Co", "Wonton Noodles 雲吞麵", "It's 'quoted'", "Plain Toast",
                         "Lovely Breakfast", "A Title That Runs On Well Past What Any Card Would Show Whole Without Cutting"]
    static let photos: [String?] = ["lovely-breakfast/egg.jpg", "lovely-breakfast/tea.jpg", "dim-sum-in-sham-shui-po/dim-sum.jpg", nil]
    static let meals: [String?] = ["Breakfast", "Brunch", "Lunch", "Dinner", "Snack", "Supper", "breakfast", nil]
    static let tags = ["dim sum", "brunch", "kowloon", "bakery", "central", "noodles", "Dim Sum", "harbour", "雲吞", "late night"]
    static let days = ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-12-01"]
    static let dates = ["2026-11-07T10:00", "2026-11-07T10:00", "2026-11-20", "2026-11-24T09:00", "2026-11-25T16:00", "2026-11-27", "2016-05-20",
                        "2025-01-01T00:00", "2026-10-02T12:30"]
    static let restaurants: [Restaurant] = [
        ("Tim Ho Wan", "9-11 Fuk Wing St, Sham Shui Po", (22.33069, 114.16239)),
        ("Toast Box", "G/F, JD Mall, 233-239 Nathan Rd, Jordan", (22.30486488298268, 114.1713863611221)),
        ("Kam Wah Cafe", "47 Bute St, Prince Edward", nil),
        ("Lan Fong Yuen", "2 Gage St, Central", (22.2838, 114.1548)),
        ("Australia Dairy", nil, nil),
        ("123", "1 Numbered Rd", nil),
        ("Tim Ho Wan", "9-11 Fuk Wing St, Sham Shui Po", nil),
    ]

    static func restaurant(using random: inout SplitMix) -> Restaurant? {
        guard Int.random(in: 0..<5, using: &random) > 0 else { return nil }
        var chosen = restaurants.randomElement(using: &random)!
        // Now and then another's address: restaurants are told apart by name or address.
        if Int.random(in: 0..<5, using: &random) == 0 { chosen.address = restaurants.randomElement(using: &random)!.address }
        return chosen
    }
}

private extension Array where Element == String {
    /// Up to four of the elements, or nil (no `tags` key) now and then.
    func randomSubset(using random: inout SplitMix) -> [String]? {
        guard Int.random(in: 0..<6, using: &random) > 0 else { return nil }
        return Array(shuffled(using: &random).prefix(Int.random(in: 0...4, using: &random)))
    }
}
