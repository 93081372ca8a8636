/// A position in a template's source: 1-based line and column, the column
/// counted in Unicode scalars so it matches what an editor shows.
public struct TemplatePosition: Sendable, Hashable, Comparable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// A problem in a template, found while compiling it or while rendering it.
public struct MustacheError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case unterminatedTag(opener: String, expected: String)
        case tagRunsIntoNextTag(opener: String, next: String, expected: String)
        case unclosedSection(name: String)
        case mismatchedClosingTag(expected: String, found: String, openedAt: TemplatePosition)
        case unexpectedClosingTag(name: String)
        case malformedDelimiters(found: String)
        case emptyTag(sigil: String)
        case invalidTagName(name: String)
        case duplicateBlock(name: String, firstAt: TemplatePosition)
        case unknownPartial(name: String)
        case unknownParent(name: String)
        case dynamicNameNotString(expression: String)
        case recursionTooDeep(name: String, limit: Int)
        case nestedTooDeep(name: String, limit: Int)
        case renderedTooDeep(name: String, limit: Int)
    }

    /// The template's path or name, as the diagnostic shows it.
    public var path: String
    public var position: TemplatePosition
    public var kind: Kind

    public init(path: String, position: TemplatePosition, kind: Kind) {
        self.path = path
        self.position = position
        self.kind = kind
    }

    public var message: String {
        switch kind {
        case .unterminatedTag(let opener, let expected):
            "tag '\(opener)' opened here is never closed: expected '\(expected)'"
        case .tagRunsIntoNextTag(let opener, let next, let expected):
            "tag '\(opener)' opened here is not closed before the next '\(next)': expected '\(expected)'"
        case .unclosedSection(let name):
            "section '\(name)' opened here is never closed: expected '{{/\(name)}}'"
        case .mismatchedClosingTag(let expected, let found, let openedAt):
            "closing tag '\(found)' does not match section '\(expected)' opened at line \(openedAt.line), column \(openedAt.column): expected '{{/\(expected)}}'"
        case .unexpectedClosingTag(let name):
            "closing tag '\(name)' has no section to close"
        case .malformedDelimiters(let found):
            "malformed delimiter change '\(found)': expected two delimiters without '=' or spaces, separated by a space, like '{{=<% %>=}}'"
        case .emptyTag(let sigil):
            sigil.isEmpty ? "empty tag: expected a name inside it" : "empty '\(sigil)' tag: expected a name after '\(sigil)'"
        case .invalidTagName(let name):
            "invalid name '\(name)': a name has no spaces; is a closing delimiter missing?"
        case .duplicateBlock(let name, let firstAt):
            "block '\(name)' is already given at line \(firstAt.line), column \(firstAt.column) of this parent"
        case .unknownPartial(let name):
            "unknown partial '\(name)': no template of that name"
        case .unknownParent(let name):
            "unknown parent '\(name)': no template of that name"
        case .dynamicNameNotString(let expression):
            "dynamic name '*\(expression)' must be a string naming a template"
        case .recursionTooDeep(let name, let limit):
            "'\(name)' is nested more than \(limit) templates deep: is a template including itself forever?"
        case .nestedTooDeep(let name, let limit):
            "section '\(name)' opened here is nested inside \(limit) others: expected at most \(limit) levels of sections, parents and blocks in one template"
        case .renderedTooDeep(let name, let limit):
            "section '\(name)' opened here is \(limit) levels deep, counting the sections, blocks and templates around it: is a template including itself forever?"
        }
    }

    /// `path:line:column: error: message`, the format of every sitegen diagnostic.
    public var description: String {
        formatted(as: "error")
    }

    /// `path:line:column: severity: message`; a library that tolerates a missing
    /// partial reports it as a warning.
    public func formatted(as severity: String) -> String {
        "\(path):\(position.line):\(position.column): \(severity): \(message)"
    }
}
