import Foundation
import SitegenContent
@testable import SitegenIncremental
import SitegenPipeline
import SitegenTestSupport
import Synchronization
import Testing

/// `sitegen serve` rebuilds from its last good build when articles, pages or assignments
/// are edited in place. Every rebuild here is compared byte for byte with a full build of the same
/// files without a cache.
@Suite("Quick rebuilds")
struct QuickRebuildTests {
    /// One site built by a long-running process, and its twin built from nothing.
    private struct Twins {
        let folder = TemporaryFolder()
        let warm: URL
        let plain: URL
        let memory = BuildMemory()

        init() throws {
            warm = folder.url.appendingPathComponent("warm")
            plain = folder.url.appendingPathComponent("plain")
            for site in [warm, plain] {
                for part in ["Content", "Themes"] {
                    try copyFolder(Repository.root.appendingPathComponent(part), to: site.appendingPathComponent(part))
                }
            }
        }

        var options: BuildOptions {
            var options = BuildOptions(source: warm.path, output: folder.url.appendingPathComponent("served").path, today: SampleSiteTests.today)
            options.useCache = true
            options.cacheFolder = folder.url.appendingPathComponent("cache").path
            return options
        }

        /// Builds the warm site after `changed` (paths in the site).
        @discardableResult
        func rebuild(_ changed: [String]?) -> BuildReport {
            SiteBuilder.build(options, reuse: CachedBuild(options: options, memory: memory, changed: changed.map { $0.map { warm.path + "/" + $0 } }))
        }

        func edit(_ path: String, _ change: (String) -> String) throws {
            for site in [warm, plain] {
                let file = site.appendingPathComponent(path)
                try change(try String(contentsOf: file, encoding: .utf8)).write(to: file, atomically: false, encoding: .utf8)
            }
        }

        /// Whether the warm site's output is what a build from nothing makes of the same files.
        func matchesAFullBuild() -> Bool {
            let report = SiteBuilder.build(BuildOptions(source: plain.path, today: SampleSiteTests.today))
            #expect(report.succeeded)
            let served = FolderSnapshot(folder.url.appendingPathComponent("served")).files
            let built = FolderSnapshot(plain.appendingPathComponent("Output")).files
            for path in Set(served.keys).union(built.keys) where served[path] != built[path] {
                Issue.record("\(path) differs from a full build")
            }
            return served == built
        }
    }

    private let article = "Content/articles/dim-sum-in-sham-shui-po/index.md"

    @Test func rebuildsArticlesAndPagesEditedInPlaceFromTheLastBuild() throws {
        let twins = try Twins()
        #expect(twins.rebuild(nil).succeeded)
        let served = twins.folder.url.appendingPathComponent("served")
        let before = FolderSnapshot(served)

        try twins.edit(article) { $0.replacingOccurrences(of: "The queue moves", with: "The long queue moves") }
        var report = twins.rebuild([article])
        #expect(report.extent == .edits)
        // The article and the feed; not the lists that show its card, which shows no story.
        #expect(report.succeeded && report.writtenCount == 2 && report.renderedCount == 2, "\(report)")
        #expect(twins.matchesAFullBuild())
        // The feed carries whole articles; the lists show only the title and summary.
        let after = FolderSnapshot(served)
        #expect(Set(after.files.keys.filter { before.dates[$0] != after.dates[$0] }) == ["articles/dim-sum-in-sham-shui-po/index.html", "feed.xml"])

        // A new title shows on the cards, in the feed and on the lists of restaurants.
        try twins.edit(article) { $0.replacingOccurrences(of: "title: Dim Sum in Sham Shui Po", with: "title: Dim Sum & Egg Cake in Sham Shui Po") }
        report = twins.rebuild([article])
        #expect(report.extent == .edits)
        #expect(report.writtenCount > 4)
        #expect(twins.matchesAFullBuild())

        // A page's text, and an editor's scratch file that came and went.
        try twins.edit("Content/pages/about.md") { $0 + "\nWe answer every letter.\n" }
        report = twins.rebuild(["Content/pages/about.md", "Content/pages/4913"])
        #expect(report.extent == .edits)
        #expect(report.writtenCount == 1)
        #expect(twins.matchesAFullBuild())
    }

