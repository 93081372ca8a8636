import Foundation
import SitegenContent
import SitegenFiles
import SitegenPipeline
import SitegenSupport

extension CachedBuild {
    public func written(_ build: WrittenBuild?) {
        guard var made = rendering else { return }
        rendering = nil
        guard let build else {
            made.storingModels?.wait()?.discard()
            _ = made.writingLists?.wait()
            _ = made.writingHomework?.wait()
            _ = edit?.writingHomework?.wait()
            return
        }
        let root = request.outputURL.path
        let manifest = build.result.manifest
        let kept = request.options.keptUntilExit
        // The tables are changed in place: nothing else may hold them.
        let last = previous
        (previous, candidate, remembered, loading) = (nil, nil, nil, nil)
        if let edit, var cache = last {
            cache.take(edit.edits)
            cache.formatFacts = build.formats
            if let writing = edit.writingLists { cache.listsChecksum = writing.wait() ?? 0 }
            if let writing = edit.writingHomework { cache.homeworkChecksum = writing.wait() ?? 0 }
            let folders = OutputWriter.folderTimes(of: manifest.keys, in: root)
            cache.outputs.merge(manifest)
            cache.folders.merge(folders)
            cache.changes.outputs.formUnion(manifest.keys)
            cache.changes.folders.formUnion(folders.keys)
            finish(&cache, report: build.report, progress: build.progress)
            kept?.keep(cache)
            return
        }
        if var warm {
            self.warm = nil
            warm.cache = made.cache!
            made.cache = nil
            for (path, entry) in manifest { warm.cache.outputs[path] = entry }
            // A page replaced by a rename changes its folder's time: the next whole build
            // should not take that for a stranger's doing and search the output.
            warm.cache.folders.merge(OutputWriter.folderTimes(of: manifest.keys, in: root))
            warm.report = build.report
            warm.cache.diagnostics = build.report.diagnostics
            memory!.keep(warm)
            return
        }
        guard var cache = made.cache else { return }
        made.cache = nil
        cache.formatFacts = build.formats
        cache.outputs = PathTable(manifest)
        // Only the folders where files were written or removed can have new times when the
        // output was found as left. A command looks at the output's folders on another core
        // while the rest of the cache, which goes before them, is written.
        let (changed, lastFolders) = (build.result.changedPaths, last?.folders ?? PathTable())
        let times: @Sendable () -> PathTable<Int64> = {
            if let changed { return OutputWriter.folderTimes(lastFolders, updatedAlong: changed, in: root) }
            return PathTable(OutputWriter.folderTimes(of: manifest.keys, in: root))
        }
        var folderTimes: Concurrently<PathTable<Int64>>?
        if memory == nil, file != nil {
            folderTimes = Concurrently(times)
        } else {
            cache.folders = times()
        }
        cache.listsChecksum = made.writingLists?.wait() ?? 0
        cache.homeworkChecksum = made.writingHomework?.wait() ?? 0
        finish(&cache, report: build.report, progress: build.progress, stored: made.storingModels?.wait(), folders: folderTimes)
        if let memory {
            let tree = build.tree
            let positions = Dictionary(uniqueKeysWithValues: tree.markdown.enumerated().map { ($1.contentPath, $0) })
            memory.keep(WarmBuild(tree: tree, positions: positions, theme: build.theme, assets: build.assets, index: build.index, hashes: made.hashes,
                                  contextHash: contextHash, report: build.report, cache: cache))
        }
        kept?.keep((cache, folderTimes))
    }

    /// The report's counts and problems into `cache`, and the cache saved: a command's every
    /// time, a server's after its first build (it keeps the cache in memory, models decoded).
    private func finish(_ cache: inout BuildCache, report: BuildReport, progress: (String) -> Void, stored: ModelStore.Saved? = nil,
                        folders: Concurrently<PathTable<Int64>>? = nil) {
        cache.diagnostics = report.diagnostics
        cache.pageCount = report.pageCount
        cache.fileCount = report.fileCount
        let firstInMemory = memory.map { $0.keep(cache) } ?? true
        if let file, firstInMemory {
            progress("Caching")
            cache.save(to: file, stored: stored, folders: folders)
        }
    }
}
