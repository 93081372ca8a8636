/// The help `sitegen help <command>` prints, made from the command's spec.
extension CommandSpec {
    static let width = 88

    var help: String {
        var lines = ["Usage: sitegen \(usage[0])"] + usage.dropFirst().map { "       sitegen \($0)" }
        for paragraph in description { lines += [""] + HelpText.wrap(paragraph, width: Self.width) }
        lines += ["", "Options:"] + HelpText.table(allOptions.map { ($0.label, $0.description) }, width: Self.width)
        for paragraph in notes { lines += [""] + HelpText.wrap(paragraph, width: Self.width) }
        return lines.joined(separator: "\n")
    }
}

enum HelpText {
    /// `text` in lines of at most `width` characters, after `indent`; a paragraph whose
    /// lines start with two spaces is an example, kept as written.
    static func wrap(_ text: String, width: Int, indent: String = "") -> [String] {
        if text.hasPrefix("  ") { return text.split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 } }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, indent.count + line.count + 1 + word.count > width {
                lines.append(indent + line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append(indent + line) }
        return lines
    }

    /// Two columns: each label, then its text wrapped beside it.
    static func table(_ rows: [(label: String, text: String)], width: Int) -> [String] {
        let column = min(max(rows.map(\.label.count).max() ?? 0, 14) + 4, 24)
        var lines: [String] = []
        for row in rows {
            let indent = String(repeating: " ", count: column)
            var wrapped = wrap(row.text, width: width, indent: indent)
            let head = "  " + row.label
            if head.count < column - 1, let first = wrapped.first {
                wrapped[0] = head.padding(toLength: column, withPad: " ", startingAt: 0) + first.dropFirst(column)
            } else {
                wrapped.insert(head, at: 0)
            }
            lines += wrapped
        }
        return lines
    }
}
