import CCMark
import SitegenSupport
import Foundation

/// CommonMark to HTML through libcmark.
public enum Markdown {
    public struct Options: Sendable {
        /// Raw HTML and `javascript:`-style URLs pass through only when the site asks.
        public var allowsRawHTML = false
        /// Straight quotes and dashes become typographic ones.
        public var smartPunctuation = true
        /// Invalid UTF-8 becomes U+FFFD. A caller that has checked the text whole can skip
        /// cmark's check of every line.
        public var checksUTF8 = true
        /// A standalone image starts a section of its own (an article's photo sections);
        /// otherwise it stays in the HTML where it is (a page's, an assignment's).
        public var splitsAtImages = true

        public init(allowsRawHTML: Bool = false, smartPunctuation: Bool = true, checksUTF8: Bool = true, splitsAtImages: Bool = true) {
            self.allowsRawHTML = allowsRawHTML
            self.smartPunctuation = smartPunctuation
            self.checksUTF8 = checksUTF8
            self.splitsAtImages = splitsAtImages
        }

        var cmarkValue: Int32 {
            var value = checksUTF8 ? CMARK_OPT_VALIDATE_UTF8 : CMARK_OPT_DEFAULT
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
        includePlainText: Bool = false,
        resolveLink: (MarkdownLink) -> String = { $0.destination },
        resolveImage: (MarkdownImage) -> ResolvedMarkdownImage = { ResolvedMarkdownImage(url: $0.source) }
    ) -> RenderedMarkdown {
        MarkdownArena.withArena { memory in
            render(source, options: options, includePlainText: includePlainText, resolveLink: resolveLink, resolveImage: resolveImage, memory: memory)
        }
    }

    /// What cmark running out of memory leaves: no text at all.
    private static var nothing: RenderedMarkdown {
        RenderedMarkdown(sections: [MarkdownSection(image: nil, imageIndex: nil, utf8: [])], images: [], firstParagraph: nil, plainText: nil)
    }

    /// `render` with cmark's memory from `memory`; nothing cmark allocates is kept.
    private static func render(
        _ source: [UInt8], options: Options, includePlainText: Bool, resolveLink: (MarkdownLink) -> String,
        resolveImage: (MarkdownImage) -> ResolvedMarkdownImage, memory: UnsafeMutablePointer<cmark_mem>
    ) -> RenderedMarkdown {
        guard let parser = cmark_parser_new_with_mem(options.cmarkValue, memory) else { return nothing }
        source.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
        }
        let document = cmark_parser_finish(parser)
        cmark_parser_free(parser)
        guard let document else { return nothing }
        // An arena's memory goes back all at once: freeing node by node would only walk the tree.
        let freesNodes = memory == cmark_get_default_mem_allocator()
        defer { if freesNodes { cmark_node_free(document) } }

        let walked = Walk(document, options: options, resolveLink: resolveLink, resolveImage: resolveImage)
        if walked.images.isEmpty, let rendered = renderWhole(document, options: options, includePlainText: includePlainText, memory: memory) {
            var whole = rendered
            whole.links = walked.links
            whole.rawHTML = walked.rawHTML
            return whole
        }
        var sections = SectionWriter(capacity: source.count + source.count / 4, options: options, memory: memory, freesNodes: freesNodes)
        sections.write(document, walked)
        var rendered = RenderedMarkdown(sections: sections.sections, images: walked.images, firstParagraph: sections.firstParagraph,
                                        plainText: includePlainText ? readableText(of: document) : nil)
        rendered.links = walked.links
        rendered.rawHTML = walked.rawHTML
        return rendered
    }

    /// What one walk over a document's nodes finds: its images and links (each given its
    /// resolved address in place), its first raw HTML, and the images of each top-level
    /// block, counted here rather than in a walk of their own per block.
    private struct Walk {
        var images: [MarkdownImage] = []
        var sizes: [ResolvedMarkdownImage?] = []
        var links: [MarkdownLink] = []
        var imagesByBlock: [(block: OpaquePointer, count: Int)] = []
        var rawHTML: MarkdownRawHTML?

