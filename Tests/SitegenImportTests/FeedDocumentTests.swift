import Foundation
import SitegenContent
@testable import SitegenImport
import SitegenTestSupport
import Testing

@Suite("Feeds")
struct FeedDocumentTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/import")

    private func posts(_ name: String, address: String? = nil) throws(FeedProblem) -> [FeedPost] {
        let data = FileManager.default.contents(atPath: Self.fixtures.appendingPathComponent(name).path)!
        return try FeedDocument.posts(in: data, address: address.flatMap(URL.init(string:)))
    }

    @Test func readsAWordPressRSSFeed() throws {
        let posts = try posts("wordpress.xml")
        #expect(posts.map(\.title) == ["Fractions worksheet – due Thursday", "Decimals quiz for tomorrow"])
        #expect(posts.map(\.id) == ["https://mslee.example.org/?p=412", "https://mslee.example.org/?p=409"])
        #expect(posts[0].link == "https://mslee.example.org/2026/12/01/fractions-worksheet/")
        #expect(posts[0].published == Date(timeIntervalSince1970: 1_796_109_164))
        #expect(posts[0].html.hasPrefix("<p>Do the <strong>odd-numbered</strong> questions"))
    }

    @Test func readsABloggerAtomFeed() throws {
        let posts = try posts("blogger.xml")
        #expect(posts.map(\.id) == ["tag:blogger.com,1999:blog-1234567890.post-111", "tag:blogger.com,1999:blog-1234567890.post-110"])
        #expect(posts[0].link == "https://mrchan.blogspot.com/2026/12/timeline.html")
        #expect(posts[0].title == "Timeline of 1842–1898")
        #expect(posts[0].html.contains("<script>alert(1)</script>"))
    }

    @Test func resolvesRelativeLinksAgainstTheFeed() throws {
        let posts = try posts("relative.xml", address: "https://mrho.example.org/feed.xml")
        #expect(posts[0].link == "https://mrho.example.org/blog/posts/reading-log.html")
        let markdown = HTMLMarkdown.markdown(from: posts[0].html, base: posts[0].base)
        #expect(markdown == "Fill in [the reading log](https://mrho.example.org/blog/files/log.pdf) for tomorrow. [The book](https://mrho.example.org/blog/posts/cover.png)")
    }

    @Test func tellsAWebPageFromAFeed() {
        #expect(throws: FeedProblem(message: "is a web page, not a feed, and links to none: give the address of the blog's RSS or Atom feed as 'feed' in teachers.yaml")) {
            try posts("google-sites.html")
        }
        #expect(throws: FeedProblem(message: "is a web page, not a feed: it links to the feed https://mrho.example.org/feed.xml; give that as 'feed' in teachers.yaml")) {
            try posts("blog-page.html", address: "https://mrho.example.org/english/")
        }
    }

    @Test func refusesEntitiesAndBrokenXML() {
        #expect(throws: FeedProblem(message: "declares XML entities (<!ENTITY …>), which sitegen does not read: a feed never needs them")) {
            try posts("bomb.xml")
        }
        #expect {
            try posts("broken.xml")
        } throws: { error in
            (error as? FeedProblem)?.message.hasPrefix("is not well-formed XML at line 3, column ") == true
        }
        #expect(throws: FeedProblem(message: "is XML but neither RSS nor Atom: its root element is <opml>")) {
            try FeedDocument.posts(in: Data("<?xml version=\"1.0\"?><opml version=\"2.0\"><body/></opml>".utf8), address: nil)
        }
    }

    @Test func keepsTheNewestPostsOfAHugeFeed() throws {
        var rss = "<rss version=\"2.0\"><channel><title>Many</title>"
        for number in 0..<500 {
            rss += "<item><title>Post \(number)</title><guid>\(number)</guid><pubDate>Tue, 01 Dec 2026 \(String(format: "%02d", number / 60 % 24)):\(String(format: "%02d", number % 60)):00 +0000</pubDate></item>"
        }
        let posts = try FeedDocument.posts(in: Data((rss + "</channel></rss>").utf8), address: nil)
        #expect(posts.count == FeedDocument.postLimit)
        #expect(posts.first?.title == "Post 499")
        #expect(posts.last?.title == "Post 300")
    }
}

