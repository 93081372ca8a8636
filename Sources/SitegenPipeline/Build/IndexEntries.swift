import SitegenContent
import SitegenSupport

/// Articles that share a meal or a tag.
public struct ArticleGroup: Sendable {
    public enum Kind: String, Sendable {
        case meal = "meals"
        case tag = "tags"
    }

    public var kind: Kind
    public var label: Label
    /// Published articles, newest first.
    public var articles: [Article]
    /// Articles of the group left out as drafts: a page with none published says so.
    public var draftCount: Int

    public var heading: GroupHeading { GroupHeading(kind: kind, label: label, count: articles.count, draftCount: draftCount) }
    public var path: String { heading.path }
    public var isPublished: Bool { heading.isPublished }
}

/// What a group's pages show of the group besides their own articles: made without the
/// group's other articles, which a rebuild of one of its pages does not read.
public struct GroupHeading: Sendable, Hashable {
    public var kind: ArticleGroup.Kind
    public var label: Label
    /// Published articles.
    public var count: Int
    public var draftCount: Int

    public var path: String { "\(kind.rawValue)/\(label.slug.text)/" }

    /// Whether the group has a published article. One of drafts only keeps its page, which
    /// says so, but is in no list nor sitemap and is marked `noindex`: readers would find
    /// nothing there, and search engines would learn a draft's tags.
    public var isPublished: Bool { count > 0 }

    public init(kind: ArticleGroup.Kind, label: Label, count: Int, draftCount: Int) {
        self.kind = kind
        self.label = label
        self.count = count
        self.draftCount = draftCount
    }
}

/// What a restaurant's page shows of an article: its title and where it is.
public struct ArticleLink: Sendable, Equatable {
    public var sourcePath: String
    public var title: String
    public var pagePath: String
}

extension ArticleLink {
    public init(_ article: Article) {
        self.init(sourcePath: article.sourcePath, title: article.title, pagePath: article.pagePath)
    }
}

/// A restaurant as `/restaurants/` and the map show it, each restaurant a page of its own
/// at `/restaurants/<slug>/` (`RestaurantPage`).
public struct RestaurantEntry: Sendable, Equatable {
    public var name: String
    /// The restaurant's `Restaurant.slug`.
    public var slug: String
    public var address: String?
    public var latitude: Double?
    public var longitude: Double?
    /// How many published articles are about it.
    public var count: Int

    public var hasCoordinates: Bool { latitude != nil && longitude != nil }

    /// The restaurant as an article names it, for the views an article's restaurant has.
    public var restaurant: Restaurant { Restaurant(name: name, address: address, latitude: latitude, longitude: longitude, slug: slug) }

    /// Where the entry goes among the restaurants: by name, whatever its case, then slug.
    public var orderKey: (String, String) { (name.lowercasedBytewise, slug) }

    public var path: String { RestaurantEntry.path(ofSlug: slug) }

    public static func path(ofSlug slug: String) -> String { "restaurants/\(slug)/" }

    /// The name an article gives its restaurant: the address stands in for a missing one.
    public static func name(of restaurant: Restaurant?) -> String? {
        restaurant.flatMap { $0.name ?? $0.address }
    }

    public init(name: String, slug: String, address: String? = nil, latitude: Double? = nil, longitude: Double? = nil, count: Int) {
        self.name = name
        self.slug = slug
        self.address = address
        self.latitude = latitude
        self.longitude = longitude
        self.count = count
    }
}

/// A restaurant's page: the restaurant and its published articles, newest first. Only the
/// page shows their titles, so a title edit renders it alone.
public struct RestaurantPage: Sendable {
    public var entry: RestaurantEntry
    public var articles: [ArticleLink]

    public init(entry: RestaurantEntry, articles: [ArticleLink]) {
        self.entry = entry
        self.articles = articles
    }
}

/// One numbered page of a list: `/`, `/page/2/`, `/tags/toast/page/2/`.
public struct ListPage: Sendable {
    public var number: Int
    public var count: Int
    /// The list's first page, such as `tags/toast/`; "" for the home page.
    public var base: String
    public var articles: [Article]

    public static func split(_ articles: [Article], base: String, size: Int) -> [ListPage] {
        let count = pageCount(of: articles.count, size: size)
        return (1...count).map { number in
            ListPage(number: number, count: count, base: base, articles: Array(articles[range(of: number, in: articles.count, size: size)]))
        }
    }

    /// How many pages a list of `count` articles takes, `size` to a page (an empty list has
    /// its one page, which says so).
    public static func pageCount(of count: Int, size: Int) -> Int {
        max(1, (count + size - 1) / size)
    }

    /// The places of the articles on page `number` of a list of `count`.
    public static func range(of number: Int, in count: Int, size: Int) -> Range<Int> {
        min((number - 1) * size, count)..<min(number * size, count)
    }

    public static func path(base: String, number: Int) -> String {
        number == 1 ? base : "\(base)page/\(number)/"
    }

    public var path: String { ListPage.path(base: base, number: number) }

    public init(number: Int, count: Int, base: String, articles: [Article]) {
        self.number = number
        self.count = count
        self.base = base
        self.articles = articles
    }
}
