import Foundation

import SitegenMustache

/// A file of the built site: rendered bytes, or a file to copy as it is.
struct OutputFile: Sendable {
    enum Contents: Sendable {
        case bytes([UInt8])
        case copy(URL)
    }

    /// Relative to the output folder.
    var path: String
    var contents: Contents
}



/// The **render** stage: every page through its template, on every core.
enum Render {
    struct Job: Sendable {
        var path: String
        var template: String
        var context: MustacheValue
    }

    static func run(_ index: SiteIndex, theme: Theme) throws(MustacheError) -> [OutputFile] {
        let jobs = jobs(for: index)
        let library = theme.library
        let outcomes = parallelMap(jobs) { job -> Result<OutputFile, MustacheError> in
            do throws(MustacheError) {
                let bytes = try library.renderBytes(library[job.template]!, with: job.context, sizeHint: 16 * 1024)
                return .success(OutputFile(path: job.path, contents: .bytes(bytes)))
            } catch {
                return .failure(error)
            }
        }
        var files: [OutputFile] = []
        for outcome in outcomes {
            switch outcome {
            case .success(let file): files.append(file)
            case .failure(let error): throw error
            }
        }
        return files
    }

    static func jobs(for index: SiteIndex) -> [Job] {
        let context = ViewContext(site: index.site, formats: Formats(language: index.site.language))
        let pageLinks: [MustacheValue] = index.pages.map { .object(PageView(page: $0, context: context)) }
        let site = MustacheValue.object(SiteView(site: index.site, pages: pageLinks))
        func page(_ fields: [String: MustacheValue]) -> MustacheValue {
            .dictionary(fields.merging(["site": site, "today": .string(index.moment.date.description)]) { own, _ in own })
        }

        var jobs: [Job] = []
        let gradeLinks: [MustacheValue] = index.grades.map { grade, assignments in
            .dictionary([
                "name": .string(GradeNames.name(of: grade)),
                "url": .string(context.url("homework/grade-\(grade.slug)/")),
                "count": .int(assignments.count),
                "one": .bool(assignments.count == 1),
            ])
        }
        jobs.append(Job(path: "index.html", template: "home", context: page([
            "articles": .array(index.articles.map { .object(ArticleView(article: $0, variant: "article.card", context: context)) }),
            "grades": .array(gradeLinks),
        ])))
        for article in index.articles {
            jobs.append(Job(path: "articles/\(article.slug.text)/index.html", template: "article", context: page([
                "article": .object(ArticleView(article: article, variant: "article", context: context)),
            ])))
        }
        for item in index.pages {
            jobs.append(Job(path: "\(item.slug.text)/index.html", template: "page", context: page([
                "page": .object(PageView(page: item, context: context)),
            ])))
        }
        if !index.grades.isEmpty {
            jobs.append(Job(path: "homework/index.html", template: "homework", context: page(["grades": .array(gradeLinks)])))
        }
        for (grade, assignments) in index.grades {
            jobs.append(Job(path: "homework/grade-\(grade.slug)/index.html", template: "grade", context: page([
                "grade": .dictionary([
                    "id": .string(grade.text),
                    "name": .string(GradeNames.name(of: grade)),
                    "assignments": .array(assignments.map { .object(AssignmentView(assignment: $0, variant: "assignment.row", context: context)) }),
                ]),
            ])))
        }
        return jobs
    }
}
