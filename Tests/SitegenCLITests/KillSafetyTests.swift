import Foundation
import SitegenPlatform
import SitegenTestSupport
import Testing

/// A build killed at any moment (SIGKILL: nothing of sitegen runs after it) leaves each
/// file of the output as it was or as the build makes it, and the next build puts
/// everything right, the killed builds' staging folders included.
@Suite("Kill safety")
struct KillSafetyTests {
    static let sitegen = Repository.root.appendingPathComponent(".build/debug/sitegen")

    /// Articles 0..<120 (A) or 20..<140 under another site title (B): B changes every page
    /// of A, removes some and adds others.
    private func writeSite(_ folder: TemporaryFolder, _ name: String, title: String, articles: Range<Int>) throws {
        try folder.write("title: \(title)\nbase_url: https://example.org/\ntimezone: Asia/Hong_Kong\ncurrency: HKD\n", to: "\(name)/Content/site.yaml")
        for number in articles {
            let body = (0..<30).map { "Line \($0) of the story of dish \(number), with [a link](https://example.org/\($0))." }.joined(separator: "\n\n")
            try folder.write("---\ntitle: Dish \(number)\ndate: 2026-02-\(String(format: "%02d", number % 28 + 1))\ntags: [Tag \(number % 7)]\n---\n\(body)\n", to: "\(name)/Content/articles/dish-\(number).md")
        }
    }

    /// A build started; its standard output is a pipe when `capturing`.
    private func start(_ site: URL, output: URL, cache: URL, capturing: Bool = false) throws -> Process {
        let process = Process()
        process.executableURL = Self.sitegen
        process.arguments = ["build", "--source", site.path, "--output", output.path, "--cache-dir", cache.path, "--today", "2026-03-10"]
        process.standardOutput = capturing ? Pipe() : FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    private func build(_ site: URL, output: URL, cache: URL) throws -> (status: Int32, seconds: Double) {
        let started = Date()
        let process = try start(site, output: output, cache: cache)
        process.waitUntilExit()
        return (process.terminationStatus, Date().timeIntervalSince(started))
    }

    @Test func aBuildKilledAnywhereLeavesEachFileOldOrNewAndTheNextBuildRepairsAll() throws {
        let folder = TemporaryFolder()
        try writeSite(folder, "a", title: "Before", articles: 0..<120)
        try writeSite(folder, "b", title: "After", articles: 20..<140)
        let siteA = folder.url.appendingPathComponent("a"), siteB = folder.url.appendingPathComponent("b")
        let referenceA = folder.url.appendingPathComponent("reference-a"), referenceB = folder.url.appendingPathComponent("reference-b")
        #expect(try build(siteA, output: referenceA, cache: folder.url.appendingPathComponent("cache-a")).status == 0)
        let timed = try build(siteB, output: referenceB, cache: folder.url.appendingPathComponent("cache-b"))
        #expect(timed.status == 0)
        let old = FolderSnapshot(referenceA).files, new = FolderSnapshot(referenceB).files
        #expect(old.count > 100 && new.count > 100)

        let output = folder.url.appendingPathComponent("published/site")
        let cache = folder.url.appendingPathComponent("cache")
        var random = SplitMix(seed: 59)
        var killedWriting = 0
        // Even rounds close in on the moment the output is written, which is short and
        // comes later on a loaded machine: a kill that left the old output comes later
        // next time, one that left the new output sooner. Odd rounds kill anywhere.
        let span = timed.seconds * 1.2
        var (early, late) = (0.0, span)
        for round in 0..<50 {
            try? FileManager.default.removeItem(at: output)
            // Odd rounds have no output yet: the staging folder is to become it.
            if round % 2 == 0 { try copyFolder(referenceA, to: output) }
            let process = try start(siteB, output: output, cache: cache)
            let closingIn = round % 2 == 0
            let wait = Double.random(in: closingIn ? early...late : 0...span, using: &random)
            usleep(UInt32(wait * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let left = FolderSnapshot(output).files
            if left != (round % 2 == 0 ? old : [:]), left != new { killedWriting += 1 }
            if closingIn, left == old { early = wait }
            if closingIn, left == new { late = wait }
            for (path, bytes) in left where !(path.hasPrefix(".") && !path.contains("/")) {
                #expect(bytes == old[path] || bytes == new[path], "round \(round): \(path) is neither the old file nor the new")
            }
        }
        // Some kills must have come while files were being written, for the test to mean much.
        #expect(killedWriting > 0)

        // A folder of a build still running, and one without a marker, are not the
        // next build's to remove.
        let published = output.deletingLastPathComponent()
        try folder.write("sitegen staging folder of \(output.path), \(RunningProcess.current)\n", to: "published/.site.sitegen-staging-running/.sitegen-staging")
        try folder.write("<p>mine</p>\n", to: "published/.site.sitegen-staging-unmarked/index.html")
        let repaired = try build(siteB, output: output, cache: cache)
        #expect(repaired.status == 0)
        #expect(FolderSnapshot(output).files == new)
        let beside = try FileManager.default.contentsOfDirectory(atPath: published.path).sorted()
        #expect(beside == [".site.sitegen-staging-running", ".site.sitegen-staging-unmarked", "site"], "\(beside)")
    }

    /// A build killed before it touched the output leaves the output as the cache knows it:
    /// the next build finds nothing changed, and removes the killed build's folder all the same.
    @Test func aBuildThatFindsNothingChangedRemovesAKilledBuildsStagingFolder() throws {
        let folder = TemporaryFolder()
        try writeSite(folder, "a", title: "Before", articles: 0..<3)
        let site = folder.url.appendingPathComponent("a"), cache = folder.url.appendingPathComponent("cache")
        let output = folder.url.appendingPathComponent("published/site")
        #expect(try build(site, output: output, cache: cache).status == 0)
        let written = FolderSnapshot(output).files
        // This process, but started at another time: a process that no longer runs.
        let killed = RunningProcess(id: getpid(), started: RunningProcess.current.started + 1)
        try folder.write("sitegen staging folder of \(output.path), \(killed)\n", to: "published/.site.sitegen-staging-\(getpid())-1f/.sitegen-staging")
        try folder.write("<p>staged</p>\n", to: "published/.site.sitegen-staging-\(getpid())-1f/index.html")
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("published/.site.sitegen-staging-\(getpid())-2f"), withIntermediateDirectories: true)

        let process = try start(site, output: output, cache: cache, capturing: true)
        let said = String(decoding: try #require(process.standardOutput as? Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(said.hasPrefix("Nothing changed"), "\(said)")
        #expect(FolderSnapshot(output).files == written)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path) == ["site"])
    }
}
