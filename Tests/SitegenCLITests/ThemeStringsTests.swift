import Foundation
import SitegenCLI
@testable import SitegenPipeline
import SitegenTestSupport
import Testing

/// The theme's words: the default theme's table, a site's `strings:`, a theme's language
/// of its own, and the English each missing word falls back to.
@Suite("The theme's words")
struct ThemeStringsTests {
    private func build(_ folder: TemporaryFolder, cached: Bool = false, output: String = "out") -> (Int32, String) {
        let console = CapturedConsole()
        let cache = cached ? ["--cache-dir", folder.url.appendingPathComponent("cache").path] : ["--no-cache"]
        let status = CommandLineTool.run(arguments: ["build", "--quiet", "--source", folder.url.appendingPathComponent("site").path,
                                                     "--output", folder.url.appendingPathComponent(output).path, "--today", "2026-11-01"] + cache,
                                         console: console.console)
        return (status, console.error)
    }

    private func page(_ folder: TemporaryFolder, _ path: String, output: String = "out") -> String {
        (try? String(contentsOf: folder.url.appendingPathComponent(output).appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    @Test func aSiteWritesAWordOtherwise() throws {
        let folder = TemporaryFolder()
        try folder.write("title: Bites\nbase_url: https://example.org/\nstrings:\n  skipToContent: Skip to the story\n  skipToContnet: x\n", to: "site/Content/site.yaml")
        let (status, problems) = build(folder)
        #expect(status == 0)
        #expect(problems == "Content/site.yaml:5:3: warning: 'strings' has 'skipToContnet', which no word of the theme is; did you mean 'skipToContent'?\n")
        #expect(page(folder, "index.html").contains("<a class=\"skip-link\" href=\"#content\">Skip to the story</a>"))
        #expect(page(folder, "404.html").contains("<h1 class=\"page-title\">Page not found</h1>"))
    }

    @Test func aThemeAddsALanguageAndEnglishFillsItsGaps() throws {
        let folder = TemporaryFolder()
        try folder.write("title: Bouchées\nbase_url: https://example.org/\nlanguage: fr-CA\ntheme: mine\n", to: "site/Content/site.yaml")
        try folder.write("skipToContent: Aller au contenu\narticles: Articles\nmap: Carte\n", to: "site/Themes/mine/strings/fr.yaml")
        let (status, problems) = build(folder)
        #expect(status == 0)
        let warnings = problems.split(separator: "\n")
        #expect(warnings.contains("Themes/mine/strings/fr.yaml:1:1: warning: the strings of 'fr' have no 'browse': it is shown in English ('Browse'); add it there, or to 'strings' in site.yaml"))
        #expect(warnings.count == ThemeStrings.english.values.count - 3)
        let home = page(folder, "index.html")
        #expect(home.contains(">Aller au contenu</a>") && home.contains(">Carte</a>") && home.contains(">Meals</a>"))
        // The table is not published.
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("out/strings").path))
    }

    @Test func theThemeCheckKnowsTheWords() throws {
        let folder = TemporaryFolder()
        try folder.write("title: Bites\nbase_url: https://example.org/\ntheme: mine\n", to: "site/Content/site.yaml")
        try folder.write("<footer>{{t.browse}} {{t.brwose}}</footer>\n", to: "site/Themes/mine/footer.mustache")
        #expect(build(folder).1 == "Themes/mine/footer.mustache:1:22: warning: the theme's strings have no word 'brwose': it is always missing, as if empty; did you mean 'browse'?\n")
    }

    @Test func aChangedWordIsRebuiltThroughTheCache() throws {
        let folder = TemporaryFolder()
        try folder.write("title: Bites\nbase_url: https://example.org/\n", to: "site/Content/site.yaml")
        try folder.write("---\ntitle: Toast\ndate: 2026-10-01\n---\nText.\n", to: "site/Content/articles/toast.md")
        #expect(build(folder, cached: true).0 == 0)
        try folder.write("title: Bites\nbase_url: https://example.org/\nstrings: {map: Where to eat}\n", to: "site/Content/site.yaml")
        #expect(build(folder, cached: true).0 == 0)
        #expect(build(folder, output: "fresh").0 == 0)
        #expect(FolderSnapshot(folder.url.appendingPathComponent("out")).files == FolderSnapshot(folder.url.appendingPathComponent("fresh")).files)
        #expect(page(folder, "articles/toast/index.html").contains(">Where to eat</a>"))
    }

    @Test func aLanguageFindsItsTable() {
        let tables: Set<String> = ["en", "zh-HK", "zh-CN", "fr"]
        #expect(ThemeStrings.table(for: "zh-HK", among: tables) == "zh-HK")
        #expect(ThemeStrings.table(for: "zh-Hant-TW", among: tables) == "zh-HK")
        #expect(ThemeStrings.table(for: "zh-MO", among: tables) == "zh-HK")
        #expect(ThemeStrings.table(for: "zh", among: tables) == "zh-CN")
        #expect(ThemeStrings.table(for: "zh-Hans-SG", among: tables) == "zh-CN")
        #expect(ThemeStrings.table(for: "fr-CA", among: tables) == "fr")
        #expect(ThemeStrings.table(for: "en-HK", among: tables) == "en")
        #expect(ThemeStrings.table(for: "de", among: tables) == "en")
    }

    @Test(arguments: ["zh-HK", "zh-CN"])
    func theDefaultThemesChineseTablesHaveEveryWord(_ language: String) throws {
        let folder = TemporaryFolder()
        try folder.write("title: 小食\nbase_url: https://example.org/\nlanguage: \(language)\n", to: "site/Content/site.yaml")
        try folder.write("---\ntitle: 奶茶\ndate: 2026-10-01\n---\n茶底要香。\n", to: "site/Content/articles/tea.md")
        #expect(build(folder) == (0, ""))
        #expect(page(folder, "index.html").contains(language == "zh-HK" ? ">跳至內容</a>" : ">跳到内容</a>"))
        #expect(page(folder, "index.html").contains("<html lang=\"\(language)\">"))
    }
}
