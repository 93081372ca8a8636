/// The keys of every content file: what their readers accept, and what docs/content.md says
/// of each (its tables are made from these, and a test keeps them the same).
public enum ContentKeys {
    public static let author = KeyTable([
        ContentKey("name", "text", default: "required", "The author's name, as bylines show it.", example: "name: The Dreamer"),
        ContentKey("username", "one word, with or without its `@`", default: "none", "A handle shown after the name (`@dreamer`).", example: "username: dreamer"),
    ])

    public static let site = KeyTable([
        ContentKey("title", "text", default: "required", "The site's name: in every page's title and header, and in the feeds.", example: "title: Good Food Nearby"),
        ContentKey("description", "text", default: "empty", "One sentence about the site: the home page's description for search engines and link previews, and the feed's subtitle.", example: "description: Where we eat in Kowloon."),
        ContentKey("base_url", "an http or https URL, without a query or fragment", default: "none (`--base-url` overrides it)", "Where the site is published, with its path if it has one. Links, feeds, calendars, the sitemap and canonical links use it; without it, the feeds, calendars, sitemap and canonical links are left out, with one warning.", example: "base_url: https://someone.github.io/food/"),
        ContentKey("language", "a language tag", default: "`en`", "The pages' language (`<html lang>`) and how dates and prices are written.", example: "language: en-HK"),
        ContentKey("timezone", "an IANA time zone", default: "`UTC`", "What today and tonight mean, and the zone of dates and times written without an offset.", example: "timezone: Asia/Hong_Kong"),
        ContentKey("currency", "an ISO 4217 currency code", default: "`USD`", "The currency of prices written as a plain number.", example: "currency: HKD"),
        ContentKey("theme", "the name of a folder under `Themes/`", default: "`default`", "The site's theme: its templates and assets take the place of the default theme's of the same name.", example: "theme: mine"),
        ContentKey("articles_per_page", "a whole number from 1 to 1000", default: "24", "Articles on each page of the home page and of each meal and tag.", example: "articles_per_page: 12"),
        ContentKey("map", "a mapping", default: "none", "The maps of restaurants.", example: "map: {zoom: 16}", keys: KeyTable([
            ContentKey("zoom", "a whole number from 1 to 19", default: "17", "How close a restaurant's embedded map is.", example: "zoom: 16"),
            ContentKey("leaflet", "a folder of the site, holding `leaflet.js` and `leaflet.css`", default: "the Leaflet sitegen carries", "Another Leaflet for `/map/`; marker clusters and images beside it are published too.", example: "leaflet: vendor/leaflet"),
        ])),
        ContentKey("author", "a mapping", default: "none", "The author of articles that name none.", example: "author: {name: The Dreamer, username: dreamer}", keys: author),
        ContentKey("markdown", "a mapping", default: "none", "How Markdown is read.", example: "markdown: {unsafe: true}", keys: KeyTable([
            ContentKey("unsafe", "`true` or `false`", default: "`false`", "Let raw HTML in Markdown through. Otherwise it is left out, with a warning at its first place in each file (HTML comments are left out silently).", example: "unsafe: true"),
        ])),
        ContentKey("homework", "a mapping", default: "none", "The homework section.", example: "homework: {grades: [6, 7, 8]}", keys: KeyTable([
            ContentKey("title", "text", default: "`Homework`", "The section's title, in the header and on its pages.", example: "title: Homework"),
            ContentKey("school", "text", default: "empty", "The school's name, on the homework pages and printed agendas.", example: "school: Sunrise Primary School"),
            ContentKey("grades", "a list of grades, like `6`, `7` or `K`", default: "none; required when there are assignments", "The grades that get pages, in this order. An assignment for another grade is an error.", example: "grades: [6, 7, 8]"),
            ContentKey("release_time", "a time like `14:00`", default: "`14:00`", "When a day's assignments are published: from this time they are tonight's homework.", example: "release_time: \"15:30\""),
            ContentKey("subjects", "a list of text", default: "the order of teachers.yaml", "The order subjects are named in (\"Math and History\"); a subject named twice keeps its first place, with a warning.", example: "subjects: [Chinese, English, Math]"),
        ])),
    ])

    public static let teacher = KeyTable([
        ContentKey("id", "lowercase letters, digits and hyphens", default: "required", "How assignments name the teacher (`teacher: ms-lee`); each id once.", example: "id: ms-lee"),
        ContentKey("name", "text", default: "required", "The teacher's name, on assignments and `/homework/teachers/`.", example: "name: Ms. Lee"),
        ContentKey("subject", "text", default: "required", "The subject of the teacher's assignments that name none.", example: "subject: Math"),
        ContentKey("grades", "a list of grades of `homework.grades`", default: "required", "The grades the teacher teaches: their assignments are for these unless they name others.", example: "grades: [7, 8]"),
        ContentKey("blog", "an http or https URL", default: "none", "The teacher's blog, linked from their assignments and `/homework/teachers/`.", example: "blog: https://mslee.example.org/"),
        ContentKey("email", "an email address", default: "none", "Shown on `/homework/teachers/`.", example: "email: lee@school.example.org"),
    ])

