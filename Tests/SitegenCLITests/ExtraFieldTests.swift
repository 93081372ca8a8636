import Foundation
import SitegenCLI
import SitegenTestSupport
import Testing

/// `extra:` as a theme shows it: the author's own fields on the pages of a template
/// override, escaped, never warned about, and rebuilt when they change.
@Suite("Fields of the author's own on pages")
struct ExtraFieldTests {
    private static let footer = """
        <footer>{{#site.extra}}<a href="https://www.instagram.com/{{instagram}}/">@{{instagram}}</a>{{/site.extra}}\
        {{#article.extra.opening_hours}}<p class="hours">Open {{.}}</p>{{/article.extra.opening_hours}}\
        {{#article.extra.dishes}}<i>{{.}}</i>{{/article.extra.dishes}}{{#page.extra.phone}}<p class="phone">{{page.extra.phone}}</p>{{/page.extra.phone}}</footer>
        """

    private func site(hours: String) throws -> TemporaryFolder {
        let folder = TemporaryFolder()
        try folder.write("title: Bites\nbase_url: https://example.org/\ntheme: mine\nextra: {instagram: hkbites}\n", to: "site/Content/site.yaml")
        try folder.write("---\ntitle: Toast\ndate: 2026-10-01\nsummary: Toast.\ncover: {src: https://example.org/a.jpg, alt: A}\nextra:\n  opening_hours: \(hours)\n  dishes: [toast, eggs]\n---\nText.\n",
                         to: "site/Content/articles/toast.md")
        try folder.write("---\ntitle: About\nextra: {phone: \"+852 2345 6789\"}\n---\nUs.\n", to: "site/Content/pages/about.md")
        try folder.write(Self.footer, to: "site/Themes/mine/footer.mustache")
        return folder
    }

    private func build(_ folder: TemporaryFolder, output: String, cached: Bool) -> (Int32, String) {
        let console = CapturedConsole()
        let cache = cached ? ["--cache-dir", folder.url.appendingPathComponent("cache").path] : ["--no-cache"]
        let status = CommandLineTool.run(arguments: ["build", "--strict", "--quiet", "--source", folder.url.appendingPathComponent("site").path,
                                                     "--output", folder.url.appendingPathComponent(output).path, "--today", "2026-10-02"] + cache,
                                         console: console.console)
        return (status, console.error)
    }

    private func page(_ folder: TemporaryFolder, _ output: String, _ path: String) throws -> String {
        try String(contentsOf: folder.url.appendingPathComponent(output).appendingPathComponent(path), encoding: .utf8)
    }

    @Test func reachTemplatesEscapedAndWithoutAWarning() throws {
        let folder = try site(hours: "\"7am <b>to</b> 3pm\"")
        let (status, problems) = build(folder, output: "out", cached: false)
        #expect(status == 0)
        #expect(problems == "")
        let article = try page(folder, "out", "articles/toast/index.html")
        #expect(article.contains("<a href=\"https://www.instagram.com/hkbites/\">@hkbites</a>"))
        #expect(article.contains("<p class=\"hours\">Open 7am &lt;b&gt;to&lt;/b&gt; 3pm</p><i>toast</i><i>eggs</i>"))
        #expect(try page(folder, "out", "about/index.html").contains("<p class=\"phone\">+852 2345 6789</p>"))
        #expect(try !page(folder, "out", "index.html").contains("class=\"hours\""))
    }

    @Test func aChangedFieldIsRebuiltThroughTheCache() throws {
        let folder = try site(hours: "7am to 3pm")
        #expect(build(folder, output: "out", cached: true).0 == 0)
        try folder.write("---\ntitle: Toast\ndate: 2026-10-01\nsummary: Toast.\ncover: {src: https://example.org/a.jpg, alt: A}\nextra:\n  opening_hours: 8am to 4pm\n  dishes: [toast]\n---\nText.\n",
                         to: "site/Content/articles/toast.md")
        try folder.write("title: Bites\nbase_url: https://example.org/\ntheme: mine\nextra: {instagram: hkbites2}\n", to: "site/Content/site.yaml")
        #expect(build(folder, output: "out", cached: true).0 == 0)
        #expect(build(folder, output: "fresh", cached: false).0 == 0)
        for path in ["articles/toast/index.html", "index.html", "about/index.html"] {
            #expect(try page(folder, "out", path) == page(folder, "fresh", path), "\(path)")
        }
        #expect(try page(folder, "out", "articles/toast/index.html").contains("Open 8am to 4pm</p><i>toast</i></footer>"))
        #expect(try page(folder, "out", "about/index.html").contains("@hkbites2"))

        // The article alone: the build that rebuilds only what one article's edit shows.
        try folder.write("---\ntitle: Toast\ndate: 2026-10-01\nsummary: Toast.\ncover: {src: https://example.org/a.jpg, alt: A}\nextra: {opening_hours: 9am}\n---\nText.\n",
                         to: "site/Content/articles/toast.md")
        #expect(build(folder, output: "out", cached: true).0 == 0)
        #expect(build(folder, output: "fresh", cached: false).0 == 0)
        #expect(try page(folder, "out", "articles/toast/index.html") == page(folder, "fresh", "articles/toast/index.html"))
        #expect(try page(folder, "out", "articles/toast/index.html").contains("Open 9am</p></footer>"))
    }
}
