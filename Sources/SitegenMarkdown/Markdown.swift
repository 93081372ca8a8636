import CCMark

/// CommonMark to HTML through libcmark.
public enum Markdown {
    public struct Options: Sendable {
        /// Raw HTML and dangerous URLs pass through only when the site asks for it.
        public var allowsRawHTML = false
        /// Straight quotes and dashes become typographic ones.
        public var smartPunctuation = true

        public init(allowsRawHTML: Bool = false, smartPunctuation: Bool = true) {
            self.allowsRawHTML = allowsRawHTML
            self.smartPunctuation = smartPunctuation
        }

        var cmarkValue: Int32 {
            var value = CMARK_OPT_VALIDATE_UTF8
            if allowsRawHTML { value |= CMARK_OPT_UNSAFE }
            if smartPunctuation { value |= CMARK_OPT_SMART }
            return value
        }
    }

    public static func html(from markdown: String, options: Options = Options()) -> String {
        var source = markdown
        return source.withUTF8 { bytes in
            guard let rendered = bytes.withMemoryRebound(to: CChar.self, { cmark_markdown_to_html($0.baseAddress, $0.count, options.cmarkValue) }) else {
                return ""
            }
            defer { free(rendered) }
            return String(cString: rendered)
        }
    }
}
