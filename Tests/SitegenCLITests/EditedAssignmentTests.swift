import Foundation
import SitegenContent
@testable import SitegenIncremental
@testable import SitegenPipeline
import SitegenTestSupport
import Testing

/// Rebuilds of assignments edited in place, by a command: the homework made again from the
/// models in the store, and only its pages rendered.
extension BuildCacheTests {
    private static let actTwo = "Content/homework/2026-11-24/read-act-2-grade-8.md"
    private static let tonights = "Content/homework/2026-11-25/read-the-opium-wars-grade-8.md"

    private func edit(_ path: String, in sites: URL..., change: (String) -> String) throws {
        for site in sites {
            let file = site.appendingPathComponent(path)
            try change(try String(contentsOf: file, encoding: .utf8)).write(to: file, atomically: false, encoding: .utf8)
        }
    }

    /// The files of the output whose bytes differ from `before`.
    private func changedFiles(_ site: URL, since before: FolderSnapshot) -> Set<String> {
        let after = FolderSnapshot(site.appendingPathComponent("Output")).files
        return Set(after.keys.filter { after[$0] != before.files[$0] })
    }

    @Test func rebuildsAnAssignmentEditedInPlaceFromTheStoreAsAFullBuildWould() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        #expect(report(cached, cache: cache).succeeded)
        let before = FolderSnapshot(cached.appendingPathComponent("Output"))

        // Details of yesterday's work: its day's page and the grade's feeds and calendar,
        // which carry it; nothing the home pages show.
        try edit(Self.actTwo, in: cached, plain) { $0 + "Mark the lines you like best.\n" }
        let edited = report(cached, cache: cache)
        #expect(edited.succeeded && edited.extent == .edits && edited.parsedCount == 1, "\(edited)")
        #expect(edited.renderedCount <= 5, "\(edited)")
        #expect(report(plain, cache: nil).succeeded)
        #expect(sameOutputs(cached, plain))
        #expect(changedFiles(cached, since: before) == ["homework/grade-8/2026-11-24/index.html", "homework/grade-8/feed.xml", "homework/grade-8/feed.json",
                                                        "homework/grade-8/calendar.ics"])
        #expect(try wroteChangesOnly(cache))

        // Another grade, and a due date next week: both grades' pages, neither day empty.
        try edit(Self.actTwo, in: cached, plain) { $0.replacingOccurrences(of: "grade: 8", with: "grade: 7").replacingOccurrences(of: "due: 2026-11-25", with: "due: 2026-12-02") }
        #expect(report(cached, cache: cache).extent == .edits)
        _ = report(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
        #expect(report(cached, cache: cache).renderedCount == 0)
    }

    /// Without the homework's keys beside the cache (`HomeworkKeys`), the rebuild reads
    /// every assignment from the store, and leaves the keys for the next one.
    @Test func rebuildsFromEveryAssignmentWithoutTheHomeworkKeysAndWritesThemAgain() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        #expect(report(cached, cache: cache).succeeded)
        let keys = { try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".cache-homework") } }
        let written = try keys()
        #expect(written.count == 1)
        for name in written { try FileManager.default.removeItem(at: cache.appendingPathComponent(name)) }

        try edit(Self.actTwo, in: cached, plain) { $0 + "Mark the lines you like best.\n" }
        let edited = report(cached, cache: cache)
        #expect(edited.succeeded && edited.extent == .edits && edited.parsedCount == 1, "\(edited)")
        #expect(report(plain, cache: nil).succeeded)
        #expect(sameOutputs(cached, plain))
        #expect(try keys() == written)

        // From the keys written again.
        try edit(Self.actTwo, in: cached, plain) { $0.replacingOccurrences(of: "grade: 8", with: "grade: 7") }
        #expect(report(cached, cache: cache).extent == .edits)
        _ = report(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
    }

    @Test func rebuildsInFullWhenAnAssignmentEditChangesTheSummaryOrTheSchoolDays() throws {
        let folder = TemporaryFolder()
        let (cached, plain, cache) = try twinSites(in: folder)
        #expect(report(cached, cache: cache).succeeded)
        // Tonight's work is in the summary every home page shows.
        try edit(Self.tonights, in: cached, plain) { $0.replacingOccurrences(of: "Read: the Opium Wars", with: "Read: the First Opium War") }
        var rebuilt = report(cached, cache: cache)
        #expect(rebuilt.succeeded && rebuilt.extent == .whole, "\(rebuilt)")
        _ = report(plain, cache: nil)
        #expect(sameOutputs(cached, plain))

        // Work on a day that had none makes that day's pages.
        try edit(Self.actTwo, in: cached, plain) { $0.replacingOccurrences(of: "assigned: 2026-11-24", with: "assigned: 2026-11-20") }
        rebuilt = report(cached, cache: cache)
        #expect(rebuilt.succeeded && rebuilt.extent == .whole)
        _ = report(plain, cache: nil)
        #expect(sameOutputs(cached, plain))
        #expect(FileManager.default.fileExists(atPath: cached.appendingPathComponent("Output/homework/grade-8/2026-11-20/index.html").path))

        // And back: the day's pages go.
        try edit(Self.actTwo, in: cached, plain) { $0.replacingOccurrences(of: "assigned: 2026-11-20", with: "assigned: 2026-11-24") }
        rebuilt = report(cached, cache: cache)
        #expect(rebuilt.succeeded && rebuilt.extent == .whole)
        _ = report(plain, cache: nil)
        #expect(sameOutputs(cached, plain))

        // An error fails the build as it would without the cache, and changes nothing.
        let output = FolderSnapshot(cached.appendingPathComponent("Output"))
        try edit(Self.actTwo, in: cached, plain) { $0.replacingOccurrences(of: "due: 2026-11-25", with: "due: 2026-11-31") }
        let failed = report(cached, cache: cache)
        let expected = report(plain, cache: nil)
        #expect(!failed.succeeded && failed.diagnostics == expected.diagnostics && !failed.diagnostics.isEmpty, "\(failed.diagnostics)")
        #expect(FolderSnapshot(cached.appendingPathComponent("Output")) == output)
    }
}