        init(_ document: OpaquePointer, options: Options, resolveLink: (MarkdownLink) -> String, resolveImage: (MarkdownImage) -> ResolvedMarkdownImage) {
            forEachNode(under: document) { node in
                let type = cmark_node_get_type(node)
                if type == CMARK_NODE_HTML_BLOCK || type == CMARK_NODE_HTML_INLINE {
                    guard !options.allowsRawHTML, let literal = cmark_node_get_literal(node).map({ String(cString: $0) }),
                          !literal.hasPrefix("<!--") else { return }
                    if rawHTML == nil {
                        let (line, column) = position(of: node)
                        let firstLine = literal.prefix { $0 != "\n" && $0 != "\r" }
                        rawHTML = MarkdownRawHTML(text: firstLine.count > 60 ? firstLine.prefix(57) + "..." : String(firstLine), line: line, column: column, count: 0)
                    }
                    rawHTML?.count += 1
                    return
                }
                if type == CMARK_NODE_LINK {
                    let (line, column) = position(of: node)
                    let link = MarkdownLink(destination: cmark_node_get_url(node).map { String(cString: $0) } ?? "", line: line, column: column)
                    links.append(link)
                    let resolved = resolveLink(link)
                    if resolved != link.destination { _ = resolved.withCString { cmark_node_set_url(node, $0) } }
                    return
                }
                guard type == CMARK_NODE_IMAGE else { return }
                var block = node
                while let parent = cmark_node_parent(block), parent != document { block = parent }
                if let last = imagesByBlock.indices.last, imagesByBlock[last].block == block {
                    imagesByBlock[last].count += 1
                } else {
                    imagesByBlock.append((block, 1))
                }
                let image = describeImage(node)
                images.append(image)
                let resolved = resolveImage(image)
                if resolved.url != image.source {
                    _ = resolved.url.withCString { cmark_node_set_url(node, $0) }
                }
                sizes.append(resolved.width != nil && resolved.height != nil ? resolved : nil)
            }
        }
    }

    /// A document's top-level blocks written as sections, a new one at each standalone
    /// image. A section's HTML is gathered as bytes, and runs of blocks with no image and
    /// no heading are rendered with one call, not a render and a String per block. Its
    /// room is the text's size and a quarter, which the HTML of a whole article seldom
    /// passes: grown from nothing, it would be copied again at every doubling.
    private struct SectionWriter {
        let options: Options
        let memory: UnsafeMutablePointer<cmark_mem>
        let freesNodes: Bool
        var sections = [MarkdownSection(image: nil, imageIndex: nil, utf8: [])]
        var firstParagraph: String?
        private var html: [UInt8] = []
        private var run: [OpaquePointer] = []
        private var headingIDs = HeadingIDs()

        init(capacity: Int, options: Options, memory: UnsafeMutablePointer<cmark_mem>, freesNodes: Bool) {
            self.options = options
            self.memory = memory
            self.freesNodes = freesNodes
            html.reserveCapacity(capacity)
        }

        mutating func write(_ document: OpaquePointer, _ walked: Walk) {
            var imageIndex = 0
            var block = cmark_node_first_child(document)
            // The blocks with images, met in the order they were counted.
            var nextWithImages = 0
            while let current = block {
                block = cmark_node_next(current)
                var imagesInBlock = 0
                if nextWithImages < walked.imagesByBlock.count, walked.imagesByBlock[nextWithImages].block == current {
                    imagesInBlock = walked.imagesByBlock[nextWithImages].count
                    nextWithImages += 1
                }
                defer { imageIndex += imagesInBlock }
                if options.splitsAtImages, isStandaloneImage(current) {
                    finishSection()
                    sections.append(MarkdownSection(image: walked.images[imageIndex], imageIndex: imageIndex, utf8: []))
                    continue
                }
                let type = cmark_node_get_type(current)
                if firstParagraph == nil, type == CMARK_NODE_PARAGRAPH {
                    firstParagraph = plainText(of: current)
                }
                if imagesInBlock == 0, type != CMARK_NODE_HEADING {
                    run.append(current)
                    continue
                }
                renderRun()
                writeAlone(current, type: type, sizes: walked.sizes[imageIndex..<(imageIndex + imagesInBlock)])
            }
            finishSection()
        }

