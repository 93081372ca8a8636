import SitegenContent
import SitegenPipeline
import SitegenSupport

/// `sitegen digest`: tonight's sentence and work of each grade on standard output, for
/// the bots a site's CI job runs (Mastodon, Signal, a school's SMS).
enum DigestCommand {
    static let formats = ["text", "json"]

    static let spec = CommandSpec(
        name: "digest",
        summary: "print what each grade has tonight, as text or JSON, for bots",
        usage: ["digest [options]"],
        description: [
            "Prints what each grade's page leads with at the moment: the sentence ('8th grade has homework in Math and History tonight.'), a line per assignment and the grade's address; the same as the grade's tonight.txt. Nothing is built or written. Problems of the site are printed on standard error, and with an error nothing is printed on standard output and the exit status is 1.",
            "  sitegen digest --grade 8\n  sitegen digest --format json | jq -r '.[0].sentence'",
        ],
        options: [
            .option("--source", "DIR", .folder, "the site folder (default: .)"),
            .option("--grade", "GRADE", "only this grade, as homework.grades in site.yaml names it (default: every grade)"),
            .option("--format", "FORMAT", .choice(formats), "text (default), or json: a list with an object per grade"),
            .option("--today", "DATE", "as if it were DATE or DATE and time (default: now)"),
            .option("--base-url", "URL", "the site's address for the links (default: base_url of site.yaml)"),
            .flag("--drafts", "include drafts"),
            .flag("--strict", "treat warnings as errors (notes never fail)"),
        ],
        notes: ["docs/homework.md#tonight-for-other-channels has a recipe that posts each grade's digest to Mastodon from the daily workflow."],
        operandHint: "; the site folder is given with --source",
        run: { run($0, console: $1.console) }
    )

    static func run(_ parsed: Arguments, console: Console) -> Int32 {
        let format = parsed["--format"] ?? "text"
        guard formats.contains(format) else {
            var message = "sitegen digest: error: --format must be text or json, found '\(format)'"
            if let suggestion = Suggestion.closest(to: format, among: formats) { message += "; did you mean '\(suggestion)'?" }
            console.printError(message)
            return 2
        }
        guard var options = BuildCommand.buildOptions(parsed, console: console) else { return 2 }
        options.useCache = false
        let (report, digests) = Digest.make(options)
        for diagnostic in report.diagnostics { console.printError(diagnostic.description) }
        if let problem = report.commandError {
            console.printError("sitegen digest: error: \(problem)")
            return 2
        }
        guard report.succeeded else { return 1 }
        var shown = digests
        if let grade = parsed["--grade"] {
            shown = digests.filter { $0.grade.text.lowercased() == grade.lowercased() }
            guard !shown.isEmpty else {
                let known = digests.map(\.grade.text)
                var message = "sitegen digest: error: --grade must be one of homework.grades in site.yaml (\(known.joined(separator: ", "))), found '\(grade)'"
                if let suggestion = Suggestion.closest(to: grade, among: known) { message += "; did you mean '\(suggestion)'?" }
                console.printError(message)
                return 2
            }
        }
        switch format {
        case "json": console.print("[" + shown.map(\.json).joined(separator: ",\n") + "]")
        default: console.print(shown.map(\.text).joined(separator: "\n").dropLast().description)
        }
        return 0
    }
}
