import Foundation
import SitegenContent
import SitegenFiles
import SitegenSupport

/// What a long-running process (`sitegen serve`) keeps of its last good build, so that
/// the next build can start from it instead of from the folders.
struct WarmBuild: Sendable {
    var tree: SourceTree
    /// Where each Markdown file is in `tree.markdown`, by path relative to Content/.
    var positions: [String: Int]
    var modelContext: ModelContext
    var theme: Theme
    var leaflet: [String: [UInt8]]?
    var assets: [String: [String: String]]
    var index: SiteIndex
    /// The hash of each content file's bytes, by path relative to the site: what the page
    /// fingerprints look up, kept rather than made again from `cache.content` on every
    /// save.
    var hashes: [String: UInt64]
    var contextHash: UInt64
    var report: BuildReport
    /// The cache as it stands after this build, output manifest included.
    var cache: BuildCache
    var outputURL: URL
}

/// A rebuild from the last good build and the paths the watcher saw change. It handles
/// the writer's loop — articles and pages edited in place, each keeping its place in
/// every list — by validating only the edited files, putting their models into the old
/// index and rendering only the pages that show them. Anything else (a new, deleted or
/// renamed file, an assignment, a setting, a template, a moved article) is left to the
/// full build. An edited file with errors fails the rebuild at once, with nothing
/// written, and the last good build stays what the next one starts from.
enum QuickRebuild {
    enum Outcome {
        /// `warm` is the new last good build.
        case rebuilt
        /// An edited file has errors: nothing was written and `warm` is as it was.
        case failed(BuildReport)
        /// The change needs a full build; `warm` is to be dropped.
        case needsFullBuild
    }

    /// Brings `warm` up to date with the files at `changed` (absolute paths), writing the
    /// pages that change. `warm` is changed in place, so that its large tables are not
    /// copied.
    static func attempt(_ warm: inout WarmBuild, options: BuildOptions, changed: [String]) -> Outcome {
        var requested: BuildMoment?
        if let text = options.today {
            guard let parsed = BuildMoment(parsing: text) else { return .needsFullBuild }
            requested = parsed
        }
        guard BuildMoment.seen(requested: requested, clock: options.clock, by: warm.index.site) == warm.index.moment, let edited = editedFiles(changed, in: warm.tree, positions: warm.positions) else { return .needsFullBuild }
        warm.report.writtenCount = 0
        warm.report.renderedCount = 0
        warm.report.unchangedCount = warm.report.fileCount
        warm.report.removedCount = 0
        warm.report.parsedCount = edited.count
        guard !edited.isEmpty else { return .rebuilt }

        let entries = Validate.models(edited, tree: warm.tree, context: warm.modelContext)
        let editedPaths = Set(edited.map { "Content/" + $0.contentPath })
        let problems = entries.flatMap { $0.decoded()?.1 ?? [] }.map { problem in
            var problem = problem
            if options.strict { problem.severity = .error }
            return problem
        }
        let diagnostics = (warm.report.diagnostics.filter { !editedPaths.contains($0.location.path) } + problems).sorted()
        if problems.contains(where: { $0.severity == .error }) {
            var report = warm.report
            report.diagnostics = diagnostics
            return .failed(report)
        }
        var articles: [Article] = []
        var pages: [Page] = []
        var retitled = false
        // Edited articles whose cards show the edit: the lists holding the others come out
        // as they were (a story edit rendered five list pages for nothing).
        var onCards: [String] = []
        let viewContext = ViewContext(site: warm.index.site)
        for (file, entry) in zip(edited, entries) {
            guard let (model, _) = entry.decoded(), let (old, _) = warm.cache.content[file.contentPath]?.decoded() else { return .needsFullBuild }
            switch (model, old) {
            case (.article(let new), .article(let old)) where SiteIndex.keepsPlace(new, of: old):
                articles.append(new)
                retitled = retitled || new.title != old.title
                if new.title != old.title || !ArticleView.cardsAlike(old, new, context: viewContext, read: warm.cache.cardReads) {
                    onCards.append(new.sourcePath)
                }
            case (.page(let new), .page(let old)) where SiteIndex.keepsPlace(new, of: old):
                pages.append(new)
            default:
                return .needsFullBuild
            }
        }

        warm.index.replace(articles: articles, pages: pages)
        for (file, entry) in zip(edited, entries) {
            let sitePath = "Content/" + file.contentPath
            warm.hashes[sitePath] = entry.hash
            warm.tree.markdown[warm.positions[file.contentPath]!].stamp = file.stamp
            warm.cache.content[file.contentPath] = entry
        }
        let shown = warm.index.pages(showing: articles.map { $0.sourcePath } + pages.map(\.sourcePath), onCards: onCards, retitled: retitled)
        let shownPaths = shown.map(\.path)
        let fingerprints = PageFingerprints(warm.index, hashes: warm.hashes, context: warm.contextHash, assets: warm.assets)
        let result: OutputWriter.Result
        do {
            let rendered = try Render.run(warm.index, theme: warm.theme, leaflet: warm.leaflet, assets: warm.assets,
                                          reuse: Render.Reuse(previous: warm.cache, fingerprints: fingerprints.of(shown, paths: shownPaths), outputRoot: warm.outputURL.path, staging: nil),
                                          pages: (shown, shownPaths))
            result = try OutputWriter.write(rendered.files, to: warm.outputURL, previous: warm.cache.outputs, removingStale: false)
            warm.cache.pages.merge(rendered.pages)
            // Members a card had not shown before count from now on, as in `EditedArticles`.
            warm.cache.cardReads |= rendered.cardReads
            warm.report.renderedCount = rendered.renderedCount
        } catch {
            return .needsFullBuild
        }
        for (path, entry) in result.manifest { warm.cache.outputs[path] = entry }
        // A page replaced by a rename changes its folder's time: the next full build should
        // not take that for a stranger's doing and search the output.
        warm.cache.folders.merge(OutputWriter.folderTimes(of: result.manifest.keys, in: warm.outputURL.path))

        warm.report.diagnostics = diagnostics
        warm.report.writtenCount = result.written
        warm.report.unchangedCount = warm.report.fileCount - result.written
        warm.cache.diagnostics = warm.report.diagnostics
        return .rebuilt
    }

    /// The site's Markdown files among `changed` (absolute paths), with their new stamps,
    /// leaving out those whose stamp did not change; nil when a change is anything but an
    /// article or page edited in place.
    private static func editedFiles(_ changed: [String], in tree: SourceTree, positions: [String: Int]) -> [SourceTree.MarkdownFile]? {
        let contentRoot = tree.root + "/Content/"
        var edited: [SourceTree.MarkdownFile] = []
        for path in changed {
            guard path.hasPrefix(contentRoot) else { return nil }
            let relative = String(path.dropFirst(contentRoot.count))
            let stamp = FileStamp.of(path)
            guard let position = positions[relative] else {
                // An editor's scratch file, gone again, leaves the site as it was; a new
                // file or a removed folder does not.
                let sitePath = "Content/" + relative
                guard stamp == nil, tree.stamps[sitePath] == nil, !tree.stamps.keys.contains(where: { $0.hasPrefix(sitePath + "/") }),
                      !positions.keys.contains(where: { $0.hasPrefix(relative + "/") }) else { return nil }
                continue
            }
            var file = tree.markdown[position]
            guard file.kind != .assignment, let stamp else { return nil }
            if stamp == file.stamp { continue }
            file.stamp = stamp
            edited.append(file)
        }
        return edited
    }
}
