@testable import SitegenMarkdown
import Testing

@Suite("Markdown")
struct MarkdownTests {
    private let article = """
        Start your day with this *amazing* breakfast, and you'll be happy.

        ![Half-boiled eggs](egg.jpg)

        Half-boiled eggs is a must.

        ![Milk tea](tea.jpg "Tea")

        Milder than Hong Kong style -- but still great.
        """

    @Test func splitsTheBodyAtStandaloneImages() {
        let rendered = Markdown.render(Array(article.utf8))
        #expect(rendered.sections.count == 3)
        #expect(rendered.sections[0].image == nil)
        #expect(rendered.sections[0].html == "<p>Start your day with this <em>amazing</em> breakfast, and you’ll be happy.</p>\n")
        #expect(rendered.sections[1].image == MarkdownImage(source: "egg.jpg", alt: "Half-boiled eggs", title: "", line: 3, column: 1))
        #expect(rendered.sections[1].html == "<p>Half-boiled eggs is a must.</p>\n")
        #expect(rendered.sections[2].image?.title == "Tea")
        #expect(rendered.sections[2].imageIndex == 1)
        #expect(rendered.sections[2].html == "<p>Milder than Hong Kong style – but still great.</p>\n")
        #expect(rendered.firstParagraph == "Start your day with this amazing breakfast, and you’ll be happy.")
    }

    @Test func keepsInlineImagesInTheTextAndRewritesTheirURLs() {
        let rendered = Markdown.render(Array("Look ![a dot](dot.png) here.\n".utf8), resolveImage: { ResolvedMarkdownImage(url: "/articles/x/" + $0.source, width: 8, height: 6) })
        #expect(rendered.sections.count == 1)
        #expect(rendered.html == "<p>Look <img src=\"/articles/x/dot.png\" width=\"8\" height=\"6\" alt=\"a dot\" /> here.</p>\n")
        #expect(rendered.images.map(\.source) == ["dot.png"])
    }

    @Test func leavesRawHTMLAndJavascriptURLsOutUnlessAllowed() {
        let source = "<script>alert(1)</script>\n\n[x](javascript:alert(1))\n"
        #expect(Markdown.html(from: source) == "<!-- raw HTML omitted -->\n<p><a href=\"\">x</a></p>\n")
        #expect(Markdown.html(from: source, options: .init(allowsRawHTML: true)).contains("<script>alert(1)</script>"))
    }

    @Test func tellsWhereRawHTMLWasLeftOutButNotComments() {
        let source = "<!-- a note -->\n\nBold <b>here</b>.\n\n<div class=\"x\">\none\n</div>\n"
        #expect(Markdown.render(Array(source.utf8)).rawHTML == MarkdownRawHTML(text: "<b>", line: 3, column: 6, count: 3))
        #expect(Markdown.render(Array("# Head\n\n<div>\nx\n</div>\n".utf8)).rawHTML == MarkdownRawHTML(text: "<div>", line: 3, column: 1, count: 1))
        #expect(Markdown.render(Array(source.utf8), options: .init(allowsRawHTML: true)).rawHTML == nil)
        #expect(Markdown.render(Array("Only <!-- notes --> here.\n".utf8)).rawHTML == nil)
        let long = "<div class=\"" + String(repeating: "x", count: 80) + "\">"
        #expect(Markdown.render(Array((long + "\n").utf8)).rawHTML?.text == String(long.prefix(57)) + "...")
    }

    @Test func replacesInvalidUTF8UnlessTheCallerCheckedIt() {
        let valid = Array("Café – 茶餐廳, *done*\n".utf8)
        #expect(Markdown.render(valid, options: .init(checksUTF8: false)).html == Markdown.render(valid).html)
        #expect(Markdown.render([0x61, 0xFF, 0x62]).html == "<p>a\u{FFFD}b</p>\n")
    }

    @Test func rendersAnEmptyBody() {
        let rendered = Markdown.render([])
        #expect(rendered.sections.count == 1)
        #expect(rendered.html == "")
        #expect(rendered.firstParagraph == nil)
    }
}

@Suite("Markdown as plain text")
struct PlainTextTests {
    private func text(_ source: String) -> String? {
        Markdown.render(Array(source.utf8), includePlainText: true).plainText
    }

    @Test func keepsParagraphsListsAndLinkAddresses() {
        let source = "Read *pages* 40–52.\n\n- one\n- two\n\n1. first\n2. [second](https://example.org/)\n\nLast line\nstill last.\n"
        #expect(text(source) == "Read pages 40–52.\n\n- one\n- two\n\n1. first\n2. second (https://example.org/)\n\nLast line still last.")
    }

    @Test func isEmptyForAnEmptyBody() {
        #expect(text("") == "")
        #expect(Markdown.render(Array("x".utf8)).plainText == nil)
    }
}

@Suite("Links and headings")
struct LinkAndHeadingTests {
    @Test func reportsEveryLinkWithItsPositionAndRewritesIt() {
        let source = "Intro.\n\nSee [the menu](/meals/brunch/) and\n[a friend](https://example.org/).\n"
        let rendered = Markdown.render(Array(source.utf8), resolveLink: { $0.destination.hasPrefix("/") ? "/food" + $0.destination : $0.destination })
        #expect(rendered.links.map(\.destination) == ["/meals/brunch/", "https://example.org/"])
        #expect(rendered.links.map(\.line) == [3, 4])
        #expect(rendered.html.contains("<a href=\"/food/meals/brunch/\">the menu</a>"))
    }

    @Test func givesHeadingsUniqueIDs() {
        let rendered = Markdown.render(Array("# Toast & Tea\n\n## Toast & Tea\n\n## Where?\n".utf8))
        #expect(rendered.html == "<h1 id=\"toast-tea\">Toast &amp; Tea</h1>\n<h2 id=\"toast-tea-1\">Toast &amp; Tea</h2>\n<h2 id=\"where\">Where?</h2>\n")
    }
}