        /// A block with images or a heading, rendered on its own: its inline images get the
        /// size the file has, so the page does not jump while they load, and a heading its id.
        private mutating func writeAlone(_ block: OpaquePointer, type: cmark_node_type, sizes: ArraySlice<ResolvedMarkdownImage?>) {
            guard let rendered = cmark_render_html(block, options.cmarkValue) else { return }
            var text = String(cString: rendered)
            memory.pointee.free(rendered)
            var searchFrom = text.startIndex
            for case let image? in sizes {
                let source = "<img src=\"\(image.url)\""
                guard let range = text.range(of: source, range: searchFrom..<text.endIndex), let width = image.width, let height = image.height else { continue }
                guard let picture = image.picture else {
                    let sized = source + " width=\"\(width)\" height=\"\(height)\""
                    text.replaceSubrange(range, with: sized)
                    searchFrom = text.index(range.lowerBound, offsetBy: sized.count)
                    continue
                }
                // cmark escapes `>` in attributes: the tag ends at the first ` />`.
                guard let end = text.range(of: " />", range: range.upperBound..<text.endIndex) else { continue }
                let sources = picture.sources.map { "<source type=\"\($0.type)\" srcset=\"\($0.srcset)\" sizes=\"\(picture.sizes)\">" }.joined()
                let attributes = text[range.upperBound..<end.lowerBound]
                let tag = "<picture>\(sources)\(source) srcset=\"\(picture.srcset)\" sizes=\"\(picture.sizes)\" width=\"\(width)\" height=\"\(height)\"\(attributes) loading=\"lazy\" decoding=\"async\" /></picture>"
                text.replaceSubrange(range.lowerBound..<end.upperBound, with: tag)
                searchFrom = text.index(range.lowerBound, offsetBy: tag.count)
            }
            if type == CMARK_NODE_HEADING {
                let level = cmark_node_get_heading_level(block)
                let opening = "<h\(level)>"
                if text.hasPrefix(opening) {
                    text = "<h\(level) id=\"\(headingIDs.next(for: plainText(of: block)))\">" + text.dropFirst(opening.count)
                }
            }
            html.append(contentsOf: text.utf8)
        }

        private mutating func finishSection() {
            renderRun()
            sections[sections.count - 1].utf8 = exactCopy(of: html)
            html.removeAll(keepingCapacity: true)
        }

        private mutating func renderRun() {
            guard !run.isEmpty else { return }
            if run.count == 1 {
                appendRendered(run[0], to: &html, options: options, memory: memory)
            } else if let group = cmark_node_new_with_mem(CMARK_NODE_DOCUMENT, memory) {
                // The blocks move to a document of their own, rendered and freed with it.
                for block in run { cmark_node_append_child(group, block) }
                appendRendered(group, to: &html, options: options, memory: memory)
                if freesNodes { cmark_node_free(group) }
            }
            run.removeAll(keepingCapacity: true)
        }
    }

    /// The bytes in a buffer of their size: sections live as long as their article's model,
    /// and the buffer they were gathered in grew by doubling, leaving spare capacity.
    private static func exactCopy(of bytes: [UInt8]) -> [UInt8] {
        // Not through the initializer when empty: it writes the count into the one empty
        // array all threads share (a race, if only of zeros).
        guard !bytes.isEmpty else { return [] }
        return [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, count in
            count = bytes.withUnsafeBufferPointer { buffer.initialize(fromContentsOf: $0) }
        }
    }

