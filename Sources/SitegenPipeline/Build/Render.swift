import Foundation
import SitegenContent
import SitegenFiles
import SitegenLocking
import SitegenMustache
import SitegenSupport

/// The **render** stage: every planned page through its template, on every core.
public enum Render {
    public struct Job: Sendable {
        /// What to make, put off until it is known that the page must be made: a rebuild
        /// builds the context of only the pages it renders.
        public enum Kind: Sendable {
            case template(String, @Sendable () -> MustacheValue)
            case feed(@Sendable () -> AtomFeed)
            case calendar(@Sendable () -> ICalendar)
            case bytes(@Sendable () -> [UInt8])
        }

        public var path: String
        public var kind: Kind

        public init(path: String, template: String, context: @autoclosure @escaping @Sendable () -> MustacheValue) {
            self.path = path
            self.kind = .template(template, context)
        }

        public init(path: String, _ kind: Kind) {
            self.path = path
            self.kind = kind
        }
    }

    public struct Output: Sendable {
        public var files: [OutputFile]
        /// What each page of `files` (in their order, the pages first) was made with.
        public var pages: [RenderedPage]
        /// The members of articles the list pages rendered asked for (`ArticleView.Reads`).
        public var cardReads: UInt64 = 0
        /// How many pages were rendered; the others were the last build's.
        public var renderedCount = 0
        /// What the pages were made with (views, remembered partials, the jobs and their
        /// outcomes): a process that ends after the build leaves it to the exit instead of
        /// freeing it piece by piece, on one core, after the last page.
        public var workings: (any Sendable)?
        /// The homework views of the run: its summary, made when a page showed it.
        public var homework: HomeworkViews?
    }

