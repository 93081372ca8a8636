/// sitegen(1), made from the commands' specs: the same texts as their help.
enum ManualPage {
    static func roff(commands: [CommandSpec], globalOptions: [OptionSpec]) -> String {
        var lines = [
            ".\\\" Written by 'sitegen man' from the help of each command.",
            ".TH SITEGEN 1 \"\" \"sitegen \(CommandLineTool.version)\" \"User Commands\"",
            ".SH NAME",
            "sitegen \\- \(escaped(CommandLineTool.summary))",
            ".SH SYNOPSIS",
            ".B sitegen",
            ".I command",
            "[\\fIoptions\\fR]",
            ".br",
            ".B sitegen",
            "[\\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR]",
            ".SH DESCRIPTION",
            paragraph("sitegen turns a folder of Markdown files with YAML front matter into a static website of food articles and homework digests. A site's folder holds Content/ (site.yaml, teachers.yaml, articles/, homework/, pages/) and, optionally, Themes/ to override the default theme's templates."),
            ".SH OPTIONS",
        ]
        lines += globalOptions.flatMap(option)
        lines.append(".SH COMMANDS")
        for command in commands {
            lines.append(".SS \(quoted(command.name))")
            for usage in command.usage {
                lines += [".nf", ".B sitegen \(escaped(usage))", ".fi"]
            }
            lines += command.description.map(paragraph)
            lines += command.allOptions.flatMap(option)
            lines += command.notes.map(paragraph)
        }
        lines += [
            ".SH ENVIRONMENT",
            ".TP",
            ".B XDG_CACHE_HOME",
            paragraph("The build cache is kept in $XDG_CACHE_HOME/sitegen, or in ~/.cache/sitegen when it is not set, unless --cache-dir names another folder."),
            ".SH EXIT STATUS",
            ".TP", "0", "The command did what it was asked.",
            ".TP", "1", "The site has errors (each printed as path:line:column: error: message); a build leaves its output folder as it was.",
            ".TP", "2", "The command line was wrong, or a folder could not be read or written.",
            ".SH SEE ALSO",
            paragraph("The documentation in the docs/ folder of sitegen's repository, starting at docs/getting-started.md."),
        ]
        return lines.joined(separator: "\n")
    }

    private static func option(_ option: OptionSpec) -> [String] {
        var head = "\\fB\(escaped(option.name))\\fR"
        if let short = option.short { head += ", \\fB\(escaped(short))\\fR" }
        if let value = option.value { head += " \\fI\(escaped(value.placeholder))\\fR" }
        return [".TP", head, escapedLine(option.description)]
    }

    /// A paragraph of running text, or an example kept as written when its lines start
    /// with two spaces.
    private static func paragraph(_ text: String) -> String {
        if text.hasPrefix("  ") {
            return ([".PP", ".nf"] + text.split(separator: "\n", omittingEmptySubsequences: false).map { escapedLine(String($0)) } + [".fi"]).joined(separator: "\n")
        }
        return ".PP\n" + escapedLine(text)
    }

    /// Text for roff: backslashes escaped, hyphens as minus signs where options are
    /// written, and a line that would start with a control character made plain.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
    }

    private static func escapedLine(_ text: String) -> String {
        let line = escaped(text)
        return line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }

    private static func quoted(_ text: String) -> String { "\"\(escaped(text))\"" }
}
