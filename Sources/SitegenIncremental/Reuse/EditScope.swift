import Foundation
import SitegenContent
import SitegenFiles
import SitegenPipeline
import SitegenSupport

/// A rebuild by a command after articles, or assignments (`homeworkScope`), were edited in place, from the cache on disk:
/// the writer's loop of `sitegen serve`, for `sitegen build`, as the scope of the build
/// (`BuildReuse.scope`). When nothing but a few
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
final class EditScope {
    let previous: BuildCache
    let tree: SourceTree
    let cacheFile: String
    /// The edited files: articles, or assignments.
    let files: [SourceTree.MarkdownFile]
    let pageFiles: [SourceTree.MarkdownFile]

    /// What the scope made, for the pages' fingerprints and the cache once the files are
    /// written: the hash of each model read (by path relative to the site), the lists, the
    /// pages' texts, the edits.
    var hashes: [String: UInt64] = [:]
    private(set) var lists: SiteLists?
    private var pageTexts: PageTexts?
    var edits = Edits()
    /// The lists written again for an article moved in them, while the files are put in place.
    private(set) var writingLists: Concurrently<UInt64?>?
    /// The homework's keys written again after assignments were edited (`HomeworkKeys`).
    var writingHomework: Concurrently<UInt64?>?
    private var listsChange = false
    var settledBefore = Int64.max

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
    /// are a few articles, or a few assignments, edited in place.
    init?(_ previous: BuildCache, changed: [String], tree: SourceTree, cacheFile: String) {
        guard !changed.isEmpty else { return nil }
        var edited: [SourceTree.MarkdownFile] = []
        for path in changed {
            guard let file = tree.markdownFile(at: path), file.kind == .article || file.kind == .assignment, file.kind == edited.first?.kind ?? file.kind,
                  previous.content[file.contentPath] != nil else { return nil }
            edited.append(file)
        }
        self.previous = previous
        self.tree = tree
        self.cacheFile = cacheFile
        files = edited
        pageFiles = tree.markdown.filter { $0.kind == .page }
    }

    /// The index of what the edits show, and the pages that show them; nil when the edits
    /// need the whole build.
    func scope(_ edited: [EditedSource], in build: ScopeRequest, options: BuildOptions, outputURL: URL) -> ScopedBuild? {
        if files.first?.kind == .assignment { return homeworkScope(edited, in: build, options: options) }
        let (site, moment) = (build.settings.site, build.settings.moment)
        guard let models = previous.openModels(besides: cacheFile) else { return nil }
        let entries = edited.map(\.model)
        let pageTexts = PageTexts(output: outputURL.path, cache: previous, tree: tree, context: build.context)
        self.pageTexts = pageTexts
        let viewContext = ViewContext(site: site, formats: build.formats, clock: build.settings.clock, strings: build.settings.strings)
        guard let changes = ArticleChanges(files: files, entries: entries, previous: previous, models: models, pageTexts: pageTexts,
                                           strict: options.strict, viewContext: viewContext) else { return nil }
        let known = KnownArticles(previous: previous, models: models, pageTexts: pageTexts)
        for (article, entry) in zip(changes.articles, entries) { known.add(article, hash: entry.hash) }
        let editedSources = Set(changes.articles.map(\.sourcePath))

        var listed = ListedChanges()
        if !changes.listed.isEmpty {
            guard let found = ListedChanges(changes, previous: previous, cacheFile: cacheFile, moment: moment, perPage: site.articlesPerPage, known: known)
            else { return nil }
            listed = found
        }
        // The feed shows its articles whole: with an edited one, it is made again from
        // all of them.
        let feedChanges = site.baseURL != nil && previous.feedSources.contains { editedSources.contains($0) }
        if feedChanges {
            for source in previous.feedSources where !editedSources.contains(source) {
                guard known.model(source) != nil else { return nil }
            }
        }
        // Every page is in every page's menu.
        var pages: [Page] = []
        for file in pageFiles {
            switch previous.model(file.contentPath, from: models, pages: pageTexts)?.0 {
            case .page(let page)?: pages.append(page)
            case SourceModel.Model.none?: continue
            default: return nil
            }
        }

        let log = DiagnosticLog()
        let (theme, assets) = Theme.forSite(tree: tree, settings: build.settings, log: log)
        let content = SiteContent(teachers: build.settings.teachers, articles: Array(known.bySource.values), assignments: [], pages: pages)
        var index = SiteIndex(content: content, site: site, moment: moment,
                              schedule: ArticleSchedule(clock: build.settings.clock, includeFuture: options.future), includeDrafts: options.drafts, staticFiles: tree.staticFiles,
                              themeAssets: Array(assets.files.keys), log: log)
        guard let theme, !log.entries.contains(where: { $0.severity == .error }) else { return nil }
        guard takeLists(listed.lists, into: &index, changes: changes, moment: moment) else { return nil }
        guard let (shown, paths) = pagesShowing(changes, editedSources, in: index, feedChanges: feedChanges, listed: listed, known: known) else { return nil }
        // Left to the process's exit, as a whole build leaves its own: freed one by one, the
        // lists and the models would hold the edit up on one core after its work was done.
        options.keptUntilExit?.keep((listed.lists, known.bySource, models))
        self.hashes = known.hashes
        self.lists = listed.lists
        listsChange = !changes.regrouped.isEmpty || !changes.renamedRestaurant.isEmpty
        settledBefore = tree.settledBefore
        for (file, entry) in zip(files, entries) {
            edits.content[file.contentPath] = BuildCache.ContentEntry(stamp: file.stamp, hash: entry.hash, model: entry.model, diagnostics: entry.diagnostics)
        }
        var diagnostics = previous.diagnostics
        for problem in changes.removedDiagnostics {
            if let place = diagnostics.firstIndex(of: problem) { diagnostics.remove(at: place) }
        }
        return ScopedBuild(index: index, theme: theme, assets: assets, pages: shown, paths: paths, homeworkSummary: listed.lists?.homeworkSummary,
                           diagnostics: diagnostics + changes.addedDiagnostics, pageCount: previous.pageCount, fileCount: previous.fileCount)
    }

