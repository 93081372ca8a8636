import Foundation
import SitegenSupport
import SitegenYAML

struct Label: FrontMatterValue, Hashable, Sendable {
    var name: String
    var slug: Slug

    static var expectation: String { "a short name like Breakfast" }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, !scalar.isNull else { throw .mismatch }
        if let label = Label.made.value(for: scalar.text, making: Label.init(text:)) {
            self = label
            return
        }
        guard !Summary.isBlank(scalar.text) else { throw .mismatch }
        throw .invalid("must have a letter or digit to make a page address from, found '\(scalar.text)'")
    }

    /// Made once per text: the same tags and meals come back in article after article, and
    /// each made its name and slug again.
    private static let made = TextMemo<Label?>(limit: 10_000)

    /// The label of `text`; nil when it has no name or no slug.
    private init?(text: String) {
        // As splitting on whitespace and joining with spaces would (over bytes for ASCII).
        let name = Summary.collapsingWhitespace(text)
        guard !name.isEmpty, let slug = Slug(making: name) else { return nil }
        self.name = name
        self.slug = slug
    }
}

/// A user name, written with or without its `@` and kept without it: pages put the `@`
/// before it (`@dreamer`), and `"@dreamer"` made `@@dreamer`.
struct Username: FrontMatterValue, Sendable {
    var text: String

    static var expectation: String { "a user name like dreamer" }

    init(node: YAMLNode) throws(ValueProblem) {
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
struct GradeID: FrontMatterValue, Hashable, Sendable, CustomStringConvertible {
    var text: String

    static var expectation: String { "a grade like 6 or K" }

    init(_ text: String) { self.text = text }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, !scalar.isNull, !scalar.text.isEmpty else { throw .mismatch }
        guard scalar.text.count <= 20, scalar.text.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else {
            throw .invalid("must be a grade like 6 or K (letters, digits and hyphens), found '\(scalar.text)'")
        }
        text = scalar.text
    }

    var description: String { text }
    /// The grade in a URL: `/homework/grade-k/`.
    var slug: String { text.lowercased() }
}

/// What kind of work an assignment is; it picks the icon.
enum AssignmentIcon: String, FrontMatterValue, CaseIterable, Sendable {
    case reading, writing, worksheet, project, quiz, test, study, lab, practice, other

    static var expectation: String { "one of " + allCases.map(\.rawValue).joined(separator: ", ") }

    init(node: YAMLNode) throws(ValueProblem) {
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
struct EmailAddress: FrontMatterValue, Hashable, Sendable {
    var text: String

    static var expectation: String { "an email address like name@school.org" }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        let parts = scalar.text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
              !scalar.text.unicodeScalars.contains(where: { $0.value <= 0x20 || "<>\"'(),;:\\[]".unicodeScalars.contains($0) })
        else { throw .mismatch }
        text = scalar.text
    }
}