    /// Renders `pages` (with their output paths), or every page of the plan.
    /// `articles`: the views of articles of this run, those made so far made ahead
    /// (`ArticleViewMemo.makeAhead`). `homeworkSummary`: the summary a build at the same
    /// moment made, when the index has none of the assignments. `reuse`: which pages are as
    /// the last build left them. `staging`: where rendered pages wait, outside the output
    /// folder, so that a large site need not hold every page in memory.
    public static func run(_ index: SiteIndex, theme: Theme, leaflet: [String: [UInt8]]?, assets: [String: [String: String]],
                    pages: (pages: [PlannedPage], paths: [String])? = nil, articles: ArticleViewMemo,
                    homeworkSummary: HomeworkSummary? = nil, reuse: (any PageReuse)? = nil, staging: OutputStaging? = nil) throws(MustacheError) -> Output {
        articles.context.useRestaurantSlugs(index.restaurantSlugs)
        let shared = Shared(index: index, assets: assets, articles: articles, homeworkSummary: homeworkSummary, strings: articles.context.strings)
        let planned = pages?.pages ?? index.plan
        let jobs = jobs(for: planned, paths: pages?.paths ?? index.planPaths, shared: shared, leaflet: leaflet)
        let library = theme.library
        let templateHashes = theme.templateHashes
        let stringsHash = articles.context.strings.hash
        // Cards and rows of one article or assignment are rendered once for all the list
        // pages of this run; the memo goes with the run, so no edit can meet a stale one.
        let memo = MustachePartialMemo()
        // Any page may show the theme's words.
        @Sendable func templatesHash(_ names: [String]) -> UInt64 {
            var print = Fingerprint()
            print.add(stringsHash)
            for name in names {
                print.add(name)
                print.add(templateHashes[name] ?? 0)
            }
            return print.value
        }
        // Pages made of the same templates (every article page, most list pages) share
        // their sorted names and hash.
        let namesOfUses = Locked<[MustacheTemplateUse: (names: [String], hash: UInt64)]>([:])
        @Sendable func templateNames(_ use: MustacheTemplateUse) -> (names: [String], hash: UInt64) {
            if let known = namesOfUses.withLock({ $0[use] }) { return known }
            let names = use.names(in: library).sorted()
            let made = (names: names, hash: templatesHash(names))
            namesOfUses.withLock { $0[use] = made }
            return made
        }
        @Sendable func made(_ path: String, _ bytes: [UInt8]) -> OutputFile {
            guard let staging else { return OutputFile(path: path, contents: .bytes(bytes)) }
            return staging.stage(path, bytes, previous: reuse?.written(path))
        }
        @Sendable func made(_ path: String, rendered bytes: UnsafeBufferPointer<UInt8>) -> OutputFile {
            guard let staging else { return OutputFile(path: path, contents: .bytes([UInt8](copying: bytes))) }
            return staging.stage(path, bytes, previous: reuse?.written(path))
        }
        let notesArticleHTML = reuse?.notesArticleHTML ?? false
        let order = PlannedPage.workOrder(planned)
        // Each outcome says whether the page was rendered or is the last build's.
        let outcomes = parallelMap(Array(jobs.enumerated()), workingIn: order) { position, job -> Result<(OutputFile, RenderedPage, Bool), MustacheError> in
            if let (written, earlier) = reuse?.unchanged(at: position, path: job.path, templatesHash: templatesHash) {
                return .success((OutputFile(path: job.path, contents: .unchanged(written)), earlier, false))
            }
            switch job.kind {
            case .template(let name, let context):
                do throws(MustacheError) {
                    // Room for a list page of cards or a long article, so that few pages
                    // outgrow their buffer and are copied into one twice its size.
                    // An article's page is where the next build finds the article's HTML,
                    // which the model store then leaves out (`PageHTML`).
                    let article: Article? = if notesArticleHTML, case .article(let article) = planned[position] { article } else { nil }
                    // A page the last build wrote gets room for as much again and a little
                    // more: a large list page would outgrow buffer after buffer.
                    let sizeHint = reuse?.written(job.path).map { $0.size + $0.size / 16 + 1024 } ?? 0
                    let (file, use, html) = try library.withRenderedBytes(library[name]!, with: context(), sizeHint: max(24 * 1024, sizeHint), memo: memo) { bytes, use in
                        (made(job.path, rendered: bytes), use, article.flatMap { PageHTML(finding: $0.htmlPieces, in: bytes) })
                    }
                    let templates = templateNames(use)
                    return .success((file, RenderedPage(templates: templates.names, templatesHash: templates.hash, html: html), true))
                } catch {
                    return .failure(error)
                }
            case .feed(let feed):
                return .success((made(job.path, feed().render()), RenderedPage(templates: [], templatesHash: templatesHash([]), html: nil), true))
            case .calendar(let calendar):
                return .success((made(job.path, calendar().render()), RenderedPage(templates: [], templatesHash: templatesHash([]), html: nil), true))
            case .bytes(let bytes):
                return .success((made(job.path, bytes()), RenderedPage(templates: [], templatesHash: templatesHash([]), html: nil), true))
            }
        }
        var output = Output(files: [], pages: [], cardReads: shared.articles.reads.value, workings: (shared, memo, jobs, outcomes), homework: shared.homework)
        output.files.reserveCapacity(outcomes.count)
        output.pages.reserveCapacity(outcomes.count)
        for outcome in outcomes {
            switch outcome {
            case .success(let (file, page, rendered)):
                if rendered { output.renderedCount += 1 }
                output.files.append(file)
                output.pages.append(page)
            case .failure(let error): throw error
            }
        }
        return output
    }

    /// What every job's context is made from, held once by reference: a job that captured
    /// the index and the page metadata as values copied each of their fields.
    public final class Shared: Sendable {
        public let index: SiteIndex
        public let context: ViewContext
        public let site: MustacheValue
        public let homework: HomeworkViews
        public let metas: PageMeta
        public let articles: ArticleViewMemo
        private let today: MustacheValue
        private let strings: MustacheValue
        /// Made once, for `/restaurants/` and `/map/`, when the first of them is made.
        private let madeRestaurants = Once<RestaurantViews>()

