/// Where something is in a site's source: a path relative to the site, and a 1-based
/// line and column.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var column: Int

    public init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }

    public static func note(at location: SourceLocation, _ message: String) -> Diagnostic {
        Diagnostic(.note, at: location, message)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
    }

    public var description: String { "\(path):\(line):\(column)" }
}

/// One problem found in a site, printed as `path:line:column: error: message`.
public struct Diagnostic: Error, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// An error stops the build. A warning is a probable mistake: the build goes on, and
    /// `--strict` makes it an error. A note is an allowed case worth knowing about, and
    /// never fails a build.
    public enum Severity: String, Sendable, Hashable {
        case error
        case warning
        case note
    }

    public var location: SourceLocation
    public var severity: Severity
    public var message: String

    public init(_ severity: Severity, at location: SourceLocation, _ message: String) {
        self.severity = severity
        self.location = location
        self.message = message
    }

    public static func error(at location: SourceLocation, _ message: String) -> Diagnostic {
        Diagnostic(.error, at: location, message)
    }

    public static func warning(at location: SourceLocation, _ message: String) -> Diagnostic {
        Diagnostic(.warning, at: location, message)
    }

    public static func note(at location: SourceLocation, _ message: String) -> Diagnostic {
        Diagnostic(.note, at: location, message)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.location, lhs.message) < (rhs.location, rhs.message)
    }

    /// One line, whatever the site holds: a control character quoted from a source (an
    /// escape sequence that would recolour or rewrite a terminal or a CI log, a line break
    /// that would start a line of its own) is shown as `\u{1B}`.
    public var description: String {
        Diagnostic.visible("\(location): \(severity.rawValue): \(message)")
    }

    static func visible(_ text: String) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                shown.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }
}
