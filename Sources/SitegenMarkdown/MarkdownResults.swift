import CCMark
import SitegenSupport
import Foundation

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
    /// The HTML as cmark writes it, valid UTF-8: kept as bytes, since a page writes it as
    /// bytes again, and making a String checks every byte.
    public var utf8: [UInt8]

    public var html: String { String(decoding: utf8, as: UTF8.self) }
}

/// Where an image is published and, when known, its size in pixels and the sizes and
/// formats it is published in.
public struct ResolvedMarkdownImage: Sendable {
    public var url: String
    public var width: Int?
    public var height: Int?
    public var picture: MarkdownPicture?

    public init(url: String, width: Int? = nil, height: Int? = nil, picture: MarkdownPicture? = nil) {
        self.url = picture?.src ?? url
        self.width = width
        self.height = height
        self.picture = picture
    }
}

/// The sizes and formats an image is published in, as `<picture>` offers them; every
/// value is a URL list already safe in an attribute.
public struct MarkdownPicture: Sendable {
    public var sources: [(type: String, srcset: String)]
    public var src: String
    public var srcset: String
    public var sizes: String

    public init(sources: [(type: String, srcset: String)], src: String, srcset: String, sizes: String) {
        self.sources = sources
        self.src = src
        self.srcset = srcset
        self.sizes = sizes
    }
}

/// A link written in Markdown, with where it was written.
public struct MarkdownLink: Sendable, Hashable {
    public var destination: String
    public var line: Int
    public var column: Int

    public init(destination: String, line: Int, column: Int) {
        self.destination = destination
        self.line = line
        self.column = column
    }
}

/// Raw HTML met in a text that may not have it: the first place, and how many places.
public struct MarkdownRawHTML: Sendable, Hashable {
    /// The start of the first, up to its line's end (60 characters at most).
    public var text: String
    public var line: Int
    public var column: Int
    public var count: Int
}

public struct RenderedMarkdown: Sendable {
    /// The main content first, then one section per standalone image.
    public var sections: [MarkdownSection]
    /// Every image of the text, standalone or inline, in reading order.
    public var images: [MarkdownImage]
    /// Every link of the text, as written, in reading order.
    public var links: [MarkdownLink] = []
    /// The raw HTML cmark left out (nil when the options let it through, or for comments,
    /// whose leaving out is what an author wants of them).
    public var rawHTML: MarkdownRawHTML?
    /// The first paragraph that is not a standalone image, as plain text.
    public var firstParagraph: String?
    /// The whole text without markup, when asked for: for calendars and other plain-text
    /// places.
    public var plainText: String?

    public var html: String { String(decoding: Array(sections.map(\.utf8).joined()), as: UTF8.self) }
}