        public var restaurants: RestaurantViews { madeRestaurants.value { RestaurantViews(index.restaurants, context: context) } }

        public init(index: SiteIndex, assets: [String: [String: String]], articles: ArticleViewMemo, homeworkSummary: HomeworkSummary?, strings: ThemeStrings) {
            self.strings = strings.mustacheValue
            self.index = index
            self.articles = articles
            context = self.articles.context
            let context = context
            let pageLinks: [MustacheValue] = index.pages.map { .object(PageView(page: $0, context: context)) }
            let assetURLs = MustacheValue.fields(MustacheFields(assets.sorted { $0.key < $1.key }.map { kind, byName in
                (kind, .fields(MustacheFields(byName.sorted { $0.key < $1.key }.map { ($0.key, .string(context.url($0.value))) })))
            }))
            site = .object(SiteView(site: index.site, pages: pageLinks, assets: assetURLs, strings: self.strings, homeworkTitle: context.homeworkTitle))
            homework = HomeworkViews(index: index, context: context, summary: homeworkSummary)
            metas = PageMeta(index: index, context: context, homework: homework)
            today = .string(index.moment.date.description)
        }

        /// What every page has, and its own fields, which win over those of the same name.
        /// The layout reads `site` and `meta` most: they come first.
        public func page(_ planned: PlannedPage, _ path: String, _ fields: MustacheFields) -> MustacheValue {
            var all: [(String, MustacheValue)] = []
            all.reserveCapacity(fields.count + 3)
            if fields["site"] == nil { all.append(("site", site)) }
            if fields["meta"] == nil { all.append(("meta", metas.make(for: planned, at: path))) }
            all.append(contentsOf: fields.entries)
            if fields["today"] == nil { all.append(("today", today)) }
            if fields["t"] == nil { all.append(("t", strings)) }
            return .fields(MustacheFields(all))
        }

        public func cards(_ articles: [Article]) -> MustacheValue {
            self.articles.cards(articles)
        }

        /// The view of an article's own page.
        public func page(of article: Article) -> MustacheValue {
            .object(ArticleView(article: article, variant: .page, context: context, values: articles[article].values))
        }
    }

