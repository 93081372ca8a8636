import Foundation
import SitegenContent
@testable import SitegenPipeline
import SitegenSupport
import SitegenYAML
import Testing

@Suite("Feed content")
struct FeedContentTests {
    @Test func makesRootRelativeURLsAbsoluteAsTheBytewiseRuleDoes() throws {
        let site = Site(node: try YAMLReader.read(Array("title: Food\nbase_url: https://example.org/food/\n".utf8), path: "Content/site.yaml"), log: DiagnosticLog())
        let context = ViewContext(site: site, formats: Formats(language: site.language))
        let origin = Array(site.origin!.utf8)
        func absolutized(_ html: String) -> String { String(decoding: Publishing.absolutized(Array(html.utf8), context: context), as: UTF8.self) }
        // The rule as first written: both attributes tried at every byte.
        func reference(_ html: String) -> String {
            var output: [UInt8] = []
            let patterns = [Array("src=\"/".utf8), Array("href=\"/".utf8)]
            var bytes = Array(html.utf8)
            bytes.append(0)
            var index = 0
            while index < bytes.count - 1 {
                var matched = 0
                for pattern in patterns where bytes[index] == pattern[0] && index + pattern.count < bytes.count
                    && bytes[index..<(index + pattern.count)].elementsEqual(pattern) && bytes[index + pattern.count] != UInt8(ascii: "/") {
                    matched = pattern.count
                }
                if matched > 0 {
                    output.append(contentsOf: bytes[index..<(index + matched - 1)])
                    output.append(contentsOf: origin)
                    output.append(UInt8(ascii: "/"))
                    index += matched
                } else {
                    output.append(bytes[index])
                    index += 1
                }
            }
            return String(decoding: output, as: UTF8.self)
        }
        var generator = SystemRandomNumberGenerator()
        let pieces = ["<a href=\"/", "<img src=\"/", "src=\"//", "href=\"", "\"/", "/", "\"", "src=", "href=", "data-src=\"/", "x", "é", " ", "\n", "articles/a/"]
        for _ in 0..<5_000 {
            let html = (0..<Int.random(in: 0...10, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(absolutized(html) == reference(html), "\(html.debugDescription)")
        }
        #expect(absolutized("<img src=\"/food/a.jpg\"> <a href=\"//cdn.example/x\">")
            == "<img src=\"https://example.org/food/a.jpg\"> <a href=\"//cdn.example/x\">")
    }
}
