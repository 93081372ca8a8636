import Foundation
import SitegenContent
import SitegenFiles
import SitegenPipeline
import SitegenSupport

/// What the last build's lists were made of, kept beside the cache so that a rebuild
/// after an edit the lists show (an article's title, price, cover, meal, tags or
/// restaurant) can render the home, group, restaurant and map pages that show it from a
/// handful of models instead of all of them: the order of the published articles, each
/// group's heading and members, each restaurant and its members, and the homework
/// summary the home pages show. No title is kept: the pages that show titles are made
/// from their articles' models. Written whole by a build that made the index, and by a
/// rebuild that moved an article among groups or restaurants. Valid only for the cache
/// whose summary names their checksum (`BuildCache.listsChecksum`), and for the same
/// context and moment.
struct SiteLists: Sendable, Equatable {
    struct Group: Sendable, Equatable {
        var heading: GroupHeading
        /// Places in `articles`, newest first.
        var members: [Int]

        func pageCount(perPage: Int) -> Int { ListPage.pageCount(of: members.count, size: perPage) }
    }

    struct Restaurant: Sendable, Equatable {
        var entry: RestaurantEntry
        /// Places in `articles`, newest first; as many as `entry.count`.
        var members: [Int]
    }

    var contextHash: UInt64
    var moment: String
    /// The published articles' source paths, newest first: kept as bytes, and made strings
    /// only for the few articles a rebuild reads (as strings, all of them were most of the
    /// reading of the lists).
    var articles: PackedPaths
    var draftCount: Int
    var groups: [Group]
    var restaurants: [Restaurant]
    var homeworkSummary: HomeworkSummary
    /// The summary's print in the pages' fingerprints (`PageFingerprints`).
    var homeworkSummaryPrint: UInt64

    init(index: SiteIndex, contextHash: UInt64, homeworkSummary: HomeworkSummary, homeworkSummaryPrint: UInt64) {
        self.contextHash = contextHash
        moment = index.moment.key
        articles = PackedPaths(index.articles.lazy.map(\.sourcePath))
        draftCount = index.draftCount
        var places: [ObjectIdentifier: Int] = [:]
        places.reserveCapacity(index.articles.count)
        for (place, article) in index.articles.enumerated() { places[article.identity] = place }
        groups = (index.meals + index.tags).map { group in
            Group(heading: group.heading, members: group.articles.map { places[$0.identity]! })
        }
        var byPath: [String: Int] = [:]
        byPath.reserveCapacity(index.articles.count)
        for (place, article) in index.articles.enumerated() { byPath[article.sourcePath] = place }
        restaurants = index.plan.compactMap { planned in
            guard case .restaurant(let page) = planned else { return nil }
            return Restaurant(entry: page.entry, members: page.articles.map { byPath[$0.sourcePath]! })
        }
        self.homeworkSummary = homeworkSummary
        self.homeworkSummaryPrint = homeworkSummaryPrint
    }

    static func path(besides cacheFile: String) -> String { cacheFile + "-lists" }

    /// Writes the lists beside the cache file and returns their checksum, which the cache
    /// then names; nil when they could not be written.
    func write(besides cacheFile: String) -> UInt64? {
        BuildCache.writeBeside(SiteLists.path(besides: cacheFile), format: SiteLists.format, reservingCapacity: articles.count * 200 + 4096) { encode(into: &$0) }
    }

    /// The lists beside the cache file, when they are those whose checksum is `checksum`.
    static func read(besides cacheFile: String, checksum: UInt64) -> SiteLists? {
        BuildCache.readBeside(path(besides: cacheFile), format: format, checksum: checksum) { reader throws(BinaryReader.Corrupt) in try SiteLists(from: &reader) }
    }

    private static let format = BuildCache.format + "-lists"

