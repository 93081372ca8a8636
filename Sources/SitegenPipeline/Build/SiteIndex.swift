import SitegenContent
import SitegenSupport

/// The **index** stage: what is published, in which order, under which path. Every
/// output path is claimed once; a second claim is an error at the file that makes it.
public struct SiteIndex: Sendable {
    public var site: Site
    public var moment: BuildMoment
    /// Published articles, newest first.
    public var articles: [Article]
    /// How many articles there are with drafts: an empty home page says why it is empty.
    public var draftCount: Int
    public var meals: [ArticleGroup]
    public var tags: [ArticleGroup]
    public var restaurants: [RestaurantEntry]
    /// The slug of the restaurant page of each published article of a branch, by the
    /// article's source path (`RestaurantGathering.Gathered.slugs`).
    public var restaurantSlugs: [String: String]
    public var pages: [Page]
    public var teachers: [Teacher]
    public var homework: HomeworkSchedule
    /// When the build is, for articles' dates, and whether scheduled ones are shown.
    public var schedule: ArticleSchedule
    /// The earliest date of an article scheduled at `schedule.clock`: from then on, a
    /// build publishes another site, though no file changed.
    public var nextScheduled: Int?
    /// Feeds and calendars need absolute URLs: they are written when `base_url` is known.
    public var hasFeeds: Bool
    /// Every page to render, in a fixed order.
    public var plan: [PlannedPage] = []
    /// The output path of each page of `plan`, made once: every stage asks for them.
    public var planPaths: [String] = []

    /// Top-level folders and files sitegen itself writes: a page may not take them.
    public static let reservedSlugs: Set<String> = ["articles", "homework", "meals", "tags", "restaurants", "map", "assets", "page",
                                             "feed.xml", "sitemap.xml", "404.html", "robots.txt"]

    /// `homework`: the schedule, when it is made already (of some of the assignments, with
    /// what it knows of them all); otherwise it is made of `content`'s.
    public init(content: SiteContent, site: Site, moment: BuildMoment, schedule: ArticleSchedule = .everything, includeDrafts: Bool,
                homework given: HomeworkSchedule? = nil, staticFiles: [String], themeAssets: [String], log: DiagnosticLog) {
        self.site = site
        self.moment = moment
        self.schedule = schedule
        teachers = content.teachers
        // The homework schedule needs nothing of the articles: it is made on another core.
        let scheduling = given == nil ? Concurrently {
            SiteIndex.homeworkSchedule(of: content.assignments, site: site, moment: moment, teachers: content.teachers, includeDrafts: includeDrafts)
        } : nil

        var claims = PathClaims(log: log)

        // Articles and pages claim their paths first, so that two of them with the same
        // slug are reported at the second file.
        let (articles, allArticles, nextScheduled) = SiteIndex.claimArticles(content.articles, claims: &claims, schedule: schedule, includeDrafts: includeDrafts)
        self.nextScheduled = nextScheduled
        let newestFirst = { (a: Article, b: Article) in (a.instant, b.slug) > (b.instant, a.slug) }
        self.articles = articles.sorted(by: newestFirst)
        draftCount = allArticles.count - articles.count

        var pages: [Page] = []
        for page in content.pages.sorted(by: { $0.sourcePath < $1.sourcePath }) {
            if SiteIndex.reservedSlugs.contains(page.slug.text) {
                log.error(at: page.slugLocation, "the slug '\(page.slug.text)' is taken by sitegen's own pages; give the page another 'slug'")
                continue
            }
            guard claims.claim(PlannedPage.page(page).path, by: page.sourcePath, at: page.slugLocation) else { continue }
            if includeDrafts || !page.draft { pages.append(page) }
        }
        self.pages = pages.sorted { ($0.title, $0.slug) < ($1.title, $1.slug) }

        // Tags, the most groups, are gathered on the other core.
        let published = self.articles
        let tagging = Concurrently { [allArticles] in SiteIndex.groups(.tag, of: allArticles, published: published) { $0.tags } }
        let (meals, otherMeals) = SiteIndex.groups(.meal, of: allArticles, published: published) { $0.meal.map { [$0] } ?? [] }
        self.meals = meals
        let gathered = RestaurantGathering.gather(published)
        let restaurantPages = gathered.pages
        restaurants = restaurantPages.map(\.entry)
        restaurantSlugs = gathered.slugs
        let (tags, otherTags) = tagging.wait()
        self.tags = tags
        LabelSpellings.check(meals + tags, otherSpellings: otherMeals + otherTags, log: log)

        homework = given ?? scheduling!.wait()
        hasFeeds = site.baseURL != nil
        if site.lacksBaseURL {
            log.warning(at: SourceLocation(path: Site.path, line: 1, column: 1),
                        "'base_url' is not set: the feeds, calendars, sitemap and canonical links need absolute URLs and are left out; set it or pass --base-url")
        }

        let plan = planned(restaurantPages: restaurantPages, publishesRobots: !staticFiles.contains("robots.txt"))
        let planPaths = parallelMap(plan) { $0.path }
        for (page, path) in zip(plan, planPaths) {
            switch page {
            case .article, .page: continue
            default: _ = claims.claim(path, by: "sitegen's own pages", at: SourceLocation(path: Site.path, line: 1, column: 1))
            }
        }
        self.plan = plan
        self.planPaths = planPaths

        // Files copied as they are come last: a collision is reported at the file.
        for path in themeAssets.sorted() {
            _ = claims.claim(path, by: "the theme's \(path)", at: SourceLocation(path: "Themes/\(site.theme)/\(path)", line: 1, column: 1))
        }
        for path in staticFiles {
            _ = claims.claim(path, by: "Content/\(path)", at: SourceLocation(path: "Content/\(path)", line: 1, column: 1))
        }
    }

