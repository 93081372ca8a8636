import Foundation
import SitegenContent
import SitegenFiles
import SitegenLocking
import SitegenPipeline
import SitegenSupport

/// What a server keeps of its last good build, so that the next build can start from it
/// instead of from the folders: a writer's edit of an article or page in place, each
/// keeping its place in every list, or of assignments in place, validates only the edited
/// files, puts their models into this index and renders only the pages that show them.
/// Anything else (a new, deleted or renamed file, a setting, a template, a moved article,
/// an assignment that makes or empties a day) is left to a whole build.
struct WarmBuild: Sendable {
    var tree: SourceTree
    /// Where each Markdown file is in `tree.markdown`, by path relative to Content/.
    var positions: [String: Int]
    var theme: Theme
    var assets: PublishedAssets
    var index: SiteIndex
    /// The hash of each content file's bytes, by path relative to the site: what the page
    /// fingerprints look up, kept rather than made again from `cache.content`.
    var hashes: [String: UInt64]
    var contextHash: UInt64
    var report: BuildReport
    /// The cache as it stands after this build, output manifest included.
    var cache: BuildCache

    /// The tree with the new stamps of the files at `changed` (absolute paths), and with the
    /// settings and theme files among them read again (`settings`: whether there were any);
    /// nil when a change is anything else but a Markdown file edited in place.
    func tree(updatedBy changed: [String]) -> (tree: SourceTree, settings: Bool)? {
        let contentRoot = tree.root + "/Content/"
        var updated = tree
        var settingsFiles: [String] = []
        for path in changed {
            let sitePath = String(path.dropFirst(tree.root.count + 1))
            if path.hasPrefix(tree.root + "/"), sitePath == "Content/site.yaml" || sitePath == "Content/teachers.yaml" || sitePath.hasPrefix("Themes/") {
                settingsFiles.append(sitePath)
                continue
            }
            guard path.hasPrefix(contentRoot) else { return nil }
            let relative = String(path.dropFirst(contentRoot.count))
            let stamp = FileStamp.of(path)
            guard let position = positions[relative] else {
                // An editor's scratch file, gone again, leaves the site as it was; a new file
                // or a removed folder does not.
                let sitePath = "Content/" + relative
                guard stamp == nil, tree.stamps[sitePath] == nil, !tree.stamps.keys.contains(where: { $0.hasPrefix(sitePath + "/") }),
                      !positions.keys.contains(where: { $0.hasPrefix(relative + "/") }) else { return nil }
                continue
            }
            guard let stamp else { return nil }
            updated.markdown[position].stamp = stamp
        }
        guard !settingsFiles.isEmpty else { return (updated, false) }
        return updated.updating(settingsAndThemeFiles: settingsFiles).map { ($0, true) }
    }

    /// The edited files' stamps, hashes and models in place of the old ones'.
    mutating func take(_ edited: [EditedSource]) {
        for source in edited {
            hashes["Content/" + source.file.contentPath] = source.model.hash
            tree.markdown[positions[source.file.contentPath]!].stamp = source.file.stamp
            cache.content[source.file.contentPath] = BuildCache.ContentEntry(stamp: source.file.stamp, hash: source.model.hash, model: source.model.model,
                                                                             diagnostics: source.model.diagnostics)
        }
    }

    /// The Markdown files whose stamps in `tree` are not this build's.
    func edited(in tree: SourceTree) -> [SourceTree.MarkdownFile]? {
        guard tree.markdown.count == self.tree.markdown.count else { return nil }
        return zip(tree.markdown, self.tree.markdown).compactMap { new, old in new.stamp == old.stamp ? nil : new }
    }
}

extension CachedBuild {
    /// The edited files' models put into the last good build's index, and the pages that
    /// show them. An edited file with errors fails the build at once, with nothing
    /// written, and the last good build stays what the next one starts from.
    func warmScope(_ edited: [EditedSource], in build: ScopeRequest) -> ScopedBuild? {
        guard let report = warm?.report else { return nil }
        let editedPaths = Set(edited.map { "Content/" + $0.file.contentPath })
        let problems = edited.flatMap(\.model.diagnostics)
        let diagnostics = report.diagnostics.filter { !editedPaths.contains($0.location.path) } + problems
        if SiteBuilder.finish(problems, strict: request.options.strict).contains(where: { $0.severity == .error }) {
            return ScopedBuild(index: warm!.index, theme: warm!.theme, assets: warm!.assets, pages: [], paths: [], homeworkSummary: nil,
                               diagnostics: diagnostics, pageCount: report.pageCount, fileCount: report.fileCount)
        }
        // Taken here, not above: a copy held while the homework's scope changes the last
        // good build in place would copy its tables.
        if edited.contains(where: { $0.file.kind == .assignment }) { return warmHomeworkScope(edited, diagnostics: diagnostics.sorted()) }
        guard var warm else { return nil }
        var articles: [Article] = []
        var pages: [Page] = []
        var retitled = false
        // Edited articles whose cards show the edit: the lists holding the others come out
        // as they were (a story edit rendered five list pages for nothing).
        var onCards: [String] = []
        let viewContext = ViewContext(site: warm.index.site, formats: build.formats, clock: build.settings.clock, strings: build.settings.strings)
        for source in edited {
            guard let (old, _) = warm.cache.content[source.file.contentPath]?.decoded() else {
                dropWarm()
                return nil
            }
            switch (source.model.model, old) {
            case (.article(let new), .article(let old)) where SiteIndex.keepsPlace(new, of: old):
                articles.append(new)
                retitled = retitled || new.title != old.title
                if new.title != old.title || !ArticleView.cardsAlike(old, new, context: viewContext, read: warm.cache.cardReads) {
                    onCards.append(new.sourcePath)
                }
            case (.page(let new), .page(let old)) where SiteIndex.keepsPlace(new, of: old):
                pages.append(new)
            default:
                dropWarm()
                return nil
            }
        }
        self.warm = nil
        warm.index.replace(articles: articles, pages: pages)
        warm.take(edited)
        let shown = warm.index.pages(showing: articles.map { $0.sourcePath } + pages.map(\.sourcePath), onCards: onCards, retitled: retitled)
        self.warm = warm
        previous = warm.cache
        return ScopedBuild(index: warm.index, theme: warm.theme, assets: warm.assets, pages: shown, paths: shown.map(\.path), homeworkSummary: nil,
                           diagnostics: diagnostics.sorted(), pageCount: warm.report.pageCount, fileCount: warm.report.fileCount)
    }
}

