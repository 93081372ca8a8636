import Foundation
import SitegenContent
import SitegenMustache
import Synchronization

/// An article as templates see it, through its page's view or its card's.
///
/// Three words: a view wider than that was put in a box of its own on the heap by every
/// `.object` and copied through its value witnesses.
public struct ArticleView: MustacheObject {
    public enum Variant: Sendable {
        /// `article`, the article's page.
        case page
        /// `article.card`, in lists; `reads` notes the members templates ask for.
        case card(reads: Reads?)

        /// The view's name (`{{view}}`, and the partial `{{>*view}}` includes).
        public var name: String {
            switch self {
            case .page: "article"
            case .card: "article.card"
            }
        }
    }

    public var article: Article
    public var variant: Variant
    /// What its views show that takes work to make, made once for all of them.
    public var values: ArticleValues

    public init(article: Article, variant: Variant, context: ViewContext, values: ArticleValues? = nil) {
        self.article = article
        self.variant = variant
        self.values = values ?? ArticleValues(article, context: context)
    }

    /// Every member a template can ask an article for, and what the docs say of it; a
    /// member's bit in `Reads` is its place here.
    public static let table = MemberTable<ArticleView>([
        .init("view", "the name of its view, `article` or `article.card`: `{{>*view}}` renders it through that template") { .string($0.variant.name) },
        .init("title", "its title") { .string($0.article.title) },
        .init("slug", "its slug") { .string($0.article.slug.text) },
        .init("url", "its page's path") { .string($0.values.url) },
        .init("datetime", "its date as written, `2016-05-20`") { $0.values.datetime },
        .init("displayDate", "its date for readers, \"May 20, 2016\"") { $0.values.displayDate },
        .init("summary", "its summary") { .string($0.article.summary) },
        .init("cover", "its cover photo", .record("image")) { $0.values.cover },
        .init("meal", "its meal", .record("label")) { $0.values.meal },
        .init("price", "its price for readers, \"HK$ 34\"") { $0.values.price },
        .init("author", "who wrote it", .record("author")) { $0.values.author },
        .init("restaurant", "where the meal was", .record("restaurant")) { $0.values.restaurant(of: $0.article) },
        .init("tags", "its tags", .list("label")) { $0.values.tags },
        .init("body", "the main content, as HTML: `{{{body}}}`") { $0.article.mainHTML.mustacheValue },
        .init("subContents", "the photo sections after it", .list("subContent")) { $0.values.subContents(of: $0.article) },
        .init("draft", "true for a draft (built with `--drafts`)") { .bool($0.article.draft) },
        .init("scheduled", "true for an article dated after the build, shown by `--future` and `serve`") { .bool($0.values.isScheduled) },
        .init("updated", "when it last changed, as written, `2026-12-01`; missing without `updated:`") { $0.values.updated },
        .init("displayUpdated", "the same for readers, \"Dec 1, 2026\"") { $0.values.displayUpdated },
        .init("rating", "how good it was, from 0 to 5 in halves: `4.5`") { $0.article.rating.map { .string($0.text) } ?? .null },
        .init("ratingStars", "the rating as five stars, \"★★★★½\": give it `ratingText` to be read aloud") { view in
            view.article.rating.map { rating in
                let full = rating.halves / 2, half = rating.halves % 2
                return .string(String(repeating: "★", count: full) + (half == 1 ? "½" : "") + String(repeating: "☆", count: 5 - full - half))
            } ?? .null
        },
        .init("ratingText", "the rating in words, \"4.5 out of 5\"") { view in view.article.rating.map { .string(view.values.context.strings.text("ratingText", ["rating": $0.text])) } ?? .null },
        .init("extra", "the article's own fields, from `extra:`: `{{extra.opening_hours}}`", .fields) { $0.article.extra.mustacheValue },
    ])

    /// The members templates asked views for, as bits by their places in `table`: what list
    /// pages can show of an article. The top bit is no member's, and passes no comparison:
    /// the table holds fewer than 63 members.
    public final class Reads: Sendable {
        private let bits = Atomic<UInt64>(0)
        public static let unlisted = UInt64(1) << 63