    /// Every page to make, in the order they are rendered: the lists and articles first.
    /// `publishesRobots`: false when the author has a Content/robots.txt (a staging site's
    /// `Disallow: /`), published in place of the one made here.
    /// The articles whose paths are theirs: those shown (`articles`), and those shown or
    /// left out as drafts (`all`), with the earliest date of the scheduled ones. A scheduled
    /// article is not there yet: no list, group, feed, map or page of a restaurant shows
    /// it, not even as a draft. Its path is claimed all the same, so that a clash is an
    /// error whenever the build is.
    private static func claimArticles(_ content: [Article], claims: inout PathClaims, schedule: ArticleSchedule,
                                      includeDrafts: Bool) -> (articles: [Article], all: [Article], nextScheduled: Int?) {
        var articles: [Article] = []
        var all: [Article] = []
        var nextScheduled: Int?
        for article in content.sorted(by: { $0.sourcePath < $1.sourcePath }) {
            guard claims.claim(PlannedPage.article(article).path, by: article.sourcePath, at: article.slugLocation) else { continue }
            if schedule.isScheduled(article) {
                nextScheduled = min(nextScheduled ?? .max, article.instant)
                guard schedule.includeFuture else { continue }
            }
            all.append(article)
            if includeDrafts || !article.draft { articles.append(article) }
        }
        return (articles, all, nextScheduled)
    }

    private func planned(restaurantPages: [RestaurantPage], publishesRobots: Bool) -> [PlannedPage] {
        var plan: [PlannedPage] = ListPage.split(articles, base: "", size: site.articlesPerPage).map(PlannedPage.home)
        plan += articles.map(PlannedPage.article)
        plan += pages.map(PlannedPage.page)
        for group in meals + tags {
            plan += ListPage.split(group.articles, base: group.path, size: site.articlesPerPage).map { PlannedPage.group(group.heading, $0) }
        }
        plan += [.groupIndex(.meal, meals.map(\.heading)), .groupIndex(.tag, tags.map(\.heading)), .restaurants]
        plan += restaurantPages.map(PlannedPage.restaurant)
        plan.append(.map)
        if !site.homework.grades.isEmpty {
            plan += [.homework, .teachers]
            for grade in site.homework.grades {
                plan.append(.grade(grade))
                plan += homework.schoolDays.map { PlannedPage.day(grade, $0) }
                plan.append(.gradeTonight(grade))
                if hasFeeds { plan += [.poster(grade), .gradeFeed(grade), .gradeJSONFeed(grade), .gradeCalendar(grade)] }
            }
        }
        plan.append(.notFound)
        if publishesRobots { plan.append(.robots) }
        if hasFeeds { plan += [.siteFeed, .sitemap] }
        return plan
    }

    /// What the homework pages show of `assignments` at `moment`.
    public static func homeworkSchedule(of assignments: [Assignment], site: Site, moment: BuildMoment, teachers: [Teacher], includeDrafts: Bool) -> HomeworkSchedule {
        HomeworkSchedule(site: site, moment: moment, all: assignments.flatMap { $0.occurrences(in: site.homework.calendar, through: moment.date) },
                         teachers: teachers, includeDrafts: includeDrafts)
    }

    /// Where a group goes among those of its kind: by name, whatever its case, then slug.
    public static func orderKey(of label: Label) -> (String, String) {
        (label.name.lowercasedBytewise, label.slug.text)
    }