extension CachedBuild {
    /// Assignments edited in place, in the last good build: the edited ones put in the
    /// places of the old ones in its homework, and the pages that show them rendered (their
    /// fingerprints tell which changed), with every page that shows the homework summary
    /// when the summary changed. Nil, for a whole build, when a day gets its first work or
    /// loses its last.
    func warmHomeworkScope(_ edited: [EditedSource], diagnostics: [Diagnostic]) -> ScopedBuild? {
        guard var warm, let edits = HomeworkEdit(edited, strict: request.options.strict) else {
            dropWarm()
            return nil
        }
        var old: [Assignment] = []
        for source in edited {
            guard case (.assignment(let assignment), _)? = warm.cache.content[source.file.contentPath]?.decoded() else {
                dropWarm()
                return nil
            }
            old.append(assignment)
        }
        let drafts = request.options.drafts
        let before = warm.index.homework
        guard let schedule = before.replacing(old, with: edits.assignments, includeDrafts: drafts) ?? warm.schedule(with: edits, drafts: drafts) else {
            dropWarm()
            return nil
        }
        let grades = warm.index.site.homework.grades
        let summaryBefore = PageFingerprints.homeworkSummaryPrint(of: before, grades: grades, hashes: warm.hashes)
        self.warm = nil
        guard warm.index.replace(homework: schedule) else {
            self.warm = warm
            dropWarm()
            return nil
        }
        warm.take(edited)
        var (pages, paths): ([PlannedPage], [String])
        if PageFingerprints.homeworkSummaryPrint(of: schedule, grades: grades, hashes: warm.hashes) == summaryBefore {
            (pages, paths) = warm.index.homeworkPages(showing: old + edits.assignments)
        } else {
            (pages, paths) = warm.index.homeworkPages
            for (page, path) in zip(warm.index.plan, warm.index.planPaths) {
                guard case .home = page else { continue }
                pages.append(page)
                paths.append(path)
            }
        }
        self.warm = warm
        previous = warm.cache
        return ScopedBuild(index: warm.index, theme: warm.theme, assets: warm.assets, pages: pages, paths: paths, homeworkSummary: nil,
                           diagnostics: diagnostics, pageCount: warm.report.pageCount, fileCount: warm.report.fileCount)
    }
}

extension WarmBuild {
    /// The homework made again from every assignment of the build, `edits` in their places;
    /// nil when one's model is not there.
    func schedule(with edits: HomeworkEdit, drafts: Bool) -> HomeworkSchedule? {
        let files = tree.markdown.filter { $0.kind == .assignment }
        guard let (all, _) = edits.assignments(of: files, entries: cache.content.entries(for: files), read: { $0.decoded() }) else { return nil }
        return SiteIndex.homeworkSchedule(of: all, site: index.site, moment: index.moment, teachers: index.teachers, includeDrafts: drafts)
    }
}

/// The build cache kept in memory between the builds of one process (`sitegen serve`):
/// models stay decoded, so a rebuild after an edit only redoes the edited file's work.
public final class BuildMemory: Sendable {
    private let stored = Locked<(cache: BuildCache?, builds: Int, warm: WarmBuild?)>((nil, 0, nil))

    public init() {}

    var cache: BuildCache? { stored.withLock { $0.warm?.cache ?? $0.cache } }

    /// Takes the last good build out, when the last build was good: the caller changes
    /// it in place, or gives it back.
    func takeWarm() -> WarmBuild? {
        stored.withLock { state in
            let warm = state.warm
            state.warm = nil
            return warm
        }
    }

    func keep(cacheOnly cache: BuildCache) {
        stored.withLock { $0.cache = cache }
    }

    /// Keeps `warm` as the last good build, its cache as the cache.
    func keep(_ warm: WarmBuild) {
        stored.withLock { state in
            state.warm = warm
            state.cache = nil
        }
    }

    /// Keeps `cache`; true the first time.
    func keep(_ cache: BuildCache) -> Bool {
        stored.withLock { state in
            state.cache = cache
            state.builds += 1
            return state.builds == 1
        }
    }
}
