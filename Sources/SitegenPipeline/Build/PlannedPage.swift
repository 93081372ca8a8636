import SitegenContent
import SitegenSupport

/// A page of the built site, as the index stage plans it.
public enum PlannedPage: Sendable {
    case home(ListPage)
    case article(Article)
    case page(Page)
    case group(GroupHeading, ListPage)
    /// `/meals/` or `/tags/`, with the headings of every group of the kind, in order.
    case groupIndex(ArticleGroup.Kind, [GroupHeading])
    case restaurants
    case restaurant(RestaurantPage)
    case map
    case homework
    case grade(GradeID)
    case day(GradeID, CalendarDate)
    /// A page to print and hang up, with QR codes of the grade's page, calendar and feed.
    case poster(GradeID)
    case teachers
    case gradeFeed(GradeID)
    case gradeCalendar(GradeID)
    /// `feed.json`: the Atom feed's entries as a JSON Feed.
    case gradeJSONFeed(GradeID)
    /// `tonight.txt`: the sentence the grade's page leads with, and its work.
    case gradeTonight(GradeID)
    case notFound
    case siteFeed
    case sitemap
    case robots

    /// Made from all the articles or all of a grade's assignments, not from one of them.
    public var isWholeSite: Bool {
        switch self {
        case .groupIndex, .restaurants, .map, .gradeFeed, .gradeCalendar, .gradeJSONFeed, .siteFeed, .sitemap: true
        case .home, .article, .page, .group, .restaurant, .homework, .grade, .day, .poster, .teachers, .gradeTonight, .notFound, .robots: false
        }
    }

    /// Made from the assignments (and the teachers and the site's settings) alone.
    public var isHomework: Bool {
        switch self {
        case .homework, .grade, .day, .poster, .teachers, .gradeFeed, .gradeCalendar, .gradeJSONFeed, .gradeTonight: true
        case .home, .article, .page, .group, .groupIndex, .restaurants, .restaurant, .map, .notFound, .siteFeed, .sitemap, .robots: false
        }
    }

    /// The order pages are made in: those made from the whole site first, since they come
    /// last in the plan and one core made them alone while the other waited. Their folders
    /// are made in the same order.
    public static func workOrder(_ pages: [PlannedPage]) -> [Int] {
        pages.indices.filter { pages[$0].isWholeSite } + pages.indices.filter { !pages[$0].isWholeSite }
    }

    /// Where the page is written, relative to the output folder.
    public var path: String {
        switch self {
        case .home(let list): list.path + "index.html"
        case .article(let article): article.pagePath + "index.html"
        case .page(let page): "\(page.slug.text)/index.html"
        case .group(_, let list): list.path + "index.html"
        case .groupIndex(let kind, _): "\(kind.rawValue)/index.html"
        case .restaurants: "restaurants/index.html"
        case .restaurant(let page): page.entry.path + "index.html"
        case .map: "map/index.html"
        case .homework: "homework/index.html"
        case .grade(let grade): "homework/grade-\(grade.slug)/index.html"
        case .day(let grade, let day): "homework/grade-\(grade.slug)/\(day)/index.html"
        case .poster(let grade): "homework/grade-\(grade.slug)/poster/index.html"
        case .teachers: "homework/teachers/index.html"
        case .gradeFeed(let grade): "homework/grade-\(grade.slug)/feed.xml"
        case .gradeCalendar(let grade): "homework/grade-\(grade.slug)/calendar.ics"
        case .gradeJSONFeed(let grade): "homework/grade-\(grade.slug)/feed.json"
        case .gradeTonight(let grade): "homework/grade-\(grade.slug)/tonight.txt"
        case .notFound: "404.html"
        case .siteFeed: "feed.xml"
        case .sitemap: "sitemap.xml"
        case .robots: "robots.txt"
        }
    }
}
