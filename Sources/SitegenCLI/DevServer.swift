import Foundation
import SitegenContent
import SitegenIncremental
import SitegenLocking
import SitegenPipeline
import SitegenPlatform
import SitegenServer
import SitegenSupport

/// `sitegen serve`'s engine: builds the site into a folder of the cache, serves it, and
/// rebuilds when a file of the site changes, telling every open page to reload, or to
/// show the build's errors.
final class DevServer: Sendable {
    let server: HTTPServer
    let hub = EventHub()
    let site: URL
    private let options: BuildOptions
    private let console: Console
    private let lastBuild = Box<(succeeded: Bool, basePath: String)>((false, "/"))
    /// When the pages' moment moves on, as the last build said: nil with `--today`.
    private let momentChanges = Box<Date?>(nil)
    private let stopped = Box(false)
    private let memory = BuildMemory()

    /// Builds once and starts serving; the caller then calls `watch()`.
    init(options: BuildOptions, host: String, port: Int, console: Console) throws(HTTPServer.StartError) {
        var options = options
        // What the author writes ahead is shown, marked as scheduled.
        options.future = true
        options.stopsAtBrokenSettings = true
        self.options = options
        self.console = console
        site = URL(fileURLWithPath: options.source).standardizedFileURL
        let hub = self.hub
        let state = lastBuild
        let root = options.output!
        let files = Box(StaticFiles(root: root, transformHTML: LiveReload.inject))
        server = try HTTPServer(host: host, port: port) { request in
            switch request.path {
            case LiveReload.scriptPath:
                return HTTPServer.Response(status: 200, headers: [("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "no-store")],
                                           body: Array(LiveReload.script.utf8))
            case LiveReload.eventsPath:
                return HTTPServer.Response(status: 200, headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store")],
                                           events: hub)
            default:
                let basePath = state.withLock { $0.basePath }
                let handler = files.withLock { files in
                    if files.basePath != basePath { files = StaticFiles(root: root, basePath: basePath, transformHTML: LiveReload.inject) }
                    return files
                }
                if state.withLock({ !$0.succeeded }), !FileManager.default.fileExists(atPath: root + "/index.html") {
                    return HTTPServer.Response(status: 503, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")],
                                               body: LiveReload.inject(into: Array("<!doctype html><html lang=\"en\"><title>sitegen</title><body><p>The site has not built yet.</p></body></html>".utf8)))
                }
                return handler.respond(to: request)
            }
        }
        rebuild(changed: [])
    }

    func url(host: String) -> String { "http://\(host):\(server.port)\(lastBuild.withLock { $0.basePath })" }

    /// Rebuilds, prints what happened, and tells the pages.
    func rebuild(changed: [String]) {
        let clock = ContinuousClock()
        let start = clock.now
        let stages = StageClock(clock: clock, start: start)
        let report = SiteBuilder.build(options, reuse: CachedBuild(options: options, memory: memory, changed: changed)) { stages.enter($0) }
        // A change already past (a midnight the time zone skips) is looked at again a
        // minute later, not every half second.
        let now = options.clock()
        momentChanges.withLock { $0 = report.momentChanges.map { $0 > now ? $0 : now.addingTimeInterval(60) } }
        stages.enter("Done")
        if ProcessInfo.processInfo.environment["SITEGEN_TIMINGS"] != nil { console.printError(stages.summary) }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        for diagnostic in report.diagnostics { console.printError(diagnostic.description) }
        if let problem = report.commandError { console.printError("sitegen serve: error: \(problem)") }
        if report.succeeded {
            lastBuild.withLock { $0 = (true, report.basePath) }
            let onlyStyles = !changed.isEmpty && changed.allSatisfy { $0.hasSuffix(".css") }
            hub.broadcast(event: onlyStyles ? "css" : "reload", data: "{}")
            console.printError(String(format: "Built %d pages in %.2f s (%d written)", report.pageCount, seconds, report.writtenCount))
        } else {
            hub.broadcast(event: "failed", data: problemsJSON(report), sticky: true)
            console.printError("The last good build is still served; fix the problems above and save.")
        }
    }

    /// Rebuilds when midnight or the homework's release time passed since the last build,
    /// in the site's time zone: the pages show the day and whether the day's homework is
    /// out, and no file changes then. True when it rebuilt.
    @discardableResult
    func rebuildIfTheMomentMovedOn() -> Bool {
        let now = options.clock()
        guard momentChanges.withLock({ $0.map { now >= $0 } ?? false }) else { return false }
        console.printError("Midnight or the homework's release time has passed: rebuilding")
        rebuild(changed: [])
        return true
    }

    /// Watches Content/ and Themes/ until the process ends; rebuilds also when the moment
    /// the pages show moves on.
    func watch() {
        let folders = [site.appendingPathComponent("Content").path, site.appendingPathComponent("Themes").path].filter { FileManager.default.fileExists(atPath: $0) }
        // Hidden files and editors' backups are no part of the site; `.well-known/` is.
        let watcher = FolderWatcher(folders: folders) { name in
            (!name.hasPrefix(".") || name == StaticFiles.wellKnown) && !name.hasSuffix("~")
        }
        if watcher.method != .kernelEvents {
            console.printError("Watching the site's folders by looking at them again every few hundred milliseconds: this system gives no change events")
        }
        watcher.run(whileQuiet: {
            rebuildIfTheMomentMovedOn()
            return !stopped.withLock { $0 }
        }) { changed in
            rebuild(changed: changed)
            return !stopped.withLock { $0 }
        }
    }

    func stop() {
        stopped.withLock { $0 = true }
        server.stop()
    }

    /// The build's problems with their source lines, as the overlay shows them.
    private func problemsJSON(_ report: BuildReport) -> String {
        var items = report.diagnostics.map { diagnostic -> String in
            let source = sourceLine(diagnostic.location)
            return "{\"location\":\(json(diagnostic.location.description)),\"severity\":\(json(diagnostic.severity.rawValue)),\"message\":\(json(diagnostic.message)),\"line\":\(diagnostic.location.line),\"column\":\(diagnostic.location.column),\"source\":\(json(source ?? ""))}"
        }
        if let problem = report.commandError {
            items.append("{\"location\":\"sitegen\",\"severity\":\"error\",\"message\":\(json(problem)),\"line\":0,\"column\":0,\"source\":\"\"}")
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    private func sourceLine(_ location: SourceLocation) -> String? {
        guard location.line > 0, let data = FileManager.default.contents(atPath: site.appendingPathComponent(location.path).path) else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard location.line <= lines.count else { return nil }
        return String(lines[location.line - 1].trimmingCharacters(in: CharacterSet(charactersIn: "\r")))
    }

    private func json(_ text: String) -> String { JSONString.quote(text) }
}

/// A value shared between threads.
final class Box<Value: Sendable>: Sendable {
    private let value: Locked<Value>

    init(_ value: Value) { self.value = Locked(value) }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        value.withLock { body(&$0) }
    }
}

/// `sitegen serve`.
enum ServeCommand {
    static let spec = CommandSpec(
        name: "serve",
        summary: "serve the site while you write, reloading pages as files change",
        usage: ["serve [options]"],
        description: [
            "Builds the site and serves it over HTTP while you write, with articles dated after now shown and marked as scheduled: every page reloads by itself after a change (only the stylesheet is swapped when only CSS changed), and a content or template error is shown over the page, with its source line, until it is fixed; the last good build keeps being served. Without --today it also rebuilds when the homework's release time or midnight passes in the site's time zone. The build goes to a folder of the build cache, not to Output/, and the reload script is never part of 'sitegen build' output.",
        ],
        options: [
            .option("--source", "DIR", .folder, "the site folder (default: .)"),
            .option("--port", "N", "the port (default: 8000)"),
            .option("--host", "ADDRESS", "the address to listen on (default: 127.0.0.1, this machine only)"),
            .flag("--drafts", "include drafts"),
            .option("--today", "DATE", "serve as if it were DATE or DATE and time"),
            .flag("--open", "open the site in the browser"),
        ],
        operandHint: "; the site folder is given with --source",
        run: { run($0, console: $1.console) }
    )

    static func run(_ parsed: Arguments, console: Console) -> Int32 {
        guard let port = Int(parsed["--port"] ?? "8000"), (0...65_535).contains(port) else {
            console.printError("sitegen serve: error: --port must be a number from 0 to 65535, found '\(parsed["--port"] ?? "")'")
            return 2
        }
        let host = parsed["--host"] ?? "127.0.0.1"
        var options = BuildOptions(source: parsed["--source"] ?? ".", today: parsed["--today"], drafts: parsed.has("--drafts"))
        options.useCache = true
        options.toolIdentity = BuildCommand.toolIdentity
        let siteURL = URL(fileURLWithPath: options.source).standardizedFileURL
        options.output = CachedBuild.defaultFolder + "/serve-" + StableHash.hex(siteURL.path.utf8)
        let server: DevServer
        do {
            server = try DevServer(options: options, host: host, port: port, console: console)
        } catch {
            if case .portTaken = error {
                let next = (port + 1...min(port + 100, 65_535)).first { HTTPServer.isFree(host: host, port: $0) }
                console.printError("sitegen serve: error: port \(port) is taken" + (next.map { "; the next free one is \($0): sitegen serve --port \($0)" } ?? ""))
            } else {
                console.printError("sitegen serve: error: \(error)")
            }
            return 1
        }
        let url = server.url(host: host == "0.0.0.0" ? "127.0.0.1" : host)
        console.print("Serving \(url) — press Ctrl-C to stop")
        if parsed.has("--open") {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["xdg-open", url]
            try? process.run()
        }
        server.watch()
        return 0
    }
}
