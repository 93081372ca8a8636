import SitegenContent
import SitegenSupport

/// Meals and tags whose names make one address but are not one word in two cases ("C++"
/// and "C#" both make /tags/c/, "Crème brûlée" and "creme brulee" /tags/creme-brulee/):
/// they are one group, shown as its newest article writes it, and each other spelling is
/// a warning at it, naming where the shown one is written.
public enum LabelSpellings {
    public static func check(_ groups: [ArticleGroup], log: DiagnosticLog) {
        for group in groups {
            let shown = group.label.name
            var shownAt: SourceLocation?
            var others: [(name: String, at: SourceLocation)] = []
            for article in group.articles {
                for (name, place) in spellings(in: article, of: group) {
                    if name == shown {
                        if shownAt == nil { shownAt = place.location(in: article.sourcePath) }
                    } else if name.lowercased() != shown.lowercased() {
                        others.append((name, place.location(in: article.sourcePath)))
                    }
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

    /// How `article` writes the labels of `group`'s slug, and where.
    private static func spellings(in article: Article, of group: ArticleGroup) -> [(name: String, place: LineAndColumn)] {
        switch group.kind {
        case .meal:
            guard let meal = article.meal, meal.slug == group.label.slug else { return [] }
            return [(meal.name, article.mealPlace ?? article.slugPlace)]
        case .tag:
            return zip(article.tags, article.tagPlaces).compactMap { tag, place in tag.slug == group.label.slug ? (tag.name, place) : nil }
        }
    }
}
