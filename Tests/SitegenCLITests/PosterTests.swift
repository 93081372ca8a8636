import Foundation
import SitegenCLI
import SitegenQRCode
import SitegenTestSupport
import Testing

/// Each grade's poster: QR codes of its page, its calendar (`webcal:`) and its feed, each
/// with the address it holds; the browser check reads the codes back from a screenshot.
@Suite("Posters")
struct PosterTests {
    private func build(_ source: URL, into output: URL) -> (Int32, String) {
        let console = CapturedConsole()
        let status = CommandLineTool.run(arguments: ["build", "--no-cache", "--quiet", "--source", source.path, "--output", output.path, "--today", "2026-11-25T15:00"],
                                         console: console.console)
        return (status, console.error)
    }

    @Test func eachGradeHasAPosterWithTheCodesOfItsAddresses() throws {
        let folder = TemporaryFolder()
        let output = folder.url.appendingPathComponent("out")
        #expect(build(Repository.root, into: output).0 == 0)
        for grade in ["6", "7", "8"] {
            let page = try String(contentsOf: output.appendingPathComponent("homework/grade-\(grade)/poster/index.html"), encoding: .utf8)
            let addresses = ["https://example.org/homework/grade-\(grade)/", "webcal://example.org/homework/grade-\(grade)/calendar.ics",
                             "https://example.org/homework/grade-\(grade)/feed.xml"]
            let labels = ["Tonight&#39;s homework", "Due dates in your calendar", "Every new assignment"]
            for (address, label) in zip(addresses, labels) {
                // The code on the page is the code of the address printed under it.
                let svg = try #require(QRCode(address, correction: .quartile)).svg(label: "QR code: " + label.replacingOccurrences(of: "&#39;", with: "'"))
                #expect(page.contains(svg), "grade \(grade): \(address)")
                #expect(page.contains("<p class=\"poster-url\">\(address)</p>"))
            }
            #expect(page.contains("<h1 class=\"poster-title\">\(grade)th grade · Homework</h1>"))
            #expect(page.contains("Tonight&#39;s homework of \(grade)th grade, every school day from 2:00\u{202F}PM."))
            let gradePage = try String(contentsOf: output.appendingPathComponent("homework/grade-\(grade)/index.html"), encoding: .utf8)
            #expect(gradePage.contains("<a class=\"row-link\" href=\"/homework/grade-\(grade)/poster/\"><span class=\"row-label\">Print a poster with QR codes</span>"))
        }
    }

    /// Without a base_url there is no address to put in a code: no poster, and no link to one.
    @Test func aSiteWithoutABaseURLHasNoPoster() throws {
        let folder = TemporaryFolder()
        try folder.write("title: School\nhomework:\n  grades: [7]\n", to: "site/Content/site.yaml")
        try folder.write("---\ntitle: Fractions\nsubject: Math\ngrade: 7\nassigned: 2026-11-25\n---\n", to: "site/Content/homework/a.md")
        let output = folder.url.appendingPathComponent("out")
        let (status, errors) = build(folder.url.appendingPathComponent("site"), into: output)
        #expect(status == 0, "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("homework/grade-7/poster").path))
        #expect(!(try String(contentsOf: output.appendingPathComponent("homework/grade-7/index.html"), encoding: .utf8)).contains("poster/"))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("homework/grade-7/tonight.txt").path))
    }
}
