import SitegenContent
import SitegenSupport

/// A name a template can use, and what it holds. docs/themes.md's tables are made from these,
/// the theme check knows these names and no others (`TemplateNames`), and a test walks the
/// context of every page of the sample site against them.
public struct TemplateName: Sendable {
    public enum Holds: Sendable, Equatable {
        /// Text, a number, true or false, or HTML.
        case value
        /// A record of `TemplateVocabulary.records`, by its name.
        case record(String)
        /// A list of records of that name.
        case list(String)
        /// The author's own fields (`extra:`): any name, as they wrote it.
        case fields
    }

    public var name: String
    public var meaning: String
    public var holds: Holds

    public init(_ name: String, _ meaning: String, _ holds: Holds = .value) {
        self.name = name
        self.meaning = meaning
        self.holds = holds
    }
}

public enum TemplateVocabulary {
    public struct Record: Sendable {
        public var name: String
        /// Where the record is found, for the docs' heading.
        public var title: String
        public var names: [TemplateName]
    }

    public struct Template: Sendable {
        public var name: String
        /// The pages it renders.
        public var pages: String
        /// Its context's own names; every page has `everyPage` too.
        public var names: [TemplateName]
    }

    public static let everyPage: [TemplateName] = [
        TemplateName("site", "the site", .record("site")),
        TemplateName("meta", "what the layout's `<head>` needs", .record("meta")),
        TemplateName("today", "the build's day, `2026-11-25`"),
        TemplateName("t", "the theme's words in the site's language, by name: `{{t.skipToContent}}` (its `strings/<language>.yaml`)", .fields),
    ]

    public static let templates: [Template] = [
        Template(name: "home", pages: "`/` and `/page/2/` on", names: [
            TemplateName("articles", "the page's articles, newest first, each an `article.card` view", .list("article")),
            TemplateName("pagination", "the page's place among the pages", .record("pagination")),
            TemplateName("hasDrafts", "true when the site has drafts, which are left out"),
            TemplateName("homework", "the homework of every grade", .record("homework")),
        ]),
        Template(name: "article", pages: "`/articles/<slug>/`", names: [
            TemplateName("article", "the article, as its `article` view", .record("article")),
        ]),
        Template(name: "page", pages: "`/<slug>/`", names: [
            TemplateName("page", "the page", .record("page")),
        ]),
        Template(name: "list", pages: "`/meals/<meal>/`, `/tags/<tag>/` and their `/page/N/`", names: [
            TemplateName("group", "the meal or tag", .record("group")),
            TemplateName("articles", "the page's articles, newest first, each an `article.card` view", .list("article")),
            TemplateName("pagination", "the page's place among the pages", .record("pagination")),
        ]),
        Template(name: "groups", pages: "`/meals/`, `/tags/`", names: [
            TemplateName("isMeals", "true on `/meals/`"),
            TemplateName("isTags", "true on `/tags/`"),
            TemplateName("groups", "every meal or tag with a published article, each a `group.row` view", .list("groupRow")),
        ]),
        Template(name: "restaurants", pages: "`/restaurants/`", names: [
            TemplateName("restaurants", "every restaurant, by name", .list("restaurantRow")),
        ]),
        Template(name: "restaurant", pages: "`/restaurants/<slug>/`", names: [
            TemplateName("restaurant", "the restaurant, as its newest article has it", .record("restaurantPage")),
        ]),
        Template(name: "map", pages: "`/map/`", names: [
            TemplateName("restaurants", "the restaurants with coordinates, as on `/restaurants/`", .list("restaurantRow")),
            TemplateName("hasLeaflet", "true when the map can be drawn: Leaflet and at least one pin"),
            TemplateName("hasMarkerClusters", "true when Leaflet's marker clusters are published with it"),
            TemplateName("mapData", "the pins as JSON (`name`, `address`, `url`, `count`, `lat`, `lon`), safe inside `<script>`: write `{{{mapData}}}`"),
            TemplateName("hasUnpinned", "true when some restaurants have no coordinates"),
            TemplateName("unpinnedCount", "how many"),
            TemplateName("unpinnedText", "\"2 restaurants have no coordinates.\""),
            TemplateName("unpinnedOne", "true when that is one"),
        ]),
        Template(name: "homework", pages: "`/homework/`", names: [
            TemplateName("homework", "the homework of every grade", .record("homework")),
        ]),
        Template(name: "grade", pages: "`/homework/grade-<id>/`", names: [
            TemplateName("grade", "the grade", .record("grade")),
            TemplateName("sentence", "what the grade has tonight: \"8th grade has homework in Math and History tonight.\""),
            TemplateName("digest", "the day the page leads with", .record("digest")),
            TemplateName("upcoming", "work still to do, by due date", .list("dueDay")),
            TemplateName("recentDays", "the last ten school days, newest first", .list("recentDay")),
            TemplateName("hasAssignments", "true when the site has any published assignment"),
            TemplateName("onlyDrafts", "true when every assignment of the grade is a draft"),
            TemplateName("onlyDraftsText", "what a grade with drafts only says"),
            TemplateName("draftCount", "how many of the grade's assignments are drafts"),
            TemplateName("updated", "when the page's homework last changed: \"Updated Wednesday, Nov 25, 3:00 PM\""),
            TemplateName("updatedISO", "the same, as `2026-11-25T15:00:00+08:00`"),
            TemplateName("homework", "the homework of every grade", .record("homework")),
        ]),
        Template(name: "day", pages: "`/homework/grade-<id>/<YYYY-MM-DD>/`", names: [
            TemplateName("grade", "the grade", .record("grade")),
            TemplateName("day", "the day", .record("day")),
            TemplateName("updated", "when the page's homework last changed"),
            TemplateName("updatedISO", "the same, as an ISO 8601 date and time"),
            TemplateName("homework", "the homework of every grade", .record("homework")),
        ]),
        Template(name: "poster", pages: "`/homework/grade-<id>/poster/`, with a `base_url`", names: [
            TemplateName("grade", "the grade", .record("grade")),
            TemplateName("posterTitle", "\"8th grade: homework\""),
            TemplateName("lead", "when the homework comes out, \"Tonight's homework of 8th grade, every school day from 2:00 PM.\""),
            TemplateName("how", "how to use the codes, \"Point your phone's camera at a code…\""),
            TemplateName("codes", "the QR codes of the grade's page, calendar and feed, in that order", .list("posterCode")),
        ]),
        Template(name: "teachers", pages: "`/homework/teachers/`", names: [
            TemplateName("teachers", "every teacher, by name", .list("teacherRow")),
            TemplateName("homework", "the homework of every grade", .record("homework")),
        ]),
        Template(name: "404", pages: "`/404.html`", names: []),
    ]

