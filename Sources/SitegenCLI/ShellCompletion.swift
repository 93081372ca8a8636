/// The completion scripts of `sitegen completion`, made from the commands' specs: commands,
/// their options, the values of options (folders, files, choices) and their operands.
enum ShellCompletion {
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    static func script(for shell: Shell, commands: [CommandSpec], globalOptions: [OptionSpec]) -> String {
        switch shell {
        case .bash: bash(commands, globalOptions)
        case .zsh: zsh(commands, globalOptions)
        case .fish: fish(commands, globalOptions)
        }
    }

    /// The words an operand may be, or nil for a folder.
    private static func words(of operands: CommandSpec.Operands, commands: [CommandSpec]) -> [String]? {
        switch operands {
        case .none: []
        case let .choice(words): words
        case .commands: commands.map(\.name)
        case .folder: nil
        }
    }

    private static func optionWords(_ options: [OptionSpec]) -> [String] {
        options.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }
    }

    // MARK: bash

    private static func bash(_ commands: [CommandSpec], _ globals: [OptionSpec]) -> String {
        var lines = [
            "# bash completion for sitegen, written by 'sitegen completion bash'.",
            "_sitegen_reply() {",
            "    mapfile -t COMPREPLY < <(compgen \"$@\" -- \"${COMP_WORDS[COMP_CWORD]}\")",
            "}",
            "",
            "_sitegen() {",
            "    COMPREPLY=()",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    local command='' operands=0 i word takes_value=''",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        word=${COMP_WORDS[i]}",
            "        if [[ -z $command ]]; then",
            "            [[ $word == -* ]] || command=$word",
            "            continue",
            "        fi",
            "        if [[ -n $takes_value ]]; then takes_value=''; continue; fi",
            "        case $command:$word in",
        ]
        for command in commands where !command.valueOptions.isEmpty {
            lines.append("            \(command.valueOptions.map { "\(command.name):\($0)" }.joined(separator: "|"))) takes_value=1 ;;")
        }
        lines += [
            "            *:-*) ;;",
            "            *) ((operands++)) ;;",
            "        esac",
            "    done",
            "    if [[ -z $command ]]; then",
            "        _sitegen_reply -W \(shellQuoted((commands.map(\.name) + optionWords(globals)).joined(separator: " ")))",
            "        return",
            "    fi",
            "    case $command in",
        ]
        for command in commands {
            lines.append("        \(command.name))")
            let valued = command.options.filter { $0.value != nil }
            if !valued.isEmpty {
                lines.append("            case $prev in")
                for option in valued {
                    lines.append("                \(option.name)) \(bashValue(option.value!.completion)) return ;;")
                }
                lines.append("            esac")
            }
            lines.append("            if [[ $cur == -* ]]; then _sitegen_reply -W \(shellQuoted(optionWords(command.allOptions).joined(separator: " "))); return; fi")
            if let words = words(of: command.operands, commands: commands) {
                if !words.isEmpty { lines.append("            ((operands == 0)) && _sitegen_reply -W \(shellQuoted(words.joined(separator: " ")))") }
            } else {
                lines.append("            ((operands == 0)) && { compopt -o filenames 2>/dev/null; _sitegen_reply -d; }")
            }
            lines.append("            ;;")
        }
        lines += [
            "    esac",
            "}",
            "complete -F _sitegen sitegen",
        ]
        return lines.joined(separator: "\n")
    }

    private static func bashValue(_ completion: OptionSpec.Completion) -> String {
        switch completion {
        case .folder: "compopt -o filenames 2>/dev/null; _sitegen_reply -d;"
        case .file: "compopt -o filenames 2>/dev/null; _sitegen_reply -f;"
        case let .choice(words): "_sitegen_reply -W \(shellQuoted(words.joined(separator: " ")));"
        case .none: "COMPREPLY=();"
        }
    }

    /// `text` in single quotes for a POSIX shell (and fish, which reads them alike when the
    /// text has no backslash).
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: zsh

    private static func zsh(_ commands: [CommandSpec], _ globals: [OptionSpec]) -> String {
        var lines = [
            "#compdef sitegen",
            "# zsh completion for sitegen, written by 'sitegen completion zsh'.",
            "_sitegen() {",
            "    local -a commands options",
            "    commands=(",
        ]
        lines += commands.map { "        \(shellQuoted("\($0.name):\($0.summary)"))" }
        lines += ["    )", "    options=("]
        lines += globals.flatMap { option in optionWords([option]).map { "        \(shellQuoted("\($0):\(option.description)"))" } }
        lines += [
            "    )",
            "    if (( CURRENT == 2 )); then",
            "        _describe -t commands 'sitegen command' commands",
            "        _describe -t options 'option' options",
            "        return",
            "    fi",
            "    local command=${words[2]}",
            "    shift words",
            "    (( CURRENT-- ))",
            "    case $command in",
        ]
        for command in commands {
            var specs = command.allOptions.map(zshOption)
            if let words = words(of: command.operands, commands: commands) {
                if !words.isEmpty { specs.append(shellQuoted("1:\(command.name == "help" ? "command" : "operand"):(\(words.joined(separator: " ")))")) }
            } else {
                specs.append(shellQuoted("1:folder:_files -/"))
            }
            lines.append("        (\(command.name))")
            lines.append("            _arguments -s \\")
            lines += specs.dropLast().map { "                \($0) \\" }
            lines.append("                \(specs.last!)")
            lines.append("            ;;")
        }
        lines += [
            "    esac",
            "}",
            "if [[ ${funcstack[1]} == _sitegen ]]; then _sitegen \"$@\"; else compdef _sitegen sitegen; fi",
        ]
        return lines.joined(separator: "\n")
    }

    private static func zshOption(_ option: OptionSpec) -> String {
        let description = "[" + option.description.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
            .replacingOccurrences(of: ":", with: "\\:") + "]"
        var value = ""
        if let spec = option.value {
            let action = switch spec.completion {
            case .folder: "_files -/"
            case .file: "_files"
            case let .choice(words): "(\(words.joined(separator: " ")))"
            case .none: " "
            }
            value = ":\(spec.placeholder):\(action)"
        }
        guard let short = option.short else { return shellQuoted(option.name + description + value) }
        let exclusive = option.name == "--help" ? "(- *)" : "(\(option.name) \(short))"
        return shellQuoted(exclusive) + "{\(option.name),\(short)}" + shellQuoted(description + value)
    }

    // MARK: fish

    private static func fish(_ commands: [CommandSpec], _ globals: [OptionSpec]) -> String {
        var lines = [
            "# fish completion for sitegen, written by 'sitegen completion fish'.",
            "complete -c sitegen -f",
        ]
        for command in commands {
            lines.append("complete -c sitegen -n __fish_use_subcommand -a \(command.name) -d \(fishQuoted(command.summary))")
        }
        for option in globals {
            lines.append("complete -c sitegen -n __fish_use_subcommand \(fishOption(option))")
        }
        for command in commands {
            let seen = fishQuoted("__fish_seen_subcommand_from \(command.name)")
            for option in command.allOptions {
                lines.append("complete -c sitegen -n \(seen) \(fishOption(option))")
            }
            let others = commands.map(\.name).filter { $0 != command.name }
            switch command.operands {
            case .none:
                break
            case .folder:
                lines.append("complete -c sitegen -n \(seen) -a '(__fish_complete_directories)'")
            case .choice, .commands:
                let words = words(of: command.operands, commands: commands) ?? []
                let condition = fishQuoted("__fish_seen_subcommand_from \(command.name); and not __fish_seen_subcommand_from \((command.operands == .commands ? others : words).joined(separator: " "))")
                lines.append("complete -c sitegen -n \(condition) -a \(fishQuoted(words.joined(separator: " ")))")
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func fishOption(_ option: OptionSpec) -> String {
        var parts = ["-l \(option.name.dropFirst(2))"]
        if let short = option.short { parts.append("-s \(short.dropFirst())") }
        if let value = option.value {
            switch value.completion {
            case .folder: parts.append("-x -a '(__fish_complete_directories)'")
            case .file: parts.append("-r -F")
            case let .choice(words): parts.append("-x -a \(fishQuoted(words.joined(separator: " ")))")
            case .none: parts.append("-x")
            }
        }
        parts.append("-d \(fishQuoted(option.description))")
        return parts.joined(separator: " ")
    }

    /// `text` in single quotes as fish reads them: a backslash and a quote are escaped.
    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
