import Foundation
import SitegenSupport
import SitegenYAML

public struct Label: FrontMatterValue, Hashable, Sendable {
    public var name: String
    public var slug: Slug

    public static var expectation: String { "a short name like Breakfast" }

    public init(name: String, slug: Slug) {
        self.name = name
        self.slug = slug
    }

    public init(node: YAMLNode) throws(ValueProblem) {
        try self.init(node: node, memo: ReadingMemo())
    }

    /// Made once per text of a build: the same tags and meals come back in article after
    /// article.
    public init(node: YAMLNode, memo: ReadingMemo) throws(ValueProblem) {
        guard let scalar = node.scalar, !scalar.isNull else { throw .mismatch }
        try TextLimit.heading.check(scalar.text)
        if let label = memo.labels.value(for: scalar.text, making: { Label(text: $0, memo: memo) }) {
            self = label
            return
        }
        guard !Summary.isBlank(scalar.text) else { throw .mismatch }
        throw .invalid("must have a letter, digit or emoji to make a page address from, found '\(scalar.text)'")
    }

    /// The label of `text`; nil when it has no name or no slug.
    private init?(text: String, memo: ReadingMemo) {
        // As splitting on whitespace and joining with spaces would (over bytes for ASCII).
        let name = Summary.collapsingWhitespace(text)
        guard !name.isEmpty, let slug = Slug(making: name, memo: memo) else { return nil }
        self.name = name
        self.slug = slug
    }
}

/// A user name, written with or without its `@` and kept without it: pages put the `@`
/// before it (`@dreamer`), and `"@dreamer"` made `@@dreamer`.
public struct Username: FrontMatterValue, Sendable {
    public var text: String

    public static var expectation: String { "a user name like dreamer" }

    public init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, !scalar.isNull else { throw .mismatch }
        // Looked at as bytes: every article has a username, and its characters' Unicode
        // properties need not be asked.
        var text = scalar.text
        let at = text.utf8.first == UInt8(ascii: "@")
        let ascii = text.withUTF8 { bytes -> Bool? in
            guard bytes.count > (at ? 1 : 0) else { return nil }
            var ascii = true
            for byte in bytes[(at ? 1 : 0)...] {
                if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "@") { return nil }
                if byte >= 0x80 { ascii = false }
            }
            return ascii
        }
        guard let ascii, ascii || !text.unicodeScalars.contains(where: \.properties.isWhitespace) else {
            throw .invalid("must be one word like dreamer or @dreamer, found '\(scalar.text)'")
        }
        self.text = at ? String(text.dropFirst()) : text
    }
}

/// A grade as site.yaml lists it: a number (6) or a short name ("K").
public struct GradeID: FrontMatterValue, Hashable, Sendable, CustomStringConvertible {
    public var text: String

    public static var expectation: String { "a grade like 6 or K" }

    public init(_ text: String) { self.text = text }

    public init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, !scalar.isNull, !scalar.text.isEmpty else { throw .mismatch }
        guard scalar.text.count <= 20, scalar.text.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else {
            throw .invalid("must be a grade like 6 or K (letters, digits and hyphens), found '\(scalar.text)'")
        }
        text = scalar.text
    }

    public var description: String { text }
    /// The grade in a URL: `/homework/grade-k/`.
    public var slug: String { text.lowercased() }
}

/// What kind of work an assignment is; it picks the icon.
public enum AssignmentIcon: String, FrontMatterValue, CaseIterable, Sendable {
    case reading, writing, worksheet, project, quiz, test, study, lab, practice, other

    public static var expectation: String { "one of " + allCases.map(\.rawValue).joined(separator: ", ") }

    public init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        guard let icon = AssignmentIcon(rawValue: scalar.text) else {
            var message = "must be one of \(AssignmentIcon.allCases.map(\.rawValue).joined(separator: ", ")), found '\(scalar.text)'"
            if let suggestion = Suggestion.closest(to: scalar.text, among: AssignmentIcon.allCases.map(\.rawValue)) {
                message += "; did you mean '\(suggestion)'?"
            }
            throw .invalid(message)
        }
        self = icon
    }
}

/// An IANA time zone name such as Asia/Hong_Kong.
public struct EmailAddress: FrontMatterValue, Hashable, Sendable {
    public var text: String

    public static var expectation: String { "an email address like name@school.org" }

    public init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        let parts = scalar.text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
              !scalar.text.unicodeScalars.contains(where: { $0.value <= 0x20 || "<>\"'(),;:\\[]".unicodeScalars.contains($0) })
        else { throw .mismatch }
        text = scalar.text
    }
}

public enum GradeNames {
    /// "1st", "2nd", "11th": English ordinals, for the theme's `grade.number`.
    public static func ordinal(_ number: Int) -> String {
        let suffix: String
        switch (number % 100, number % 10) {
        case (11...13, _): suffix = "th"
        case (_, 1): suffix = "st"
        case (_, 2): suffix = "nd"
        case (_, 3): suffix = "rd"
        default: suffix = "th"
        }
        return "\(number)\(suffix)"
    }
}
