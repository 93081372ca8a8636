import SitegenContent
import SitegenSupport

/// A tiny parser for `--flag`, `--option value` and `--option=value`, with "did you mean"
/// for anything unknown.
struct Arguments {
    var command: String
    var values: [String: String] = [:]
    var present: Set<String> = []
    var positional: [String] = []
    /// Every option in the order given, each name in its long form and each value a word
    /// of its own: what a command run by another program is handed.
    var forwarded: [String] = []

    /// Parses `arguments` by the options of `spec`; on a problem prints it and returns nil
    /// (exit status 2).
    init?(_ arguments: [String], spec: CommandSpec, console: Console) {
        command = spec.name
        let options = spec.valueOptions
        let flags = spec.flags
        let shorts = Dictionary(spec.allOptions.compactMap { option in option.short.map { ($0, option.name) } }, uniquingKeysWith: { first, _ in first })
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("-"), argument != "-" else {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                positional += remaining
                break
            }
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            if let long = shorts[name] { name = long }
            if options.contains(name) {
                guard let value = inline ?? remaining.popFirst() else {
                    console.printError("sitegen \(command): error: \(name) needs a value")
                    return nil
                }
                values[name] = value
                forwarded += [name, value]
            } else if flags.contains(name) || name == "--help" {
                present.insert(name)
                forwarded.append(name)
            } else {
                var message = "sitegen \(command): error: unknown option '\(argument)'"
                if let suggestion = Suggestion.closest(to: name, among: options + flags + ["--help"]) {
                    message += "; did you mean '\(suggestion)'?"
                }
                console.printError(message)
                console.printError("Run 'sitegen help \(command)' for its options.")
                return nil
            }
        }
    }

    subscript(option: String) -> String? { values[option] }

    func has(_ flag: String) -> Bool { present.contains(flag) }
}
