import Foundation
@testable import SitegenCLI
import SitegenContent
@testable import SitegenPipeline
@testable import SitegenScaffold
import SitegenTestSupport
import Testing

/// The reference parts of the docs are made from the program's own tables: the keys each
/// content reader accepts (docs/reference/content-keys.md) and the names each template sees
/// (docs/reference/template-names.md), whole pages, and the commands and options, the part
/// of docs/cli.md between `<!-- generated: NAME -->` and `<!-- end generated -->`. The test
/// fails when one differs from what the tables make; `SITEGEN_UPDATE_DOCS=1` writes them
/// again.
@Suite("Docs that cannot rot")
struct DocumentationTests {
    static let updates = ProcessInfo.processInfo.environment["SITEGEN_UPDATE_DOCS"] == "1"

    /// Checks (or rewrites) the generated parts of one docs page; the names of the parts
    /// the page has that nothing made, and of those made that the page lacks.
    private func check(_ page: String, _ blocks: [String: String]) throws {
        let url = Repository.root.appendingPathComponent(page)
        let text = try String(contentsOf: url, encoding: .utf8)
        let (rewritten, found) = GeneratedBlocks.replace(in: text, with: blocks)
        #expect(Set(found) == Set(blocks.keys), "\(page) has the parts \(found.sorted()), the tables make \(blocks.keys.sorted())")
        if Self.updates {
            try Data(rewritten.utf8).write(to: url)
        } else {
            #expect(rewritten == text, "\(page) differs from what the program's tables make: run SITEGEN_UPDATE_DOCS=1 swift test --filter DocumentationTests and review the diff")
        }
    }

    /// Checks (or rewrites) a docs page made whole from the tables.
    private func checkWhole(_ page: String, _ text: String) throws {
        let url = Repository.root.appendingPathComponent(page)
        if Self.updates {
            try Data(text.utf8).write(to: url)
        } else {
            let found = try String(contentsOf: url, encoding: .utf8)
            #expect(found == text, "\(page) differs from what the program's tables make: run SITEGEN_UPDATE_DOCS=1 swift test --filter DocumentationTests and review the diff")
        }
    }

    @Test func referenceListsEveryKeyTheReadersAccept() throws {
        try checkWhole("docs/reference/content-keys.md", DocsMarkdown.contentKeysPage())
    }

    @Test func referenceListsEveryNameTemplatesSee() throws {
        try checkWhole("docs/reference/template-names.md", DocsMarkdown.templateNamesPage())
    }

    @Test func cliDocsListEveryCommandAndOption() throws {
        try check("docs/cli.md", ["commands": DocsMarkdown.commands(CommandLineTool.specs, globalOptions: CommandLineTool.globalOptions)])
    }

    /// The custom properties of the default theme's stylesheet, each in the table of
    /// docs/themes.md, and no other.
    @Test func themeDocsListEveryCustomProperty() throws {
        let css = try String(contentsOf: Repository.root.appendingPathComponent("Themes/default/assets/style.css"), encoding: .utf8)
        let declared = Set(css.split(separator: "\n").compactMap { line -> String? in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("--"), let colon = text.firstIndex(of: ":") else { return nil }
            return String(text[..<colon])
        })
        let docs = try String(contentsOf: Repository.root.appendingPathComponent("docs/themes.md"), encoding: .utf8)
        let documented = Set(docs.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `--"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
        })
        #expect(!declared.isEmpty)
        #expect(documented == declared)
    }

    /// What `sitegen init` and `sitegen new` write points to sections the docs have: the
    /// keys of each file in docs/reference/content-keys.md, the files in docs/content.md.
    @Test func theStarterSiteAndNewFilesPointToSectionsThatExist() throws {
        func anchors(_ page: String) throws -> Set<String> {
            let docs = try String(contentsOf: Repository.root.appendingPathComponent(page), encoding: .utf8)
            return Set(docs.split(separator: "\n").filter { $0.hasPrefix("#") }.map { DocsMarkdown.anchor(String($0.drop { $0 == "#" }.dropFirst())) })
        }
        let keys = try anchors("docs/reference/content-keys.md")
        for section in ["siteyaml", "teachersyaml"] + Scaffold.ContentKind.allCases.map(\.docsSection) {
            #expect(keys.contains(section), "docs/reference/content-keys.md has no #\(section)")
        }
        #expect(try anchors("docs/content.md").contains("the-files-of-a-site"))
        let folder = TemporaryFolder()
        let site = folder.url.appendingPathComponent("s")
        #expect(CommandLineTool.run(arguments: ["init", site.path], console: CapturedConsole().console) == 0)
        let settings = try String(contentsOf: site.appendingPathComponent("Content/site.yaml"), encoding: .utf8)
        #expect(settings.hasPrefix("# The settings of your site. Every key: \(InitCommand.sitegen.docs("reference/content-keys.md", section: "siteyaml"))\n"))
    }

    /// The tables themselves: every key path once, every template and record once.
    @Test func theTablesNameEachThingOnce() {
        for table in [ContentKeys.site, ContentKeys.teacher, ContentKeys.article, ContentKeys.assignment, ContentKeys.page] {
            let paths = table.paths.map(\.path)
            #expect(Set(paths).count == paths.count, "\(paths)")
        }
        let records = TemplateVocabulary.records.map(\.name)
        #expect(Set(records).count == records.count)
        for record in TemplateVocabulary.records {
            #expect(Set(record.names.map(\.name)).count == record.names.count, "\(record.name)")
        }
    }
}

/// The parts of a Markdown page between `<!-- generated: NAME -->` and `<!-- end generated -->`.
enum GeneratedBlocks {
    static let end = "<!-- end generated -->"

    /// `text` with each part's lines replaced by `blocks[name]`, and the names of the parts
    /// it has.
    static func replace(in text: String, with blocks: [String: String]) -> (String, [String]) {
        var lines: [String] = []
        var found: [String] = []
        var skipping = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if skipping {
                if line == end {
                    lines.append(line)
                    skipping = false
                }
                continue
            }
            lines.append(line)
            guard line.hasPrefix("<!-- generated: "), line.hasSuffix(" -->") else { continue }
            let name = String(line.dropFirst("<!-- generated: ".count).dropLast(" -->".count))
            found.append(name)
            if let block = blocks[name] {
                lines.append(block)
                skipping = true
            }
        }
        return (lines.joined(separator: "\n"), found)
    }
}

/// The Markdown of the generated parts.
enum DocsMarkdown {
    /// Text for a table cell: a `|` would end the cell.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|")
    }

    static func keyTable(_ table: KeyTable) -> String {
        var lines = ["| key | value | if left out | what it does | example |", "|---|---|---|---|---|"]
        for (path, key) in table.paths {
            lines.append("| `\(path)` | \(cell(key.type)) | \(cell(key.defaultValue)) | \(cell(key.meaning)) | `\(cell(key.example))` |")
        }
        return lines.joined(separator: "\n")
    }

    /// The anchor GitHub gives a heading: lowercase, punctuation left out, spaces as hyphens.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
            return nil
        })
    }

    private static func holds(_ name: TemplateName) -> String {
        func link(_ record: String) -> String {
            guard let found = TemplateVocabulary.record(record) else { return record }
            return "[\(found.title.replacingOccurrences(of: "`", with: ""))](#\(anchor(found.title)))"
        }
        switch name.holds {
        case .value, .fields: return cell(name.meaning)
        case .record(let record): return cell(name.meaning) + ": " + link(record)
        case .list(let record): return cell(name.meaning) + "; a list, each " + link(record)
        }
    }

