import SitegenSupport

/// The `sitegen` command: reads the arguments, runs one command, returns the exit status.
public enum CommandLineTool {
    public static let version = "0.1.0"

    static let commands: [(name: String, summary: String)] = [
        ("build", "build the site into its output folder"),
        ("check", "build in memory and check every link, image and #fragment"),
        ("serve", "serve the site while you write, reloading pages as files change"),
        ("new", "start a new article, assignment or page"),
        ("init", "write a working starter site into a new folder"),
        ("render-template", "render a Mustache template given as JSON on standard input"),
        ("help", "show help for sitegen or for one command"),
    ]

    /// `endsProcess`: the process exits once the command is done (the `sitegen`
    /// executable), so memory need not be given back before.
    public static func run(arguments: [String], console: Console = .standard, endsProcess: Bool = false) -> Int32 {
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
            return BuildCommand.run(arguments: Array(arguments.dropFirst()), console: console, endsProcess: endsProcess)
        case "check":
            return CheckCommand.run(arguments: Array(arguments.dropFirst()), console: console)
        case "serve":
            return ServeCommand.run(arguments: Array(arguments.dropFirst()), console: console)
        case "new":
            return NewCommand.run(arguments: Array(arguments.dropFirst()), console: console)
        case "init":
            return InitCommand.run(arguments: Array(arguments.dropFirst()), console: console)
        case "render-template":
            return RenderTemplateCommand.run(arguments: Array(arguments.dropFirst()), console: console)
        default:
            var message = "sitegen: error: unknown command '\(first)'"
            if let suggestion = Suggestion.closest(to: first, among: commands.map(\.name)) {
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
        case "check":
            console.print(CheckCommand.help)
        case "serve":
            console.print(ServeCommand.help)
        case "new":
            console.print(NewCommand.help)
        case "init":
            console.print(InitCommand.help)
        case "render-template":
            console.print(RenderTemplateCommand.help)
        case "help":
            console.print("Usage: sitegen help [command]\n\nShows what sitegen or one of its commands does.")
        case let other?:
            var message = "sitegen: error: no help for unknown command '\(other)'"
            if let suggestion = Suggestion.closest(to: other, among: commands.map(\.name)) {
                message += "; did you mean '\(suggestion)'?"
            }
            console.printError(message)
            return 2
        }
        return 0
    }
}