    /// Groups by label slug, so "Milk tea" and "milk tea" are one group, named as the
    /// newest article writes it.
    /// Each group, and each published article's label that is its group's in another
    /// spelling than by case (`LabelSpellings`).
    private static func groups(_ kind: ArticleGroup.Kind, of all: [Article], published: [Article], labels: (Article) -> [Label]) -> ([ArticleGroup], [LabelSpellings.Other]) {
        var others: [LabelSpellings.Other] = []
        // Each slug is hashed once per article, for its group's place; a label an article
        // repeats is told by the article last added to the group, by its position. Looked up
        // as values in a dictionary, each group and its last article were copied (retained)
        // for every label of every article, on both cores at once while the index was made.
        var places: [Slug: Int] = [:]
        var groups: [ArticleGroup] = []
        var lastAdded: [Int] = []
        for position in published.indices {
            for label in labels(published[position]) {
                let place: Int
                if let known = places[label.slug] {
                    guard lastAdded[known] != position else { continue }
                    place = known
                    let shown = groups[known].label.name
                    if label.name != shown, label.name.lowercased() != shown.lowercased() {
                        others.append(LabelSpellings.Other(kind: kind, article: published[position], label: label))
                    }
                } else {
                    place = groups.count
                    places[label.slug] = place
                    groups.append(ArticleGroup(kind: kind, label: label, articles: [], draftCount: 0))
                    lastAdded.append(-1)
                }
                groups[place].articles.append(published[position])
                lastAdded[place] = position
            }
        }
        if all.count > published.count {
            let publishedSlugs = Set(published.map { $0.slug })
            for article in all where !publishedSlugs.contains(article.slug) {
                for label in Set(labels(article).map(\.slug)) {
                    if let place = places[label] {
                        groups[place].draftCount += 1
                    } else {
                        places[label] = groups.count
                        groups.append(ArticleGroup(kind: kind, label: labels(article).first { $0.slug == label }!, articles: [], draftCount: 1))
                    }
                }
            }
        }
        return (groups.sorted(byKey: { orderKey(of: $0.label) }, by: <), others)
    }
}

// An edit that leaves every article and page where it was (same slug, order, groups,
// restaurant, draft state) needs no new index: the edited models take the old ones'
// places, and only the pages that show them are made again.
extension SiteIndex {
    /// Whether `new` sits in every list exactly where `old` did (the order follows the
    /// date, which the instant is made from).
    public static func keepsPlace(_ new: Article, of old: Article) -> Bool {
        keepsOrder(new, of: old) && new.meal == old.meal && new.tags == old.tags && new.restaurant == old.restaurant
    }

    /// Whether `new` sits where `old` did in the list of every article (its place and
    /// state), whatever its meal, tags and restaurant.
    public static func keepsOrder(_ new: Article, of old: Article) -> Bool {
        new.sourcePath == old.sourcePath && new.slug == old.slug && new.date == old.date && new.draft == old.draft
    }

    /// Whether `new` sits where `old` did; a page's title also names it in every page's menu.
    public static func keepsPlace(_ new: Page, of old: Page) -> Bool {
        new.sourcePath == old.sourcePath && new.slug == old.slug && new.title == old.title && new.draft == old.draft
    }

    /// Puts `articles` and `pages` in the places of the ones with their source paths;
    /// each must keep its place. Lists are changed in place, so a list that does not show
    /// them stays shared with the index it was copied from.
    public mutating func replace(articles replacements: [Article], pages pageReplacements: [Page]) {
        func swap(_ list: inout [Article]) -> Bool {
            var swappedAny = false
            for position in list.indices {
                let path = list[position].sourcePath
                if let replacement = replacements.first(where: { $0.sourcePath == path }) {
                    list[position] = replacement
                    swappedAny = true
                }
            }
            return swappedAny
        }
        guard !replacements.isEmpty || !pageReplacements.isEmpty else { return }
        _ = swap(&articles)
        for position in meals.indices { _ = swap(&meals[position].articles) }
        for position in tags.indices { _ = swap(&tags[position].articles) }
        for position in pages.indices {
            let path = pages[position].sourcePath
            if let replacement = pageReplacements.first(where: { $0.sourcePath == path }) { pages[position] = replacement }
        }
        for position in plan.indices {
            switch plan[position] {
            case .home(var list):
                if swap(&list.articles) { plan[position] = .home(list) }
            case .article(let article):
                if let replacement = replacements.first(where: { $0.sourcePath == article.sourcePath }) { plan[position] = .article(replacement) }
            case .page(let page):
                if let replacement = pageReplacements.first(where: { $0.sourcePath == page.sourcePath }) { plan[position] = .page(replacement) }
            case .group(let heading, var list):
                if swap(&list.articles) { plan[position] = .group(heading, list) }
            case .restaurant(var page):
                var relinked = false
                for place in page.articles.indices {
                    let path = page.articles[place].sourcePath
                    if let replacement = replacements.first(where: { $0.sourcePath == path }) {
                        page.articles[place] = ArticleLink(replacement)
                        relinked = true
                    }
                }
                if relinked { plan[position] = .restaurant(page) }
            default:
                continue
            }
        }
    }