    @Test func rebuildsAssignmentsEditedInPlaceFromTheLastBuild() throws {
        let twins = try Twins()
        #expect(twins.rebuild(nil).succeeded)
        let served = twins.folder.url.appendingPathComponent("served")
        var before = FolderSnapshot(served)
        func written() -> Set<String> {
            let after = FolderSnapshot(served)
            defer { before = after }
            return Set(after.files.keys.filter { before.dates[$0] != after.dates[$0] })
        }

        // Yesterday's work: its day's page, and the grade's feeds and calendar.
        let yesterdays = "Content/homework/2026-11-24/read-act-2-grade-8.md"
        try twins.edit(yesterdays) { $0.replacingOccurrences(of: "act 2", with: "act 3") }
        var report = twins.rebuild([yesterdays])
        #expect(report.succeeded && report.extent == .edits && report.parsedCount == 1, "\(report)")
        #expect(twins.matchesAFullBuild())
        #expect(written() == ["homework/grade-8/2026-11-24/index.html", "homework/grade-8/feed.xml", "homework/grade-8/feed.json", "homework/grade-8/calendar.ics"])

        // Tonight's work, which the summary on every home page shows.
        let tonights = "Content/homework/2026-11-25/read-the-opium-wars-grade-8.md"
        try twins.edit(tonights) { $0.replacingOccurrences(of: "title: \"Read: the Opium Wars\"", with: "title: \"Read: the First Opium War\"\nsubject: English") }
        report = twins.rebuild([tonights])
        #expect(report.succeeded && report.extent == .edits, "\(report)")
        #expect(twins.matchesAFullBuild())
        #expect(written().contains("index.html"))

        // A mistake in an assignment is reported at once, as a full build reports it, and
        // changes nothing; once fixed, the rebuild starts from the last good build.
        try twins.edit(yesterdays) { $0.replacingOccurrences(of: "due: 2026-11-25", with: "due: 2026-11-31") }
        report = twins.rebuild([yesterdays])
        #expect(!report.succeeded && report.extent == .edits)
        let plainReport = SiteBuilder.build(BuildOptions(source: twins.plain.path, today: SampleSiteTests.today))
        #expect(report.diagnostics.map(\.description) == plainReport.diagnostics.map(\.description))
        #expect(written().isEmpty)
        try twins.edit(yesterdays) { $0.replacingOccurrences(of: "due: 2026-11-31", with: "due: 2026-11-30") }
        report = twins.rebuild([yesterdays])
        #expect(report.succeeded && report.extent == .edits)
        #expect(twins.matchesAFullBuild())
    }

    @Test func leavesEverythingElseToAFullBuild() throws {
        let twins = try Twins()
        #expect(twins.rebuild(nil).succeeded)

        // A new date moves the article in every list.
        try twins.edit(article) { $0.replacingOccurrences(of: "date: 2026-11-07T10:00", with: "date: 2026-11-24T10:00") }
        var report = twins.rebuild([article])
        #expect(report.extent == .whole)
        #expect(twins.matchesAFullBuild())

        // An assignment that gives a day its first work, then a new tag.
        let assignment = "Content/homework/2026-11-24/read-act-2-grade-8.md"
        try twins.edit(assignment) { $0.replacingOccurrences(of: "assigned: 2026-11-24", with: "assigned: 2026-11-20") }
        report = twins.rebuild([assignment])
        #expect(report.extent == .whole)
        #expect(twins.matchesAFullBuild())
        try twins.edit(article) { $0.replacingOccurrences(of: "tags: [dim sum, brunch, kowloon]", with: "tags: [dim sum, brunch, kowloon, queues]") }
        report = twins.rebuild([article])
        #expect(report.extent == .whole)
        #expect(twins.matchesAFullBuild())

        // A mistake is reported at once, as a full build reports it, and changes nothing;
        // once fixed, the rebuild starts from the last good build.
        let served = FolderSnapshot(twins.folder.url.appendingPathComponent("served"))
        try twins.edit(article) { $0.replacingOccurrences(of: "price: 98", with: "price: ninety") + "\nThe egg cake sells out by noon.\n" }
        report = twins.rebuild([article])
        #expect(report.extent == .edits)
        #expect(!report.succeeded)
        let plainReport = SiteBuilder.build(BuildOptions(source: twins.plain.path, today: SampleSiteTests.today))
        #expect(report.diagnostics.map(\.description) == plainReport.diagnostics.map(\.description))
        #expect(report.diagnostics.map(\.location.path) == [article])
        #expect(FolderSnapshot(twins.folder.url.appendingPathComponent("served")) == served)
        try twins.edit(article) { $0.replacingOccurrences(of: "price: ninety", with: "price: 98") }
        report = twins.rebuild([article])
        #expect(report.succeeded && report.extent == .edits)
        #expect(twins.matchesAFullBuild())

        // A new file.
        let added = "Content/articles/milk-tea-in-tai-po.md"
        for site in [twins.warm, twins.plain] {
            try "---\ntitle: Milk Tea in Tai Po\ndate: 2026-11-20\n---\nStrong and silky.\n".write(to: site.appendingPathComponent(added), atomically: false, encoding: .utf8)
        }
        report = twins.rebuild([added])
        #expect(report.extent == .whole)
        #expect(twins.matchesAFullBuild())
    }
}