        public var value: UInt64 { bits.load(ordering: .relaxed) }

        /// Notes the member at `place` in `table`, which the view has just looked up.
        public func note(_ place: Int) {
            let bit = UInt64(1) << UInt64(place)
            if bits.load(ordering: .relaxed) & bit == 0 { bits.bitwiseOr(bit, ordering: .relaxed) }
        }
    }

    /// Whether the cards of `old` and `new` answer alike every member of `read`: a list
    /// showing the one comes out as it did with the other.
    public static func cardsAlike(_ old: Article, _ new: Article, context: ViewContext, read: UInt64) -> Bool {
        ArticleView(article: new, variant: .card(reads: nil), context: context)
            .answersAlike(ArticleView(article: old, variant: .card(reads: nil), context: context), for: read)
    }

    /// Whether `self` and `other` answer alike every member of `read` (bits of `Reads`).
    public func answersAlike(_ other: ArticleView, for read: UInt64) -> Bool {
        read & Reads.unlisted == 0 && ArticleView.table.members.indices.allSatisfy { place in
            let member = ArticleView.table.members[place]
            return read & (UInt64(1) << UInt64(place)) == 0 || MustacheValue.same(member.answer(self), member.answer(other))
        }
    }

    /// Within one render run every view of an article answers alike (the site and its
    /// formats do not change during it); the source path names the article.
    public var mustacheIdentity: MustacheIdentity? {
        switch variant {
        case .page: values.pageIdentity
        case .card: values.cardIdentity
        }
    }

    public func mustacheMember(_ key: String) -> MustacheValue? {
        guard let place = ArticleView.table.place(of: key) else { return nil }
        // Names the view does not have are looked up further down the context stack.
        if case .card(let reads?) = variant { reads.note(place) }
        return ArticleView.table.members[place].answer(self)
    }
}

/// The members of an article's views that take work to make (its URL, dates, price,
/// labels, map links), made once per render run for its page, card and row, which ask for
/// the same ones, some of them twice in a template.
public final class ArticleValues: Sendable {
    public let context: ViewContext
    public let url: String
    public let datetime: MustacheValue
    public let displayDate: MustacheValue
    public let updated: MustacheValue
    public let displayUpdated: MustacheValue
    public let isScheduled: Bool
    public let cover: MustacheValue
    public let meal: MustacheValue
    public let price: MustacheValue
    public let author: MustacheValue
    public let tags: MustacheValue
    /// The `mustacheIdentity` of the article's views, made once instead of at each partial.
    public let pageIdentity: MustacheIdentity
    public let cardIdentity: MustacheIdentity

    public init(_ article: Article, context: ViewContext) {
        self.context = context
        pageIdentity = MustacheIdentity(ArticleView.Variant.page.name + "\u{0}" + article.sourcePath)
        cardIdentity = MustacheIdentity(ArticleView.Variant.card(reads: nil).name + "\u{0}" + article.sourcePath)
        url = context.url(article.pagePath)
        datetime = .string(article.date.description)
        displayDate = .string(context.formats.date(article.date.date))
        updated = article.updated.map { .string($0.description) } ?? .null
        displayUpdated = article.updated.map { .string(context.formats.date($0.date)) } ?? .null
        isScheduled = article.instant > context.clock
        cover = article.cover.map(context.image) ?? .null
        meal = article.meal.map { context.label($0, kind: .meal) } ?? .null
        price = article.price.map { .string(context.formats.price($0)) } ?? .null
        author = article.author.map { .fields(["name": .string($0.name), "username": $0.username.map(MustacheValue.string) ?? .null]) } ?? .null
        tags = .array(article.tags.map { context.label($0, kind: .tag) })
    }

    /// Made when asked for, once the index has said which page is its restaurant's (the
    /// view context keeps it once made).
    public func restaurant(of article: Article) -> MustacheValue {
        article.restaurant.map { context.restaurant($0, of: article.sourcePath) } ?? .null
    }

    /// Made when asked for: only an article's own page shows them.
    public func subContents(of article: Article) -> MustacheValue {
        .array(article.subContents.map { .fields(["image": context.image($0.image), "html": $0.html.mustacheValue]) })
    }
}
