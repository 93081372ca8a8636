import Foundation
import SitegenContent
import SitegenFiles
import SitegenPipeline
import SitegenSupport

/// What a build made, as the cache keeps it: the render stage's pages and what it knew of
/// them, from `pages` to `written`.
struct PagesMade {
    var index: SiteIndex
    var paths: [String]
    var fingerprints: [UInt64]
    var fingerprinter: PageFingerprints
    /// The hash of each content file's bytes, by path relative to the site.
    var hashes: [String: UInt64]
    /// A whole build's content entries, by path relative to Content/.
    var entries: ContentTable?
    /// The cache as this build leaves it, once its pages are rendered.
    var cache: BuildCache?
    /// The models being added to the store, and the lists being written, while the files
    /// are put in place.
    var storingModels: Concurrently<ModelStore.Saved?>?
    var writingLists: Concurrently<UInt64?>?
    /// The homework's keys (`HomeworkKeys`) being made and written by a command's whole build.
    var writingHomework: Concurrently<UInt64?>?
}

/// The render stage's questions, answered from the last build's pages: a page whose
/// fingerprint (`PageFingerprints`) and templates are as that build had them, and whose
/// file is as it wrote it, is not rendered again.
struct CachedPages: PageReuse {
    let previous: BuildCache?
    let fingerprints: [UInt64]
    /// True when the whole output was found as the last build left it: a page is then not
    /// looked at again before it is reused.
    let outputIsAsLeft: Bool
    /// Opened only where reused pages are looked at one by one.
    let folder: OpenFolder?
    let staticHashes: [String: UInt64]

    func written(_ path: String) -> OutputManifest.Entry? { previous?.outputs[path] }

    func unchanged(at position: Int, path: String, templatesHash: ([String]) -> UInt64) -> (OutputManifest.Entry, RenderedPage)? {
        guard let previous, let earlier = previous.pages[path], earlier.fingerprint == fingerprints[position],
              templatesHash(earlier.templates) == earlier.templatesHash, let written = previous.outputs[path],
              outputIsAsLeft || folder?.stamp(of: path) == FileStamp(size: written.size, modified: written.modified)
        else { return nil }
        return (written, earlier.page)
    }

    var notesArticleHTML: Bool { true }

    func staticHash(of path: String) -> UInt64? { staticHashes["Content/" + path] }
}

extension CachedBuild {
    public func pages(_ pages: [PlannedPage], paths: [String], of index: SiteIndex, assets: PublishedAssets, models: [Validated]?) -> (any PageReuse)? {
        if models != nil {
            // The whole site is built after all: the last good build is left, and the edits
            // are rendered with every other page.
            dropWarm()
            edit = nil
        }
        var hashes: [String: UInt64]
        var entries: ContentTable?
        var homeworkSummaryPrint: UInt64?
        if let models, let tree = self.tree {
            edit = nil
            entries = contentEntries(tree, models)
            hashes = [:]
            hashes.reserveCapacity(models.count)
            for (source, made) in zip(tree.markdown, models) { hashes["Content/" + source.contentPath] = made.model.hash }
        } else if let edit {
            hashes = edit.hashes
            homeworkSummaryPrint = edit.lists?.homeworkSummaryPrint
        } else {
            hashes = warm?.hashes ?? [:]
        }
        let fingerprinter = PageFingerprints(index, hashes: hashes, context: contextHash, assets: assets.paths, homeworkSummaryPrint: homeworkSummaryPrint,
                                             pageCount: pages.count)
        let fingerprints = fingerprinter.of(pages, paths: paths)
        rendering = PagesMade(index: index, paths: paths, fingerprints: fingerprints, fingerprinter: fingerprinter, hashes: hashes, entries: entries)
        // A command keeps the homework's keys beside its cache, for a rebuild after an
        // assignment is edited; made on another core while the pages are rendered.
        if memory == nil, let file, let models, let tree, !index.site.homework.grades.isEmpty {
            rendering?.writingHomework = Concurrently { [site = index.site, moment = index.moment, contextHash] in
                HomeworkKeys(tree: tree, models: models, site: site, moment: moment, contextHash: contextHash)?.write(besides: file)
            }
        }
        let foundAsLeft = models != nil && remembered == nil && warm == nil && previous != nil && loading?.wait().outputIsAsLeft?.wait() == true
        return CachedPages(previous: previous, fingerprints: fingerprints, outputIsAsLeft: foundAsLeft,
                           folder: previous == nil || foundAsLeft ? nil : OpenFolder(request.outputURL.path), staticHashes: staticHashes)
    }

