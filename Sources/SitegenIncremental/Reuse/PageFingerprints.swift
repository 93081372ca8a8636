import SitegenContent
import SitegenPipeline
import SitegenSupport

/// A fingerprint of everything each page shows: when a page's fingerprint, and the
/// templates it was made with, are as in the last build, and its file is as that build
/// wrote it, the page is not rendered again.
struct PageFingerprints: Sendable {
    let index: SiteIndex
    /// The hash of each content file's bytes, by path relative to the site.
    let hashes: [String: UInt64]
    /// site.yaml, teachers.yaml, static files, options, page titles, asset names and the
    /// build's day, which every page depends on.
    let global: UInt64
    /// Each article's path and content hash folded into one word, once: a list adds a word
    /// per article, where it hashed each article's path twice on every page listing it (to
    /// find the article's hash, then into the list's print).
    private let articlePrints: [ObjectIdentifier: UInt64]
    /// The homework summary's print as a build at the same moment made it (`SiteLists`),
    /// for an index made without the assignments.
    private let knownSummaryPrint: UInt64?

    /// `pageCount`: about how many pages are to be printed; with a few, each article is
    /// printed when a page shows it, not every article up front.
    init(_ index: SiteIndex, hashes: [String: UInt64], context: UInt64, assets: [String: [String: String]], homeworkSummaryPrint: UInt64? = nil,
         pageCount: Int = .max) {
        self.index = index
        self.hashes = hashes
        knownSummaryPrint = homeworkSummaryPrint
        var articlePrints: [ObjectIdentifier: UInt64] = [:]
        if pageCount > 100 {
            articlePrints.reserveCapacity(index.articles.count)
            for article in index.articles {
                articlePrints[article.identity] = PageFingerprints.print(of: article, in: index, hashes: hashes)
            }
        }
        self.articlePrints = articlePrints
        var global = Fingerprint()
        global.add(context)
        // Any page's template may show `today`.
        global.add(index.moment.date.description)
        // `site.pages` shows every page's title, summary and own fields on any page.
        for page in index.pages {
            global.add(page.slug.text)
            global.add(page.title)
            global.add(page.summary)
            var extra = BinaryWriter()
            extra.extra(page.extra)
            global.add(extra.bytes)
        }
        for (ext, names) in assets.sorted(by: { $0.key < $1.key }) {
            for (name, path) in names.sorted(by: { $0.key < $1.key }) {
                global.add(ext + "." + name + "=" + path)
            }
        }
        self.global = global.value
    }

    /// The fingerprints of `pages`, whose output paths are `paths`, in their order; on both
    /// cores when there are many.
    func of(_ pages: [PlannedPage], paths: [String]) -> [UInt64] {
        var lists = SharedLists(fingerprints: self)
        guard pages.count > 1_000 else { return zip(pages, paths).map { of($0, path: $1, lists: &lists) } }
        // The lists pages share are made before the pages are split between the cores (a
        // rebuild of a few pages makes them only if one of its pages shows them).
        _ = lists.searchablePages()
        _ = lists.restaurants()
        _ = lists.homeworkSummary()
        for grade in index.site.homework.grades { _ = lists.feed(grade) }
        let shared = lists
        return parallelMap([0..<pages.count / 2, pages.count / 2..<pages.count]) { half in
            var lists = shared
            return half.map { of(pages[$0], path: paths[$0], lists: &lists) }
        }.flatMap { $0 }
    }

    /// What the homework summary shows, as the pages that show it have it in their prints.
    var homeworkSummaryPrint: UInt64 {
        var lists = SharedLists(fingerprints: self)
        return lists.homeworkSummary()
    }

    private func articles(_ list: some Sequence<Article>) -> UInt64 {
        var print = Fingerprint()
        for article in list {
            print.add(articlePrints[article.identity] ?? PageFingerprints.print(of: article, in: index, hashes: hashes))
        }
        return print.value
    }

