import Foundation
import SitegenCLI
import SitegenTestSupport
import Testing

/// Grades named in site.yaml, as Hong Kong schools name them: in every sentence, title,
/// feed and calendar.
@Suite("Grade names")
struct GradeNameTests {
    @Test func aNamedGradeIsCalledSoEverywhere() throws {
        let folder = TemporaryFolder()
        try folder.write("""
            title: School
            base_url: https://example.org/
            timezone: Asia/Hong_Kong
            homework:
              grades: [{id: 6, name: Primary 6}, {id: f2, name: Form 2}, 7]

            """, to: "site/Content/site.yaml")
        try folder.write("- {id: ms-lee, name: Ms Lee, subject: Math, grades: [6, f2]}\n", to: "site/Content/teachers.yaml")
        try folder.write("---\ntitle: Fractions\nteacher: ms-lee\nassigned: 2026-12-01\ndue: 2026-12-02\n---\nPage 4.\n", to: "site/Content/homework/2026-12-01-fractions.md")
        let output = folder.url.appendingPathComponent("out")
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--strict", "--quiet", "--source", folder.url.appendingPathComponent("site").path,
                                                "--output", output.path, "--today", "2026-12-01T15:00"], console: console.console) == 0)
        #expect(console.error == "")
        func page(_ path: String) throws -> String { try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8) }
        let grade = try page("homework/grade-6/index.html")
        #expect(grade.contains("<title>Primary 6 – Homework – School</title>"))
        #expect(grade.contains("<p class=\"page-lead homework-sentence\">Primary 6 has homework in Math tonight.</p>"))
        #expect(try page("homework/grade-f2/index.html").contains("Form 2 has homework in Math tonight."))
        #expect(try page("homework/index.html").contains("7th grade has no homework tonight."))
        #expect(try page("homework/teachers/index.html").contains("Primary 6 and Form 2"))
        #expect(try page("homework/grade-6/feed.xml").contains("<title>Primary 6"))
        #expect(try page("homework/grade-6/calendar.ics").contains("X-WR-CALNAME:Primary 6"))
    }

    @Test func aWrongGradeEntryIsAnErrorAtIt() throws {
        let folder = TemporaryFolder()
        try folder.write("title: School\nbase_url: https://example.org/\nhomework:\n  grades: [{name: Primary 6}, {id: 7, nmae: Form 1}, [8]]\n", to: "site/Content/site.yaml")
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--source", folder.url.appendingPathComponent("site").path], console: console.console) == 1)
        #expect(console.error.hasPrefix("""
            Content/site.yaml:4:12: error: missing required key 'homework.grades.id': expected a grade like 6 or K
            Content/site.yaml:4:39: warning: unknown key 'homework.grades.nmae' in site.yaml; did you mean 'homework.grades.name'?
            Content/site.yaml:4:54: error: a grade in 'homework.grades' must be a grade like 6 or K, or a mapping like {id: 6, name: Primary 6}, found a list

            """))
    }
}
