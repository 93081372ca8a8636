import Foundation
import SitegenContent
import SitegenPipeline
import SitegenTestSupport
import Testing

/// A tag written as an emoji gets its page, as a tag in any script does
/// (Tests/Fixtures/every-name tags its article `🥚`).
@Suite("Emoji tags on pages")
struct EmojiTagPageTests {
    @Test func anEmojiTagHasItsPageAndLinksToIt() throws {
        let folder = TemporaryFolder()
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/every-name")
        let output = folder.url.appendingPathComponent("out")
        let report = SiteBuilder.build(BuildOptions(source: fixture.path, output: output.path, today: "2026-11-25T15:00"), reuse: nil) { _ in }
        #expect(report.diagnostics.isEmpty && report.commandError == nil, "\(report.diagnostics)")
        let tagPage = try String(contentsOf: output.appendingPathComponent("tags/🥚/index.html"), encoding: .utf8)
        #expect(tagPage.contains("Egg tarts"))
        let article = try String(contentsOf: output.appendingPathComponent("articles/egg-tarts/index.html"), encoding: .utf8)
        #expect(article.contains("href=\"/tags/%F0%9F%A5%9A/\""))
        let sitemap = try String(contentsOf: output.appendingPathComponent("sitemap.xml"), encoding: .utf8)
        #expect(sitemap.contains("<loc>https://example.org/tags/%F0%9F%A5%9A/</loc>"))
        withExtendedLifetime(folder) {}
    }
}