    public static let records: [Record] = [
        Record(name: "site", title: "`site`", names: [
            TemplateName("title", "the site's title"),
            TemplateName("description", "its description"),
            TemplateName("language", "its language tag, `en-HK`"),
            TemplateName("locale", "the same with an underscore, `en_HK`, as Open Graph writes it"),
            TemplateName("root", "the path the site is served under, `/` or `/food/`: begin every link and asset with it"),
            TemplateName("timezone", "its time zone, `Asia/Hong_Kong`"),
            TemplateName("feedURL", "the path of its feed, when it has a `base_url`"),
            TemplateName("school", "`homework.school`"),
            TemplateName("homeworkTitle", "`homework.title`"),
            TemplateName("hasHomework", "true when site.yaml names grades"),
            TemplateName("pages", "the plain pages", .list("page")),
            TemplateName("assets", "the URLs of the theme's assets by extension and name: `{{site.assets.css.style}}` for `assets/style.css`"),
            TemplateName("t", "the theme's words, as `t` of every page: the header and footer, rendered over `site`, find them here", .fields),
            TemplateName("extra", "site.yaml's own fields, from `extra:`: `{{extra.opening_hours}}`", .fields),
        ]),
        Record(name: "meta", title: "`meta`", names: [
            TemplateName("title", "the page's title for `<title>` and link previews"),
            TemplateName("description", "its description"),
            TemplateName("type", "`article` or `website`, as Open Graph has it"),
            TemplateName("isArticle", "true on an article's page"),
            TemplateName("canonical", "the page's absolute URL, when the site has a `base_url`"),
            TemplateName("image", "the image of link previews, with an absolute URL", .record("image")),
            TemplateName("jsonLD", "schema.org data for the page, as JSON safe inside `<script>`"),
            TemplateName("noindex", "true on pages search engines should not list: the 404 page, a meal's or tag's page whose articles are all drafts"),
        ]),
        Record(name: "article", title: "An article (`article`, `article.card`)", names: ArticleView.table.names),
        Record(name: "image", title: "An image (`cover`, `meta.image`, a section's `image`)", names: [
            TemplateName("url", "where it is; for a photo, its JPEG (or PNG) no wider than 960 pixels, for `<img src>`"),
            TemplateName("alt", "what it shows"),
            TemplateName("width", "its width in pixels, when known (a photo's, once upright)"),
            TemplateName("height", "its height in pixels, when known"),
            TemplateName("srcset", "a photo's: every width of its JPEG (or PNG), for `<img srcset>`"),
            TemplateName("type", "a photo's: the media type of `url` and `srcset`, `image/jpeg` or `image/png`"),
            TemplateName("sources", "a photo's: each format of `images.formats`, best first, for `<source>`", .list("imageSource")),
            TemplateName("candidates", "a photo's: every file made of it", .list("imageCandidate")),
            TemplateName("placeholder", "a photo's mean colour, `#a0522d`, to show while it loads"),
            TemplateName("original", "a photo's URL at its own size, with `images.keep_originals`"),
        ]),
        Record(name: "imageSource", title: "A format of a photo (`sources`)", names: [
            TemplateName("type", "its media type, `image/webp` or `image/avif`"),
            TemplateName("srcset", "every width of it, for `<source srcset>`"),
        ]),
        Record(name: "imageCandidate", title: "A file made of a photo (`candidates`)", names: [
            TemplateName("url", "where it is"),
            TemplateName("width", "its width in pixels"),
            TemplateName("height", "its height in pixels"),
            TemplateName("format", "`avif`, `webp`, `jpeg` or `png`"),
        ]),
        Record(name: "label", title: "A meal or tag (`meal`, `tags`)", names: [
            TemplateName("name", "its name as written"),
            TemplateName("url", "its page's path"),
        ]),
        Record(name: "author", title: "An author (`author`)", names: [
            TemplateName("name", "the name"),
            TemplateName("username", "the handle, without its `@`"),
        ]),
        Record(name: "restaurant", title: "An article's restaurant (`restaurant`)", names: [
            TemplateName("name", "its name"),
            TemplateName("address", "its address"),
            TemplateName("slug", "the slug of its page"),
            TemplateName("url", "its page's path"),
            TemplateName("hasCoordinates", "true when it has `lat` and `lon`"),
            TemplateName("mapTitle", "the title of its embedded map, \"Map of Tim Ho Wan\""),
            TemplateName("lat", "its latitude, with coordinates"),
            TemplateName("lon", "its longitude, with coordinates"),
            TemplateName("embedURL", "OpenStreetMap's embedded map with a pin, its box sized by `map.zoom`"),
            TemplateName("largerMapURL", "the same place on OpenStreetMap's site"),
            TemplateName("directionsURL", "OpenStreetMap's directions to it"),
        ]),
        Record(name: "subContent", title: "A photo section (`subContents`)", names: [
            TemplateName("image", "its photo", .record("image")),
            TemplateName("html", "the blocks after the photo, as HTML: `{{{html}}}`"),
        ]),
        Record(name: "page", title: "A page (`page`, `site.pages`)", names: [
            TemplateName("view", "`page`"),
            TemplateName("title", "its title"),
            TemplateName("url", "its path"),
            TemplateName("summary", "its summary"),
            TemplateName("body", "its content, as HTML: `{{{body}}}`"),
            TemplateName("extra", "the page's own fields, from `extra:`: `{{extra.opening_hours}}`", .fields),
        ]),
        Record(name: "pagination", title: "`pagination`", names: [
            TemplateName("number", "this page's number, from 1"),
            TemplateName("count", "how many pages the list has"),
            TemplateName("hasMany", "true when that is more than one"),
            TemplateName("status", "\"Page 2 of 3\""),
            TemplateName("label", "\"page 2\", for titles"),
            TemplateName("heading", "\"Articles, page 2 of 3\""),
            TemplateName("prev", "the path of the page before, on every page but the first"),
            TemplateName("next", "the path of the page after, on every page but the last"),
        ]),
        Record(name: "group", title: "A meal's or tag's page (`group`)", names: [
            TemplateName("name", "the meal or tag"),
            TemplateName("url", "its page's path"),
            TemplateName("isMeal", "true for a meal"),
            TemplateName("isTag", "true for a tag"),
            TemplateName("count", "how many published articles it has"),
            TemplateName("one", "true when that is one"),
            TemplateName("countText", "how many articles, in words: \"3 articles\""),
            TemplateName("draftsText", "what a page whose articles are all drafts says of them"),
            TemplateName("draftCount", "how many drafts it has"),
            TemplateName("oneDraft", "true when that is one"),
        ]),
        Record(name: "groupRow", title: "A row of `/meals/` or `/tags/` (`group.row`)", names: [
            TemplateName("view", "`group.row`"),
            TemplateName("name", "the meal or tag"),
            TemplateName("url", "its page's path"),
            TemplateName("count", "how many published articles it has"),
            TemplateName("one", "true when that is one"),
            TemplateName("countText", "how many articles, in words: \"3 articles\""),
        ]),
        Record(name: "restaurantRow", title: "A restaurant of `/restaurants/` and `/map/`", names: [
            TemplateName("name", "its name"),
            TemplateName("slug", "the slug of its page"),
            TemplateName("url", "its page's path"),
            TemplateName("address", "its address"),
            TemplateName("count", "how many articles are about it"),
            TemplateName("one", "true when that is one"),
            TemplateName("countText", "how many articles, in words: \"3 articles\""),
            TemplateName("largerMapURL", "the place on OpenStreetMap's site, with coordinates"),
        ]),
        Record(name: "restaurantPage", title: "A restaurant's page (`restaurant` of the `restaurant` template)", names: [
            TemplateName("name", "its name"),
            TemplateName("address", "its address"),
            TemplateName("slug", "the slug of its page"),
            TemplateName("url", "its page's path"),
            TemplateName("hasCoordinates", "true when it has coordinates"),
            TemplateName("mapTitle", "the title of its embedded map, \"Map of Tim Ho Wan\""),
            TemplateName("lat", "its latitude, with coordinates"),
            TemplateName("lon", "its longitude, with coordinates"),
            TemplateName("embedURL", "OpenStreetMap's embedded map with a pin"),
            TemplateName("largerMapURL", "the place on OpenStreetMap's site"),
            TemplateName("directionsURL", "OpenStreetMap's directions to it"),
            TemplateName("count", "how many articles are about it"),
            TemplateName("one", "true when that is one"),
            TemplateName("countText", "how many articles, in words: \"3 articles\""),
            TemplateName("articles", "its articles, newest first", .list("articleLink")),
        ]),
        Record(name: "articleLink", title: "An article of a restaurant's page", names: [
            TemplateName("title", "its title"),
            TemplateName("url", "its page's path"),
        ]),
        Record(name: "homework", title: "`homework`", names: [
            TemplateName("grades", "every grade", .list("homeworkGrade")),
            TemplateName("hasGrades", "true when site.yaml names grades"),
            TemplateName("hasAssignments", "true when there is any published assignment"),
            TemplateName("updated", "when the homework last changed: \"Updated Wednesday, Nov 25, 3:00 PM\""),
            TemplateName("updatedISO", "the same, as an ISO 8601 date and time"),
            TemplateName("teachersURL", "the path of `/homework/teachers/`"),
        ]),
        Record(name: "homeworkGrade", title: "A grade of `homework.grades`", names: [
            TemplateName("name", "its name, \"8th grade\""),
            TemplateName("url", "its page's path"),
            TemplateName("sentence", "\"8th grade has homework in Math and History tonight.\""),
            TemplateName("count", "how many assignments it has tonight"),
        ]),
        Record(name: "grade", title: "The grade of a grade's or day's page (`grade`)", names: [
            TemplateName("id", "as site.yaml has it, `8`"),
            TemplateName("name", "\"8th grade\""),
            TemplateName("url", "its page's path"),
            TemplateName("hasFeeds", "true when the site has a `base_url`, which its feed and calendar need"),
            TemplateName("feedURL", "the path of its Atom feed"),
            TemplateName("jsonFeedURL", "the path of its JSON Feed, the same entries as the Atom feed"),
            TemplateName("tonightURL", "the path of `tonight.txt`: the sentence and tonight's work as plain text"),
            TemplateName("calendarURL", "the path of its calendar"),
            TemplateName("webcalURL", "its calendar as a `webcal:` address, which calendar apps subscribe to"),
            TemplateName("feedTitle", "its feed's title, \"8th grade: homework\""),
            TemplateName("calendarTitle", "its calendar's title, \"8th grade: due dates\""),
        ]),
        Record(name: "posterCode", title: "Each of a poster's `codes`", names: [
            TemplateName("kind", "`page`, `calendar` or `feed`"),
            TemplateName("title", "what it is for, \"Due dates in your calendar\""),
            TemplateName("text", "a sentence on what it does"),
            TemplateName("url", "the address it holds: the calendar's is `webcal:`"),
            TemplateName("svg", "the code as an inline SVG element (HTML: write it as `{{{svg}}}`), dark on a white square with its quiet zone"),
        ]),
        Record(name: "digest", title: "`digest`", names: [
            TemplateName("label", "\"Tonight\"; before the release time \"Last night\", or \"Last school day\" after a day off; on a day off \"Next school day\""),
            TemplateName("day", "the day for readers, \"Wednesday, Nov 25\""),
            TemplateName("date", "the day, `2026-11-25`"),
            TemplateName("url", "the day's page, when it is a school day"),
            TemplateName("assignments", "the day's work, each an `assignment.row` view", .list("assignment")),
        ]),
        Record(name: "dueDay", title: "A day of `upcoming`", names: [
            TemplateName("label", "\"Due tomorrow\", \"Due Friday, Dec 4\""),
            TemplateName("date", "the day, `2026-12-04`"),
            TemplateName("assignments", "what is due then", .list("assignment")),
        ]),
        Record(name: "recentDay", title: "A day of `recentDays`", names: [
            TemplateName("label", "\"Wednesday, Nov 25\""),
            TemplateName("date", "`2026-11-25`"),
            TemplateName("url", "its page's path"),
            TemplateName("count", "how many assignments it has"),
            TemplateName("one", "true when that is one"),
            TemplateName("countText", "how many assignments, in words: \"2 assignments\""),
        ]),
        Record(name: "day", title: "The day of a day's page (`day`)", names: [
            TemplateName("label", "\"Wednesday, Nov 25\""),
            TemplateName("date", "`2026-11-25`"),
            TemplateName("sentence", "\"8th grade had homework in Math on Wednesday, Nov 25.\""),
            TemplateName("emptyText", "what a day without the grade's work says"),
            TemplateName("assignments", "the day's work", .list("assignment")),
            TemplateName("previous", "the school day before, when there is one", .record("dayLink")),
            TemplateName("next", "the school day after, when there is one", .record("dayLink")),
        ]),
        Record(name: "dayLink", title: "`day.previous`, `day.next`", names: [
            TemplateName("url", "its page's path"),
            TemplateName("label", "\"Tuesday, Nov 24\""),
        ]),
        Record(name: "teacherRow", title: "A teacher of `/homework/teachers/`", names: [
            TemplateName("name", "the teacher's name"),
            TemplateName("subject", "their subject"),
            TemplateName("grades", "their grades in words, \"7th grade and 8th grade\""),
            TemplateName("blog", "their blog's URL"),
            TemplateName("email", "their email address"),
            TemplateName("extra", "the teacher's own fields, from `extra:`: `{{extra.opening_hours}}`", .fields),
        ]),
        Record(name: "assignment", title: "An assignment (`assignment.row`, `assignment.digest`)", names: [
            TemplateName("view", "the name of its view: `{{>*view}}` renders it through that template"),
            TemplateName("id", "an id that stays the same from build to build"),
            TemplateName("title", "its title"),
            TemplateName("subject", "its subject"),
            TemplateName("icon", "its icon's name, `worksheet`"),
            TemplateName("iconView", "the icon's partial, `icon.worksheet`: `{{>*iconView}}`"),
            TemplateName("iconLabel", "what the icon says to screen readers, \"Worksheet\""),
            TemplateName("teacher", "who gave it", .record("teacher")),
            TemplateName("assigned", "the day it was given, `2026-11-25`"),
            TemplateName("displayAssigned", "the same for readers, \"Wednesday, Nov 25\""),
            TemplateName("dayURL", "that day's page, for the page's grade"),
            TemplateName("due", "when it is due, `2026-11-26` or `2026-11-26T08:15`"),
            TemplateName("displayDue", "the same for readers, \"tomorrow\", \"Friday, Nov 27, 8:15 AM\""),
            TemplateName("repeats", "when work that repeats is given, \"Every Monday and Wednesday until Wednesday, Jun 30\"; empty for work given once"),
            TemplateName("link", "its link"),
            TemplateName("details", "its details, as HTML: `{{{details}}}`"),
            TemplateName("grades", "its grades, `7`, `8`"),
            TemplateName("extra", "the assignment's own fields, from `extra:`: `{{extra.opening_hours}}`", .fields),
        ]),
        Record(name: "teacher", title: "An assignment's teacher (`teacher`)", names: [
            TemplateName("id", "their id in teachers.yaml"),
            TemplateName("name", "their name"),
            TemplateName("blog", "their blog's URL"),
            TemplateName("extra", "the teacher's own fields, from `extra:`: `{{extra.opening_hours}}`", .fields),
        ]),
    ]

    public static func record(_ name: String) -> Record? {
        records.first { $0.name == name }
    }

    /// Every name any page gives templates.
    public static let allNames: Set<String> = {
        var names = Set(everyPage.map(\.name))
        for template in templates { names.formUnion(template.names.map(\.name)) }
        for record in records { names.formUnion(record.names.map(\.name)) }
        return names
    }()
}
