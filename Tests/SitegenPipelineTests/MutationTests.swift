import Foundation
import SitegenContent
@testable import SitegenPipeline
import SitegenSupport
import SitegenTestSupport
import SitegenYAML
import Testing

/// Mutated copies of a valid article go through the parse and validate stages: every
/// outcome is a model or located diagnostics, never a crash or a hang.
@Suite("Mutated content")
struct MutationTests {
    static let article = Array("""
        ---
        title: Lovely Breakfast
        date: 2016-05-20T08:00+08:00
        author: {name: The Dreamer, username: dreamer}
        cover: {src: https://example.org/toast.jpg, alt: Toast, width: 1080, height: 810}
        meal: Breakfast
        price: {amount: 34, currency: HKD}
        restaurant: {name: Toast Box, address: "Nathan Rd", lat: 22.3048, lon: 114.1713}
        tags: [toast, "milk tea"]
        anchors: &a [x, *a]
        ---
        Start your *day* with this.

        ![Eggs](https://example.org/egg.jpg)

        Eggs are a must.

        """.utf8)

    static let alphabet = Array("-:{}[],&*!|>'\"#\n\t \r%@`?0123456789abcTZ.\\".utf8) + [0x00, 0xC3, 0xA9, 0xFF, 0xEF, 0xBB, 0xBF]

    @Test func everyMutationEndsInAModelOrLocatedDiagnostics() throws {
        var seedSource = UInt64(42)
        let site = Site(node: try YAMLReader.read(Array("title: T\ntimezone: Asia/Hong_Kong\n".utf8), path: "Content/site.yaml"), log: DiagnosticLog())
        let context = ModelContext(site: site, teachers: [:], images: ImageLookup(staticFiles: []) { _, _ in nil })
        for round in 0..<3000 {
            seedSource = seedSource &* 6364136223846793005 &+ 1442695040888963407
            var generator = SplitMix(seed: seedSource)
            var bytes = Self.article
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let position = Int.random(in: 0..<max(bytes.count, 1), using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0 where !bytes.isEmpty: bytes.remove(at: position)
                case 1: bytes.insert(Self.alphabet.randomElement(using: &generator)!, at: position)
                default: if !bytes.isEmpty { bytes[position] = Self.alphabet.randomElement(using: &generator)! }
                }
            }
            let path = "Content/articles/a\(round).md"
            var diagnostics: [Diagnostic] = []
            var built = false
            if let problem = UTF8Check.firstInvalidByte(in: bytes, path: path) {
                diagnostics.append(problem)
            } else {
                do throws(Diagnostic) {
                    let document = try FrontMatter.split(bytes, path: path)
                    let node = try YAMLReader.read(document.frontMatter, path: path, firstLine: document.frontMatterFirstLine)
                    let file = ContentFile(path: path, contentPath: "articles/a\(round).md", frontMatter: node, body: document.body, bodyFirstLine: document.bodyFirstLine)
                    let log = DiagnosticLog()
                    built = (try? Article(file: file, context: context, log: log)) != nil
                    diagnostics += log.entries
                } catch {
                    diagnostics.append(error)
                }
            }
            let lineCount = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
            #expect(built || diagnostics.contains { $0.severity == .error }, "round \(round): neither a model nor an error")
            for diagnostic in diagnostics {
                #expect(diagnostic.location.path == path)
                #expect((1...max(lineCount, 1)).contains(diagnostic.location.line), "round \(round): \(diagnostic)")
                #expect(diagnostic.location.column >= 1)
            }
        }
    }
}
