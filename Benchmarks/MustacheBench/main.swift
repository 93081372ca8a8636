import SitegenMustache

// Renders an article-sized page (a layout with blocks, the article view and three
// partials) many times and prints the time per render. Run it with a release build:
//   swift run -c release sitegen-bench [renders]

struct SubContent: MustacheObject {
    var image: String
    var alt: String
    var html: String

    func mustacheMember(_ key: String) -> MustacheValue? {
        switch key {
        case "image": .string(image)
        case "alt": .string(alt)
        case "html": .string(html)
        case "width": .int(1080)
        case "height": .int(810)
        default: nil
        }
    }
}

struct Article: MustacheObject {
    var title: String
    var summary: String
    var body: String
    var subContents: [SubContent]
    var tags: [String]

    func mustacheMember(_ key: String) -> MustacheValue? {
        switch key {
        case "title": .string(title)
        case "summary": .string(summary)
        case "body": .string(body)
        case "subContents": .array(subContents.map { .object($0) })
        case "tags": tags.mustacheValue
        case "meal": "Breakfast"
        case "price": "HK$ 34"
        case "restaurant": ["name": "Toast Box", "address": "G/F, JD Mall, 233-239 Nathan Rd, Jordan", "lat": 22.30486488298268, "lon": 114.1713863611221]
        case "author": ["name": "The Dreamer", "username": "dreamer"]
        case "date": "May 20, 2016"
        default: nil
        }
    }
}

let layout = """
    <!doctype html>
    <html lang="{{site.language}}">
    <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>{{$title}}{{site.title}}{{/title}}</title>
      <meta name="description" content="{{$description}}{{site.description}}{{/description}}">
      <link rel="stylesheet" href="{{site.root}}style.css">
    </head>
    <body>
      {{>header}}
      <main id="content">
        {{$content}}{{/content}}
      </main>
      <footer class="site-footer"><p>© {{site.title}}</p></footer>
    </body>
    </html>

    """
let header = """
    <header class="site-header">
      <a class="site-title" href="{{site.root}}">{{site.title}}</a>
      <nav><ul>{{#site.menu}}<li><a href="{{url}}">{{name}}</a></li>{{/site.menu}}</ul></nav>
    </header>

    """
let subContent = """
    <section class="card">
      <img src="{{image}}" alt="{{alt}}" width="{{width}}" height="{{height}}" loading="lazy">
      <div class="card-body">{{{html}}}</div>
    </section>

    """
let details = """
    <section class="group">
      <h2 class="group-header">Details</h2>
      <ul class="rows">
        {{#meal}}<li class="row"><span>Meal</span><span>{{meal}}</span></li>{{/meal}}
        {{#price}}<li class="row"><span>Price</span><span>{{price}}</span></li>{{/price}}
        {{#restaurant}}<li class="row"><span>{{name}}</span><span>{{address}}</span></li>
        <li class="row map"><iframe title="Map of {{name}}" src="https://www.openstreetmap.org/export/embed.html?marker={{lat}},{{lon}}" loading="lazy"></iframe></li>{{/restaurant}}
        {{#author}}<li class="row"><span>{{name}}</span><span>@{{username}}</span></li>{{/author}}
      </ul>
    </section>

    """
let page = """
    {{<layout}}
    {{$title}}{{article.title}} – {{site.title}}{{/title}}
    {{$description}}{{article.summary}}{{/description}}
    {{$content}}
    {{#article}}
    <article>
      <h1>{{title}}</h1>
      <p class="meta">{{date}} · {{#tags}}<a href="/tags/{{.}}/">#{{.}}</a> {{/tags}}</p>
      {{{body}}}
      {{#subContents}}
      {{>subcontent}}
      {{/subContents}}
      {{>details}}
    </article>
    {{/article}}
    {{/content}}
    {{/layout}}

    """

let paragraph = "<p>Start your day with this amazing breakfast &amp; you will be happy throughout the day. The toast is crisp, the kaya sweet, the butter cold.</p>\n"
let article = Article(
    title: "Lovely Breakfast",
    summary: "Start your day with this amazing breakfast, and you will be happy throughout the day.",
    body: String(repeating: paragraph, count: 6),
    subContents: (1...5).map { SubContent(image: "/articles/lovely-breakfast/photo-\($0).jpg", alt: "Photo \($0) <of> the meal", html: String(repeating: paragraph, count: 2)) },
    tags: ["toast", "milk tea", "breakfast"]
)
let site: MustacheValue = [
    "title": "Hong Kong Bites", "description": "Food worth the trip", "language": "en", "root": "/",
    "menu": [["name": "Articles", "url": "/"], ["name": "Map", "url": "/map/"], ["name": "Homework", "url": "/homework/"]],
]
let data: MustacheValue = ["site": site, "article": .object(article)]

let library = try MustacheLibrary(
    sources: ["layout": layout, "header": header, "subcontent": subContent, "details": details, "article": page],
    missingTemplates: .fail
)
let template = library["article"]!
let renders = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 100_000

var bytes = 0
for _ in 0..<1_000 { bytes = try library.renderBytes(template, with: data).count }
let clock = ContinuousClock()
var checksum = 0
let elapsed = try clock.measure {
    for _ in 0..<renders { checksum &+= try library.renderBytes(template, with: data, sizeHint: bytes).count }
}
let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
print("mustache: \(Int(nanoseconds / Double(renders))) ns per render of a \(bytes)-byte article page (layout + 3 partials, \(renders) renders, checksum \(checksum / renders))")
