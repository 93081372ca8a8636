/// Where a command runs.
struct Invocation: Sendable {
    var console: Console
    /// The process exits once the command is done (the `sitegen` executable), so memory
    /// need not be given back before.
    var endsProcess = false
}

/// What a command is and takes, in one place: its help, the parsing of its arguments, the
/// shell completions and the manual page are all made from it, so none can disagree.
struct CommandSpec: Sendable {
    var name: String
    /// One line, for the list of commands.
    var summary: String
    /// What follows `Usage: ` (the first) and aligns under it (the rest).
    var usage: [String]
    /// Paragraphs before the options; a paragraph whose lines start with two spaces is kept
    /// as it is written (an example), the others are wrapped.
    var description: [String]
    var options: [OptionSpec]
    /// Paragraphs after the options.
    var notes: [String] = []
    /// What the words that are not options may be, for completion; a command whose
    /// operands are `.none` refuses any.
    var operands: Operands = .none
    /// Said after "unexpected argument" when a command that takes none is given one.
    var operandHint = ""
    /// Runs the command with its arguments parsed; its exit status.
    var run: @Sendable (Arguments, Invocation) -> Int32

    enum Operands: Sendable, Equatable {
        case none
        /// One word out of these.
        case choice([String])
        /// A folder.
        case folder
        /// The name of a command.
        case commands
    }

    /// Options that take a value.
    var valueOptions: [String] { options.filter { $0.value != nil }.map(\.name) }

    /// Options that stand alone.
    var flags: [String] { options.filter { $0.value == nil }.map(\.name) }

    /// Every option, the help's included.
    var allOptions: [OptionSpec] { options + [.help] }
}

struct OptionSpec: Sendable {
    var name: String
    var short: String?
    /// The value's placeholder and what completes it; nil for a flag.
    var value: Value?
    var description: String

    struct Value: Sendable, Equatable {
        var placeholder: String
        var completion: Completion
    }

    enum Completion: Sendable, Equatable {
        case folder, file, none
        case choice([String])
    }

    static func flag(_ name: String, short: String? = nil, _ description: String) -> OptionSpec {
        OptionSpec(name: name, short: short, value: nil, description: description)
    }

    static func option(_ name: String, _ placeholder: String, _ completion: Completion, _ description: String) -> OptionSpec {
        OptionSpec(name: name, short: nil, value: Value(placeholder: placeholder, completion: completion), description: description)
    }

    /// An option whose value nothing completes.
    static func option(_ name: String, _ placeholder: String, _ description: String) -> OptionSpec {
        option(name, placeholder, .none, description)
    }

    static let help = OptionSpec.flag("--help", short: "-h", "show this help")

    /// `--source DIR`, `--quiet, -q`: as the help lists it.
    var label: String {
        var label = name
        if let short { label += ", \(short)" }
        if let value { label += " \(value.placeholder)" }
        return label
    }
}
