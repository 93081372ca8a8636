import Foundation
import SitegenPlatform
import SitegenTestSupport
import Testing

/// Both ways of watching: the kernel's events, and looking again, which a system without
/// events (or a kernel out of watches) falls back to. They report the same changes.
@Suite("Watching folders")
struct FolderWatcherTests {
    static let methods: [FolderWatcher.Method] = [.kernelEvents, .polling(milliseconds: 40)]

    /// What `watcher` reports for each of `changes`: one burst, or none when nothing was
    /// reported within four of its quiet ticks (two seconds). The watcher calls back on this
    /// thread, so each change runs between its looks.
    private func bursts(_ watcher: FolderWatcher, _ changes: [() throws -> Void]) throws -> [[String]] {
        var reported: [[String]] = []
        var pending = changes
        var failure: (any Error)?
        var quietTicks = 0
        var started = false
        func next() -> Bool {
            guard !pending.isEmpty else { return false }
            do { try pending.removeFirst()() } catch {
                failure = error
                return false
            }
            quietTicks = 0
            return true
        }
        watcher.run(whileQuiet: {
            if !started {
                started = true
                return next()
            }
            quietTicks += 1
            guard quietTicks >= 4 else { return true }
            reported.append([])
            return next()
        }) { paths in
            reported.append(paths)
            return next()
        }
        if let failure { throw failure }
        return reported
    }

    @Test(arguments: methods)
    func reportsFilesMadeChangedAndRemovedInAnyFolder(method: FolderWatcher.Method) throws {
        let folder = TemporaryFolder()
        let root = folder.url.path
        try folder.write("first", to: "articles/a.md")
        let watcher = FolderWatcher(folders: [root], quiet: 25, method: method) { !$0.hasPrefix(".") }
        #expect(watcher.method == method)
        let reported = try bursts(watcher, [
            { try folder.write("second, longer", to: "articles/a.md") },
            { try folder.write("new", to: "articles/b.md") },
            { try folder.write("deeper", to: "articles/new/c.md") },
            { try FileManager.default.removeItem(atPath: root + "/articles/b.md") },
        ])
        #expect(reported.count == 4)
        guard reported.count == 4 else { return }
        #expect(reported[0].contains(root + "/articles/a.md"))
        #expect(reported[1].contains(root + "/articles/b.md"))
        #expect(reported[2].contains(root + "/articles/new/c.md") || reported[2].contains(root + "/articles/new"))
        #expect(reported[3].contains(root + "/articles/b.md"))
    }

    @Test(arguments: methods)
    func leavesOutNamesItIsToldToSkip(method: FolderWatcher.Method) throws {
        let folder = TemporaryFolder()
        let root = folder.url.path
        try folder.write("first", to: "a.md")
        let watcher = FolderWatcher(folders: [root], quiet: 25, method: method) { !$0.hasPrefix(".") }
        let reported = try bursts(watcher, [
            { try folder.write("scratch", to: ".a.md.swp") },
            { try folder.write("second", to: "a.md") },
        ])
        #expect(reported == [[], [root + "/a.md"]])
    }

    @Test func looksAgainWhereTheKernelGivesNoEventsForAFolder() {
        let watcher = FolderWatcher(folders: ["/nonexistent-\(UUID().uuidString)"], method: .polling(milliseconds: 10)) { _ in true }
        #expect(watcher.method == .polling(milliseconds: 10))
    }
}
