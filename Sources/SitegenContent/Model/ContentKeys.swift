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
            ContentKey("grades", "a list of grades, like `6`, `7` or `K`, each alone or with its name", default: "none; required when there are assignments", "The grades that get pages, in this order. An assignment for another grade is an error. A grade with a name (`{id: 6, name: Primary 6}`) is called so in every sentence, title, feed and calendar.", example: "grades: [{id: 6, name: Primary 6}, {id: 7, name: Form 1}]", keys: Site.gradeKeys),
            ContentKey("release_time", "a time like `14:00`", default: "`14:00`", "When a day's assignments are published: from this time they are tonight's homework.", example: "release_time: \"15:30\""),
            ContentKey("subjects", "a list of text", default: "the order of teachers.yaml", "The order subjects are named in (\"Math and History\"); a subject named twice keeps its first place, with a warning.", example: "subjects: [Chinese, English, Math]"),
            ContentKey("school_days", "a list of weekdays", default: "`[monday, tuesday, wednesday, thursday, friday]`", "The days the school is open: on any other day the homework pages say there is no school, and \"due Monday\" counts school days.", example: "school_days: [mon, tue, wed, thu, fri, sat]"),
            ContentKey("holidays", "a list of dates, or of mappings with `date` or `from` and `to`, and `name`", default: "none", "Days the school is closed: \"No school tomorrow: Chinese New Year\".", example: "holidays: [{from: 2027-02-05, to: 2027-02-12, name: Chinese New Year}, 2027-04-05]", keys: SchoolCalendar.holidayKeys),
        ])),
        ContentKey("images", "a mapping", default: "none", "How photos (JPEG, PNG, WebP and AVIF files that pages show) are published: in several sizes and formats, upright, and without the place they were taken.", example: "images: {widths: [480, 960, 1600]}", keys: ImageSettings.keys),
        ContentKey("strings", "a mapping of words", default: "the theme's, in the site's `language`", "The theme's words written otherwise, by name: [every word](../themes.md#words-in-the-sites-language).", example: "strings: {skipToContent: Skip to the story}"),
        .extra,
    ])

    public static let teacher = KeyTable([
        ContentKey("id", "lowercase letters, digits and hyphens", default: "required", "How assignments name the teacher (`teacher: ms-lee`); each id once.", example: "id: ms-lee"),
        ContentKey("name", "text", default: "required", "The teacher's name, on assignments and `/homework/teachers/`.", example: "name: Ms. Lee"),
        ContentKey("subject", "text", default: "required", "The subject of the teacher's assignments that name none.", example: "subject: Math"),
        ContentKey("grades", "a list of grades of `homework.grades`", default: "required", "The grades the teacher teaches: their assignments are for these unless they name others.", example: "grades: [7, 8]"),
        ContentKey("blog", "an http or https URL", default: "none", "The teacher's blog, linked from their assignments and `/homework/teachers/`.", example: "blog: https://mslee.example.org/"),
        ContentKey("email", "an email address", default: "none", "Shown on `/homework/teachers/`.", example: "email: lee@school.example.org"),
        ContentKey("feed", "an http or https URL of an Atom or RSS feed, or a path inside the site's folder", default: "none", "Where `sitegen import` reads the teacher's posts, each an assignment.", example: "feed: https://mslee.example.org/feed/"),
        .extra,
    ])

    public static let assignment = KeyTable([
        ContentKey("title", "text", default: "required", "What to do, in a few words.", example: "title: Fractions worksheet"),
        ContentKey("assigned", "a date", default: "required", "The day it is given: from the release time that day, it is that night's homework.", example: "assigned: 2026-12-01"),
        ContentKey("due", "a date, or a date and time", default: "none", "When it is due; not before `assigned`.", example: "due: 2026-12-03T08:15"),
        ContentKey("teacher", "an `id` of teachers.yaml", default: "none", "Who gave it: their subject and grades are the assignment's unless it names its own.", example: "teacher: ms-lee"),
        ContentKey("subject", "text", default: "the teacher's subject", "The subject; required without a `teacher`.", example: "subject: Math"),
        ContentKey("grade", "a grade of `homework.grades`", default: "the teacher's grades", "The grade it is for (or `grades`, not both); required without a `teacher`.", example: "grade: 8"),
        ContentKey("grades", "a list of grades of `homework.grades`", default: "the teacher's grades", "The grades it is for; a grade listed twice counts once, with a warning.", example: "grades: [7, 8]"),
        ContentKey("repeat", "a mapping: `every: school day` or `on:` weekdays, and `until`", default: "none", "Work given again on each such school day from `assigned` to `until`, holidays left out; each time is due the next school day unless `due` says otherwise.", example: "repeat: {on: [mon, wed], until: 2027-06-30}", keys: AssignmentRepeat.keys),
        ContentKey("icon", "one of " + AssignmentIcon.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", "), default: "`other`", "The icon it is shown with.", example: "icon: worksheet"),
        ContentKey("link", "an http or https URL", default: "none", "A page to go with it: the worksheet, the reading.", example: "link: https://example.org/worksheet.pdf"),
        ContentKey("draft", "`true` or `false`", default: "`false`", "A draft is left out unless the build is given `--drafts`.", example: "draft: true"),
        ContentKey("source", "a mapping", default: "none", "Written by `sitegen import`: the post the assignment was made from, so that it is never imported twice. Leave it as it is.", example: "source: {id: \"tag:blog.example.org,2026:post-42\", url: https://blog.example.org/42}", keys: assignmentSourceKeys),
        .extra,
    ])

    /// `source:` of an imported assignment.
    public static let assignmentSourceKeys = KeyTable([
        ContentKey("id", "text", default: "required", "The post's id in its feed.", example: "id: \"tag:blog.example.org,2026:post-42\""),
        ContentKey("url", "an http or https URL", default: "none", "The post's address.", example: "url: https://blog.example.org/42"),
        ContentKey("updated", "a date and time", default: "none", "When the post was last changed, as its feed said.", example: "updated: 2026-12-01T09:30:00+08:00"),
        ContentKey("digest", "text", default: "none", "A hash of the post as it was imported: a post changed since is reported.", example: "digest: 9f2c4e1a0b7d3c55"),
        ContentKey("written", "text", default: "none", "A hash of the file as import wrote it: a file changed since is never written over.", example: "written: 51e0aa93c2d4f018"),
    ])

    public static let page = KeyTable([
        ContentKey("title", "text", default: "required", "The page's title.", example: "title: About"),
        ContentKey("summary", "text", default: "the first paragraph, cut on a word near 200 characters", "What search engines and link previews show.", example: "summary: Who we are."),
        ContentKey("slug", "lowercase letters, digits and hyphens", default: "the file's name without `.md` and a leading date, or the folder's name for an `index.md`", "The page's address: `/<slug>/`; the names of sitegen's own pages (`map`, `tags` …) are taken.", example: "slug: about"),
        ContentKey("draft", "`true` or `false`", default: "`false`", "A draft is left out unless the build is given `--drafts`.", example: "draft: true"),
        .extra,
    ])
}
