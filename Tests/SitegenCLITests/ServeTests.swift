import Foundation
@testable import SitegenCLI
import SitegenContent
@testable import SitegenPipeline
import SitegenPlatform
import SitegenServer
import SitegenTestSupport
import Synchronization
import Testing

@Suite("sitegen serve", .serialized)
struct ServeTests {
    private func startServer() throws -> (TemporaryFolder, DevServer, URL) {
        let folder = TemporaryFolder()
        let site = folder.url.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        for part in ["Content", "Themes"] {
            try FileManager.default.copyItem(at: Repository.root.appendingPathComponent(part), to: site.appendingPathComponent(part))
        }
        var options = BuildOptions(source: site.path, output: folder.url.appendingPathComponent("served").path, today: SampleSiteTests.today)
        options.useCache = true
        options.cacheFolder = folder.url.appendingPathComponent("cache").path
        let server = try DevServer(options: options, host: "127.0.0.1", port: 0, console: CapturedConsole().console)
        return (folder, server, site)
    }

    @Test func servesPagesAssetsRedirectsAnd404sAsClientsExpect() throws {
        let (folder, server, _) = try startServer()
        defer { server.stop() }
        let client = RawClient(port: server.server.port)
        let home = try #require(client.get("/"))
        #expect(home.status == 200)
        #expect(home.headers["content-type"] == "text/html; charset=utf-8")
        #expect(home.headers["cache-control"] == "no-store")
        #expect(home.body.contains("<script src=\"/__sitegen/live.js\" defer></script>\n</body>"))
        #expect(!(try String(contentsOf: folder.url.appendingPathComponent("served/index.html"), encoding: .utf8)).contains("__sitegen"))
        #expect(client.get("/about")?.status == 301)
        #expect(client.get("/about")?.headers["location"] == "/about/")
        let missing = try #require(client.get("/no/such/page/"))
        #expect(missing.status == 404 && missing.body.contains("Page not found"))
        let feed = try #require(client.get("/feed.xml"))
        #expect(feed.headers["content-type"] == "application/atom+xml; charset=utf-8")
        #expect(client.get("/homework/grade-6/calendar.ics")?.headers["content-type"] == "text/calendar; charset=utf-8")
        #expect(client.get("/articles/lovely-breakfast/toast-960w.jpg")?.headers["content-type"] == "image/jpeg")
        let etag = try #require(feed.headers["etag"])
        #expect(client.get("/feed.xml", "If-None-Match: \(etag)\r\n")?.status == 304)
        let head = try #require(client.send("HEAD /feed.xml HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
        #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"] == feed.headers["content-length"])
        #expect(client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")?.status == 405)
    }

