/// YAML scalars written by sitegen: plain when that reads back the same, quoted otherwise.
public enum YAMLText {
    public static func scalar(_ text: String) -> String {
        let plainSafe = !text.isEmpty && (text.first!.isLetter || text.first!.isNumber)
            && !text.contains(": ") && !text.contains(" #") && !text.hasSuffix(":")
            && !text.contains(where: { "\"'{}[],&*!|>%@`\\\n\t".contains($0) })
            && !["true", "false", "null", "yes", "no", "on", "off", "~"].contains(text.lowercased())
        if plainSafe { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"\(escaped)\""
    }
}