    /// What the list pages show of the articles not read, as the last build had it, put in
    /// `index`; false when the edit needs the whole build. A restaurant with branches has no
    /// page at its family's slug: which branch's page an edited article links to, only the
    /// last build's lists tell.
    private func takeLists(_ listed: SiteLists?, into index: inout SiteIndex, changes: ArticleChanges, moment: BuildMoment) -> Bool {
        let branched = changes.articles.contains { article in
            article.restaurant?.slug.map { previous.outputs[RestaurantEntry.path(ofSlug: $0) + "index.html"] == nil } ?? false
        }
        guard let lists = listed ?? (branched ? SiteLists.read(besides: cacheFile, checksum: previous.listsChecksum) : nil) else {
            // Gathered from the few articles read, a restaurant could look split where the
            // article that joins its places was not read; none has branches.
            index.restaurantSlugs = [:]
            return !branched
        }
        guard lists.contextHash == previous.contextHash, lists.moment == moment.key else { return false }
        index.draftCount = lists.draftCount
        index.restaurants = lists.restaurants.map(\.entry)
        // Every article's when cards show their restaurants, else the edited ones'.
        let cardsShowRestaurants = ArticleView.table.place(of: "restaurant").map { previous.cardReads & (UInt64(1) << UInt64($0)) != 0 } ?? true
        index.restaurantSlugs = lists.restaurantSlugsByArticle(of: cardsShowRestaurants ? nil : Set(changes.articles.map(\.sourcePath)))
        return true
    }

