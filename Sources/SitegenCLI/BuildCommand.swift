import Foundation
import SitegenCore
import SitegenSupport

#if canImport(Glibc)
import Glibc
#endif

/// `sitegen build`: the site under `--source` into `--output`.
enum BuildCommand {
    static let help = """
        Usage: sitegen build [options]

        Builds the site into its output folder. Every problem of the site is printed as
        'path:line:column: error: message'; if there is any error, the output folder is
        left exactly as it was and the exit status is 1.

        Options:
          --source DIR      the site folder, holding Content/ and Themes/ (default: .)
          --output DIR      where the site is written (default: <source>/Output)
          --base-url URL    publish under this URL instead of site.yaml's base_url
          --today DATE      build as if it were DATE (2026-03-10) or DATE and time
                            (2026-03-10T13:30) in the site's time zone (default: now)
          --drafts          include drafts
          --strict          treat warnings as errors
          --quiet           print problems only, no summary
          -h, --help        show this help
        """

    static let flags = ["--source", "--output", "--base-url", "--today", "--drafts", "--strict", "--quiet", "--help"]

    static func run(arguments: [String], console: Console) -> Int32 {
        var options = BuildOptions()
        var quiet = false
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let (name, inlineValue) = splitOption(argument)
            func value() -> String? {
                if let inlineValue { return inlineValue }
                return remaining.popFirst()
            }
            switch name {
            case "--source", "--output", "--base-url", "--today":
                guard let given = value() else {
                    console.printError("sitegen build: error: \(name) needs a value")
                    return 2
                }
                switch name {
                case "--source": options.source = given
                case "--output": options.output = given
                case "--base-url": options.baseURL = given
                default: options.today = given
                }
            case "--drafts": options.drafts = true
            case "--strict": options.strict = true
            case "--quiet", "-q": quiet = true
            case "--help", "-h":
                console.print(help)
                return 0
            default:
                var message = "sitegen build: error: unknown option '\(argument)'"
                if let suggestion = Suggestion.closest(to: name, among: flags) {
                    message += "; did you mean '\(suggestion)'?"
                }
                console.printError(message)
                return 2
            }
        }

        let clock = ContinuousClock()
        let start = clock.now
        let showsProgress = !quiet && isatty(2) == 1
        let report = SiteBuilder.build(options) { stage in
            guard showsProgress, clock.now - start > .seconds(1) else { return }
            console.writeError("\r\u{1B}[K\(stage)…")
        }
        if showsProgress, clock.now - start > .seconds(1) { console.writeError("\r\u{1B}[K") }
        for diagnostic in report.diagnostics {
            console.printError(diagnostic.description)
        }
        if let problem = report.commandError {
            console.printError("sitegen build: error: \(problem)")
            return 2
        }
        let errors = report.diagnostics.filter { $0.severity == .error }.count
        guard errors == 0 else {
            console.printError("Build failed: \(errors) error\(errors == 1 ? "" : "s"); \(report.outputPath) was left as it was.")
            return 1
        }
        if !quiet {
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            console.print("Built \(grouped(report.pageCount)) page\(report.pageCount == 1 ? "" : "s") in \(String(format: "%.2f", seconds)) s → \(report.outputPath)")
        }
        return 0
    }

    static func splitOption(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    static func grouped(_ number: Int) -> String {
        let digits = String(number)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return result
    }
}
