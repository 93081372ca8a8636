import Foundation
import SitegenContent
import SitegenPipeline
import SitegenTestSupport
import Testing

/// An article's rating on its page, on its card, and in its schema.org data, as the
/// fixture site of every name (Tests/Fixtures/every-name) is built.
@Suite("Ratings on pages")
struct RatingPageTests {
    private static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/every-name")

    /// A built site, in a folder removed with it.
    private struct Built {
        let folder: TemporaryFolder
        var output: URL { folder.url.appendingPathComponent("out") }

        func page(_ path: String) throws -> String {
            try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
        }
    }

    /// The site built into a new folder, with the article's rating as `rating`.
    private func build(rating: String?) throws -> Built {
        let folder = TemporaryFolder()
        let site = folder.url.appendingPathComponent("site")
        try FileManager.default.copyItem(at: Self.fixture, to: site)
        let article = site.appendingPathComponent("Content/articles/2026-11-20-egg-tarts.md")
        let text = try String(contentsOf: article, encoding: .utf8).replacingOccurrences(of: "rating: 4.5\n", with: rating.map { "rating: \($0)\n" } ?? "")
        try text.write(to: article, atomically: false, encoding: .utf8)
        let output = folder.url.appendingPathComponent("out")
        let report = SiteBuilder.build(BuildOptions(source: site.path, output: output.path, today: "2026-11-25T15:00"), reuse: nil) { _ in }
        #expect(report.diagnostics.isEmpty && report.commandError == nil, "\(report.diagnostics)")
        return Built(folder: folder)
    }

    /// The page's schema.org data.
    private func jsonLD(_ page: String) throws -> [String: Any] {
        let start = try #require(page.range(of: "<script type=\"application/ld+json\">"))
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        return try #require(try JSONSerialization.jsonObject(with: Data(page[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
    }

    @Test func showsStarsReadAloudAsANumberOutOfFive() throws {
        let built = try build(rating: "4.5")
        let stars = "<span class=\"rating\" role=\"img\" aria-label=\"4.5 out of 5\">★★★★½</span>"
        #expect(try built.page("articles/egg-tarts/index.html").contains(stars))
        #expect(try built.page("index.html").contains(stars))
        #expect(try build(rating: "0.5").page("articles/egg-tarts/index.html").contains("aria-label=\"0.5 out of 5\">½☆☆☆☆</span>"))
        #expect(try !build(rating: nil).page("articles/egg-tarts/index.html").contains("class=\"rating\""))
    }

    @Test func makesTheArticleAReviewOfItsRestaurant() throws {
        let data = try jsonLD(try build(rating: "3").page("articles/egg-tarts/index.html"))
        #expect(data["@type"] as? String == "Review")
        #expect(data["about"] == nil)
        let reviewed = try #require(data["itemReviewed"] as? [String: Any])
        #expect(reviewed["@type"] as? String == "Restaurant" && reviewed["name"] as? String == "Tai Cheong Bakery")
        let rating = try #require(data["reviewRating"] as? [String: Any])
        #expect(rating["@type"] as? String == "Rating")
        #expect(rating["ratingValue"] as? Int == 3 && rating["bestRating"] as? Int == 5 && rating["worstRating"] as? Int == 0)
        #expect(data["headline"] as? String == "Egg tarts")

        let unrated = try jsonLD(try build(rating: nil).page("articles/egg-tarts/index.html"))
        #expect(unrated["@type"] as? String == "Article" && unrated["about"] != nil && unrated["reviewRating"] == nil)
    }
}
