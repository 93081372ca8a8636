import Foundation
import SitegenCore
import SitegenSupport

/// `sitegen new`: a new article, assignment or page with every front-matter key.
enum NewCommand {
    static let help = """
        Usage: sitegen new article "Title" [--source DIR] [--date DATE]
               sitegen new assignment "Title" --grade G (--teacher ID | --subject NAME) [--source DIR] [--date DATE]
               sitegen new page "Title" [--source DIR]

        Writes a new content file with every front-matter key: the required ones filled in
        (the date is today in the site's time zone), the optional ones commented out with
        an example. Articles go to Content/articles/<slug>.md, assignments to
        Content/homework/<date>/<slug>.md, pages to Content/pages/<slug>.md. An existing
        file is never overwritten.

        Options:
          --source DIR      the site folder (default: .)
          --date DATE       the article's date or the assignment's day (default: today)
          --grade G         the assignment's grade (default: the teacher's grades)
          --teacher ID      the assignment's teacher, an id of teachers.yaml
          --subject NAME    the assignment's subject (default: the teacher's subject)
          -h, --help        show this help
        """

    static func run(arguments: [String], console: Console) -> Int32 {
        guard let parsed = Arguments(arguments, command: "new", options: ["--source", "--date", "--grade", "--teacher", "--subject"], flags: [], console: console) else { return 2 }
        if parsed.has("--help") {
            console.print(help)
            return 0
        }
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
                                          subject: parsed["--subject"], date: parsed["--date"])
        do {
            let path = try Scaffold.newContent(request, siteRoot: URL(fileURLWithPath: parsed["--source"] ?? "."))
            console.print("Wrote \(path)")
            return 0
        } catch {
            console.printError("sitegen new: error: \(error.description)")
            return 1
        }
    }
}

/// `sitegen init`: a working starter site in a new folder.
enum InitCommand {
    static let help = """
        Usage: sitegen init DIR [--title TITLE] [--timezone ZONE] [--currency CODE]

        Writes a working starter site into DIR (new or empty): Content/site.yaml,
        teachers.yaml, an article with a photo, two assignments, an about page, and
        .github/workflows/publish.yml, which builds the site with sitegen and publishes it
        to GitHub Pages on every push and every day at the homework release time.
        Then: cd DIR && sitegen build.

        Options:
          --title TITLE     the site's title (default: the folder's name)
          --timezone ZONE   an IANA time zone (default: UTC)
          --currency CODE   the currency of prices (default: USD)
          -h, --help        show this help
        """

    static func run(arguments: [String], console: Console) -> Int32 {
        guard let parsed = Arguments(arguments, command: "init", options: ["--title", "--timezone", "--currency"], flags: [], console: console) else { return 2 }
        if parsed.has("--help") {
            console.print(help)
            return 0
        }
        guard parsed.positional.count == 1, let folder = parsed.positional.first else {
            console.printError("sitegen init: error: give the folder of the new site, like: sitegen init my-site")
            return 2
        }
        let url = URL(fileURLWithPath: folder)
        let title = parsed["--title"] ?? url.standardizedFileURL.lastPathComponent.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        do {
            let files = try Scaffold.initSite(at: url, title: title, timeZone: parsed["--timezone"] ?? "UTC", currency: parsed["--currency"] ?? "USD")
            console.print("Wrote a new site of \(files.count) files to \(folder). Next: cd \(folder) && sitegen build")
            return 0
        } catch {
            console.printError("sitegen init: error: \(error.description)")
            return 1
        }
    }
}