    private func encode(into writer: inout BinaryWriter) {
        writer.unsigned(contextHash)
        writer.string(moment)
        writer.unsigned(UInt64(articles.count))
        for place in articles.indices { articles.withBytes(at: place) { writer.slice($0) } }
        writer.integer(draftCount)
        writer.array(groups) { writer, group in
            writer.bool(group.heading.kind == .meal)
            writer.label(group.heading.label)
            writer.integer(group.heading.count)
            writer.integer(group.heading.draftCount)
            writer.array(group.members) { $0.integer($1) }
        }
        writer.array(restaurants) { writer, restaurant in
            let entry = restaurant.entry
            writer.string(entry.name)
            writer.string(entry.slug)
            writer.optional(entry.address) { $0.string($1) }
            writer.optional(entry.latitude) { $0.word($1.bitPattern) }
            writer.optional(entry.longitude) { $0.word($1.bitPattern) }
            writer.array(restaurant.members) { $0.integer($1) }
        }
        writer.array(homeworkSummary.grades) { writer, grade in
            writer.string(grade.name)
            writer.string(grade.url)
            writer.string(grade.sentence)
            writer.integer(grade.count)
        }
        writer.bool(homeworkSummary.hasAssignments)
        writer.string(homeworkSummary.updated)
        writer.string(homeworkSummary.updatedISO)
        writer.string(homeworkSummary.teachersURL)
        writer.unsigned(homeworkSummaryPrint)
    }

