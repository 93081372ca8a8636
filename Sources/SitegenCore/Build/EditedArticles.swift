import Foundation
import SitegenContent
import SitegenFiles
import SitegenSupport

/// A rebuild by a command after articles were edited in place, from the cache on disk:
/// the writer's loop of `sitegen serve`, for `sitegen build`. When nothing but a few
/// articles changed, each keeping its place in the list of every article
/// (`SiteIndex.keepsOrder`), only their models are read from the store and only the
/// pages that show the edits rendered, from an index of just the articles those pages
/// show and the site's pages; everything else is the last build's. An edit no list shows
/// (nothing the list pages ever asked an article for, `BuildCache.cardReads`) changes
/// the article's page and the feed; one they show, the list pages that hold the article,
/// made from the lists the last build kept (`SiteLists`), with the restaurant's page for
/// a title, the restaurants and the map for a restaurant, and every page of the groups
/// an article left or joined. Any other change, or a problem, leaves it to the full
/// build, which would make the same files.
struct EditedArticles {
    private let previous: BuildCache
    private let tree: SourceTree
    private let site: Site
    private let teachers: [Teacher]
    private let cacheFile: String
    private let edited: [SourceTree.MarkdownFile]
    private let pageFiles: [SourceTree.MarkdownFile]

    /// More edited files than this are rebuilt in full: their pages are most of the work.
    static let limit = 16

    /// What the rebuild changed in the cache, applied to it once the files are written
    /// (where nothing else holds the cache, so that its tables are changed in place).
    struct Edits: Sendable {
        var content: [String: BuildCache.ContentEntry] = [:]
        var pages: [String: BuildCache.PageEntry] = [:]
        var formatFacts: FormatFacts?
        /// The walk's `SourceTree.settledBefore`: edited files stamped since are racy.
        var settledBefore = Int64.max
        /// What the list pages rendered asked of articles (`ArticleView.Reads`).
        var cardReads: UInt64 = 0
    }

    /// Nil unless the only inputs that changed (`changed`, paths relative to the site)
    /// are a few articles, edited in place.
    init?(_ previous: BuildCache, changed: [String], tree: SourceTree, site: Site, teachers: [Teacher], cacheFile: String) {
        guard !changed.isEmpty else { return nil }
        var edited: [SourceTree.MarkdownFile] = []
        for path in changed {
            guard let file = tree.markdownFile(at: path), file.kind == .article, previous.content[file.contentPath] != nil else { return nil }
            edited.append(file)
        }
        self.previous = previous
        self.tree = tree
        self.site = site
        self.teachers = teachers
        self.cacheFile = cacheFile
        self.edited = edited
        pageFiles = tree.markdown.filter { $0.kind == .page }
    }