    /// An article's views show its file, whether it is marked as scheduled (`--future`,
    /// until its date) and its restaurant's page, which is another when a branch opens.
    private static func print(of article: Article, in index: SiteIndex, hashes: [String: UInt64]) -> UInt64 {
        var print = Fingerprint()
        print.add(article.sourcePath)
        print.add(hashes[article.sourcePath] ?? 0)
        if index.schedule.isScheduled(article) { print.add(1) }
        if !index.restaurantSlugs.isEmpty, let slug = index.restaurantSlugs[article.sourcePath], slug != article.restaurant?.slug { print.add(slug) }
        return print.value
    }

    /// Fingerprints of long lists several pages share, worked out once and only when a
    /// page needs them.
    private struct SharedLists {
        let fingerprints: PageFingerprints
        var cachedSearchablePages: UInt64?
        var cachedRestaurants: UInt64?
        var cachedHomeworkSummary: UInt64?
        var cachedFeeds: [GradeID: UInt64] = [:]

        /// What the sitemap shows: every page a search engine may list, in order, and each
        /// article's date. Counting pages missed a group that gained a page while another
        /// lost one.
        mutating func searchablePages() -> UInt64 {
            if let cachedSearchablePages { return cachedSearchablePages }
            var print = Fingerprint()
            for (page, path) in fingerprints.index.searchablePages {
                print.add(path)
                if case .article(let article) = page {
                    print.add(article.date.description)
                    print.add(article.updated?.description ?? "")
                }
            }
            cachedSearchablePages = print.value
            return print.value
        }

        /// What the index of restaurants and the map show: each restaurant, and how many
        /// articles it has (not their titles, which only its own page shows).
        mutating func restaurants() -> UInt64 {
            if let cachedRestaurants { return cachedRestaurants }
            var print = Fingerprint()
            for entry in fingerprints.index.restaurants { PageFingerprints.add(entry, to: &print) }
            cachedRestaurants = print.value
            return print.value
        }

        /// What the homework summary shows — on the home pages, `/homework/`, the teachers'
        /// page and every page of a grade: the moment, and each grade's digest (the day it
        /// shows and its work, in the order subjects are named; on a day off, the work due
        /// on the next school day). An assignment of another day changes no home page.
        mutating func homeworkSummary() -> UInt64 {
            if let cachedHomeworkSummary { return cachedHomeworkSummary }
            if let known = fingerprints.knownSummaryPrint { return known }
            let print = PageFingerprints.homeworkSummaryPrint(of: fingerprints.index.homework, grades: fingerprints.index.site.homework.grades,
                                                              hashes: fingerprints.hashes)
            cachedHomeworkSummary = print
            return print
        }

        /// The assignments a grade's feeds carry, in their order: the Atom feed's and the
        /// JSON feed's.
        mutating func feed(_ grade: GradeID) -> UInt64 {
            if let known = cachedFeeds[grade] { return known }
            let print = fingerprints.assignments(Array(fingerprints.index.homework.feedWork(of: grade)))
            cachedFeeds[grade] = print
            return print
        }
    }

    /// A restaurant as its pages name, place and count it.
    private static func add(_ entry: RestaurantEntry, to print: inout Fingerprint) {
        print.add(entry.name)
        print.add(entry.slug)
        print.add(entry.address ?? "-")
        print.add(entry.latitude.map { "\($0)" } ?? "-")
        print.add(entry.longitude.map { "\($0)" } ?? "-")
        print.add(entry.count)
    }

    /// What the homework summary of `schedule` shows (`SharedLists.homeworkSummary`), each
    /// assignment by its path and the hash in `hashes`.
    static func homeworkSummaryPrint(of schedule: HomeworkSchedule, grades: [GradeID], hashes: [String: UInt64]) -> UInt64 {
        var print = Fingerprint()
        print.add(schedule.moment.key)
        print.add(schedule.hasAssignments ? 1 : 0)
        print.add(subjectOrder(of: schedule))
        for grade in grades {
            let digest = HomeworkDigest(grade: grade, schedule: schedule)
            print.add(grade.text)
            print.add(digest.day?.description ?? "-")
            print.add(assignments(digest.work, hashes: hashes))
        }
        return print.value
    }

