import Foundation
import SitegenContent
@testable import SitegenImport
import SitegenPipeline
import SitegenTestSupport
import Testing

/// Teachers' blogs served on 127.0.0.1 by Tests/Fixtures/import/server.py: a WordPress RSS
/// feed, a Blogger Atom feed, a Google Sites page with no feed, an entity bomb, and a feed
/// of the site's folder with relative links.
final class TeacherBlogs {
    let process = Process()
    let port: Int
    let log: URL

    init() throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-blogs-\(UUID().uuidString).log")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", FeedDocumentTests.fixtures.appendingPathComponent("server.py").path, log.path]
        let output = Pipe()
        process.standardOutput = output
        // Not the test's own output: swift test waits for every holder of it to end.
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")), let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty { line += byte }
        port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Each request: its path and headers.
    var requests: [(path: String, headers: [String: String])] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return (object["path"] as? String ?? "", object["headers"] as? [String: String] ?? [:])
        }
    }
}

@Suite("Import", .serialized)
struct ImportRunTests {
    private func school(_ blogs: TeacherBlogs) throws -> TemporaryFolder {
        let folder = TemporaryFolder()
        try folder.write("title: School\nbase_url: https://school.example.org/\ntimezone: Asia/Hong_Kong\nhomework:\n  grades: [7, 8]\n  holidays: [2026-12-03]\n",
                         to: "site/Content/site.yaml")
        try folder.write("""
            - {id: ms-lee, name: Ms. Lee, subject: Math, grades: [7, 8], feed: "\(blogs.url("wordpress.xml"))"}
            - {id: mr-chan, name: Mr. Chan, subject: History, grades: [8], feed: "\(blogs.url("blogger.xml"))"}
            - {id: ms-wong, name: Ms. Wong, subject: Science, grades: [7], feed: "\(blogs.url("google-sites.html"))"}
            - {id: ms-ng, name: Ms. Ng, subject: Chinese, grades: [7], feed: "\(blogs.url("bomb.xml"))"}
            - {id: mr-ho, name: Mr. Ho, subject: English, grades: [7, 8], feed: feeds/mr-ho.xml}

            """, to: "site/Content/teachers.yaml")
        let feed = try String(contentsOf: FeedDocumentTests.fixtures.appendingPathComponent("relative.xml"), encoding: .utf8)
        try folder.write(feed, to: "site/feeds/mr-ho.xml")
        return folder
    }

    private func run(_ folder: TemporaryFolder, update: Bool = false, dryRun: Bool = false) -> ImportRun.Report {
        var options = ImportRun.Options(siteFolder: folder.url.appendingPathComponent("site"))
        options.update = update
        options.dryRun = dryRun
        options.cacheFolder = folder.url.appendingPathComponent("cache").path
        options.userAgent = "sitegen-test/1.0 (+https://example.org/sitegen)"
        options.now = Date(timeIntervalSince1970: 1_796_200_000)
        return ImportRun.run(options)
    }

    private func homework(_ folder: TemporaryFolder) -> [String: String] {
        let root = folder.url.appendingPathComponent("site/Content/homework")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return Dictionary(uniqueKeysWithValues: names.map { ($0, (try? String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) ?? "") })
    }