    /// The build, with only the files that may have changed; nil when the edits need a
    /// full build, or the output is not as the last build left it (the full build puts it
    /// right).
    func rebuild(moment: BuildMoment, options: BuildOptions, leaflet: [String: [UInt8]]?, outputURL: URL, outputIsAsLeft: () -> Bool) -> SiteBuilder.Prepared? {
        guard let models = previous.openModels(besides: cacheFile) else { return nil }
        let modelContext = Validate.context(site: site, teachers: teachers, tree: tree)
        let entries = Validate.models(edited, tree: tree, context: modelContext)
        let pageTexts = PageTexts(output: outputURL.path, cache: previous, tree: tree, context: modelContext)
        let viewContext = ViewContext(site: site)
        var articles: [Article] = []
        var removedDiagnostics: [Diagnostic] = []
        var addedDiagnostics: [Diagnostic] = []
        // Edited articles whose cards show the edit, and those whose titles changed.
        var listed: [Article] = []
        var retitled: [Article] = []
        // Edited articles in other meals or tags than before, and at another restaurant,
        // with their old models.
        var regrouped: [(old: Article, new: Article)] = []
        var rehoused: [(old: Article, new: Article)] = []
        for (file, entry) in zip(edited, entries) {
            // A problem that would fail the build, or whose message the index might add
            // to, is the full build's to report.
            guard case (.article(let new), let problems)? = entry.decoded(),
                  !problems.contains(where: { $0.severity == .error }), !options.strict || problems.isEmpty,
                  case (.article(let old), let oldProblems)? = previous.model(file.contentPath, from: models, pages: pageTexts),
                  SiteIndex.keepsOrder(new, of: old)
            else { return nil }
            if new.title != old.title { retitled.append(new) }
            if new.meal != old.meal || new.tags != old.tags { regrouped.append((old, new)) }
            if new.restaurant != old.restaurant { rehoused.append((old, new)) }
            if !SiteIndex.keepsPlace(new, of: old) || new.title != old.title
                || !ArticleView.cardsAlike(old, new, context: viewContext, read: previous.cardReads) {
                listed.append(new)
            }
            articles.append(new)
            removedDiagnostics += oldProblems
            addedDiagnostics += problems
        }

        let editedSources = Set(articles.map(\.sourcePath))
        var hashes: [String: UInt64] = [:]
        for (article, entry) in zip(articles, entries) { hashes[article.sourcePath] = entry.hash }
        var bySource: [String: Article] = Dictionary(uniqueKeysWithValues: articles.map { ($0.sourcePath, $0) })
        /// The last build's model of the article at `source`, kept with its hash.
        func model(_ source: String) -> Article? {
            if let known = bySource[source] { return known }
            let contentPath = String(source.dropFirst("Content/".count))
            guard case (.article(let article), _)? = previous.model(contentPath, from: models, pages: pageTexts),
                  let hash = previous.content[contentPath]?.hash else { return nil }
            bySource[source] = article
            hashes[source] = hash
            return article
        }

        // An edit the lists show renders the list pages of the article from the last
        // build's lists and the models of the articles on them, and, for a title, its
        // restaurant's page. An article in other meals or tags is moved in the lists, and
        // every page of the groups it left or joined is rendered, with the pages of meals
        // and tags; one at another restaurant is moved among the restaurants, whose index,
        // map and two pages are rendered.
        var lists: SiteLists?
        // The restaurants whose pages show an edit, and whether the index of restaurants
        // and the map do (an article moved between restaurants).
        var restaurantPages: Set<String> = []
        var restaurantsChange = false
        var listPages: [(page: SiteLists.ListedPage, members: [String])] = []
        var regroupedKinds: Set<ArticleGroup.Kind> = []
        if !listed.isEmpty {
            guard var read = SiteLists.read(besides: cacheFile, checksum: previous.listsChecksum),
                  read.contextHash == previous.contextHash, read.moment == moment.key else { return nil }
            restaurantPages = read.restaurantSlugs(holding: retitled.map(\.sourcePath))
            restaurantsChange = !rehoused.isEmpty
            for (old, new) in rehoused {
                guard let changed = read.rehouse(new, from: old, model: model) else { return nil }
                restaurantPages.formUnion(changed)
            }
            var wholeGroups: Set<SiteLists.GroupKey> = []
            var newestIn: Set<SiteLists.GroupKey> = []
            for (old, new) in regrouped {
                guard let (moved, newest) = read.regroup(new.sourcePath, from: old, to: new, perPage: site.articlesPerPage) else { return nil }
                wholeGroups.formUnion(moved)
                newestIn.formUnion(newest)
            }
            // A group is named as its newest article writes its label.
            for key in wholeGroups.union(newestIn) {
                guard let source = read.newest(in: key), let newest = model(source) else { return nil }
                if read.rename(key, after: newest) { wholeGroups.insert(key) }
            }
            regroupedKinds = Set(wholeGroups.map(\.kind))
            var seen: Set<SiteLists.ListedPage> = []
            for key in wholeGroups {
                for found in read.pages(of: key, perPage: site.articlesPerPage) where seen.insert(found.page).inserted { listPages.append(found) }
            }
            for article in listed {
                for found in read.listPages(showing: article.sourcePath, perPage: site.articlesPerPage) ?? [] where seen.insert(found.page).inserted {
                    listPages.append(found)
                }
            }
            lists = read
        }
        var shownLists: [PlannedPage] = []
        for (page, members) in listPages {
            var shown: [Article] = []
            for source in members {
                guard let article = model(source) else { return nil }
                shown.append(article)
            }
            shownLists.append(page.planned(shown))
        }

        // The feed shows its articles whole: with an edited one, it is made again from
        // all of them.
        let feedChanges = site.baseURL != nil && previous.feedSources.contains { editedSources.contains($0) }
        if feedChanges {
            for source in previous.feedSources where !editedSources.contains(source) {
                guard model(source) != nil else { return nil }
            }
        }
        // Every page is in every page's menu.
        var pages: [Page] = []
        for file in pageFiles {
            switch previous.model(file.contentPath, from: models, pages: pageTexts)?.0 {
            case .page(let page)?: pages.append(page)
            case BuildCache.Model.none?: continue
            default: return nil
            }
        }

        // The pages are made while the output is still being checked on both cores, and
        // used only if it is as the last build left it: made after the check, they were
        // the work of one core while the other had nothing to do.
        let log = DiagnosticLog()
        let (theme, assets) = SiteBuilder.loadTheme(tree: tree, site: site, leaflet: leaflet, log: log)
        let content = SiteContent(teachers: teachers, articles: Array(bySource.values), assignments: [], pages: pages)
        var index = SiteIndex(content: content, site: site, moment: moment, includeDrafts: options.drafts, staticFiles: tree.staticFiles,
                              themeAssets: Array(assets.files.keys), log: log)
        guard let theme, !log.entries.contains(where: { $0.severity == .error }) else { return nil }
        // What the list pages show of the articles not read: as the last build had it.
        if let lists {
            index.draftCount = lists.draftCount
            index.restaurants = lists.restaurants.map(\.entry)
        }
        var shown: [PlannedPage] = []
        var paths: [String] = []
        for (planned, path) in zip(index.plan, index.planPaths) {
            switch planned {
            case .article(let article) where editedSources.contains(article.sourcePath): break
            case .siteFeed where feedChanges: break
            case .restaurants where restaurantsChange, .map where restaurantsChange: break
            default: continue
            }
            shown.append(planned)
            paths.append(path)
        }
        // `/meals/` and `/tags/` with the lists' headings, for the kinds of groups moved in.
        let groupIndexes = [ArticleGroup.Kind.meal, .tag].filter(regroupedKinds.contains).map { PlannedPage.groupIndex($0, lists?.headings($0) ?? []) }
        // A restaurant's page is made from the lists and its articles' models: the index
        // knows only the restaurants of the articles it was made from.
        var restaurants: [RestaurantPage] = []
        if let lists {
            guard let pages = lists.restaurantPages(restaurantPages, model: model) else { return nil }
            restaurants = pages
        }
        for page in shownLists + groupIndexes + restaurants.map(PlannedPage.restaurant) {
            shown.append(page)
            paths.append(page.path)
        }
        let fingerprints = PageFingerprints(index, hashes: hashes, context: previous.contextHash, assets: assets.paths,
                                            homeworkSummaryPrint: lists?.homeworkSummaryPrint)
        let rendered: Render.Output
        do {
            rendered = try Render.run(index, theme: theme, leaflet: leaflet, assets: assets.paths,
                                      reuse: Render.Reuse(previous: previous, fingerprints: fingerprints.of(shown, paths: paths), outputRoot: outputURL.path, staging: nil),
                                      pages: (shown, paths), homeworkSummary: lists?.homeworkSummary)
        } catch {
            return nil
        }
        guard pageTexts.changedSources.all.isEmpty, outputIsAsLeft() else { return nil }
        // Left to the process's exit, as a full build leaves its own: freed one by one, the
        // lists, the models, the index and the render's views would hold the edit up on
        // one core after its work was done.
        if options.leavesMemoryToExit { ProcessLifetime.keep((rendered.workings, lists, index, bySource, models)) }
        var report = BuildReport()
        var diagnostics = previous.diagnostics
        for problem in removedDiagnostics {
            if let place = diagnostics.firstIndex(of: problem) { diagnostics.remove(at: place) }
        }
        report.diagnostics = (diagnostics + addedDiagnostics).sorted()
        report.pageCount = previous.pageCount
        report.fileCount = previous.fileCount
        report.renderedCount = rendered.renderedCount
        report.parsedCount = edited.count
        var edits = Edits(pages: rendered.pages, formatFacts: viewContext.formats.known, settledBefore: tree.settledBefore, cardReads: rendered.cardReads)
        // The lists are written again for an article moved in them (a title is not in
        // them): on another core, while the files are put in place.
        let writingLists = regrouped.isEmpty && rehoused.isEmpty ? nil : lists.map { lists in Concurrently { [cacheFile] in lists.write(besides: cacheFile) } }
        for (file, entry) in zip(edited, entries) {
            edits.content[file.contentPath] = entry
        }
        return SiteBuilder.Prepared(report: report, outputURL: outputURL, files: rendered.files, cache: previous, previousOutputs: previous.outputs,
                                    previousFolders: previous.folders, writingLists: writingLists, edits: edits)
    }
}