    /// The subjects in the order sentences and lists name them.
    private static func subjectOrder(of schedule: HomeworkSchedule) -> UInt64 {
        var print = Fingerprint()
        for (subject, _) in schedule.subjectOrder.sorted(by: { $0.value < $1.value }) { print.add(subject) }
        return print.value
    }

    /// Each assignment is folded in once for each grade it is for and once for its day's
    /// page (a grade's print is made once for its page, feed and calendar): no table of
    /// every assignment's print, which the dev server made again for the home page's
    /// summary, of a handful, after each edit.
    private func assignments(_ list: [Assignment]) -> UInt64 {
        PageFingerprints.assignments(list, hashes: hashes)
    }

    private static func assignments(_ list: [Assignment], hashes: [String: UInt64]) -> UInt64 {
        var print = Fingerprint()
        for assignment in list {
            print.add(assignment.sourcePath)
            print.add(hashes[assignment.sourcePath] ?? 0)
        }
        return print.value
    }

    private func of(_ planned: PlannedPage, path: String, lists: inout SharedLists) -> UInt64 {
        var print = Fingerprint()
        print.add(global)
        print.add(path)
        switch planned {
        case .home(let list):
            print.add(list.count)
            print.add(articles(list.articles))
            print.add(lists.homeworkSummary())
            print.add(index.draftCount > 0 ? 1 : 0)
        case .article(let article):
            print.add(articlePrints[article.identity] ?? PageFingerprints.print(of: article, in: index, hashes: hashes))
        case .page(let page):
            print.add(hashes[page.sourcePath] ?? 0)
        case .group(let group, let list):
            print.add(group.label.name)
            print.add(group.draftCount)
            print.add(group.count)
            print.add(list.count)
            print.add(articles(list.articles))
        case .groupIndex(_, let headings):
            for group in headings {
                print.add(group.label.name)
                print.add(group.label.slug.text)
                print.add(group.count)
            }
        case .restaurants, .map:
            print.add(lists.restaurants())
        case .restaurant(let page):
            PageFingerprints.add(page.entry, to: &print)
            for link in page.articles {
                print.add(link.pagePath)
                print.add(link.title)
            }
        case .homework, .teachers:
            print.add(lists.homeworkSummary())
        case .day(let grade, let day):
            // A day's work, and the days its page links to.
            let schedule = index.homework
            print.add(lists.homeworkSummary())
            print.add(assignments(schedule.assignments(of: grade, on: day)))
            let (previous, next) = schedule.neighbours(of: day)
            print.add(previous?.description ?? "-")
            print.add(next?.description ?? "-")
        case .poster:
            // The grade's addresses, which the site's settings make.
            break
        case .gradeTonight:
            // What every grade leads with, at the moment.
            print.add(lists.homeworkSummary())
        case .gradeFeed(let grade), .gradeJSONFeed(let grade):
            // The grade's newest work in its order, and the moment (the feed's time when it
            // has no entries).
            print.add(index.moment.key)
            print.add(lists.feed(grade))
        case .gradeCalendar(let grade):
            // The work due from the calendar's first day on, which the moment sets.
            print.add(index.moment.key)
            print.add(assignments(index.homework.calendarWork(of: grade)))
        case .grade(let grade):
            // The grade's work: tonight's (in the summary), what is due next, how much each
            // of the archive's last days had, and whether it has only drafts.
            let schedule = index.homework
            print.add(lists.homeworkSummary())
            for (day, work) in HomeworkDigest(grade: grade, schedule: schedule).upcoming {
                print.add(day.description)
                print.add(assignments(work))
            }
            for day in schedule.schoolDays.suffix(HomeworkViews.recentDayCount) {
                print.add(day.description)
                print.add(schedule.assignments(of: grade, on: day).count)
            }
            print.add(schedule.hasWork(of: grade) ? 1 : 0)
            print.add(schedule.draftCounts[grade, default: 0])
        case .siteFeed:
            print.add(articles(index.articles.prefix(Publishing.feedLength)))
            // A feed with no entries was updated at the moment.
            if index.articles.isEmpty { print.add(index.moment.key) }
        case .sitemap:
            print.add(lists.searchablePages())
        case .notFound, .robots:
            break
        }
        return print.value
    }
}
