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
            #expect(actual == expected, "\(path) differs from Tests/Golden/sample-site/\(path)\n\(Self.firstDifference(expected ?? "", actual ?? ""))")
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
        #expect(console.output.hasPrefix("Built 62 pages in "))
        #expect(console.output.contains(" s → \(output.path) ("))
        #expect(console.output.hasSuffix(" files written)\n"))
        // check counts the pages build counts.
        let check = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["check", "--source", Repository.root.path, "--today", Self.today], console: check.console) == 0)
        #expect(check.output.hasPrefix("Checked 62 pages and "))
    }

    static func firstDifference(_ expected: String, _ actual: String) -> String {
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
        #expect(!changed.contains("articles/lovely-breakfast/toast-960w.jpg"))
        #expect(!changed.contains("homework/grade-6/feed.xml"))
        #expect(after.files["about/index.html"] == nil)
        for path in changed { #expect(before.files[path] != after.files[path], "\(path) was rewritten with the same bytes") }
    }
}
