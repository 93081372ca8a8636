import Foundation
@testable import SitegenCLI
import SitegenContent
@testable import SitegenPipeline
@testable import SitegenScaffold
import SitegenTestSupport
import Testing

@Suite("sitegen check")
struct CheckTests {
    private func site(_ files: [String: String]) throws -> TemporaryFolder {
        let folder = TemporaryFolder()
        try folder.write("title: Bites\nbase_url: https://example.org/food/\n", to: "site/Content/site.yaml")
        for (path, text) in files { try folder.write(text, to: "site/\(path)") }
        return folder
    }

    @Test func findsEachBrokenLinkAtTheLineThatWroteItAndNothingElse() throws {
        let folder = try site([
            "Content/articles/a.md": """
                ---
                title: A
                date: 2026-10-01
                summary: About A.
                cover: {src: https://example.org/a.jpg, alt: A}
                ---
                Fine: [b](/articles/b/), [its menu](/articles/b/#menu), [home](/), [feed](/feed.xml),
                [away](https://other.org/x), [mail](mailto:a@b.org), [b again](../b/).

                Broken: [brunch](/meals/brunch/) and
                [no such heading](/articles/b/#drinks) and [c](../c/).

                ## Here

                [up](#here) but [down](#nowhere) and [out](../../../../x/).

                An [empty]() one.
                """,
            "Content/articles/b.md": "---\ntitle: B\ndate: 2026-10-02\nsummary: About B.\ncover: {src: https://example.org/b.jpg, alt: B}\n---\n## Menu\n\nToast.\n",
        ])
        let console = CapturedConsole()
        let status = CommandLineTool.run(arguments: ["check", "--source", folder.url.appendingPathComponent("site").path, "--today", "2026-11-25"], console: console.console)
        #expect(status == 1)
        #expect(console.error == """
            Content/articles/a.md:10:9: error: link to /meals/brunch/ leads nowhere
            Content/articles/a.md:11:1: error: link to /articles/b/#drinks leads to a page with no element '#drinks'
            Content/articles/a.md:11:44: error: link to ../c/ leads nowhere
            Content/articles/a.md:15:17: error: link to #nowhere leads to a page with no element '#nowhere'
            Content/articles/a.md:15:38: error: link to ../../../../x/ leads outside the site, which is served under /food/
            Content/articles/a.md:17:4: error: link has no address

            """)
        #expect(console.output.hasPrefix("Checked "))
        #expect(console.output.hasSuffix("6 errors, 0 warnings\n"))
    }

    @Test func pointsOutWhatAuthorsForget() throws {
        let folder = try site([
            "Content/articles/a.md": "---\ntitle: A\ndate: 2026-10-01\nrestaurant:\n  name: Toast Box\ntags: [Dim sum, tea, dim  SUM, tea]\n---\n",
            "Content/pages/b.md": "---\ntitle: B\n---\nCall us <br> or <em>write</em>; <!-- not the fax -->\n",
            "Content/articles/Toast.MD": "---\ntitle: Toast\ndate: 2026-10-02\n---\n",
            "Content/articles/c.md": "---\ntitle: C\ndate: 2026-10-03\nsummary: C.\ncover: {src: https://example.org/c.jpg, alt: C}\ntags: toast,milk tea\n---\n",
        ])
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["check", "--source", folder.url.appendingPathComponent("site").path, "--quiet"], console: console.console) == 0)
        #expect(console.error == """
            Content/articles/Toast.MD:1:1: warning: copied as it is, not read as an article: only a name ending in '.md' is
            Content/articles/a.md:1:1: warning: the article has no cover photo: its card and link previews show none; add 'cover: {src: …, alt: …}'
            Content/articles/a.md:1:1: warning: the article has no summary and no first paragraph to make one from; add 'summary: …'
            Content/articles/a.md:4:1: note: the restaurant 'Toast Box' has no coordinates, so it is not on the map; add 'lat' and 'lon'
            Content/articles/a.md:6:22: warning: 'tags' lists 'dim SUM' after 'Dim sum', the same one: it is shown once, as 'Dim sum'
            Content/articles/a.md:6:32: warning: 'tags' lists 'tea' twice: it is shown once
            Content/articles/c.md:6:7: warning: 'tags' is the one tag 'toast,milk tea'; to give several, write them as a list like [toast, milk tea]
            Content/pages/b.md:4:9: warning: raw HTML '<br>' is left out of the page (and 2 more in this file): add 'markdown: {unsafe: true}' to site.yaml to let it through

            """)
        #expect(console.output == "")
    }

    @Test func warnsOfARestaurantGivenTwoAddresses() throws {
        let folder = try site([
            "Content/articles/a.md": "---\ntitle: A\ndate: 2026-10-01\nsummary: A.\ncover: {src: https://example.org/a.jpg, alt: A}\nrestaurant:\n  name: Toast Box\n  address: 1 Nathan Rd\n  lat: 22.3\n  lon: 114.17\n---\n",
            "Content/articles/b.md": "---\ntitle: B\ndate: 2026-10-02\nsummary: B.\ncover: {src: https://example.org/b.jpg, alt: B}\nrestaurant:\n  name: Toast Box\n  address: 233 Nathan Rd\n  lat: 22.3001\n  lon: 114.17\n---\n",
            // Joined by its id, written in part: no warning.
            "Content/articles/c.md": "---\ntitle: C\ndate: 2026-10-03\nsummary: C.\ncover: {src: https://example.org/c.jpg, alt: C}\nrestaurant: {name: Kam Wah, id: kam-wah, address: \"G/F, 47 Bute St\"}\n---\n",
            "Content/articles/d.md": "---\ntitle: D\ndate: 2026-10-04\nsummary: D.\ncover: {src: https://example.org/d.jpg, alt: D}\nrestaurant: {name: 金華, id: kam-wah, address: \"47 Bute Street\"}\n---\n",
        ])
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["check", "--source", folder.url.appendingPathComponent("site").path, "--quiet"], console: console.console) == 0)
        #expect(console.error == """
            Content/articles/a.md:6:1: warning: the restaurant 'Toast Box' is at '1 Nathan Rd' here and at '233 Nathan Rd' in Content/articles/b.md, which its page shows: give both articles one address, or each branch its own 'restaurant.id'
            Content/articles/c.md:6:1: note: the restaurant 'Kam Wah' has no coordinates, so it is not on the map; add 'lat' and 'lon'
            Content/articles/d.md:6:1: note: the restaurant '金華' has no coordinates, so it is not on the map; add 'lat' and 'lon'

            """)
    }

    @Test func findsNothingWrongWithTheSampleSite() {
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["check", "--source", Repository.root.path, "--today", "2026-11-25T15:00"], console: console.console) == 0)
        #expect(console.error == "")
        #expect(console.output.hasSuffix("links: no problems\n"))
    }
}

@Suite("sitegen new and init")
struct ScaffoldTests {
    @Test func initWritesASiteThatBuildsWithoutAWord() throws {
        let folder = TemporaryFolder()
        let site = folder.url.appendingPathComponent("my-site")
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["init", site.path, "--timezone", "Asia/Hong_Kong", "--currency", "HKD"], console: console.console) == 0)
        #expect(console.output.hasPrefix("Wrote a new site of 10 files to "))
        let workflow = try String(contentsOf: site.appendingPathComponent(".github/workflows/publish.yml"), encoding: .utf8)
        #expect(workflow.contains("    - cron: \"0 6 * * *\"\n  workflow_dispatch:"))
        #expect(workflow.contains("base-url: ${{ steps.pages.outputs.base_url }}/"))
        #expect(workflow.contains("14:00 in Asia/Hong_Kong is:\n    #   06:00 UTC when the zone is at UTC+08:00\n"))
        #expect(try String(contentsOf: site.appendingPathComponent("Content/site.yaml"), encoding: .utf8).contains("title: My Site\n"))

        let build = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--source", site.path, "--quiet"], console: build.console) == 0)
        #expect(build.error == "")
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("Output/articles/lovely-breakfast/toast-960w.jpg").path))
        let check = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["check", "--source", site.path, "--quiet"], console: check.console) == 0)
        #expect(check.error == "")
    }

    /// Without `--timezone` and `--currency`, the starter's site is in UTC and US dollars,
    /// and its Hong Kong breakfast still costs Hong Kong dollars.
    @Test func initWithoutOptionsWritesUTCAndPricesTheBreakfastInItsOwnCurrency() throws {
        let folder = TemporaryFolder()
        let site = folder.url.appendingPathComponent("my-site")
        #expect(CommandLineTool.run(arguments: ["init", site.path], console: CapturedConsole().console) == 0)
        let settings = try String(contentsOf: site.appendingPathComponent("Content/site.yaml"), encoding: .utf8)
        #expect(settings.contains("\ntimezone: UTC\n") && settings.contains("\ncurrency: USD\n"))
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--source", site.path, "--quiet"], console: CapturedConsole().console) == 0)
        let page = try String(contentsOf: site.appendingPathComponent("Output/articles/lovely-breakfast/index.html"), encoding: .utf8)
        #expect(page.contains("HK$"))
        #expect(!page.contains("US$") && !page.contains("$34"))
    }

    /// `new article --cover` copies the photo beside the article, named in its front matter
    /// with its size; the draft builds, and is published once its draft line is gone.
    @Test func newArticleTakesACoverPhotoAndIsADraftUntilPublished() throws {
        let folder = TemporaryFolder()
        let site = folder.url.appendingPathComponent("site")
        #expect(CommandLineTool.run(arguments: ["init", site.path], console: CapturedConsole().console) == 0)
        let photo = site.appendingPathComponent("Content/articles/lovely-breakfast/toast.jpg")
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["new", "article", "Egg Waffles", "--cover", photo.path, "--source", site.path, "--date", "2026-12-01"],
                                    console: console.console) == 0)
        #expect(console.output.hasPrefix("Wrote Content/articles/egg-waffles/index.md and Content/articles/egg-waffles/toast.jpg\n"))
        let article = site.appendingPathComponent("Content/articles/egg-waffles/index.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        #expect(text.contains("\ncover: {src: toast.jpg, alt: Say what the photo shows}\n"))
        #expect(FileManager.default.contentsEqual(atPath: photo.path, andPath: site.appendingPathComponent("Content/articles/egg-waffles/toast.jpg").path))

        let build = { () -> Bool in
            CommandLineTool.run(arguments: ["build", "--no-cache", "--source", site.path, "--quiet", "--today", "2026-12-02"], console: CapturedConsole().console) == 0
        }
        #expect(build())
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("Output/articles/egg-waffles/index.html").path))
        try text.replacingOccurrences(of: "\ndraft: true", with: "\n# draft: true").write(to: article, atomically: false, encoding: .utf8)
        #expect(build())
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("Output/articles/egg-waffles/index.html").path))

        let page = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["new", "page", "Contact", "--cover", photo.path, "--source", site.path], console: page.console) == 1)
        #expect(page.error == "sitegen new: error: --cover is for articles\n")
        let notPhoto = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["new", "article", "Tea", "--cover", site.appendingPathComponent("Content/site.yaml").path, "--source", site.path],
                                    console: notPhoto.console) == 1)
        #expect(notPhoto.error.hasPrefix("sitegen new: error: --cover: "))
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("Content/articles/tea").path))
    }

    @Test func initRefusesAFolderWithFiles() throws {
        let folder = TemporaryFolder()
        try folder.write("mine\n", to: "notes.txt")
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["init", folder.url.path], console: console.console) == 1)
        #expect(console.error.contains("is not empty"))
    }

    /// The columns where the notes beside keys start, in front matter `new` wrote.
    private static func noteColumns(_ text: String) -> Set<Int> {
        Set(text.split(separator: "\n").compactMap { line -> Int? in
            guard !line.hasPrefix("# Every key"), let note = line.dropFirst(2).range(of: " # ") else { return nil }
            return line.distance(from: line.startIndex, to: note.lowerBound)
        })
    }

    @Test func newWritesEveryKeyAndNeverOverwrites() throws {
        let folder = TemporaryFolder()
        let site = folder.url.appendingPathComponent("site")
        #expect(CommandLineTool.run(arguments: ["init", site.path], console: CapturedConsole().console) == 0)

        let article = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["new", "article", "Café: \"Best\" Toast", "--source", site.path, "--date", "2026-12-01"], console: article.console) == 0)
        #expect(article.output == "Wrote Content/articles/cafe-best-toast/index.md\nIt is a draft: delete its 'draft: true' line to publish it.\n")
        let text = try String(contentsOf: site.appendingPathComponent("Content/articles/cafe-best-toast/index.md"), encoding: .utf8)
        #expect(text.hasPrefix("---\n# Every key: \(InitCommand.sitegen.docs("reference/content-keys.md", section: "articles"))\ntitle: \"Café: \\\"Best\\\" Toast\"\ndate: 2026-12-01\n"))
        // Every key an article takes, written or shown commented out; the notes beside
        // them in one column.
        for key in ContentKeys.article.names {
            #expect(text.contains("\n# \(key):") || text.contains("\n\(key):"), "\(key)")
        }
        #expect(text.contains("\ndraft: true "))
        #expect(Self.noteColumns(text) == [33])
        let again = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["new", "article", "Café: \"Best\" Toast", "--source", site.path], console: again.console) == 1)
        #expect(again.error == "sitegen new: error: Content/articles/cafe-best-toast/ already exists; sitegen new never overwrites a file (give another title)\n")

        let assignment = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["new", "assignment", "--grade", "8", "--teacher", "ms-lee", "Fractions worksheet", "--source", site.path, "--date", "2026-12-01"], console: assignment.console) == 0)
        #expect(assignment.output == "Wrote Content/homework/2026-12-01-fractions-worksheet.md\n")
        let homework = try String(contentsOf: site.appendingPathComponent("Content/homework/2026-12-01-fractions-worksheet.md"), encoding: .utf8)
        #expect(homework.hasPrefix("---\n# Every key: \(InitCommand.sitegen.docs("reference/content-keys.md", section: "assignments"))\ntitle: Fractions worksheet\nteacher: ms-lee\n"))
        #expect(homework.contains("\ngrade: 8\n") && homework.contains("\nassigned: 2026-12-01\n"))
        // `source` is import's record of a post, not a key an author writes.
        for key in ContentKeys.assignment.names where key != "source" {
            #expect(homework.contains("\n# \(key):") || homework.contains("\n\(key):"), "\(key)")
        }
        #expect(Self.noteColumns(homework) == [33])

        let wrongTeacher = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["new", "assignment", "--teacher", "ms-le", "X", "--source", site.path], console: wrongTeacher.console) == 1)
        #expect(wrongTeacher.error == "sitegen new: error: no teacher 'ms-le' in Content/teachers.yaml; did you mean 'ms-lee'?\n")

        let build = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--source", site.path, "--quiet", "--today", "2026-12-01T15:00"], console: build.console) == 0)
        #expect(build.error == "")
    }

    @Test func helpAnswersForEveryCommandAndUnknownFlagsGetASuggestion() {
        for command in ["build", "check", "new", "init", "render-template"] {
            let viaHelp = CapturedConsole()
            #expect(CommandLineTool.run(arguments: ["help", command], console: viaHelp.console) == 0)
            let viaFlag = CapturedConsole()
            #expect(CommandLineTool.run(arguments: [command, "--help"], console: viaFlag.console) == 0)
            #expect(viaHelp.output == viaFlag.output && viaHelp.output.hasPrefix("Usage: sitegen \(command)"), "\(command)")
        }
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["build", "--draft"], console: console.console) == 2)
        #expect(console.error.hasPrefix("sitegen build: error: unknown option '--draft'; did you mean '--drafts'?\n"))
        let contradiction = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--cache-dir", "/tmp"], console: contradiction.console) == 2)
        #expect(contradiction.error == "sitegen build: error: --no-cache and --cache-dir contradict each other; give one of them\n")
        let unknown = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["buld"], console: unknown.console) == 2)
        #expect(unknown.error.hasPrefix("sitegen: error: unknown command 'buld'; did you mean 'build'?"))
    }
}
