import Foundation
import SitegenCLI
import Testing

@Suite("sitegen command line")
struct CommandLineToolTests {
    @Test func printsTheVersionAndTheCommitItWasBuiltFrom() throws {
        let console = CapturedConsole()
        #expect(console.run("--version") == 0)
        // The tests are built from a checkout, so the commit is known: git's own answer.
        let head = try #require(try git("rev-parse", "HEAD"))
        let modified = !(try git("status", "--porcelain", "--untracked-files=no") ?? "").isEmpty
        #expect(console.output == "sitegen \(CommandLineTool.version) (commit \(head)\(modified ? ", modified" : ""))\n")
        let version = try String(contentsOf: Repository.root.appendingPathComponent("VERSION"), encoding: .utf8)
        #expect(CommandLineTool.version == version.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(CommandLineTool.version.split(separator: ".").count == 3 && CommandLineTool.version.allSatisfy { $0.isNumber || $0 == "." })
    }

    private func git(_ arguments: String...) throws -> String? {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-c", "safe.directory=*", "-C", Repository.root.path] + arguments
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? output.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    @Test func listsTheCommandsInItsHelp() {
        let console = CapturedConsole()
        #expect(console.run("--help") == 0)
        #expect(console.output.contains("Usage: sitegen <command> [options]"))
        #expect(console.output.contains("  render-template  render a Mustache template"))
        #expect(console.output.contains("  help "))
    }

    /// What `help check` says check warns about is what it warns about: an article's
    /// summary is made from its first paragraph, so only one with neither is told.
    @Test func checksHelpPromisesOnlyTheWarningsItGives() {
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["help", "check"], console: console.console) == 0)
        let help = console.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(help.contains("an article without a cover, or with neither a summary nor a first paragraph to make one from"))
        #expect(!help.contains("without a cover or a summary"))
    }

    /// `new` suggests the kind meant when one is misspelt.
    @Test func suggestsTheKindOfContentForAMisspeltOne() {
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["new", "artcle", "Toast"], console: console.console) == 2)
        #expect(console.error.contains("cannot make a 'artcle'") && console.error.contains("did you mean 'article'?"))
    }

    @Test func suggestsTheClosestCommandForAnUnknownOne() {
        let console = CapturedConsole()
        #expect(console.run("render-templat") == 2)
        #expect(console.error.hasPrefix("sitegen: error: unknown command 'render-templat'; did you mean 'render-template'?\n"))
    }

    @Test func withoutArgumentsPrintsUsageAndFails() {
        let console = CapturedConsole()
        #expect(console.run() == 2)
        #expect(console.error.contains("Usage: sitegen"))
    }
}

@Suite("sitegen render-template")
struct RenderTemplateCommandTests {
    @Test func writesExactlyTheRenderedTextToStandardOutput() {
        let console = CapturedConsole(input: #"{"template": "{{>row}}{{#items}}<{{.}}>{{/items}}", "data": {"items": [1, "a&b"]}, "partials": {"row": "R:"}}"#)
        #expect(console.run("render-template") == 0)
        #expect(console.output == "R:<1><a&amp;b>")
        #expect(console.error == "")
    }

    @Test func worksWithoutDataOrPartials() {
        let console = CapturedConsole(input: #"{"template": "plain\n"}"#)
        #expect(console.run("render-template") == 0)
        #expect(console.output == "plain\n")
    }

    @Test func reportsATemplateErrorAtTemplateAndExitsOne() {
        let console = CapturedConsole(input: #"{"template": "a\n{{#s}}b", "data": {}}"#)
        #expect(console.run("render-template") == 1)
        #expect(console.output == "")
        #expect(console.error == "<template>:2:1: error: section 's' opened here is never closed: expected '{{/s}}'\n")
    }

    @Test func namesThePartialThatHasTheError() {
        let console = CapturedConsole(input: #"{"template": "{{>p}}", "partials": {"p": "x {{/q}}"}}"#)
        #expect(console.run("render-template") == 1)
        #expect(console.error == "p:1:3: error: closing tag 'q' has no section to close\n")
    }

    @Test func rendersAnUnknownPartialAsNothingWithAWarning() {
        let console = CapturedConsole(input: #"{"template": "[{{>nav}}]"}"#)
        #expect(console.run("render-template") == 0)
        #expect(console.output == "[]")
        #expect(console.error == "<template>:1:2: warning: unknown partial 'nav': no template of that name; it renders as nothing\n")
    }

    @Test func failsOnAnUnknownPartialWhenStrict() {
        let console = CapturedConsole(input: #"{"template": "[{{>nav}}]"}"#)
        #expect(console.run("render-template", "--strict") == 1)
        #expect(console.output == "")
        #expect(console.error == "<template>:1:2: error: unknown partial 'nav': no template of that name\n")
    }

    @Test func rejectsInputThatIsNotTheExpectedJSON() {
        let console = CapturedConsole(input: "{not json")
        #expect(console.run("render-template") == 1)
        #expect(console.error.hasPrefix("<stdin>: error: expected a JSON object with \"template\""))
        let missing = CapturedConsole(input: #"{"data": {}}"#)
        #expect(missing.run("render-template") == 1)
        #expect(missing.error.contains("the key \"template\" is missing"))
    }

    @Test func suggestsTheClosestOption() {
        let console = CapturedConsole()
        #expect(console.run("render-template", "--strikt") == 2)
        #expect(console.error == "sitegen render-template: error: unknown option '--strikt'; did you mean '--strict'?\nRun 'sitegen help render-template' for its options.\n")
    }
}