    /// The pages to render: those of `index` that show the edits (the edited articles'
    /// pages, the feed, the restaurants and the map), then the list pages, the pages of
    /// meals and tags, and the restaurants' pages the lists say show them.
    private func pagesShowing(_ changes: ArticleChanges, _ editedSources: Set<String>, in index: SiteIndex, feedChanges: Bool, listed: ListedChanges,
                              known: KnownArticles) -> (pages: [PlannedPage], paths: [String])? {
        let restaurantsChange = listed.lists != nil && !changes.renamedRestaurant.isEmpty
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
        let groupIndexes = [ArticleGroup.Kind.meal, .tag].filter(listed.regroupedKinds.contains).map { PlannedPage.groupIndex($0, listed.lists?.headings($0) ?? []) }
        // A restaurant's page is made from the lists and its articles' models: the index
        // knows only the restaurants of the articles it was made from.
        var restaurants: [RestaurantPage] = []
        if let lists = listed.lists {
            guard let pages = lists.restaurantPages(listed.restaurantPages, model: known.model) else { return nil }
            restaurants = pages
        }
        for page in listed.pages + groupIndexes + restaurants.map(PlannedPage.restaurant) {
            shown.append(page)
            paths.append(page.path)
        }
        return (shown, paths)
    }

    /// Whether the rendered pages stand: the pages are made while the output is still being
    /// checked on both cores, and used only if it is as the last build left it (made after
    /// the check, they were the work of one core while the other had nothing to do), and
    /// if the articles' HTML read from the pages was as the cache says.
    func holds(_ render: Render.Output, fingerprints: [UInt64], paths: [String], outputIsAsLeft: () -> Bool) -> Bool {
        guard pageTexts?.changedSources.all.isEmpty != false, outputIsAsLeft() else { return false }
        for (position, page) in render.pages.prefix(paths.count).enumerated() {
            edits.pages[paths[position]] = BuildCache.PageEntry(fingerprint: fingerprints[position], page: page)
        }
        edits.settledBefore = settledBefore
        edits.cardReads = render.cardReads
        // The lists are written again for an article moved in them (a title is not in
        // them): on another core, while the files are put in place.
        if listsChange, let lists { writingLists = Concurrently { [cacheFile] in lists.write(besides: cacheFile) } }
        return true
    }
}

/// The edited articles beside the last build's models of them: what each edit changes of
/// the lists. Nil when one needs the whole build.
private struct ArticleChanges {
    var articles: [Article] = []
    var removedDiagnostics: [Diagnostic] = []
    var addedDiagnostics: [Diagnostic] = []
    /// Edited articles whose cards show the edit, and those whose titles changed.
    var listed: [Article] = []
    var retitled: [Article] = []
    /// Edited articles in other meals or tags than before, and with their restaurant
    /// renamed, with their old models.
    var regrouped: [(old: Article, new: Article)] = []
    var renamedRestaurant: [(old: Article, new: Article)] = []

    init?(files: [SourceTree.MarkdownFile], entries: [SourceModel], previous: BuildCache, models: ModelStore.Models, pageTexts: PageTexts,
          strict: Bool, viewContext: ViewContext) {
        for (file, entry) in zip(files, entries) {
            // A problem that would fail the build, or whose message the index might add
            // to, is the full build's to report.
            let problems = entry.diagnostics
            guard case .article(let new) = entry.model,
                  !problems.contains(where: { $0.severity == .error || (strict && $0.severity == .warning) }),
                  case (.article(let old), let oldProblems)? = previous.model(file.contentPath, from: models, pages: pageTexts),
                  SiteIndex.keepsOrder(new, of: old)
            else { return nil }
            // Another set of photos: one no longer shown is published at its own path, one
            // newly shown in its sizes, which the photos stage of a whole build does.
            guard Set(new.photoPaths) == Set(old.photoPaths) else { return nil }
            if new.title != old.title { retitled.append(new) }
            if new.meal != old.meal || new.tags != old.tags {
                // Two spellings of one meal or tag are the whole index's to tell.
                guard !previous.diagnostics.contains(where: { LabelSpellings.isWarning($0) }) else { return nil }
                regrouped.append((old, new))
            }
            if new.restaurant != old.restaurant {
                // A restaurant renamed in place; any other change may make or join a
                // branch, which the whole index tells.
                guard let was = old.restaurant, let now = new.restaurant, now.slug == was.slug, now.address == was.address,
                      now.latitude == was.latitude, now.longitude == was.longitude, now.id == was.id, now.branch == was.branch
                else { return nil }
                renamedRestaurant.append((old, new))
            }
            if !SiteIndex.keepsPlace(new, of: old) || new.title != old.title
                || !ArticleView.cardsAlike(old, new, context: viewContext, read: previous.cardReads) {
                listed.append(new)
            }
            articles.append(new)
            removedDiagnostics += oldProblems
            addedDiagnostics += problems
        }
    }
}

