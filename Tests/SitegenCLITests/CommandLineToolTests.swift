import SitegenCLI
import Testing

@Suite("sitegen command line")
struct CommandLineToolTests {
    @Test func printsTheVersion() {
        let console = CapturedConsole()
        #expect(console.run("--version") == 0)
        #expect(console.output == "sitegen \(CommandLineTool.version)\n")
    }

    @Test func listsTheCommandsInItsHelp() {
        let console = CapturedConsole()
        #expect(console.run("--help") == 0)
        #expect(console.output.contains("Usage: sitegen <command> [options]"))
        #expect(console.output.contains("  render-template  render a Mustache template"))
        #expect(console.output.contains("  help "))
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
        #expect(console.error == "sitegen render-template: error: unknown option '--strikt'; did you mean '--strict'?\n")
    }
}
