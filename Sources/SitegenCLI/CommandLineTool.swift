import SitegenBuildInfo
import SitegenContent
import SitegenSupport

/// The `sitegen` command: reads the arguments, runs one command, returns the exit status.
public enum CommandLineTool {
    public static var version: String { BuildInfo.version }

    /// `sitegen 0.1.0 (commit 0123…)`: what `--version` prints.
    public static var versionLine: String { "sitegen \(BuildInfo.summary)" }

    /// Every command, in the order the help lists them.
    static let specs: [CommandSpec] = [
        BuildCommand.spec, CheckCommand.spec, ServeCommand.spec, NewCommand.spec, InitCommand.spec, ImportCommand.spec,
        DigestCommand.spec, RenderTemplateCommand.spec, CompletionCommand.spec, ManualCommand.spec, helpSpec,
    ]

    static let helpSpec = CommandSpec(
        name: "help",
        summary: "show help for sitegen or for one command",
        usage: ["help [command]"],
        description: ["Shows what sitegen or one of its commands does."],
        options: [],
        operands: .commands,
        run: { help(topic: $0.positional.first, console: $1.console) }
    )

    /// The options before any command.
    static let globalOptions: [OptionSpec] = [
        .help,
        .flag("--version", short: "-V", "show the version and the commit it was built from"),
    ]

    /// `endsProcess`: the process exits once the command is done (the `sitegen`
    /// executable), so memory need not be given back before.
    public static func run(arguments: [String], console: Console = .standard, endsProcess: Bool = false) -> Int32 {
        guard let first = arguments.first else {
            console.printError(usage)
            return 2
        }
        switch first {
        case "--version", "-V", "version":
            console.print(versionLine)
            return 0
        case "--help", "-h":
            console.print(usage)
            return 0
        default:
            break
        }
        guard let spec = specs.first(where: { $0.name == first }) else {
            var message = "sitegen: error: unknown command '\(first)'"
            if let suggestion = Suggestion.closest(to: first, among: specs.map(\.name)) {
                message += "; did you mean '\(suggestion)'?"
            }
            console.printError(message)
            console.printError("Run 'sitegen --help' for the list of commands.")
            return 2
        }
        guard let parsed = Arguments(Array(arguments.dropFirst()), spec: spec, console: console) else { return 2 }
        if parsed.has("--help") {
            console.print(spec.help)
            return 0
        }
        if spec.operands == .none, let extra = parsed.positional.first {
            console.printError("sitegen \(spec.name): error: unexpected argument '\(extra)'\(spec.operandHint)")
            return 2
        }
        return spec.run(parsed, Invocation(console: console, endsProcess: endsProcess))
    }

    static let summary = "a static-site generator for food articles and homework digests"

    static var usage: String {
        var lines = [
            "sitegen \(version) — \(summary)", "",
            "Usage: sitegen <command> [options]", "",
            "Commands:",
        ]
        lines += HelpText.table(specs.map { ($0.name, $0.summary) }, width: CommandSpec.width)
        lines += ["", "Options:"] + HelpText.table(globalOptions.map { ($0.label, $0.description) }, width: CommandSpec.width)
        lines += ["", "Run 'sitegen help <command>' for the options of a command."]
        return lines.joined(separator: "\n")
    }

    static func help(topic: String?, console: Console) -> Int32 {
        guard let topic else {
            console.print(usage)
            return 0
        }
        guard let spec = specs.first(where: { $0.name == topic }) else {
            var message = "sitegen: error: no help for unknown command '\(topic)'"
            if let suggestion = Suggestion.closest(to: topic, among: specs.map(\.name)) {
                message += "; did you mean '\(suggestion)'?"
            }
            console.printError(message)
            return 2
        }
        console.print(spec.help)
        return 0
    }
}

/// `sitegen completion bash|zsh|fish`.
enum CompletionCommand {
    static let spec = CommandSpec(
        name: "completion",
        summary: "print the shell completion script for bash, zsh or fish",
        usage: ["completion bash|zsh|fish"],
        description: [
            "Prints the script that completes sitegen's commands, options, folders and choices in the shell named. The release packages install all three; to load one by hand:",
            "  bash:  source <(sitegen completion bash)      (or save it as ~/.local/share/bash-completion/completions/sitegen)\n  zsh:   sitegen completion zsh > \"${fpath[1]}/_sitegen\"\n  fish:  sitegen completion fish > ~/.config/fish/completions/sitegen.fish",
        ],
        options: [],
        operands: .choice(ShellCompletion.Shell.allCases.map(\.rawValue)),
        run: { run($0, console: $1.console) }
    )

    static func run(_ parsed: Arguments, console: Console) -> Int32 {
        let shells = ShellCompletion.Shell.allCases.map(\.rawValue)
        guard parsed.positional.count == 1, let shell = ShellCompletion.Shell(rawValue: parsed.positional[0]) else {
            var message = "sitegen completion: error: name one shell: \(shells.joined(separator: ", "))"
            if let given = parsed.positional.first, let suggestion = Suggestion.closest(to: given, among: shells) {
                message += "; did you mean '\(suggestion)'?"
            }
            console.printError(message)
            return 2
        }
        console.print(ShellCompletion.script(for: shell, commands: CommandLineTool.specs, globalOptions: CommandLineTool.globalOptions))
        return 0
    }
}

/// `sitegen man`.
enum ManualCommand {
    static let spec = CommandSpec(
        name: "man",
        summary: "print sitegen's manual page",
        usage: ["man"],
        description: [
            "Prints the manual page (roff), made from the same texts as the help of every command. Read it with 'sitegen man | man -l -', or save it as sitegen.1 in a folder of MANPATH; the release packages install it.",
        ],
        options: [],
        run: { _, invocation in
            invocation.console.print(ManualPage.roff(commands: CommandLineTool.specs, globalOptions: CommandLineTool.globalOptions))
            return 0
        }
    )
}