    public static func jobs(for pages: [PlannedPage], paths: [String], shared: Shared, leaflet: [String: [UInt8]]?) -> [Job] {
        let context = shared.context

        return zip(pages, paths).map { planned, path -> Job in
            switch planned {
            case .home(let list):
                return Job(path: path, template: "home", context: shared.page(planned, path, [
                    "articles": shared.cards(list.articles),
                    "pagination": pagination(context, list),
                    "hasDrafts": .bool(shared.index.draftCount > 0),
                    "homework": shared.homework.summary,
                ]))
            case .article(let article):
                return Job(path: path, template: "article", context: shared.page(planned, path, [
                    "article": shared.page(of: article),
                ]))
            case .page(let item):
                return Job(path: path, template: "page", context: shared.page(planned, path, ["page": .object(PageView(page: item, context: context))]))
            case .group(let group, let list):
                return Job(path: path, template: "list", context: shared.page(planned, path, [
                    "group": .fields([
                        "name": .string(group.label.name),
                        "isMeal": .bool(group.kind == .meal),
                        "isTag": .bool(group.kind == .tag),
                        "url": .string(context.url(group.path)),
                        "count": .int(group.count),
                        "one": .bool(group.count == 1),
                        "draftCount": .int(group.draftCount),
                        "oneDraft": .bool(group.draftCount == 1),
                        "countText": .string(context.strings.count("articleCount", group.count)),
                        "draftsText": .string(context.strings.count(group.kind == .meal ? "mealDrafts" : "tagDrafts", group.draftCount, ["name": group.label.name])),
                    ]),
                    "articles": shared.cards(list.articles),
                    "pagination": pagination(context, list),
                ]))
            case .groupIndex(let kind, let headings):
                let groups = headings.filter(\.isPublished)
                return Job(path: path, template: "groups", context: shared.page(planned, path, [
                    "isMeals": .bool(kind == .meal),
                    "isTags": .bool(kind == .tag),
                    "groups": .array(groups.map { group in
                        .fields([
                            "view": "group.row",
                            "name": .string(group.label.name),
                            "url": .string(context.url(group.path)),
                            "count": .int(group.count),
                            "one": .bool(group.count == 1),
                            "countText": .string(context.strings.count("articleCount", group.count)),
                        ])
                    }),
                ]))
            case .restaurants:
                return Job(path: path, template: "restaurants", context: shared.page(planned, path, ["restaurants": .array(shared.restaurants.views)]))
            case .restaurant(let page):
                return Job(path: path, template: "restaurant", context: shared.page(planned, path, ["restaurant": restaurantPage(page, context: context)]))
            case .map:
                return Job(path: path, template: "map", context: mapPage(shared, planned, path, leaflet: leaflet))
            case .homework:
                return Job(path: path, template: "homework", context: shared.page(planned, path, ["homework": shared.homework.summary]))
            case .grade(let grade):
                return Job(path: path, template: "grade", context: shared.page(planned, path, shared.homework.gradePage(grade)))
            case .day(let grade, let day):
                return Job(path: path, template: "day", context: shared.page(planned, path, shared.homework.dayPage(grade, day)))
            case .poster(let grade):
                return Job(path: path, template: "poster", context: shared.page(planned, path, shared.homework.posterPage(grade)))
            case .teachers:
                return Job(path: path, template: "teachers", context: shared.page(planned, path, shared.homework.teachersPage))
            case .gradeFeed(let grade):
                return Job(path: path, .feed { shared.homework.feed(grade) })
            case .gradeCalendar(let grade):
                return Job(path: path, .calendar { shared.homework.calendar(grade) })
            case .gradeJSONFeed(let grade):
                return Job(path: path, .bytes { shared.homework.jsonFeed(grade).render() })
            case .gradeTonight(let grade):
                return Job(path: path, .bytes { Array(TonightDigest(grade: grade, views: shared.homework).text.utf8) })
            case .notFound:
                return Job(path: path, template: "404", context: shared.page(planned, path, [:]))
            case .siteFeed:
                return Job(path: path, .feed { Publishing.feed(shared.index, context: context) })
            case .sitemap:
                return Job(path: path, .bytes { Publishing.sitemap(shared.index, context: context) })
            case .robots:
                return Job(path: path, .bytes { Publishing.robots(context: context) })
            }
        }
    }

    /// The context of `/map/`, made by the job that renders it: made with the jobs, the
    /// restaurants' views were made on one core before any page was rendered. The pins
    /// come first, while the job of `/restaurants/` may be making the views on the other
    /// core.
    private static func mapPage(_ shared: Shared, _ planned: PlannedPage, _ path: String, leaflet: [String: [UInt8]]?) -> MustacheValue {
        let entries = shared.index.restaurants
        let pinned = entries.indices.filter { entries[$0].hasCoordinates }
        let pins = mapData(entries, pinned: pinned, context: shared.context)
        let views = shared.restaurants.views
        return shared.page(planned, path, [
            "restaurants": .array(pinned.map { views[$0] }),
            "hasLeaflet": .bool(leaflet != nil && !pinned.isEmpty),
            "hasMarkerClusters": .bool(leaflet?["leaflet.markercluster.js"] != nil && leaflet?["MarkerCluster.css"] != nil),
            "mapData": pins,
            "unpinnedCount": .int(entries.count - pinned.count),
            "unpinnedOne": .bool(entries.count - pinned.count == 1),
            "hasUnpinned": .bool(entries.count > pinned.count),
            "unpinnedText": .string(shared.context.strings.count("unpinned", entries.count - pinned.count)),
        ])
    }