    /// The cache's entry of each of the tree's Markdown files: its model as this build
    /// has it, where the store keeps it when the store has it.
    private func contentEntries(_ tree: SourceTree, _ models: [Validated]) -> ContentTable {
        var entries = ContentTable()
        entries.reserveCapacity(tree.markdown.count)
        for (index, (source, made)) in zip(tree.markdown, models).enumerated() {
            let entry: BuildCache.ContentEntry
            if !made.parsed, index < slots.count, var known = slots[index] {
                known.stamp = source.stamp
                // A server keeps the models decoded. So does a build with pages for an
                // article stored with its HTML by a build without them: the save stores it
                // again without the HTML if its page holds it now, so that the store every
                // whole build reads stays small.
                if case .encoded = known.payload, memory != nil || (!pagesGone && made.model.model.isArticleWithItsHTML) {
                    known = BuildCache.ContentEntry(stamp: known.stamp, hash: known.hash, model: made.model.model, diagnostics: made.model.diagnostics,
                                                    stored: known.stored, storedChecksum: known.storedChecksum)
                }
                entry = known
            } else {
                entry = BuildCache.ContentEntry(stamp: source.stamp, hash: made.model.hash, model: made.model.model, diagnostics: made.model.diagnostics)
            }
            entries.append(source.contentPath, entry)
        }
        return entries
    }

    public func rendered(_ render: Render.Output, report: inout BuildReport) -> Bool {
        guard var made = rendering else { return true }
        if let edit { return edit.holds(render, fingerprints: made.fingerprints, paths: made.paths, outputIsAsLeft: { outputIsAsLeft(previous!) }) }
        if let changed = pageTexts?.changedSources.all, !changed.isEmpty {
            report.diagnostics += changed.map(BuildCache.changedWhileBuilding)
            return false
        }
        var pages: [String: BuildCache.PageEntry] = [:]
        pages.reserveCapacity(made.paths.count)
        for (position, page) in render.pages.prefix(made.paths.count).enumerated() {
            pages[made.paths[position]] = BuildCache.PageEntry(fingerprint: made.fingerprints[position], page: page)
        }
        if warm != nil {
            var cache = previous!
            cache.pages.merge(pages)
            // Members a card had not shown before count from now on.
            cache.cardReads |= render.cardReads
            made.cache = cache
            rendering = made
            return true
        }
        let table = PageTable(pages)
        let tree = self.tree!
        // A command keeps the lists beside its cache, for a rebuild after an edit they show
        // (`EditScope`); made and written on another core while the files are put in place.
        if memory == nil, let file, let homework = render.homework {
            made.writingLists = Concurrently { [index = made.index, contextHash, fingerprinter = made.fingerprinter] in
                SiteLists(index: index, contextHash: contextHash, homeworkSummary: homework.summaryValues,
                          homeworkSummaryPrint: fingerprinter.homeworkSummaryPrint).write(besides: file)
            }
        }
        // A command saves its cache every time: the models go to the store on a thread of
        // their own while the files are put in place. Models kept from the last cache are
        // where that cache's store has them; an article whose page holds its HTML is stored
        // without it. A build that fails from here on leaves the last cache's store as that
        // cache needs it (`ModelStore.Saved`).
        let storeMark = (previous ?? candidate)?.store ?? ModelStore.Mark()
        if memory == nil, let file, let entries = made.entries {
            made.storingModels = Concurrently { [pagesGone] in BuildCache.saveModels(entries, besides: file, readAs: storeMark, htmlIn: pagesGone ? nil : table) }
        }
        var cache = BuildCache(signature: signature, contextHash: contextHash)
        cache.moment = settings.moment.key
        cache.nextScheduled = made.index.nextScheduled ?? .max
        cache.store = storeMark
        cache.inputs = tree.stamps
        cache.staticHashes = staticHashes
        cache.content = made.entries ?? ContentTable()
        cache.pages = table
        cache.cardReads = render.cardReads | (previous?.cardReads ?? 0)
        cache.feedSources = made.index.hasFeeds ? made.index.articles.prefix(Publishing.feedLength).map { $0.sourcePath } : []
        cache.racyInputs = BuildCache.racyInputs(of: tree, hashes: made.hashes, staticHashes: staticHashes)
        made.cache = cache
        rendering = made
        return true
    }
}

extension BuildCache {
    /// The error of a source that changed while a build was reading it.
    static func changedWhileBuilding(_ sourcePath: String) -> Diagnostic {
        Diagnostic(.error, at: SourceLocation(path: sourcePath, line: 1, column: 1), "the file changed while sitegen was building; build again")
    }
}

extension BuildCache.PageEntry {
    init(fingerprint: UInt64, page: RenderedPage) {
        self.init(fingerprint: fingerprint, templates: page.templates, templatesHash: page.templatesHash, html: page.html)
    }

    /// The page as the render stage made it.
    var page: RenderedPage { RenderedPage(templates: templates, templatesHash: templatesHash, html: html) }
}
