/// The delimiters of tags where a token stands: a tag like `{{=<% %>=}}` changes them for
/// the rest of the template.
struct Delimiters: Sendable {
    var open: [UInt8]
    var close: [UInt8]

    static let standard = Delimiters(open: Array("{{".utf8), close: Array("}}".utf8))
}

/// What the parser's first pass cuts a template's source into: runs of text and tags.
enum TokenKind: Equatable {
    case text
    case variable(escaped: Bool)
    case sectionOpen, invertedOpen, close, comment, partial, parentOpen, blockOpen
    case setDelimiters(Delimiters)

    static func == (lhs: TokenKind, rhs: TokenKind) -> Bool {
        switch (lhs, rhs) {
        case (.text, .text), (.sectionOpen, .sectionOpen), (.invertedOpen, .invertedOpen), (.close, .close),
             (.comment, .comment), (.partial, .partial), (.parentOpen, .parentOpen), (.blockOpen, .blockOpen),
             (.setDelimiters, .setDelimiters):
            true
        case (.variable(let a), .variable(let b)):
            a == b
        default:
            false
        }
    }
}

struct Token {
    var kind: TokenKind
    /// The bytes this token covers; standalone lines shrink the text around them.
    var start: Int
    var end: Int
    let originalStart: Int
    let originalEnd: Int
    var name: String
    var dynamic: Bool
    var delimiters: Delimiters
    var standalone = false
    var indent: [UInt8] = []

    init(kind: TokenKind, start: Int, end: Int, name: String = "", dynamic: Bool = false, delimiters: Delimiters) {
        self.kind = kind
        self.start = start
        self.end = end
        self.originalStart = start
        self.originalEnd = end
        self.name = name
        self.dynamic = dynamic
        self.delimiters = delimiters
    }

    var isTag: Bool { kind != .text }

    var canStandAlone: Bool {
        switch kind {
        case .text, .variable: false
        default: true
        }
    }
}

func isSpace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
}

func isSpaceOrReturn(_ byte: UInt8) -> Bool {
    isSpace(byte) || byte == UInt8(ascii: "\r")
}
