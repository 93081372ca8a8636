import Foundation
import SitegenContent
import SitegenMustache
import SitegenSupport

/// `sitegen render-template`: one JSON object on standard input, the rendered text on
/// standard output and nothing else, so theme authors can try a template and anyone
/// can run the Mustache spec against sitegen from outside.
enum RenderTemplateCommand {
    static let spec = CommandSpec(
        name: "render-template",
        summary: "render a Mustache template given as JSON on standard input",
        usage: ["render-template [--strict] < request.json"],
        description: [
            "Reads one JSON object from standard input:",
            "  {\"template\": \"Hello {{name}}\", \"data\": {\"name\": \"Ann\"}, \"partials\": {\"row\": \"...\"}}",
            "and writes the rendered template to standard output, adding nothing.",
            "Template errors are printed as '<template>:line:column: error: ...' (or with the partial's name as the path) and the exit status is 1.",
        ],
        options: [
            .flag("--strict", "a partial or parent that names no template is an error (as in 'sitegen build'); without it, it renders as nothing, as the Mustache spec asks, and a warning is printed"),
        ],
        operandHint: "; the request is read from standard input",
        run: { run(strict: $0.has("--strict"), console: $1.console) }
    )

    private struct Request: Decodable {
        var template: String
        var data: MustacheValue?
        var partials: [String: String]?
    }

    static func run(strict: Bool, console: Console) -> Int32 {
        let request: Request
        do {
            request = try JSONDecoder().decode(Request.self, from: Data(console.readInput()))
        } catch {
            console.printError("<stdin>: error: expected a JSON object with \"template\", \"data\" and \"partials\": \(describe(error))")
            return 1
        }

        let partials = request.partials ?? [:]
        let template: MustacheTemplate
        var library: MustacheLibrary
        do {
            template = try MustacheTemplate(name: "<template>", source: request.template)
            library = try MustacheLibrary(sources: partials, missingTemplates: strict ? .fail : .renderNothing)
        } catch let error as MustacheError {
            console.printError(error.description)
            return 1
        } catch let error as MustacheLibraryError {
            console.printError(error.description)
            return 1
        } catch {
            console.printError("<template>: error: \(error)")
            return 1
        }
        library.add(template)

        let missing = library.unresolvedReferences()
        if strict, !missing.isEmpty {
            missing.forEach { console.printError($0.description) }
            return 1
        }
        for problem in missing {
            console.printError(problem.formatted(as: "warning") + "; it renders as nothing")
        }

        do {
            console.writeOutput(try library.renderBytes(template, with: request.data ?? .null))
            return 0
        } catch {
            console.printError(error.description)
            return 1
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription
        case DecodingError.keyNotFound(let key, _):
            "the key \"\(key.stringValue)\" is missing"
        case DecodingError.typeMismatch(_, let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default:
            "\(error)"
        }
    }
}