    /// Appends the HTML of `node` to `html`; cmark made it with `memory`.
    private static func appendRendered(_ node: OpaquePointer, to html: inout [UInt8], options: Options, memory: UnsafeMutablePointer<cmark_mem>) {
        guard let rendered = cmark_render_html(node, options.cmarkValue) else { return }
        html.append(contentsOf: UnsafeRawBufferPointer(start: rendered, count: strlen(rendered)))
        memory.pointee.free(rendered)
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

    /// A body without images or headings at its top is one section, rendered with one call:
    /// block by block, a short assignment cost more in conversions than in parsing. Nil
    /// when the body has a heading (its id is added block by block).
    private static func renderWhole(_ document: OpaquePointer, options: Options, includePlainText: Bool, memory: UnsafeMutablePointer<cmark_mem>) -> RenderedMarkdown? {
        var firstParagraph: String?
        var block = cmark_node_first_child(document)
        while let current = block {
            switch cmark_node_get_type(current) {
            case CMARK_NODE_HEADING: return nil
            case CMARK_NODE_PARAGRAPH where firstParagraph == nil: firstParagraph = plainText(of: current)
            default: break
            }
            block = cmark_node_next(current)
        }
        var html: [UInt8] = []
        appendRendered(document, to: &html, options: options, memory: memory)
        return RenderedMarkdown(sections: [MarkdownSection(image: nil, imageIndex: nil, utf8: exactCopy(of: html))], images: [], firstParagraph: firstParagraph,
                                plainText: includePlainText ? readableText(of: document) : nil)
    }

    private static func isStandaloneImage(_ block: OpaquePointer) -> Bool {
        guard cmark_node_get_type(block) == CMARK_NODE_PARAGRAPH, let child = cmark_node_first_child(block) else { return false }
        return cmark_node_next(child) == nil && cmark_node_get_type(child) == CMARK_NODE_IMAGE
    }

    private static func describeImage(_ node: OpaquePointer) -> MarkdownImage {
        let (line, column) = position(of: node)
        return MarkdownImage(
            source: cmark_node_get_url(node).map { String(cString: $0) } ?? "",
            alt: plainText(of: node),
            title: cmark_node_get_title(node).map { String(cString: $0) } ?? "",
            line: line,
            column: column
        )
    }

    /// Where a node starts; an inline without a position of its own takes its block's.
    private static func position(of node: OpaquePointer) -> (line: Int, column: Int) {
        var current: OpaquePointer? = node
        while let candidate = current {
            let line = Int(cmark_node_get_start_line(candidate))
            if line > 0 { return (line, max(Int(cmark_node_get_start_column(candidate)), 1)) }
            current = cmark_node_parent(candidate)
        }
        return (1, 1)
    }

    /// The whole document as plain text: paragraphs apart by a blank line, list items on
    /// lines of their own with a dash or their number, links followed by their address.
    static func readableText(of document: OpaquePointer) -> String {
        guard let iterator = cmark_iter_new(document) else { return "" }
        defer { cmark_iter_free(iterator) }
        // Gathered as bytes: every assignment's details are made into text for calendars,
        // and a String grown piece by piece cost more than parsing them.
        var text: [UInt8] = []
        let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
        func endsWithBlankLine() -> Bool { text.count >= 2 && text[text.count - 1] == newline && text[text.count - 2] == newline }
        func append(_ literal: UnsafePointer<CChar>?) {
            guard let literal else { return }
            text.append(contentsOf: UnsafeRawBufferPointer(start: literal, count: strlen(literal)))
        }
        func endBlock() {
            while text.last == space { text.removeLast() }
            if !text.isEmpty, !endsWithBlankLine() {
                text.append(newline)
                if text[text.count - 2] != newline { text.append(newline) }
            }
        }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            let entering = event == CMARK_EVENT_ENTER
            switch type {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_HTML_INLINE:
                append(cmark_node_get_literal(node))
            case CMARK_NODE_SOFTBREAK:
                text.append(space)
            case CMARK_NODE_LINEBREAK:
                text.append(newline)
            case CMARK_NODE_CODE_BLOCK, CMARK_NODE_HTML_BLOCK:
                append(cmark_node_get_literal(node))
                endBlock()
            case CMARK_NODE_ITEM where entering:
                if endsWithBlankLine(), cmark_node_previous(node) != nil { text.removeLast() }
                let list = cmark_node_parent(node)
                if let list, cmark_node_get_list_type(list) == CMARK_ORDERED_LIST {
                    var number = Int(cmark_node_get_list_start(list))
                    var sibling = cmark_node_previous(node)
                    while let previous = sibling {
                        number += 1
                        sibling = cmark_node_previous(previous)
                    }
                    text.append(contentsOf: "\(number). ".utf8)
                } else {
                    text.append(contentsOf: "- ".utf8)
                }
            case CMARK_NODE_LIST where !entering, CMARK_NODE_BLOCK_QUOTE where !entering:
                endBlock()
            case CMARK_NODE_LINK where !entering:
                if let url = cmark_node_get_url(node), url.pointee != 0 {
                    text.append(contentsOf: " (".utf8)
                    append(url)
                    text.append(UInt8(ascii: ")"))
                }
            case CMARK_NODE_PARAGRAPH where !entering, CMARK_NODE_HEADING where !entering, CMARK_NODE_THEMATIC_BREAK:
                if let parent = cmark_node_parent(node), cmark_node_get_type(parent) == CMARK_NODE_ITEM, cmark_list_is_tight(parent) {
                    text.append(newline)
                } else {
                    endBlock()
                }
            default:
                break
            }
        }
        return String(decoding: text, as: UTF8.self).trimmingSpaces()
    }

    private static func cmark_list_is_tight(_ item: OpaquePointer) -> Bool {
        guard let list = cmark_node_parent(item) else { return false }
        return cmark_node_get_list_tight(list) != 0
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