    public static let article = KeyTable([
        ContentKey("title", "text", default: "required", "The article's title.", example: "title: Lovely Breakfast"),
        ContentKey("date", "a date (`2026-12-01`), or a date and time (`2026-12-01T08:00`, with an offset or in the site's time zone)", default: "required", "When it was published: articles are listed newest first.", example: "date: 2016-05-20"),
        ContentKey("summary", "text", default: "the first paragraph, cut on a word near 200 characters", "What cards, feeds, search engines and link previews show.", example: "summary: Kaya toast and soft eggs in Jordan."),
        ContentKey("slug", "lowercase letters, digits and hyphens", default: "the file's name without `.md` and a leading date (`2016-05-20-`), or the folder's name for an `index.md`", "The article's address: `/articles/<slug>/`.", example: "slug: lovely-breakfast"),
        ContentKey("draft", "`true` or `false`", default: "`false`", "A draft is left out of the site unless the build is given `--drafts`.", example: "draft: true"),
        ContentKey("meal", "text", default: "none", "The meal, such as Breakfast: articles are gathered by meal at `/meals/<meal>/`.", example: "meal: Breakfast"),
        ContentKey("tags", "a list of text, or one text", default: "none", "Articles are gathered by tag at `/tags/<tag>/`. A tag listed twice is shown once, with a warning.", example: "tags: [toast, milk tea]"),
        ContentKey("cover", "a mapping", default: "none", "The cover photo, on the article's page and card.", example: "cover: {src: toast.jpg, alt: Kaya toast with butter}", keys: KeyTable([
            ContentKey("src", "a path of the site, or an http or https URL", default: "required", "The photo. A path is looked up beside the article, then from `Content/`.", example: "src: toast.jpg"),
            ContentKey("alt", "text", default: "required", "What the photo shows, for screen readers; a blank one is a warning.", example: "alt: Kaya toast with butter"),
            ContentKey("width", "a whole number above 0", default: "read from a local file", "The photo's width in pixels, so the page keeps its place before it loads.", example: "width: 1080"),
            ContentKey("height", "a whole number above 0", default: "read from a local file", "The photo's height in pixels.", example: "height: 810"),
        ])),
        ContentKey("price", "a number of 0 or more, or a mapping", default: "none", "What the meal cost, shown with its currency (`HK$ 34`).", example: "price: 34", keys: KeyTable([
            ContentKey("amount", "a number of 0 or more", default: "required", "The price.", example: "amount: 34"),
            ContentKey("currency", "an ISO 4217 currency code", default: "the site's `currency`", "Its currency.", example: "currency: HKD"),
        ])),
        ContentKey("author", "a mapping", default: "the site's `author`", "Who wrote it (\"by The Dreamer @dreamer\"); given a username alone, the name is the username.", example: "author: {name: The Dreamer, username: dreamer}", keys: KeyTable([
            ContentKey("name", "text", default: "the username", "The author's name.", example: "name: The Dreamer"),
            ContentKey("username", "one word, with or without its `@`", default: "none", "A handle shown after the name.", example: "username: dreamer"),
        ])),
        ContentKey("restaurant", "a mapping", default: "none", "Where the meal was: its page at `/restaurants/<slug>/`, and a pin on maps when it has coordinates.", example: "restaurant: {name: Toast Box, address: \"G/F, 233 Nathan Rd\"}", keys: KeyTable([
            ContentKey("name", "text", default: "none", "The restaurant's name; articles whose names make the same slug are about one restaurant.", example: "name: Toast Box"),
            ContentKey("address", "text", default: "none", "Its address.", example: "address: G/F, JD Mall, 233-239 Nathan Rd, Jordan"),
            ContentKey("lat", "a number from -90 to 90", default: "none", "Its latitude; give `lat` and `lon` together or not at all.", example: "lat: 22.304865"),
            ContentKey("lon", "a number from -180 to 180", default: "none", "Its longitude.", example: "lon: 114.171386"),
        ])),
    ])

    public static let assignment = KeyTable([
        ContentKey("title", "text", default: "required", "What to do, in a few words.", example: "title: Fractions worksheet"),
        ContentKey("assigned", "a date", default: "required", "The day it is given: from the release time that day, it is that night's homework.", example: "assigned: 2026-12-01"),
        ContentKey("due", "a date, or a date and time", default: "none", "When it is due; not before `assigned`.", example: "due: 2026-12-03T08:15"),
        ContentKey("teacher", "an `id` of teachers.yaml", default: "none", "Who gave it: their subject and grades are the assignment's unless it names its own.", example: "teacher: ms-lee"),
        ContentKey("subject", "text", default: "the teacher's subject", "The subject; required without a `teacher`.", example: "subject: Math"),
        ContentKey("grade", "a grade of `homework.grades`", default: "the teacher's grades", "The grade it is for (or `grades`, not both); required without a `teacher`.", example: "grade: 8"),
        ContentKey("grades", "a list of grades of `homework.grades`", default: "the teacher's grades", "The grades it is for; a grade listed twice counts once, with a warning.", example: "grades: [7, 8]"),
        ContentKey("icon", "one of " + AssignmentIcon.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", "), default: "`other`", "The icon it is shown with.", example: "icon: worksheet"),
        ContentKey("link", "an http or https URL", default: "none", "A page to go with it: the worksheet, the reading.", example: "link: https://example.org/worksheet.pdf"),
        ContentKey("draft", "`true` or `false`", default: "`false`", "A draft is left out unless the build is given `--drafts`.", example: "draft: true"),
    ])

    public static let page = KeyTable([
        ContentKey("title", "text", default: "required", "The page's title.", example: "title: About"),
        ContentKey("summary", "text", default: "the first paragraph, cut on a word near 200 characters", "What search engines and link previews show.", example: "summary: Who we are."),
        ContentKey("slug", "lowercase letters, digits and hyphens", default: "the file's name without `.md` and a leading date, or the folder's name for an `index.md`", "The page's address: `/<slug>/`; the names of sitegen's own pages (`map`, `tags` …) are taken.", example: "slug: about"),
        ContentKey("draft", "`true` or `false`", default: "`false`", "A draft is left out unless the build is given `--drafts`.", example: "draft: true"),
    ])
}
