import SitegenContent
import SitegenLocking
import SitegenMustache
import Synchronization

/// Each article's values and card for one render run, made by the first of its views to be
/// asked for, by the article's identity (not its source path hashed as a String). One card
/// for all the lists an article is in, rather than a box and its retains for each list, to
/// be asked only who it is (`MustachePartialMemo` has its HTML).
///
/// A full build makes them ahead (`makeAhead`) while it builds the index, which leaves the
/// other core mostly idle; the render stage then finds them made.
public final class ArticleViewMemo: Sendable {
    public let context: ViewContext
    public let reads = ArticleView.Reads()
    private let made = Locked<[ObjectIdentifier: Made]>([:])
    private let stopped = Atomic<Bool>(false)

    public struct Made: Sendable {
        public let values: ArticleValues
        public let card: MustacheValue
    }

    public init(context: ViewContext) {
        self.context = context
    }

    /// The cards of a list, the known ones looked up under one lock.
    public func cards(_ articles: [Article]) -> MustacheValue {
        var cards = made.withLock { known in articles.map { known[$0.identity]?.card ?? .null } }
        for index in cards.indices {
            if case .null = cards[index] { cards[index] = self[articles[index]].card }
        }
        return .array(cards)
    }

    public subscript(article: Article) -> Made {
        entry(for: article).made
    }

    /// The article's values and card, and whether this call is the one that kept them.
    private func entry(for article: Article) -> (made: Made, isNew: Bool) {
        let identity = article.identity
        if let known = made.withLock({ $0[identity] }) { return (known, false) }
        // Made outside the lock: two threads may make the same values; the first is kept.
        let values = ArticleValues(article, context: context)
        let new = Made(values: values, card: .object(ArticleView(article: article, variant: .card(reads: reads), context: context, values: values)))
        return made.withLock { known in
            if let first = known[identity] { return (first, false) }
            known[identity] = new
            return (new, true)
        }
    }

    /// Makes the values and cards of `articles`, in their order, until `stop` is called:
    /// what is left is made when the render stage first asks for it. Returns how many it
    /// made (articles already made are passed over).
    @discardableResult
    public func makeAhead(_ articles: [Article]) -> Int {
        var count = 0
        for article in articles {
            if stopped.load(ordering: .relaxed) { break }
            if entry(for: article).isNew { count += 1 }
        }
        return count
    }

    /// Ends `makeAhead`: from the render stage on, the cores render.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
    }
}