    @Test func neverReadsOutsideTheServedFolder() throws {
        let (folder, server, _) = try startServer()
        defer { server.stop() }
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("served/secret").path, withDestinationPath: "/etc")
        let client = RawClient(port: server.server.port)
        for path in ["/../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/a%2fb", "/a%5cb", "/a\\..\\b", "/%00", "/.%2e/x", "//etc/passwd", "/secret/passwd", "/about/../../x"] {
            let reply = client.get(path)
            #expect(reply.map { $0.status == 400 || $0.status == 404 } == true, "\(path): \(reply?.status ?? -1)")
            #expect(reply?.body.contains("root:") != true, "\(path)")
        }
        // Hidden files are not served, but for the web's folder of site metadata.
        let served = folder.url.appendingPathComponent("served")
        for hidden in [".git/config", ".well-known/security.txt"] {
            let url = served.appendingPathComponent(hidden)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "secret\n".write(to: url, atomically: true, encoding: .utf8)
        }
        #expect(client.get("/.git/config")?.status == 400)
        #expect(client.get("/.well-known/security.txt")?.status == 200)
        #expect(client.get("/.well-known/.hidden")?.status == 400)
        #expect(client.send("GET /x HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n")?.status == 431)
        #expect(client.send("GET /\(String(repeating: "a", count: 20_000)) HTTP/1.1\r\n\r\n")?.status == 414)
    }

    /// Left running across the homework's release time and midnight (no `--today`), the
    /// server rebuilds then by itself: no file changes, but the pages show the day and
    /// whether its homework is out.
    @Test func rebuildsWhenTheHomeworkIsReleasedAndAtMidnight() throws {
        let folder = TemporaryFolder()
        let zone = try #require(TimeZone(identifier: "Asia/Hong_Kong"))
        func instant(_ text: String) throws -> Date {
            try #require(BuildMoment(parsing: text)).instant(in: zone)
        }
        let now = Mutex(try instant("2026-11-25T13:58"))
        var options = BuildOptions(source: Repository.root.path, output: folder.url.appendingPathComponent("served").path)
        options.clock = { now.withLock { $0 } }
        options.useCache = true
        options.cacheFolder = folder.url.appendingPathComponent("cache").path
        let server = try DevServer(options: options, host: "127.0.0.1", port: 0, console: CapturedConsole().console)
        defer { server.stop() }
        func page() -> String { RawClient(port: server.server.port).get("/homework/grade-8/")?.body ?? "" }
        #expect(page().contains("8th grade had homework in Math and English last night."))

        now.withLock { $0 = $0.addingTimeInterval(90) }
        #expect(!server.rebuildIfTheMomentMovedOn(), "13:59:30: the pages show what they showed at 13:58")
        now.withLock { $0 = $0.addingTimeInterval(31) }
        #expect(server.rebuildIfTheMomentMovedOn(), "14:00:01")
        #expect(page().contains("8th grade has homework in History and English tonight."))
        #expect(!server.rebuildIfTheMomentMovedOn())

        now.withLock { $0 = try! instant("2026-11-25T23:59") }
        #expect(!server.rebuildIfTheMomentMovedOn())
        now.withLock { $0 = try! instant("2026-11-26T00:00") }
        #expect(server.rebuildIfTheMomentMovedOn(), "midnight")
        #expect(page().contains("Last night, Wednesday, Nov 25"))
    }

    /// A scheduled article is shown marked as such, until its minute, when the server builds
    /// again by itself and the mark is gone.
    @Test func showsAScheduledArticleMarkedUntilItsTime() throws {
        let folder = TemporaryFolder()
        let zone = try #require(TimeZone(identifier: "Asia/Hong_Kong"))
        let now = Mutex(try #require(BuildMoment(parsing: "2026-12-24T17:59")).instant(in: zone))
        var options = BuildOptions(source: Repository.root.path, output: folder.url.appendingPathComponent("served").path)
        options.clock = { now.withLock { $0 } }
        options.useCache = true
        options.cacheFolder = folder.url.appendingPathComponent("cache").path
        let server = try DevServer(options: options, host: "127.0.0.1", port: 0, console: CapturedConsole().console)
        defer { server.stop() }
        func page() -> String { RawClient(port: server.server.port).get("/articles/hot-pot-on-christmas-eve/")?.body ?? "" }
        #expect(page().contains("<strong class=\"badge\">Scheduled</strong>"))
        #expect(!server.rebuildIfTheMomentMovedOn())
        now.withLock { $0 = $0.addingTimeInterval(61) }
        #expect(server.rebuildIfTheMomentMovedOn(), "18:00:01")
        #expect(page().contains("Hot Pot on Christmas Eve") && !page().contains("class=\"badge\""))
    }

    /// A server shows broken settings, or a template that does not compile, before reading
    /// the content; a command reports them with every other problem.
    @Test func stopsAtBrokenSettingsAndTemplatesAsAServer() throws {
        let folder = TemporaryFolder()
        let site = folder.url.appendingPathComponent("site")
        for part in ["Content", "Themes"] {
            try copyFolder(Repository.root.appendingPathComponent(part), to: site.appendingPathComponent(part))
        }
        func problems(stopping: Bool) -> [String] {
            var options = BuildOptions(source: site.path, today: SampleSiteTests.today)
            options.stopsAtBrokenSettings = stopping
            return SiteBuilder.build(options).diagnostics.filter { $0.severity == .error }.map(\.location.path)
        }
        func replace(_ text: String, with replacement: String, in path: String) throws {
            let file = site.appendingPathComponent(path)
            try (try String(contentsOf: file, encoding: .utf8)).replacingOccurrences(of: text, with: replacement).write(to: file, atomically: false, encoding: .utf8)
        }
        // A slug another article has, which the index finds; a template left open.
        try replace("title: Dim Sum in Sham Shui Po", with: "title: Dim Sum in Sham Shui Po\nslug: lovely-breakfast", in: "Content/articles/dim-sum-in-sham-shui-po/index.md")
        try replace("<article", with: "{{#left-open}}<article", in: "Themes/default/article.card.mustache")
        #expect(problems(stopping: true) == ["Themes/default/article.card.mustache"])
        #expect(Set(problems(stopping: false)) == ["Content/articles/lovely-breakfast/index.md", "Themes/default/article.card.mustache"])
        // The content's own problems wait for the template to be fixed.
        try replace("date: 2026-11-07T10:00", with: "date: 2026-11-31T10:00", in: "Content/articles/dim-sum-in-sham-shui-po/index.md")
        #expect(problems(stopping: true) == ["Themes/default/article.card.mustache"])
        #expect(Set(problems(stopping: false)) == ["Content/articles/dim-sum-in-sham-shui-po/index.md", "Themes/default/article.card.mustache"])
        // Settings that are none stop the build before anything else.
        try replace("timezone: Asia/Hong_Kong", with: "timezone: Asia/Kowloon", in: "Content/site.yaml")
        #expect(problems(stopping: true) == ["Content/site.yaml"])
        #expect(Set(problems(stopping: false)).isSuperset(of: ["Content/site.yaml", "Content/articles/dim-sum-in-sham-shui-po/index.md", "Themes/default/article.card.mustache"]))
    }

    @Test func tellsOpenPagesToReloadAndShowsErrorsUntilFixed() throws {
        let (folder, server, site) = try startServer()
        defer {
            server.stop()
            withExtendedLifetime(folder) {}
        }
        let watcher = Thread { server.watch() }
        watcher.start()
        Thread.sleep(forTimeInterval: 0.3)
        let client = RawClient(port: server.server.port)
        let events = client.connectSocket(timeout: 10)
        defer { close(events) }
        let request = Array("GET /__sitegen/events HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { SystemCall.sendWithoutSignal(events, $0.baseAddress!, $0.count) }
        func waitFor(_ text: String) -> String? {
            var seen = ""
            var chunk = [UInt8](repeating: 0, count: 8192)
            let deadline = Date().addingTimeInterval(8)
            while Date() < deadline {
                let count = chunk.withUnsafeMutableBytes { recv(events, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return nil }
                seen += String(decoding: chunk[0..<count], as: UTF8.self)
                if seen.contains(text) { return seen }
            }
            return nil
        }
        #expect(waitFor("retry:") != nil)
        let page = site.appendingPathComponent("Content/pages/about.md")
        let original = try String(contentsOf: page, encoding: .utf8)
        try (original + "\nOne more line.\n").write(to: page, atomically: true, encoding: .utf8)
        #expect(waitFor("event: reload") != nil)
        #expect(RawClient(port: server.server.port).get("/about/")?.body.contains("One more line.") == true)

        try original.replacingOccurrences(of: "title: About", with: "title: [About").write(to: page, atomically: true, encoding: .utf8)
        let failure = waitFor("event: failed")
        #expect(failure?.contains("\"location\":\"Content/pages/about.md:3:8\"") == true)
        #expect(failure?.contains("\"source\":\"summary: Who writes Hong Kong Bites, and how the homework pages work.\"") == true)
        #expect(RawClient(port: server.server.port).get("/about/")?.body.contains("One more line.") == true)

        try original.write(to: page, atomically: true, encoding: .utf8)
        #expect(waitFor("event: reload") != nil)
    }
}

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("sitegen serve with URLSession", .serialized)
struct ServeURLSessionTests {
    @Test func answersAnOrdinaryHTTPClient() async throws {
        let folder = TemporaryFolder()
        var options = BuildOptions(source: Repository.root.path, output: folder.url.appendingPathComponent("served").path, today: SampleSiteTests.today)
        options.useCache = false
        let server = try DevServer(options: options, host: "127.0.0.1", port: 0, console: CapturedConsole().console)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.server.port)"
        let session = URLSession(configuration: .ephemeral)
        let (page, pageResponse) = try await session.data(from: URL(string: base + "/articles/lovely-breakfast/")!)
        let http = try #require(pageResponse as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(String(decoding: page, as: UTF8.self).contains("Lovely Breakfast"))
        let (_, missing) = try await session.data(from: URL(string: base + "/nowhere/")!)
        #expect((missing as? HTTPURLResponse)?.statusCode == 404)
        let (image, imageResponse) = try await session.data(from: URL(string: base + "/articles/lovely-breakfast/toast-960w.jpg")!)
        #expect((imageResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
        #expect(image.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(image.count == (try Data(contentsOf: folder.url.appendingPathComponent("served/articles/lovely-breakfast/toast-960w.jpg"))).count)
    }
}

/// curl, as people and scripts fetch pages from `sitegen serve`.
@Suite("sitegen serve with curl", .serialized)
struct ServeCurlTests {
    /// curl's status line and headers for `path`, and the body it saved; curl is part of
    /// the test set-up (Scripts/install-deps.sh --test).
    private func curl(_ arguments: [String]) throws -> String {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["--silent", "--show-error", "--max-time", "10"] + arguments
        let output = Pipe()
        curl.standardOutput = output
        try curl.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func answersCurl() throws {
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "install curl: Scripts/install-deps.sh --test")
        let folder = TemporaryFolder()
        let options = BuildOptions(source: Repository.root.path, output: folder.url.appendingPathComponent("served").path, today: SampleSiteTests.today)
        let server = try DevServer(options: options, host: "127.0.0.1", port: 0, console: CapturedConsole().console)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.server.port)"

        let page = try curl(["--include", base + "/articles/lovely-breakfast/"])
        #expect(page.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(page.contains("Content-Type: text/html; charset=utf-8\r\n"))
        #expect(page.contains("Lovely Breakfast"))
        #expect(try curl(["--output", "/dev/null", "--write-out", "%{http_code} %{content_type} %{size_download}", base + "/articles/lovely-breakfast/toast-960w.webp"]).hasPrefix("200 image/webp "))
        #expect(try curl(["--output", "/dev/null", "--write-out", "%{http_code} %{redirect_url}", base + "/about"]) == "301 \(base)/about/")
        #expect(try curl(["--output", "/dev/null", "--write-out", "%{http_code}", base + "/no/such/page/"]) == "404")
        let headers = try curl(["--head", base + "/feed.xml"])
        let etag = try #require(headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }).dropFirst(5).trimmingCharacters(in: .whitespaces)
        #expect(try curl(["--output", "/dev/null", "--write-out", "%{http_code}", "--header", "If-None-Match: \(etag)", base + "/feed.xml"]) == "304")
        // curl keeps `..` and encoded dots as they are with --path-as-is.
        for path in ["/../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/articles/..%2f..%2f..%2fetc/passwd"] {
            let reply = try curl(["--path-as-is", "--write-out", "\n%{http_code}", base + path])
            #expect(reply.hasSuffix("\n400") || reply.hasSuffix("\n404"), "\(path)")
            #expect(!reply.contains("root:"), "\(path)")
        }
    }
}
