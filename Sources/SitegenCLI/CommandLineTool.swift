/// The `sitegen` command: reads the arguments, runs one command, returns the exit status.
public enum CommandLineTool {
    public static let version = "0.1.0"

    static let commands: [(name: String, summary: String)] = [
        ("build", "build the site into its output folder"),
        ("render-template", "render a Mustache template given as JSON on standard input"),
        ("help", "show help for sitegen or for one command"),
    ]

    public static func run(arguments: [String], console: Console = .standard) -> Int32 {
        guard let first = arguments.first else {
            console.writeError(usage)
            return 2
        }
        switch first {
        case "--version", "-V", "version":
            console.print("sitegen \(version)")
            return 0
        case "--help", "-h":
            console.print(usage)
            return 0
        case "help":
            return help(topic: arguments.dropFirst().first, console: console)
        case "build":
            return BuildCommand.run(arguments: Array(arguments.dropFirst()), console: console)
        case "render-template":
            return RenderTemplateCommand.run(arguments: Array(arguments.dropFirst()), console: console)
        default:
            var message = "sitegen: error: unknown command '\(first)'"
            if let suggestion = closest(to: first, among: commands.map(\.name)) {
                message += "; did you mean '\(suggestion)'?"
            }
            console.printError(message)
            console.printError("Run 'sitegen --help' for the list of commands.")
            return 2
        }
    }

    static var usage: String {
        let width = commands.map(\.name.count).max() ?? 0
        let lines = commands.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
        return """
            sitegen \(version) — a static-site generator for food articles and homework digests

            Usage: sitegen <command> [options]

            Commands:
            \(lines.joined(separator: "\n"))

            Options:
              -h, --help     show this help
              -V, --version  show the version

            Run 'sitegen help <command>' for the options of a command.
            """
    }

    private static func help(topic: String?, console: Console) -> Int32 {
        switch topic {
        case nil:
            console.print(usage)
        case "build":
            console.print(BuildCommand.help)
        case "render-template":
            console.print(RenderTemplateCommand.help)
        case "help":
            console.print("Usage: sitegen help [command]\n\nShows what sitegen or one of its commands does.")
        case let other?:
            var message = "sitegen: error: no help for unknown command '\(other)'"
            if let suggestion = closest(to: other, among: commands.map(\.name)) {
                message += "; did you mean '\(suggestion)'?"
            }
            console.printError(message)
            return 2
        }
        return 0
    }

    /// The candidate within a few edits of `word`, for "did you mean" hints.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, word.count / 3) else { return nil }
        return best.0
    }

    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
