/// A fingerprint of everything each page shows: when a page's fingerprint, and the
/// templates it was made with, are as in the last build, and its file is as that build
/// wrote it, the page is not rendered again.
enum PageFingerprints {
    /// `hashes`: the hash of each content file's bytes, by path relative to the site.
    /// `context`: site.yaml, teachers.yaml, static files and options, which every page
    /// depends on.
    static func make(_ index: SiteIndex, hashes: [String: UInt64], context: UInt64, assets: [String: [String: String]]) -> [String: UInt64] {
        var global = Fingerprint()
        global.add(context)
        for page in index.pages {
            global.add(page.slug.text)
            global.add(page.title)
        }
        for (ext, names) in assets.sorted(by: { $0.key < $1.key }) {
            for (name, path) in names.sorted(by: { $0.key < $1.key }) {
                global.add(ext + "." + name + "=" + path)
            }
        }
        func articles(_ list: [Article]) -> Fingerprint {
            var print = Fingerprint()
            for article in list {
                print.add(article.sourcePath)
                print.add(hashes[article.sourcePath] ?? 0)
            }
            return print
        }
        var homework = Fingerprint()
        homework.add("\(index.moment.date)T\(index.moment.time?.description ?? "-")")
        for assignment in index.homework.assignments {
            homework.add(assignment.sourcePath)
            homework.add(hashes[assignment.sourcePath] ?? 0)
        }
        homework.add(index.homework.draftCounts.values.reduce(0, +))
        let everyArticle = articles(index.articles).value
        let restaurants = articles(index.articles.filter { $0.restaurant != nil }).value

        var fingerprints: [String: UInt64] = [:]
        fingerprints.reserveCapacity(index.plan.count)
        for planned in index.plan {
            var print = Fingerprint()
            print.add(global.value)
            print.add(planned.path)
            switch planned {
            case .home(let list):
                print.add(list.count)
                print.add(articles(list.articles).value)
                print.add(homework.value)
                print.add(index.draftCount > 0 ? 1 : 0)
            case .article(let article):
                print.add(hashes[article.sourcePath] ?? 0)
            case .page(let page):
                print.add(hashes[page.sourcePath] ?? 0)
            case .group(let group, let list):
                print.add(group.label.name)
                print.add(group.draftCount)
                print.add(group.articles.count)
                print.add(list.count)
                print.add(articles(list.articles).value)
            case .groupIndex(let kind):
                for group in kind == .meal ? index.meals : index.tags {
                    print.add(group.label.name)
                    print.add(group.label.slug.text)
                    print.add(group.articles.count)
                }
            case .restaurants, .map:
                print.add(restaurants)
            case .homework, .teachers, .grade, .day, .gradeFeed, .gradeCalendar:
                print.add(homework.value)
            case .siteFeed:
                print.add(articles(Array(index.articles.prefix(Publishing.feedLength))).value)
            case .sitemap:
                print.add(index.plan.count)
                print.add(everyArticle)
                print.add(homework.value)
                for group in index.meals + index.tags { print.add(group.path) }
            case .notFound, .robots:
                break
            }
            fingerprints[planned.path] = print.value
        }
        return fingerprints
    }
}