    private static func nameTable(_ names: [TemplateName]) -> [String] {
        ["| name | what it is |", "|---|---|"] + names.map { "| `\($0.name)` | \(holds($0)) |" }
    }

    /// The notice at the top of a page made whole from the tables.
    private static let madeNotice = "<!-- Made from sitegen's own tables by its tests: do not edit. `SITEGEN_UPDATE_DOCS=1 swift test --filter DocumentationTests` writes it again. -->"

    static func contentKeysPage() -> String {
        let sections: [(String, String, KeyTable)] = [
            ("site.yaml", "`Content/site.yaml`, the site's settings.", ContentKeys.site),
            ("teachers.yaml", "Each entry of `Content/teachers.yaml`.", ContentKeys.teacher),
            ("Articles", "The front matter of an article, `Content/articles/**/*.md`.", ContentKeys.article),
            ("Assignments", "The front matter of an assignment, `Content/homework/**/*.md`.", ContentKeys.assignment),
            ("Pages", "The front matter of a page, `Content/pages/**/*.md`.", ContentKeys.page),
        ]
        var lines = [madeNotice, "", "# Every key of a content file", "",
                     "What each kind of file accepts, as sitegen reads it: any other key is a warning naming the closest one. [Writing content](../content.md) says how the files fit together."]
        for (title, what, table) in sections {
            lines += ["", "## \(title)", "", what, "", keyTable(table)]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func templateNamesPage() -> String {
        [madeNotice, "", "# Every name a template sees", "",
         "Each page template sees its own names and those of every page; a name that holds a record is described after the templates. [Themes](../themes.md) says how templates fit together.",
         "", templateNames()].joined(separator: "\n") + "\n"
    }

    static func templateNames() -> String {
        var lines = ["## Every page", "", "Every page's template sees these names, besides its own:", ""]
        lines += nameTable(TemplateVocabulary.everyPage)
        for template in TemplateVocabulary.templates {
            lines += ["", "## `\(template.name)`", "", "Renders \(template.pages)."]
            if template.names.isEmpty {
                lines += ["", "It sees the names of every page alone."]
            } else {
                lines += [""] + nameTable(template.names)
            }
        }
        for record in TemplateVocabulary.records {
            lines += ["", "## \(record.title)", ""] + nameTable(record.names)
        }
        return lines.joined(separator: "\n")
    }

    static func commands(_ specs: [CommandSpec], globalOptions: [OptionSpec]) -> String {
        var lines = ["### `sitegen`", "", "```", "sitegen <command> [options]", "```", ""]
        lines += optionTable(globalOptions)
        for spec in specs {
            lines += ["", "### `sitegen \(spec.name)`", "", "```"] + spec.usage.map { "sitegen " + $0 } + ["```"]
            for paragraph in spec.description {
                lines += [""] + (paragraph.hasPrefix("  ") ? ["```"] + paragraph.split(separator: "\n").map { String($0.dropFirst(2)) } + ["```"] : [paragraph])
            }
            lines += [""] + optionTable(spec.allOptions)
            for paragraph in spec.notes { lines += ["", paragraph] }
        }
        return lines.joined(separator: "\n")
    }

    private static func optionTable(_ options: [OptionSpec]) -> [String] {
        ["| option | what it does |", "|---|---|"] + options.map { "| `\($0.label)` | \(cell($0.description)) |" }
    }
}