/// The articles the pages of an edit show: the edited ones, and the last build's models of
/// the others, read when first asked for; each with its hash, for the pages' fingerprints.
private final class KnownArticles {
    private let previous: BuildCache
    private let models: ModelStore.Models
    private let pageTexts: PageTexts
    private(set) var bySource: [String: Article] = [:]
    private(set) var hashes: [String: UInt64] = [:]

    init(previous: BuildCache, models: ModelStore.Models, pageTexts: PageTexts) {
        self.previous = previous
        self.models = models
        self.pageTexts = pageTexts
    }

    func add(_ article: Article, hash: UInt64) {
        bySource[article.sourcePath] = article
        hashes[article.sourcePath] = hash
    }

    /// The article at `source`: the edited one, or the last build's.
    func model(_ source: String) -> Article? {
        if let known = bySource[source] { return known }
        let contentPath = String(source.dropFirst("Content/".count))
        guard case (.article(let article), _)? = previous.model(contentPath, from: models, pages: pageTexts),
              let hash = previous.content[contentPath]?.hash else { return nil }
        add(article, hash: hash)
        return article
    }
}

/// What an edit the lists show changes of them. It renders the list pages of the article
/// from the last build's lists and the models of the articles on them, and, for a title,
/// its restaurant's page. An article in other meals or tags is moved in the lists, and
/// every page of the groups it left or joined is rendered, with the pages of meals and
/// tags; one whose restaurant is renamed in place renames it, and its page, the index of
/// restaurants and the map are rendered.
private struct ListedChanges {
    var lists: SiteLists?
    /// The restaurants whose pages show an edit.
    var restaurantPages: Set<String> = []
    /// The list pages that show an edit, with the articles on them.
    var pages: [PlannedPage] = []
    var regroupedKinds: Set<ArticleGroup.Kind> = []

    init() {}

    init?(_ changes: ArticleChanges, previous: BuildCache, cacheFile: String, moment: BuildMoment, perPage: Int, known: KnownArticles) {
        guard var read = SiteLists.read(besides: cacheFile, checksum: previous.listsChecksum),
              read.contextHash == previous.contextHash, read.moment == moment.key else { return nil }
        restaurantPages = read.restaurantSlugs(holding: changes.retitled.map(\.sourcePath))
        for (old, new) in changes.renamedRestaurant {
            guard let changed = read.renameRestaurant(new, from: old) else { return nil }
            restaurantPages.formUnion(changed)
        }
        var wholeGroups: Set<SiteLists.GroupKey> = []
        var newestIn: Set<SiteLists.GroupKey> = []
        for (old, new) in changes.regrouped {
            guard let (moved, newest) = read.regroup(new.sourcePath, from: old, to: new, perPage: perPage) else { return nil }
            wholeGroups.formUnion(moved)
            newestIn.formUnion(newest)
        }
        // A group is named as its newest article writes its label.
        for key in wholeGroups.union(newestIn) {
            guard let source = read.newest(in: key), let newest = known.model(source) else { return nil }
            if read.rename(key, after: newest) { wholeGroups.insert(key) }
        }
        regroupedKinds = Set(wholeGroups.map(\.kind))
        var listPages: [(page: SiteLists.ListedPage, members: [String])] = []
        var seen: Set<SiteLists.ListedPage> = []
        for key in wholeGroups {
            for found in read.pages(of: key, perPage: perPage) where seen.insert(found.page).inserted { listPages.append(found) }
        }
        for article in changes.listed {
            for found in read.listPages(showing: article.sourcePath, perPage: perPage) ?? [] where seen.insert(found.page).inserted {
                listPages.append(found)
            }
        }
        lists = read
        for (page, members) in listPages {
            var shown: [Article] = []
            for source in members {
                guard let article = known.model(source) else { return nil }
                shown.append(article)
            }
            pages.append(page.planned(shown))
        }
    }
}
