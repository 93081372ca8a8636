import Foundation
import SitegenCLI
import SitegenTestSupport
import Testing

/// Tags and meals whose names make one address: one group, and a warning at each other
/// spelling that names where the shown one is written.
@Suite("Two spellings of one address")
struct LabelSpellingTests {
    private func write(_ folder: TemporaryFolder, _ articles: [String: String]) throws {
        try folder.write("title: Bites\nbase_url: https://example.org/\n", to: "site/Content/site.yaml")
        for (name, front) in articles {
            try folder.write("---\n\(front)summary: S.\ncover: {src: https://example.org/c.jpg, alt: C}\n---\nText.\n", to: "site/Content/articles/\(name).md")
        }
    }

    private func build(_ folder: TemporaryFolder, cached: Bool = false) -> (Int32, String) {
        let console = CapturedConsole()
        let cache = cached ? ["--cache-dir", folder.url.appendingPathComponent("cache").path] : ["--no-cache"]
        let status = CommandLineTool.run(arguments: ["build", "--source", folder.url.appendingPathComponent("site").path, "--today", "2026-11-01", "--quiet"] + cache,
                                         console: console.console)
        return (status, console.error)
    }

    @Test func reportsEachOtherSpellingWithBothPlaces() throws {
        let folder = TemporaryFolder()
        try write(folder, [
            "a": "title: A\ndate: 2026-10-01\nmeal: Brunch\ntags: [C#, Crème brûlée, toast]\n",
            "b": "title: B\ndate: 2026-10-02\nmeal: brunch\ntags: [C++, creme brulee, Toast]\n",
            "c": "title: C\ndate: 2026-10-03\nmeal: \"Brunch!\"\ntags: [C++]\n",
        ])
        let (status, problems) = build(folder)
        #expect(status == 0)
        #expect(problems == """
            Content/articles/a.md:4:7: warning: the meal 'Brunch' makes the same address as 'Brunch!' at Content/articles/c.md:4:7, /meals/brunch/: they are one meal, shown as 'Brunch!'; write them alike, or rename one
            Content/articles/a.md:5:8: warning: the tag 'C#' makes the same address as 'C++' at Content/articles/c.md:5:8, /tags/c/: they are one tag, shown as 'C++'; write them alike, or rename one
            Content/articles/a.md:5:12: warning: the tag 'Crème brûlée' makes the same address as 'creme brulee' at Content/articles/b.md:5:13, /tags/creme-brulee/: they are one tag, shown as 'creme brulee'; write them alike, or rename one
            Content/articles/b.md:4:7: warning: the meal 'brunch' makes the same address as 'Brunch!' at Content/articles/c.md:4:7, /meals/brunch/: they are one meal, shown as 'Brunch!'; write them alike, or rename one

            """)
        // Under --strict they fail the build, as a probable mistake.
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--strict", "--source", folder.url.appendingPathComponent("site").path, "--today", "2026-11-01", "--quiet"],
                                    console: console.console) == 1)
    }

    @Test func theCacheReportsWhatAWholeBuildReports() throws {
        let folder = TemporaryFolder()
        try write(folder, [
            "a": "title: A\ndate: 2026-10-01\ntags: [C#, toast]\n",
            "b": "title: B\ndate: 2026-10-02\ntags: [toast]\n",
        ])
        #expect(build(folder, cached: true) == (0, ""))
        // An edit brings a second spelling, then takes it away.
        try write(folder, ["b": "title: B\ndate: 2026-10-02\ntags: [toast, C++]\n"])
        let (_, brought) = build(folder, cached: true)
        #expect(brought == build(folder).1)
        #expect(brought.contains("the tag 'C#' makes the same address as 'C++'"))
        try write(folder, ["b": "title: B\ndate: 2026-10-02\ntags: [toast]\n"])
        #expect(build(folder, cached: true) == (0, ""))
    }
}