    @Test func importsEachNewPostOnceAndReportsTheFeedsThatFail() throws {
        let blogs = try TeacherBlogs()
        let folder = try school(blogs)
        let first = run(folder)
        #expect(first.written == 5)
        #expect(first.problems == [
            "Ms. Wong (\(blogs.url("google-sites.html"))): error: the feed is a web page, not a feed, and links to none: give the address of the blog's RSS or Atom feed as 'feed' in teachers.yaml",
            "Ms. Ng (\(blogs.url("bomb.xml"))): error: the feed declares XML entities (<!ENTITY …>), which sitegen does not read: a feed never needs them",
        ])
        let files = homework(folder)
        #expect(files.count == 5)
        let fractions = try #require(files.first { $0.key.hasPrefix("2026-12-01-fractions-worksheet-due-thursday-") }?.value)
        #expect(fractions.hasPrefix("""
            ---
            title: Fractions worksheet – due Thursday
            teacher: ms-lee
            assigned: 2026-12-01
            due: 2026-12-03
            """) == false, "the 3rd is a holiday: no due date")
        #expect(fractions.hasPrefix("---\ntitle: Fractions worksheet – due Thursday\nteacher: ms-lee\nassigned: 2026-12-01\nlink: https://mslee.example.org/2026/12/01/fractions-worksheet/\nsource:\n  id: https://mslee.example.org/?p=412\n  url: https://mslee.example.org/2026/12/01/fractions-worksheet/\n  updated: 2026-12-01T15:12:44+08:00\n  digest: "), "\(fractions)")
        #expect(fractions.hasSuffix("---\nDo the **odd-numbered** questions on page 42.\n\n- Show your working\n\n- Use a pencil\n\nThe answers are on [the answers page](https://mslee.example.org/answers/).\n"))
        let timeline = try #require(files.first { $0.key.contains("timeline") }?.value)
        #expect(timeline.contains("\ndue: 2026-12-04\n"))
        #expect(!timeline.contains("script") && !timeline.contains("javascript") && !timeline.contains("onerror"))
        let reading = try #require(files.first { $0.key.contains("reading-log") }?.value)
        #expect(reading.contains("[the reading log](https://mrho.example.org/blog/files/log.pdf)"))
        // Every request says who asks.
        #expect(blogs.requests.allSatisfy { $0.headers["User-Agent"] == "sitegen-test/1.0 (+https://example.org/sitegen)" })

        // Again: the servers are asked what changed since, answer nothing, and no file is written.
        let second = run(folder)
        #expect(second.written == 0)
        #expect(second.lines.contains("Ms. Lee (\(blogs.url("wordpress.xml"))): not changed since the last import"))
        #expect(homework(folder) == files)
        let conditional = blogs.requests.filter { $0.path == "/wordpress.xml" }.last?.headers
        #expect(conditional?["If-None-Match"] != nil && conditional?["If-Modified-Since"] == "Tue, 01 Dec 2026 08:00:00 GMT")
    }

    @Test func reportsAChangedPostAndWritesItOnlyWhenAskedAndUnedited() throws {
        let blogs = try TeacherBlogs()
        let folder = try school(blogs)
        _ = run(folder)
        let feed = folder.url.appendingPathComponent("site/feeds/mr-ho.xml")
        try (try String(contentsOf: feed, encoding: .utf8)).replacingOccurrences(of: "for tomorrow", with: "for Friday").write(to: feed, atomically: true, encoding: .utf8)
        let name = try #require(homework(folder).keys.first { $0.contains("reading-log") })
        let path = "Content/homework/" + name
        let changed = run(folder)
        #expect(changed.written == 0)
        #expect(changed.lines.contains("Mr. Ho (feeds/mr-ho.xml): 'Reading log' changed since it was imported into \(path); run sitegen import --update to write it again"))
        // With --update, the file import wrote is written again.
        let updated = run(folder, update: true)
        #expect(updated.written == 1)
        #expect(try #require(homework(folder)[name]).contains("for Friday"))
        // An author's edit is never written over.
        let file = folder.url.appendingPathComponent("site/" + path)
        try (try String(contentsOf: file, encoding: .utf8)).replacingOccurrences(of: "title: Reading log", with: "title: Reading log (corrected)").write(to: file, atomically: true, encoding: .utf8)
        try (try String(contentsOf: feed, encoding: .utf8)).replacingOccurrences(of: "for Friday", with: "for Monday").write(to: feed, atomically: true, encoding: .utf8)
        let edited = run(folder, update: true)
        #expect(edited.written == 0)
        #expect(edited.lines.contains("Mr. Ho (feeds/mr-ho.xml): 'Reading log' changed since it was imported, and \(path) was edited since: left as it is"))
        #expect(try #require(homework(folder)[name]).contains("title: Reading log (corrected)"))
    }

    @Test func aDryRunWritesNothing() throws {
        let blogs = try TeacherBlogs()
        let folder = try school(blogs)
        let report = run(folder, dryRun: true)
        #expect(report.written == 5)
        #expect(report.lines.contains { $0.hasPrefix("Would write Content/homework/2026-12-01-timeline-of-1842-1898-") })
        #expect(homework(folder).isEmpty)
        #expect(run(folder).written == 5)
    }

    /// The site builds with what was imported, and nothing of a post's scripts reaches a page.
    @Test func theSiteBuildsWithTheImportedWork() throws {
        let blogs = try TeacherBlogs()
        let folder = try school(blogs)
        _ = run(folder)
        let report = SiteBuilder.build(BuildOptions(source: folder.url.appendingPathComponent("site").path, today: "2026-12-02T15:00"))
        #expect(report.succeeded, "\(report.diagnostics)")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let page = try String(contentsOf: folder.url.appendingPathComponent("site/Output/homework/grade-8/2026-12-01/index.html"), encoding: .utf8)
        #expect(page.contains("Timeline of 1842–1898"))
        #expect(!page.contains("alert("))
    }

    @Test(arguments: [("loop", "redirects more than 5 times, or to an address that is not http or https"),
                      ("to-ftp", "redirects more than 5 times, or to an address that is not http or https"),
                      ("huge", "is larger than 5 MB: a feed of homework is a few hundred kilobytes"),
                      ("slow", "did not answer within 1 seconds"),
                      ("missing.xml", "answered 404 Not Found")])
    func refusesWhatNoFeedDoes(_ path: String, _ message: String) throws {
        let blogs = try TeacherBlogs()
        var limits = FeedFetcher.Limits()
        limits.timeout = 1
        let fetcher = FeedFetcher(userAgent: "sitegen-test", limits: limits)
        #expect(throws: FeedProblem(message: message)) {
            try fetcher.fetch(URL(string: blogs.url(path))!, validators: nil)
        }
    }

    /// A feed that writes its links relative to itself, as some blogs do: they are made
    /// absolute against the address it was fetched from, and its posts' against theirs.
    @Test func makesAServedFeedSRelativeLinksAbsolute() throws {
        let blogs = try TeacherBlogs()
        let folder = try school(blogs)
        try folder.write("- {id: ms-ko, name: Ms. Ko, subject: Music, grades: [7], feed: \"\(blogs.url("relative-rss.xml"))\"}\n", to: "site/Content/teachers.yaml")
        #expect(run(folder).written == 1)
        let file = try #require(homework(folder).values.first)
        let root = "http://127.0.0.1:\(blogs.port)"
        #expect(file.contains("\nlink: \(root)/music/2026/12/02/scale/\n"), "\(file)")
        #expect(file.contains("Play it with [the sheet](\(root)/music/files/scale-g.pdf), due Friday. [The scale](\(root)/music/images/g-major.png)"), "\(file)")
        #expect(file.contains("\ndue: 2026-12-04\n"))
    }

    @Test func followsARedirectToTheFeed() throws {
        let blogs = try TeacherBlogs()
        guard case .feed(let data, let url, _) = try FeedFetcher(userAgent: "sitegen-test").fetch(URL(string: blogs.url("moved"))!, validators: nil) else {
            Issue.record("no feed")
            return
        }
        #expect(url.absoluteString == blogs.url("wordpress.xml"))
        #expect(try FeedDocument.posts(in: data, address: url).count == 2)
    }
}
