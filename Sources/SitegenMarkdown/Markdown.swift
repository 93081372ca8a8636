import CCMark

/// An image written in Markdown, with where it was written (lines counted from the
/// first line of the text given to the parser).
public struct MarkdownImage: Sendable, Hashable {
    public var source: String
    public var alt: String
    public var title: String
    public var line: Int
    public var column: Int

    public init(source: String, alt: String, title: String, line: Int, column: Int) {
        self.source = source
        self.alt = alt
        self.title = title
        self.line = line
        self.column = column
    }
}

/// A run of blocks rendered to HTML. Every section but the first starts at a
/// standalone image: a paragraph holding one image and nothing else.
public struct MarkdownSection: Sendable {
    /// The standalone image that starts this section, as written, and its place in
    /// `RenderedMarkdown.images`.
    public var image: MarkdownImage?
    public var imageIndex: Int?
    public var html: String
}

public struct RenderedMarkdown: Sendable {
    /// The main content first, then one section per standalone image.
    public var sections: [MarkdownSection]
    /// Every image of the text, standalone or inline, in reading order.
    public var images: [MarkdownImage]
    /// The first paragraph that is not a standalone image, as plain text.
    public var firstParagraph: String?

    public var html: String { sections.map(\.html).joined() }
}

/// CommonMark to HTML through libcmark.
public enum Markdown {
    public struct Options: Sendable {
        /// Raw HTML and `javascript:`-style URLs pass through only when the site asks.
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
        render(Array(markdown.utf8), options: options).html
    }

    /// Parses `source` and renders it in sections. `resolveImage` gives the URL an image
    /// is published under (a relative path becomes a site URL); it sees every image once.
    public static func render(
        _ source: [UInt8],
        options: Options = Options(),
        resolveImage: (MarkdownImage) -> String = { $0.source }
    ) -> RenderedMarkdown {
        let document = source.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cmark_parse_document($0.baseAddress, $0.count, options.cmarkValue) }
        }
        guard let document else { return RenderedMarkdown(sections: [MarkdownSection(image: nil, imageIndex: nil, html: "")], images: [], firstParagraph: nil) }
        defer { cmark_node_free(document) }

        var images: [MarkdownImage] = []
        forEachNode(under: document) { node in
            guard cmark_node_get_type(node) == CMARK_NODE_IMAGE else { return }
            let image = describeImage(node)
            images.append(image)
            let resolved = resolveImage(image)
            if resolved != image.source {
                _ = resolved.withCString { cmark_node_set_url(node, $0) }
            }
        }

        var sections = [MarkdownSection(image: nil, imageIndex: nil, html: "")]
        var firstParagraph: String?
        var imageIndex = 0
        var block = cmark_node_first_child(document)
        while let current = block {
            block = cmark_node_next(current)
            let imagesInBlock = countImages(under: current)
            defer { imageIndex += imagesInBlock }
            if isStandaloneImage(current) {
                sections.append(MarkdownSection(image: images[imageIndex], imageIndex: imageIndex, html: ""))
                continue
            }
            if firstParagraph == nil, cmark_node_get_type(current) == CMARK_NODE_PARAGRAPH {
                firstParagraph = plainText(of: current)
            }
            if let html = cmark_render_html(current, options.cmarkValue) {
                sections[sections.count - 1].html += String(cString: html)
                free(html)
            }
        }
        return RenderedMarkdown(sections: sections, images: images, firstParagraph: firstParagraph)
    }

    private static func forEachNode(under root: OpaquePointer, _ body: (OpaquePointer) -> Void) {
        guard let iterator = cmark_iter_new(root) else { return }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { return }
            if event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) { body(node) }
        }
    }

    private static func countImages(under root: OpaquePointer) -> Int {
        var count = 0
        forEachNode(under: root) { if cmark_node_get_type($0) == CMARK_NODE_IMAGE { count += 1 } }
        return count
    }

    private static func isStandaloneImage(_ block: OpaquePointer) -> Bool {
        guard cmark_node_get_type(block) == CMARK_NODE_PARAGRAPH, let child = cmark_node_first_child(block) else { return false }
        return cmark_node_next(child) == nil && cmark_node_get_type(child) == CMARK_NODE_IMAGE
    }

    private static func describeImage(_ node: OpaquePointer) -> MarkdownImage {
        var line = Int(cmark_node_get_start_line(node))
        var column = Int(cmark_node_get_start_column(node))
        if line == 0, let parent = cmark_node_parent(node) {
            line = Int(cmark_node_get_start_line(parent))
            column = Int(cmark_node_get_start_column(parent))
        }
        return MarkdownImage(
            source: cmark_node_get_url(node).map { String(cString: $0) } ?? "",
            alt: plainText(of: node),
            title: cmark_node_get_title(node).map { String(cString: $0) } ?? "",
            line: max(line, 1),
            column: max(column, 1)
        )
    }

    /// The text a reader sees, without markup: what alt text and summaries are made of.
    static func plainText(of root: OpaquePointer) -> String {
        var text = ""
        forEachNode(under: root) { node in
            switch cmark_node_get_type(node) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                if let literal = cmark_node_get_literal(node) { text += String(cString: literal) }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                text += " "
            default:
                break
            }
        }
        return text
    }
}
