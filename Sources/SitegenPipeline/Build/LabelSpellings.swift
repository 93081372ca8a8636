import SitegenContent
import SitegenSupport

/// Meals and tags whose names make one address but are not one word in two cases ("C++"
/// and "C#" both make /tags/c/, "Crème brûlée" and "creme brulee" /tags/creme-brulee/):
/// they are one group, shown as its newest article writes it, and each other spelling is
/// a warning at it, naming where the shown one is written.
public enum LabelSpellings {
    public static func check(_ groups: [ArticleGroup], log: DiagnosticLog) {
        for group in groups {
            let (shown, slug) = (group.label.name, group.label.slug)
            var shownAt: SourceLocation?
            var others: [(name: String, at: SourceLocation)] = []
            func look(_ name: String, _ place: LineAndColumn, _ article: Article) {
                if name == shown {
                    if shownAt == nil { shownAt = place.location(in: article.sourcePath) }
                } else if name.lowercased() != shown.lowercased() {
                    others.append((name, place.location(in: article.sourcePath)))
                }
            }
            for article in group.articles {
                switch group.kind {
                case .meal:
                    if let meal = article.meal { look(meal.name, article.mealPlace ?? article.slugPlace, article) }
                case .tag:
                    for (tag, place) in zip(article.tags, article.tagPlaces) where tag.slug == slug { look(tag.name, place, article) }
                }
            }
            guard let shownAt else { continue }
            let what = group.kind == .meal ? "meal" : "tag"
            for other in others {
                log.warning(at: other.at, "the \(what) '\(other.name)' \(marker) '\(shown)' at \(shownAt), /\(group.path): they are one \(what), shown as '\(shown)'; write them alike, or rename one")
            }
        }
    }

    /// What the warnings say, for a rebuild that keeps the last build's: an edit of meals
    /// or tags while one stands takes the whole index.
    public static let marker = "makes the same address as"

    public static func isWarning(_ diagnostic: Diagnostic) -> Bool {
        diagnostic.severity != .error && diagnostic.message.contains(marker)
    }
}