    private init(from reader: inout BinaryReader) throws(BinaryReader.Corrupt) {
        contextHash = try reader.unsigned()
        moment = try reader.string()
        var articles = PackedPaths()
        let count = try reader.count()
        articles.reserveCapacity(count)
        for _ in 0..<count { articles.append(unchecked: try reader.bytes()) }
        self.articles = articles
        func place(_ reader: inout BinaryReader) throws(BinaryReader.Corrupt) -> Int {
            let place = try reader.integer()
            guard articles.indices.contains(place) else { throw BinaryReader.Corrupt() }
            return place
        }
        draftCount = try reader.integer()
        groups = try reader.array { reader throws(BinaryReader.Corrupt) in
            let heading = GroupHeading(kind: try reader.bool() ? .meal : .tag, label: try reader.label(), count: try reader.integer(), draftCount: try reader.integer())
            return Group(heading: heading, members: try reader.array { reader throws(BinaryReader.Corrupt) in try place(&reader) })
        }
        restaurants = try reader.array { reader throws(BinaryReader.Corrupt) in
            var entry = RestaurantEntry(name: try reader.string(), slug: try reader.string(),
                                        address: try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.string() },
                                        latitude: try reader.optional { reader throws(BinaryReader.Corrupt) in Double(bitPattern: try reader.word()) },
                                        longitude: try reader.optional { reader throws(BinaryReader.Corrupt) in Double(bitPattern: try reader.word()) },
                                        count: 0)
            let members = try reader.array { reader throws(BinaryReader.Corrupt) in try place(&reader) }
            entry.count = members.count
            return Restaurant(entry: entry, members: members)
        }
        homeworkSummary = HomeworkSummary(
            grades: try reader.array { reader throws(BinaryReader.Corrupt) in
                HomeworkSummary.Grade(name: try reader.string(), url: try reader.string(), sentence: try reader.string(), count: try reader.integer())
            },
            hasAssignments: try reader.bool(), updated: try reader.string(), updatedISO: try reader.string(), teachersURL: try reader.string())
        homeworkSummaryPrint = try reader.unsigned()
    }

    /// The list pages (home and group pages) that show the article at `sourcePath`, with
    /// the source paths of the articles each shows, in order; nil when it is not published.
    func listPages(showing sourcePath: String, perPage: Int) -> [(page: ListedPage, members: [String])]? {
        guard let place = articles.firstIndex(of: sourcePath) else { return nil }
        let number = place / perPage + 1
        var pages: [(page: ListedPage, members: [String])] = [(.home(number: number, count: ListPage.pageCount(of: articles.count, size: perPage)),
                                                               ListPage.range(of: number, in: articles.count, size: perPage).map { articles[$0] })]
        for group in groups {
            guard let position = group.members.firstIndex(of: place) else { continue }
            pages.append(page(position / perPage + 1, of: group, perPage: perPage))
        }
        return pages
    }

    /// A list page, told without its articles.
    enum ListedPage: Sendable, Hashable {
        case home(number: Int, count: Int)
        case group(GroupHeading, number: Int, count: Int)

        /// The planned page, with its articles.
        func planned(_ articles: [Article]) -> PlannedPage {
            switch self {
            case .home(let number, let count):
                .home(ListPage(number: number, count: count, base: "", articles: articles))
            case .group(let heading, let number, let count):
                .group(heading, ListPage(number: number, count: count, base: heading.path, articles: articles))
            }
        }
    }

    /// A group, told by its kind and slug (its place among the groups changes with its name).
    struct GroupKey: Hashable, Sendable {
        var kind: ArticleGroup.Kind
        var slug: Slug
    }

    /// Moves the published article at `sourcePath` out of the groups of the labels of `old`
    /// (meal and tags) it no longer has and into those of `new`. Returns the groups whose
    /// members changed, and those whose newest article it stays (its label may be written
    /// otherwise now: the caller names each of both again, `rename`). Nil when the move
    /// needs the full index: a group that is not there yet, one left without a published
    /// article, or one whose number of pages changes (pages that appear or go).
    mutating func regroup(_ sourcePath: String, from old: Article, to new: Article, perPage: Int) -> (moved: Set<GroupKey>, newest: Set<GroupKey>)? {
        guard let place = articles.firstIndex(of: sourcePath) else { return nil }
        func slugs(_ article: Article, _ kind: ArticleGroup.Kind) -> Set<Slug> {
            Set(kind == .meal ? article.meal.map { [$0.slug] } ?? [] : article.tags.map(\.slug))
        }
        var moved: Set<GroupKey> = []
        var newest: Set<GroupKey> = []
        for kind in [ArticleGroup.Kind.meal, .tag] {
            let (was, will) = (slugs(old, kind), slugs(new, kind))
            var found: Set<Slug> = []
            for position in groups.indices where groups[position].heading.kind == kind {
                let key = GroupKey(kind: kind, slug: groups[position].heading.label.slug)
                let (member, stays) = (was.contains(key.slug), will.contains(key.slug))
                if stays {
                    found.insert(key.slug)
                    // Another spelling of the group's name is a warning of the whole index.
                    let shown = groups[position].heading.label.name
                    let labels = kind == .meal ? new.meal.map { [$0] } ?? [] : new.tags
                    if let written = labels.first(where: { $0.slug == key.slug })?.name, written != shown, written.lowercased() != shown.lowercased() { return nil }
                }
                let pages = groups[position].pageCount(perPage: perPage)
                switch (member, stays) {
                case (true, false):
                    groups[position].members.removeAll { $0 == place }
                    groups[position].heading.count -= 1
                case (false, true):
                    // A group of drafts only would come into the sitemap.
                    guard groups[position].heading.count > 0 else { return nil }
                    groups[position].members.insert(place, at: groups[position].members.partitioningIndex { $0 > place })
                    groups[position].heading.count += 1
                case (true, true):
                    if groups[position].members.first == place { newest.insert(key) }
                    continue
                case (false, false):
                    continue
                }
                guard groups[position].heading.count > 0, groups[position].pageCount(perPage: perPage) == pages else { return nil }
                moved.insert(key)
            }
            guard found == will else { return nil }
        }
        return (moved, newest)
    }

    private func position(of key: GroupKey) -> Int? {
        groups.firstIndex { $0.heading.kind == key.kind && $0.heading.label.slug == key.slug }
    }

    /// The source path of the newest article of the group `key`.
    func newest(in key: GroupKey) -> String? {
        position(of: key).flatMap { groups[$0].members.first }.map { articles[$0] }
    }

    /// Names the group `key` as `newest`, its newest article, writes its label, keeping the
    /// groups of its kind in their order; true when the name changed.
    mutating func rename(_ key: GroupKey, after newest: Article) -> Bool {
        guard let position = position(of: key) else { return false }
        let labels = key.kind == .meal ? newest.meal.map { [$0] } ?? [] : newest.tags
        guard let label = labels.first(where: { $0.slug == key.slug }), label != groups[position].heading.label else { return false }
        groups[position].heading.label = label
        let places = groups.indices.filter { groups[$0].heading.kind == key.kind }
        let ordered = places.map { groups[$0] }.sorted(byKey: { SiteIndex.orderKey(of: $0.heading.label) }, by: <)
        for (place, group) in zip(places, ordered) { groups[place] = group }
        return true
    }

    /// The headings of the groups of `kind`, in their order.
    func headings(_ kind: ArticleGroup.Kind) -> [GroupHeading] {
        groups.filter { $0.heading.kind == kind }.map(\.heading)
    }

    /// Every page of the group `key`, with the source paths of its articles.
    func pages(of key: GroupKey, perPage: Int) -> [(page: ListedPage, members: [String])] {
        guard let position = position(of: key) else { return [] }
        let group = groups[position]
        return (1...group.pageCount(perPage: perPage)).map { page($0, of: group, perPage: perPage) }
    }

    /// Page `number` of `group`, with the source paths of its articles.
    private func page(_ number: Int, of group: Group, perPage: Int) -> (page: ListedPage, members: [String]) {
        (.group(group.heading, number: number, count: group.pageCount(perPage: perPage)),
         group.members[ListPage.range(of: number, in: group.members.count, size: perPage)].map { articles[$0] })
    }

    /// The restaurant of the published article `new`, renamed in place from `old`'s (same
    /// slug, address and coordinates: `ArticleChanges` takes no other change): its entry
    /// is named as its newest article names it. Returns the slug of the restaurant whose
    /// pages change; nil when the restaurant has branches, whose pages the whole index
    /// makes.
    mutating func renameRestaurant(_ new: Article, from old: Article) -> Set<String>? {
        guard let place = articles.firstIndex(of: new.sourcePath), let restaurant = new.restaurant, let slug = restaurant.slug,
              let position = restaurants.firstIndex(where: { $0.entry.slug == slug })
        else { return nil }
        if restaurants[position].members.first == place {
            restaurants[position].entry.name = RestaurantEntry.name(of: restaurant) ?? restaurants[position].entry.name
            restaurants = restaurants.sorted(byKey: \.entry.orderKey, by: <)
        }
        return [slug]
    }

    /// The slug of each published article's restaurant page, by its source path: of the
    /// articles at `sourcePaths`, or of all.
    func restaurantSlugsByArticle(of sourcePaths: Set<String>?) -> [String: String] {
        let places = sourcePaths.map { paths in Set(paths.compactMap { articles.firstIndex(of: $0) }) }
        var slugs: [String: String] = [:]
        for restaurant in restaurants {
            for place in restaurant.members where places?.contains(place) ?? true { slugs[articles[place]] = restaurant.entry.slug }
        }
        return slugs
    }

    /// The slugs of the restaurants of the published articles at `sourcePaths`.
    func restaurantSlugs(holding sourcePaths: [String]) -> Set<String> {
        let places = Set(sourcePaths.compactMap { articles.firstIndex(of: $0) })
        return Set(restaurants.filter { $0.members.contains(where: places.contains) }.map(\.entry.slug))
    }

    /// The pages of the restaurants whose slugs are in `slugs`, in their order, with their
    /// articles as `model` has them; nil when one is missing.
    func restaurantPages(_ slugs: Set<String>, model: (String) -> Article?) -> [RestaurantPage]? {
        var pages: [RestaurantPage] = []
        for restaurant in restaurants where slugs.contains(restaurant.entry.slug) {
            var links: [ArticleLink] = []
            for place in restaurant.members {
                guard let article = model(articles[place]) else { return nil }
                links.append(ArticleLink(article))
            }
            pages.append(RestaurantPage(entry: restaurant.entry, articles: links))
        }
        return pages
    }
}
