import SitegenContent
import SitegenSupport

/// Meals and tags whose names make one address but are not one word in two cases ("C++"
/// and "C#" both make /tags/c/, "Crème brûlée" and "creme brulee" /tags/creme-brulee/):
/// they are one group, shown as its newest article writes it, and each other spelling is
/// a warning at it, naming where the shown one is written.
public enum LabelSpellings {
    /// A published article's label that is its group's in another spelling.
    public struct Other: Sendable {
        var kind: ArticleGroup.Kind
        var article: Article
        var label: Label
    }

    /// A warning at each of `others`, naming where its group's shown spelling is written
    /// (in the group's newest article, which gave the group its name).
    public static func check(_ groups: [ArticleGroup], otherSpellings others: [Other], log: DiagnosticLog) {
        guard !others.isEmpty else { return }
        var bySlug: [GroupKey: ArticleGroup] = [:]
        for group in groups { bySlug[GroupKey(kind: group.kind, slug: group.label.slug)] = group }
        for other in others {
            guard let group = bySlug[GroupKey(kind: other.kind, slug: other.label.slug)], let newest = group.articles.first,
                  let shownAt = place(of: group.label, in: newest, kind: group.kind), let at = place(of: other.label, in: other.article, kind: group.kind)
            else { continue }
            let what = group.kind == .meal ? "meal" : "tag"
            log.warning(at: at, "the \(what) '\(other.label.name)' \(marker) '\(group.label.name)' at \(shownAt), /\(group.path): they are one \(what), shown as '\(group.label.name)'; write them alike, or rename one")
        }
    }

    private struct GroupKey: Hashable {
        var kind: ArticleGroup.Kind
        var slug: Slug
    }

    /// Where `article` writes `label`.
    private static func place(of label: Label, in article: Article, kind: ArticleGroup.Kind) -> SourceLocation? {
        switch kind {
        case .meal:
            return (article.mealPlace ?? article.slugPlace).location(in: article.sourcePath)
        case .tag:
            return zip(article.tags, article.tagPlaces).first { $0.0.name == label.name }.map { $0.1.location(in: article.sourcePath) }
        }
    }

    /// What the warnings say, for a rebuild that keeps the last build's: an edit of meals
    /// or tags while one stands takes the whole index.
    public static let marker = "makes the same address as"

    public static func isWarning(_ diagnostic: Diagnostic) -> Bool {
        diagnostic.severity != .error && diagnostic.message.contains(marker)
    }
}