    /// A restaurant's page: the restaurant as an article shows it (name, address, map
    /// links, its page's URL), with its articles, newest first.
    private static func restaurantPage(_ page: RestaurantPage, context: ViewContext) -> MustacheValue {
        let entry = page.entry
        var fields = context.restaurantFields(entry.restaurant)
        fields["count"] = .int(entry.count)
        fields["one"] = .bool(entry.count == 1)
        fields["countText"] = .string(context.strings.count("articleCount", entry.count))
        fields["articles"] = .array(page.articles.map { .fields(["title": .string($0.title), "url": .string(context.url($0.pagePath))]) })
        return .fields(fields)
    }

    private static func pagination(_ context: ViewContext, _ list: ListPage) -> MustacheValue {
        var fields: MustacheFields = [
            "number": .int(list.number),
            "count": .int(list.count),
            "hasMany": .bool(list.count > 1),
            "status": .string(context.strings.text("pageOf", ["number": "\(list.number)", "count": "\(list.count)"])),
            "label": .string(context.strings.text("pageNumber", ["number": "\(list.number)"])),
            "heading": .string(context.strings.text("articlesPageOf", ["number": "\(list.number)", "count": "\(list.count)"])),
        ]
        if list.number > 1 { fields["prev"] = .string(context.url(ListPage.path(base: list.base, number: list.number - 1))) }
        if list.number < list.count { fields["next"] = .string(context.url(ListPage.path(base: list.base, number: list.number + 1))) }
        return .fields(fields)
    }

    /// Each restaurant as the index of restaurants and the map list it: without its
    /// articles' titles, so that a title edit renders only the restaurant's own page.
    public struct RestaurantViews: Sendable {
        public var views: [MustacheValue]

        public init(_ entries: [RestaurantEntry], context: ViewContext) {
            views = entries.map { entry in
                var fields: MustacheFields = [
                    "name": .string(entry.name),
                    "slug": .string(entry.slug),
                    "url": .string(context.url(entry.path)),
                    "address": entry.address.map(MustacheValue.string) ?? .null,
                    "count": .int(entry.count),
                    "one": .bool(entry.count == 1),
                    "countText": .string(context.strings.count("articleCount", entry.count)),
                ]
                if let latitude = entry.latitude, let longitude = entry.longitude {
                    fields["largerMapURL"] = .string(MapLinks(latitude: latitude, longitude: longitude, zoom: context.site.mapZoom).largerMapURL)
                }
                return .fields(fields)
            }
        }
    }

    /// The pins of `/map/` as JSON for the map script, safe inside `<script>`, written into
    /// one buffer rather than interpolated strings joined and joined again: one pin per
    /// restaurant, made on one core.
    private static func mapData(_ entries: [RestaurantEntry], pinned: [Int], context: ViewContext) -> MustacheValue {
        var json: [UInt8] = []
        json.reserveCapacity(pinned.count * 200)
        func append(_ text: StaticString) { text.withUTF8Buffer { json.append(contentsOf: $0) } }
        append("[")
        for (number, place) in pinned.enumerated() {
            let entry = entries[place]
            guard let latitude = entry.latitude, let longitude = entry.longitude else { continue }
            if number > 0 { append(",") }
            append("{\"name\":")
            JSONString.append(entry.name, to: &json)
            append(",\"address\":")
            JSONString.append(entry.address ?? "", to: &json)
            append(",\"url\":")
            JSONString.append(context.url(entry.path), to: &json)
            append(",\"count\":")
            json.append(contentsOf: String(entry.count).utf8)
            append(",\"countText\":")
            JSONString.append(context.strings.count("articleCount", entry.count), to: &json)
            append(",\"lat\":")
            MapLinks.appendCoordinate(latitude, to: &json)
            append(",\"lon\":")
            MapLinks.appendCoordinate(longitude, to: &json)
            append("}")
        }
        append("]")
        return .utf8(json[...])
    }
}
