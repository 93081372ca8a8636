import Foundation
import SitegenCLI
import SitegenPlatform
import SitegenTestSupport
import Testing

/// One folder of Tests/Fixtures/broken-sites: a site with a planted problem, the exact
/// diagnostics `sitegen build` must print, and optionally extra arguments.
struct BrokenSite: Sendable, CustomTestStringConvertible {
    var name: String
    var testDescription: String { name }

    static let all: [BrokenSite] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Repository.brokenSites.path)) ?? []
        return names.sorted().map(BrokenSite.init)
    }()
}

@Suite("Broken sites")
struct BrokenSiteTests {
    @Test("reports the exact diagnostics and leaves the output folder untouched", arguments: BrokenSite.all)
    func brokenSite(_ site: BrokenSite) throws {
        let scratch = TemporaryFolder()
        let fixture = Repository.brokenSites.appendingPathComponent(site.name)
        let source = scratch.url.appendingPathComponent("site")
        try copyFolder(fixture, to: source)
        let expected = try String(contentsOf: fixture.appendingPathComponent("expected.txt"), encoding: .utf8)
        let extra = (try? String(contentsOf: fixture.appendingPathComponent("arguments.txt"), encoding: .utf8))?
            .split(whereSeparator: \.isWhitespace).map(String.init) ?? []
        try scratch.write("<p>the site as it was</p>\n", to: "site/Output/index.html")
        try scratch.write("kept\n", to: "site/Output/.gitkeep")
        let before = FolderSnapshot(source.appendingPathComponent("Output"))

        let console = CapturedConsole()
        let status = CommandLineTool.run(arguments: ["build", "--no-cache", "--source", source.path, "--today", "2026-03-10"] + extra, console: console.console)

        #expect(status == 1)
        let lines = console.error.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.dropLast(2).joined(separator: "\n") + "\n" == expected)
        #expect(lines.dropLast().last?.hasPrefix("Build failed: ") == true)
        #expect(console.output == "")
        #expect(FolderSnapshot(source.appendingPathComponent("Output")) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.appendingPathComponent("site").path).sorted() == (try FileManager.default.contentsOfDirectory(atPath: fixture.path) + ["Output"]).sorted())
    }

    /// A first build that fails when the index finds two articles with one slug leaves no
    /// folder behind: no output, no staging folder beside it, no parent made for it.
    @Test func aFirstBuildThatFailsAtTheIndexLeavesNoFolder() throws {
        let scratch = TemporaryFolder()
        let source = scratch.url.appendingPathComponent("site")
        try copyFolder(Repository.brokenSites.appendingPathComponent("duplicate-slug"), to: source)
        for output in ["published/site", "new/published/site"] {
            try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("published"), withIntermediateDirectories: true)
            let console = CapturedConsole()
            let status = CommandLineTool.run(arguments: ["build", "--no-cache", "--source", source.path, "--output", scratch.url.appendingPathComponent(output).path,
                                                         "--today", "2026-03-10"], console: console.console)
            #expect(status == 1)
            #expect(console.error.contains("is already written by"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.appendingPathComponent("published").path).isEmpty, "\(output)")
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("new").path))
        }
    }

    @Test func thereAreBrokenSitesForEveryClassOfError() {
        #expect(BrokenSite.all.count >= 30)
    }

    @Test func refusesASymbolicLinkLeadingOutOfTheSite() throws {
        let scratch = TemporaryFolder()
        try scratch.write("title: Links\n", to: "site/Content/site.yaml")
        try scratch.write("secret\n", to: "outside/secret.txt")
        try FileManager.default.createSymbolicLink(atPath: scratch.url.appendingPathComponent("site/Content/secret.txt").path,
                                                   withDestinationPath: scratch.url.appendingPathComponent("outside/secret.txt").path)
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--source", scratch.url.appendingPathComponent("site").path], console: console.console) == 1)
        #expect(console.error.hasPrefix("Content/secret.txt:1:1: error: symbolic link leads outside the site"))
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("site/Output").path))
    }

    @Test func refusesAnOutputFolderThatHoldsTheSiteOrLiesInsideContent() throws {
        let scratch = TemporaryFolder()
        try scratch.write("title: Here\n", to: "site/Content/site.yaml")
        let site = scratch.url.appendingPathComponent("site").path
        for output in [site, scratch.url.path, site + "/Content/out", site + "/Themes/x"] {
            let console = CapturedConsole()
            #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--source", site, "--output", output], console: console.console) == 2)
            #expect(console.error.hasPrefix("sitegen build: error: the output folder"))
        }
    }

    @Test func saysWhenThereIsNoSite() {
        let scratch = TemporaryFolder()
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--source", scratch.url.path], console: console.console) == 2)
        #expect(console.error == "sitegen build: error: no site at \(scratch.url.path): expected Content/site.yaml (run 'sitegen init' to start one)\n")
    }

    @Test func rejectsABadTodayAndBaseURL() {
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--source", Repository.root.path, "--today", "2026-02-30"], console: console.console) == 2)
        #expect(console.error == "sitegen build: error: --today must be a date like 2026-03-10 or a date and time like 2026-03-10T13:30, found '2026-02-30'\n")
        let second = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--source", Repository.root.path, "--base-url", "ftp://x/"], console: second.console) == 2)
        #expect(second.error == "sitegen build: error: --base-url must be where the site is published, an http or https URL without a query or fragment like https://x.github.io/food/, found 'ftp://x/'\n")
        let third = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--source", Repository.root.path, "--base-url", "https://x.github.io/food/#top"], console: third.console) == 2)
        #expect(third.error.hasSuffix("found 'https://x.github.io/food/#top'\n"))
    }
}

