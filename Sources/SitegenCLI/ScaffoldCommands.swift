import Foundation
import SitegenBuildInfo
import SitegenContent
import SitegenPipeline
import SitegenScaffold
import SitegenSupport

/// `sitegen new`: a new article, assignment or page with every front-matter key.
enum NewCommand {
    static let spec = CommandSpec(
        name: "new",
        summary: "start a new article, assignment or page",
        usage: [
            "new article \"Title\" [--cover PHOTO] [--source DIR] [--date DATE]",
            "new assignment \"Title\" --grade G (--teacher ID | --subject NAME) [--source DIR] [--date DATE]",
            "new page \"Title\" [--source DIR]",
        ],
        description: [
            "Writes a new content file with every front-matter key: the required ones filled in (the date is today in the site's time zone), the optional ones commented out with an example. An article goes to a folder of its own, Content/articles/<slug>/index.md, where its photos go too, as a draft: delete its 'draft: true' line to publish it. With --cover, the photo is copied into that folder and named in 'cover:' with its size. Assignments go to Content/homework/<date>-<slug>.md, pages to Content/pages/<slug>.md. An existing file is never overwritten.",
        ],
        options: [
            .option("--source", "DIR", .folder, "the site folder (default: .)"),
            .option("--cover", "PHOTO", .file, "a photo to copy beside the new article as its cover"),
            .option("--date", "DATE", "the article's date or the assignment's day (default: today)"),
            .option("--grade", "G", "the assignment's grade (default: the teacher's grades)"),
            .option("--teacher", "ID", "the assignment's teacher, an id of teachers.yaml"),
            .option("--subject", "NAME", "the assignment's subject (default: the teacher's subject)"),
        ],
        operands: .choice(Scaffold.ContentKind.allCases.map(\.rawValue)),
        run: { run($0, console: $1.console) }
    )

    static func run(_ parsed: Arguments, console: Console) -> Int32 {
        let kinds = Scaffold.ContentKind.allCases.map(\.rawValue)
        guard let kindName = parsed.positional.first else {
            console.printError("sitegen new: error: say what to make: \(kinds.joined(separator: ", ")), like: sitegen new article \"Lovely Breakfast\"")
            return 2
        }
        guard let kind = Scaffold.ContentKind(rawValue: kindName) else {
            var message = "sitegen new: error: cannot make a '\(kindName)': expected \(kinds.joined(separator: ", "))"
            if let suggestion = Suggestion.closest(to: kindName, among: kinds) { message += "; did you mean '\(suggestion)'?" }
            console.printError(message)
            return 2
        }
        guard parsed.positional.count == 2 else {
            console.printError("sitegen new: error: give one title in quotes, like: sitegen new \(kind.rawValue) \"Lovely Breakfast\"")
            return 2
        }
        if kind != .assignment, let stray = ["--grade", "--teacher", "--subject"].first(where: { parsed[$0] != nil }) {
            console.printError("sitegen new: error: \(stray) is for assignments")
            return 2
        }
        let request = Scaffold.NewContent(kind: kind, title: parsed.positional[1], grade: parsed["--grade"], teacher: parsed["--teacher"],
                                          subject: parsed["--subject"], date: parsed["--date"], cover: parsed["--cover"].map { URL(fileURLWithPath: $0) })
        do {
            let written = try Scaffold.newContent(request, siteRoot: URL(fileURLWithPath: parsed["--source"] ?? "."), sitegen: InitCommand.sitegen)
            console.print("Wrote \(written.path)" + (written.cover.map { " and \($0)" } ?? ""))
            if kind == .article { console.print("It is a draft: delete its 'draft: true' line to publish it.") }
            return 0
        } catch {
            console.printError("sitegen new: error: \(error.description)")
            return 1
        }
    }
}

/// `sitegen init`: a working starter site in a new folder.
enum InitCommand {
    /// This sitegen, which the workflows install and the docs links name.
    static let sitegen = Scaffold.SitegenRelease(version: BuildInfo.version, commit: BuildInfo.commit, modified: BuildInfo.modified, repository: BuildInfo.repository)

    static let spec = CommandSpec(
        name: "init",
        summary: "write a working starter site into a new folder",
        usage: ["init DIR [--title TITLE] [--timezone ZONE] [--currency CODE] [--ci github|gitlab|none]"],
        description: [
            "Writes a working starter site into DIR (new or empty): Content/site.yaml, teachers.yaml, an article with a photo, two assignments, an about page, and a workflow that publishes the site on every push and every day at the homework's release time. With --ci github, .github/workflows/publish.yml builds it with the sitegen GitHub Action of this very version and publishes it to GitHub Pages; with --ci gitlab, .gitlab-ci.yml builds it with the sitegen container image of this version for GitLab Pages; --ci none writes no workflow. Then: cd DIR && sitegen serve.",
        ],
        options: [
            .option("--title", "TITLE", "the site's title (default: the folder's name)"),
            .option("--timezone", "ZONE", "an IANA time zone, like Asia/Hong_Kong (default: UTC)"),
            .option("--currency", "CODE", "the currency of prices, an ISO 4217 code like HKD (default: USD)"),
            .option("--ci", "SERVICE", .choice(Scaffold.Publisher.allCases.map(\.rawValue)), "the workflow that publishes the site: github, gitlab or none (default: github)"),
        ],
        operands: .folder,
        run: { run($0, console: $1.console) }
    )

    static func run(_ parsed: Arguments, console: Console) -> Int32 {
        guard parsed.positional.count == 1, let folder = parsed.positional.first else {
            console.printError("sitegen init: error: give the folder of the new site, like: sitegen init my-site")
            return 2
        }
        let url = URL(fileURLWithPath: folder)
        let title = parsed["--title"] ?? url.standardizedFileURL.lastPathComponent.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        let publishers = Scaffold.Publisher.allCases.map(\.rawValue)
        guard let publisher = Scaffold.Publisher(rawValue: parsed["--ci"] ?? "github") else {
            var message = "sitegen init: error: --ci must be one of \(publishers.joined(separator: ", ")), found '\(parsed["--ci"] ?? "")'"
            if let suggestion = Suggestion.closest(to: parsed["--ci"] ?? "", among: publishers) { message += "; did you mean '\(suggestion)'?" }
            console.printError(message)
            return 2
        }
        let request = Scaffold.InitRequest(title: title, timeZone: parsed["--timezone"] ?? "UTC", currency: parsed["--currency"] ?? "USD",
                                           publisher: publisher, sitegen: Self.sitegen)
        do {
            let result = try Scaffold.initSite(at: url, request)
            console.print("Wrote a new site of \(result.files.count) files to \(folder). Next: cd \(folder) && sitegen serve")
            for step in result.nextSteps { console.print("\n" + step) }
            return 0
        } catch {
            console.printError("sitegen init: error: \(error.description)")
            return 1
        }
    }
}