    /// Puts `schedule`, made of edited assignments, in place of the homework; false, changing
    /// nothing, when its school days are not the index's (a day's pages made or removed,
    /// the archive's links and the sitemap changed: the whole index's to plan).
    public mutating func replace(homework schedule: HomeworkSchedule) -> Bool {
        guard schedule.schoolDays == homework.schoolDays, schedule.moment == homework.moment else { return false }
        homework = schedule
        return true
    }

    /// The pages of the plan made from the assignments, with their paths.
    public var homeworkPages: (pages: [PlannedPage], paths: [String]) {
        pages { $0.isHomework }
    }

    /// The pages of the plan that show anything of `assignments` but the homework summary:
    /// their days' pages, and their grades' pages, feeds and calendars.
    public func homeworkPages(showing assignments: [Assignment]) -> (pages: [PlannedPage], paths: [String]) {
        struct GradeDay: Hashable {
            var grade: GradeID
            var day: CalendarDate
        }
        let occurrences = assignments.flatMap { $0.occurrences(in: site.homework.calendar, through: moment.date) }
        let days = Set(occurrences.flatMap { assignment in assignment.grades.map { GradeDay(grade: $0, day: assignment.assigned) } })
        let grades = Set(occurrences.flatMap(\.grades))
        return pages { page in
            switch page {
            case .day(let grade, let day): days.contains(GradeDay(grade: grade, day: day))
            case .grade(let grade), .gradeFeed(let grade), .gradeJSONFeed(let grade), .gradeCalendar(let grade): grades.contains(grade)
            default: false
            }
        }
    }

    private func pages(where isIncluded: (PlannedPage) -> Bool) -> (pages: [PlannedPage], paths: [String]) {
        var pages: [PlannedPage] = []
        var paths: [String] = []
        for (page, path) in zip(plan, planPaths) where isIncluded(page) {
            pages.append(page)
            paths.append(path)
        }
        return (pages, paths)
    }

    /// The pages a search engine may list (`PlannedPage.isForSearchEngines`), with their
    /// output paths, in the plan's order: what the sitemap lists, and so what its
    /// fingerprint holds.
    public var searchablePages: LazyFilterSequence<Zip2Sequence<[PlannedPage], [String]>> {
        zip(plan, planPaths).lazy.filter { $0.1.hasSuffix(".html") && $0.0.isForSearchEngines }
    }

    /// The pages that show anything of the articles and pages at `sourcePaths`, which
    /// kept their places; `onCards`: those of the articles whose cards changed, which the
    /// home and group pages show; `retitled`: whether an article's title changed, which its
    /// restaurant's page shows. The sitemap shows only places and dates: it stays as it is.
    public func pages(showing sourcePaths: [String], onCards: [String], retitled: Bool) -> [PlannedPage] {
        func shows(_ list: ArraySlice<Article>, of sourcePaths: [String]) -> Bool {
            list.contains { sourcePaths.contains($0.sourcePath) }
        }
        let inFeed = shows(articles.prefix(Publishing.feedLength), of: sourcePaths)
        return plan.filter { planned in
            switch planned {
            case .home(let list): shows(list.articles[...], of: onCards)
            case .article(let article): sourcePaths.contains(article.sourcePath)
            case .page(let page): sourcePaths.contains(page.sourcePath)
            case .group(_, let list): shows(list.articles[...], of: onCards)
            case .restaurant(let page): retitled && page.articles.contains { sourcePaths.contains($0.sourcePath) }
            case .siteFeed: inFeed
            case .groupIndex, .restaurants, .map, .sitemap, .homework, .grade, .day, .poster, .teachers, .gradeFeed, .gradeCalendar, .gradeJSONFeed, .gradeTonight, .notFound, .robots: false
            }
        }
    }
}

/// Which file writes each output path, so that a second one is an error at its source.
private struct PathClaims {
    let log: DiagnosticLog
    private var owners: [String: String] = [:]

    init(log: DiagnosticLog) {
        self.log = log
    }

    mutating func claim(_ path: String, by source: String, at location: SourceLocation) -> Bool {
        if let owner = owners[path] {
            log.error(at: location, "the output path '\(path)' is already written by \(owner)")
            return false
        }
        owners[path] = source
        return true
    }
}
