import Foundation
import SitegenContent
@testable import SitegenPipeline
import SitegenMustache
import SitegenYAML
import Testing

@Suite("Default theme")
struct DefaultThemeTests {
    @Test func theBinaryCarriesExactlyThemesDefault() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Themes/default")
        var onDisk: [String: [UInt8]] = [:]
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]))
        for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let path = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
            if path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            onDisk[path] = Array(try Data(contentsOf: url))
        }
        #expect(Set(DefaultTheme.paths) == Set(onDisk.keys), "run Scripts/embed-files.py")
        for (path, bytes) in onDisk {
            #expect(DefaultTheme.file(path) == bytes, "\(path) differs from the embedded copy: run Scripts/embed-files.py")
        }
    }

    @Test func compilesWithEveryRequiredTemplate() {
        let log = DiagnosticLog()
        let theme = Theme.load(from: [:], name: "default", log: log)
        #expect(log.entries.isEmpty)
        #expect(theme != nil)
        for name in Theme.requiredTemplates { #expect(theme?.library[name] != nil) }
    }

    /// The layout renders the header and footer over the site, which says who it is: a build
    /// makes each once and every page shows the same bytes.
    @Test func makesTheHeaderAndFooterOnceForEveryPage() throws {
        let theme = try #require(Theme.load(from: [:], name: "default", log: DiagnosticLog()))
        let site = Site(node: try YAMLReader.read(Array("title: Food & Homework\nbase_url: https://example.org/food/\n".utf8), path: "Content/site.yaml"), log: DiagnosticLog())
        let about = MustacheValue.fields(["title": "About", "url": "/food/about/"])
        let siteView = MustacheValue.object(SiteView(site: site, pages: [about], assets: .fields([:])))
        func page(_ title: String) -> MustacheValue {
            .fields(["site": siteView, "meta": .fields(["title": .string(title), "description": "A page"]), "today": "2026-11-25"])
        }
        let library = theme.library
        let memo = MustachePartialMemo()
        for title in ["Page not found", "Not here either"] {
            var used: Set<String> = []
            let remembered = String(decoding: try library.renderBytes(library["404"]!, with: page(title), usedTemplates: &used, memo: memo), as: UTF8.self)
            #expect(remembered == (try library.render(library["404"]!, with: page(title))))
            #expect(used.isSuperset(of: ["header", "footer", "layout", "404"]))
            #expect(remembered.contains("<a class=\"site-title\" href=\"/food/\">Food &amp; Homework</a>"))
            #expect(remembered.contains("<li><a href=\"/food/about/\">About</a></li>"))
            #expect(remembered.contains("<p>Food &amp; Homework</p>"))
            #expect(memo.count == 2)
        }
    }
}
