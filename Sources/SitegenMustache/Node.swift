/// The compiled form of a template: a tree of nodes, each knowing where it came from.
///
/// Standalone lines are already removed and every name already split at its dots,
/// so rendering never looks at the source again.
indirect enum Node: Sendable {
    case text(Text)
    case variable(Name, escaped: Bool, Tag)
    case section(Name, inverted: Bool, children: [Node], Tag)
    case partial(TemplateReference, standaloneIndent: [UInt8]?, Tag)
    case parent(TemplateReference, standaloneIndent: [UInt8]?, blocks: [String: [Node]], Tag)
    case block(String, children: [Node], standaloneIndent: [UInt8]?, Tag)
}

/// Literal template text and the offsets at which its non-empty lines start, where
/// an indented partial inserts its indentation.
struct Text: Sendable {
    var bytes: [UInt8]
    var lineStarts: [Int]
}

/// What every tag node carries: where it is, and whether it starts a line of the
/// template (an indented partial puts its indentation before it).
struct Tag: Sendable {
    var position: TemplatePosition
    var startsLine: Bool
}

/// A dotted name, resolved against the context stack: `.` is the top of the stack,
/// `a.b.c` finds `a` in the stack and then `b` and `c` inside it.
struct Name: Sendable {
    var components: [String]
    var source: String

    var isImplicitIterator: Bool { components.isEmpty }

    init(_ source: String) {
        self.source = source
        // Most names have no dot: splitting them would make a substring, an array and a
        // string again.
        if source == "." {
            components = []
        } else if !source.utf8.contains(UInt8(ascii: ".")) {
            components = [source]
        } else {
            components = source.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        }
    }
}

/// The template a partial or parent tag names: fixed, or found in the context (`*name`).
enum TemplateReference: Sendable {
    case named(String)
    case dynamic(Name)

    var displayName: String {
        switch self {
        case .named(let name): name
        case .dynamic(let name): "*" + name.source
        }
    }
}