/// One folder of Tests/Fixtures/allowed-cases: a site that is right as it is, and the
/// notes it gets, which `--strict` leaves as notes.
struct AllowedCase: Sendable, CustomTestStringConvertible {
    var name: String
    var testDescription: String { name }

    static let all: [AllowedCase] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Repository.allowedCases.path)) ?? []
        return names.sorted().map(AllowedCase.init)
    }()
}

@Suite("Allowed cases")
struct AllowedCaseTests {
    @Test("builds under --strict, printing its notes", arguments: AllowedCase.all)
    func allowedCase(_ site: AllowedCase) throws {
        let scratch = TemporaryFolder()
        let fixture = Repository.allowedCases.appendingPathComponent(site.name)
        let source = scratch.url.appendingPathComponent("site")
        try copyFolder(fixture, to: source)
        let expected = try String(contentsOf: fixture.appendingPathComponent("notes.txt"), encoding: .utf8)
        for command in [["build", "--no-cache"], ["check"]] {
            let console = CapturedConsole()
            let status = CommandLineTool.run(arguments: command + ["--strict", "--quiet", "--source", source.path, "--today", "2026-03-10"], console: console.console)
            #expect(status == 0, "\(command)")
            #expect(console.error == expected, "\(command)")
        }
    }
}

@Suite("Hostile file systems")
struct HostileFileSystemTests {
    @Test func skipsAFIFOInsteadOfHangingOnIt() throws {
        let scratch = TemporaryFolder()
        try scratch.write("title: Pipes\nbase_url: https://example.org/\n", to: "site/Content/site.yaml")
        let fifo = scratch.url.appendingPathComponent("site/Content/articles/pipe.md").path
        try FileManager.default.createDirectory(atPath: (fifo as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(mkfifo(fifo, 0o644) == 0)
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--source", scratch.url.appendingPathComponent("site").path, "--quiet"], console: console.console) == 0)
        #expect(console.error == "Content/articles/pipe.md:1:1: note: not a regular file or folder: sitegen skips it\n")
    }

    @Test func followsALinkCircleOnlyOnce() throws {
        let scratch = TemporaryFolder()
        try scratch.write("title: Circles\nbase_url: https://example.org/\n", to: "site/Content/site.yaml")
        try scratch.write("x\n", to: "site/Content/files/a.txt")
        try FileManager.default.createSymbolicLink(atPath: scratch.url.appendingPathComponent("site/Content/files/again").path,
                                                   withDestinationPath: scratch.url.appendingPathComponent("site/Content/files").path)
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--source", scratch.url.appendingPathComponent("site").path, "--quiet"], console: console.console) == 0)
        #expect(console.error == "")
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("site/Output/files/a.txt").path))
    }
}
