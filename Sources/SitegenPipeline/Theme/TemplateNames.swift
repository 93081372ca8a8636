import SitegenContent
import SitegenMustache
import SitegenSupport

/// The names sitegen's pages give templates, and the check of a theme's templates against
/// them: Mustache renders a name it does not find as nothing, so `{{article.titel}}` would
/// show an empty heading on every page without a word. Names are checked one component at
/// a time, wherever they are used — a name any view has is never reported, though it may
/// be missing on a page (an article without a cover): only a name no page can ever have
/// is a mistake for sure.
public enum TemplateNames {
    /// Every name a view answers: the vocabulary's.
    public static var known: Set<String> { TemplateVocabulary.allNames }

    public static let customStylesheet = "custom"

    /// The name that holds the author's own fields (`extra:`).
    public static let extraFields = "extra"

    /// The name that holds the theme's words (`ThemeStrings`).
    public static let strings = "t"

    /// What every list answers besides its items' names (`MustacheValue.member`).
    public static let listMembers: Set<String> = ["count", "first", "last"]

    /// A warning for each name of the site's own templates that no view answers, at its tag.
    /// `assetNames`: the extensions and names of the theme's fingerprinted assets, which
    /// `site.assets` answers (`{{site.assets.css.style}}`).
    /// `stringKeys`: the theme's words, which `t` answers (`ThemeStrings`).
    public static func check(_ template: MustacheTemplate, assetNames: Set<String>, stringKeys: Set<String>) -> [Diagnostic] {
        template.names.compactMap { name in
            // The author's own fields are theirs to name: nothing after `extra`, nor inside
            // a section of it, is sitegen's.
            guard !name.sections.contains(where: { $0.contains(extraFields) }) else { return nil }
            if let place = name.components.firstIndex(of: strings), place + 1 < name.components.count {
                let key = name.components[place + 1]
                guard !stringKeys.contains(key) else { return nil }
                let hint = Suggestion.closest(to: key, among: Array(stringKeys)).map { "; did you mean '\($0)'?" } ?? ""
                return .warning(at: SourceLocation(path: template.path, line: name.position.line, column: name.position.column),
                                "the theme's strings have no word '\(key)': it is always missing, as if empty\(hint)")
            }
            let checked = name.components.prefix { $0 != extraFields }
            guard let unknown = checked.first(where: { !isKnown($0, assetNames: assetNames) }) else { return nil }
            let dotted = name.components.joined(separator: ".")
            let context = dotted == unknown ? "" : " (in '\(dotted)')"
            let hint = Suggestion.closest(to: unknown, among: Array(known.union(assetNames))).map { "; did you mean '\($0)'?" } ?? ""
            let location = SourceLocation(path: template.path, line: name.position.line, column: name.position.column)
            return .warning(at: location, "no page gives templates a name '\(unknown)'\(context): it is always missing, as if empty\(hint)")
        }
    }

    private static func isKnown(_ component: String, assetNames: Set<String>) -> Bool {
        known.contains(component) || listMembers.contains(component) || assetNames.contains(component)
            || (!component.isEmpty && component.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    }

    /// The names `site.assets` answers for these theme files: `css` and `style` for
    /// `assets/style.css`; and `custom`, the stylesheet a site may add to any theme
    /// (`assets/custom.css`), which the default layout links when it is there.
    public static func assetNames(_ paths: some Sequence<String>) -> Set<String> {
        var names: Set<String> = ["css", customStylesheet]
        for path in paths {
            guard let (stem, ext) = PublishedAssets.fingerprintedParts(of: path) else { continue }
            names.insert(ext.lowercased())
            names.insert(stem)
        }
        return names
    }
}
