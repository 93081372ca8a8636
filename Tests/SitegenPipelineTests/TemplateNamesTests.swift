import Foundation
import SitegenContent
@testable import SitegenPipeline
import SitegenSupport
import Testing

@Suite("Template names")
struct TemplateNamesTests {
    private func warnings(_ files: [String: String]) -> [String] {
        let log = DiagnosticLog()
        _ = Theme.load(from: files.mapValues { Array($0.utf8) }, name: "mine", log: log)
        return log.entries.map(\.description)
    }

    /// The names the default theme uses are the vocabulary's test: a view name missing from
    /// `TemplateNames.known` that the theme uses fails here.
    @Test func everyNameOfTheDefaultThemeIsOneAPageGives() throws {
        var files: [String: String] = [:]
        for path in DefaultTheme.paths where path.hasSuffix(".mustache") {
            files[path] = String(decoding: try #require(DefaultTheme.file(path)), as: UTF8.self)
        }
        #expect(files.count > 20)
        #expect(warnings(files) == [])
    }

    @Test func aSitesOwnTemplateIsWarnedOfEachNameNoPageGivesAtItsTag() {
        let page = """
            {{<layout}}{{$content}}
            <h1>{{page.titel}}</h1>
            {{#artcles}}<p>{{title}}</p>{{/artcles}}{{^pagination.hasMany}}one page{{/pagination.hasMany}}
            {{#articles.0}}{{articles.count}} {{articles.first.title}} {{articles.2.url}}{{/articles.0}}{{#site.pages}}{{.}}{{/site.pages}}
            <link href="{{site.assets.css.style}}"><link href="{{site.assets.css.print}}">
            {{#articles}}{{>*view}}{{>*viewName}}{{/articles}}
            {{/content}}{{/layout}}
            """
        #expect(warnings(["page.mustache": page]) == [
            "Themes/mine/page.mustache:2:5: warning: no page gives templates a name 'titel' (in 'page.titel'): it is always missing, as if empty; did you mean 'title'?",
            "Themes/mine/page.mustache:3:1: warning: no page gives templates a name 'artcles': it is always missing, as if empty; did you mean 'articles'?",
            "Themes/mine/page.mustache:5:52: warning: no page gives templates a name 'print' (in 'site.assets.css.print'): it is always missing, as if empty; did you mean 'price'?",
            "Themes/mine/page.mustache:6:24: warning: no page gives templates a name 'viewName': it is always missing, as if empty",
        ])
        // A stylesheet of the theme's own is a name of `site.assets`.
        #expect(warnings(["page.mustache": page, "assets/print.css": "@media print {}"]).count == 3)
    }

    /// The default theme's templates a site does not replace are not its to fix.
    @Test func onlyTheSitesOwnTemplatesAreChecked() {
        #expect(warnings(["footer.mustache": "<footer>{{title}} {{description}}</footer>"]) == [])
        #expect(warnings(["footer.mustache": "<footer>{{tilte}}</footer>"]) == [
            "Themes/mine/footer.mustache:1:9: warning: no page gives templates a name 'tilte': it is always missing, as if empty; did you mean 'title'?",
        ])
    }

    @Test func aSwapOfTwoNeighbouringLettersIsOneEdit() {
        #expect(Suggestion.editDistance("titel", "title") == 1)
        #expect(Suggestion.editDistance("titel", "site") == 2)
        #expect(Suggestion.editDistance("ab", "ba") == 1)
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
        // Each letter moves once at most: not "ca" → "ac" → "abc".
        #expect(Suggestion.editDistance("ca", "abc") == 3)
        #expect(Suggestion.closest(to: "titel", among: ["site", "title", "tile"]) == "title")
    }

    /// No hint for a word longer than any name: its distance to each of hundreds of names
    /// is not worked out (a 100,000-character time zone took seconds).
    @Test func aLongWordGetsNoHint() {
        #expect(Suggestion.closest(to: String(repeating: "Asia/Hong_Kong", count: 8_000), among: TimeZone.knownTimeZoneIdentifiers) == nil)
        #expect(Suggestion.closest(to: "Asia/Hong_Kongg", among: TimeZone.knownTimeZoneIdentifiers) == "Asia/Hong_Kong")
        #expect(Suggestion.closest(to: String(repeating: "x", count: Suggestion.longestWord + 1), among: [String(repeating: "x", count: Suggestion.longestWord)]) == nil)
    }
}
