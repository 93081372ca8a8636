import SitegenContent

/// When a build is, for articles' dates: an article dated after it is scheduled, and left
/// out unless the build is asked for the future (`--future`, `serve`), which marks it.
public struct ArticleSchedule: Sendable, Hashable {
    /// Seconds since 1970 (`BuildSettings.clock`).
    public var clock: Int
    public var includeFuture: Bool

    public init(clock: Int, includeFuture: Bool) {
        self.clock = clock
        self.includeFuture = includeFuture
    }

    /// Every article, none of them scheduled: for an index made in a test.
    public static let everything = ArticleSchedule(clock: .max, includeFuture: true)

    public func isScheduled(_ article: Article) -> Bool {
        article.instant > clock
    }
}