@Suite("HTML to Markdown")
struct HTMLMarkdownTests {
    @Test func keepsWhatMarkdownHasAndDropsTheRest() {
        let html = """
            <div dir="ltr"><h2>Tonight</h2><p>Do <b>all</b> of <em>page 4</em>.<br>Then rest.</p>\
            <ul><li>One</li><li>Two <a href="/two">more</a></li></ul><ol><li>First</li></ol>\
            <blockquote><p>Quoted</p></blockquote><pre><code>x = 1 * 2</code></pre>\
            <script>alert(1)</script><style>p{}</style><iframe src="https://evil.example/"></iframe>\
            <a href="javascript:alert(2)">click</a> <a href="data:text/html,x">data</a> <img src="x" onerror="alert(3)">\
            <p>*not emphasis* &amp; [not a link](x) &lt;b&gt;</p></div>
            """
        #expect(HTMLMarkdown.markdown(from: html, base: URL(string: "https://blog.example.org/post/")) == """
            ## Tonight

            Do **all** of *page 4*.\\
            Then rest.

            - One

            - Two [more](https://blog.example.org/two)

            1. First

            > Quoted

            ```
            x = 1 * 2
            ```

            click data [Image](https://blog.example.org/post/x)

            \\*not emphasis\\* \\& \\[not a link\\](x) \\<b\\>
            """)
    }
}

@Suite("Due dates in words")
struct DueDateTests {
    /// Monday to Friday, with Wednesday 2026-12-09 a holiday.
    let calendar = SchoolCalendar(weekdays: Set(0...4), holidays: [.init(first: CalendarDate(year: 2026, month: 12, day: 9), last: CalendarDate(year: 2026, month: 12, day: 9), name: nil)])
    let friday = CalendarDate(year: 2026, month: 12, day: 4)
    let tuesday = CalendarDate(year: 2026, month: 12, day: 8)

    @Test func findsOneUnambiguousDate() {
        #expect(DueDates.find(in: "Worksheet, due Thursday", assigned: tuesday, calendar: calendar) == CalendarDate(year: 2026, month: 12, day: 10))
        #expect(DueDates.find(in: "Due on 2026-12-11.", assigned: tuesday, calendar: calendar) == CalendarDate(year: 2026, month: 12, day: 11))
        #expect(DueDates.find(in: "due 14 December", assigned: friday, calendar: calendar) == CalendarDate(year: 2026, month: 12, day: 14))
        #expect(DueDates.find(in: "Read chapter 2 for tomorrow", assigned: CalendarDate(year: 2026, month: 12, day: 7), calendar: calendar) == tuesday)
        // Friday's "due Friday" is the next one.
        #expect(DueDates.find(in: "due Friday", assigned: friday, calendar: calendar) == CalendarDate(year: 2026, month: 12, day: 11))
    }

    @Test func findsNoneWhenItIsUnclear() {
        // Tomorrow is Saturday; Wednesday is the holiday; two dates; a date before the work.
        #expect(DueDates.find(in: "for tomorrow", assigned: friday, calendar: calendar) == nil)
        #expect(DueDates.find(in: "due Wednesday", assigned: tuesday, calendar: calendar) == nil)
        #expect(DueDates.find(in: "due Thursday or due Friday", assigned: tuesday, calendar: calendar) == nil)
        #expect(DueDates.find(in: "due 2026-12-01", assigned: tuesday, calendar: calendar) == nil)
        #expect(DueDates.find(in: "Read chapter 2", assigned: tuesday, calendar: calendar) == nil)
    }
}
