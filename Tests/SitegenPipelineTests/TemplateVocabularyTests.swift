import Foundation
import SitegenContent
@testable import SitegenPipeline
import SitegenMustache
import Testing

/// The vocabulary of names templates see (`TemplateVocabulary`, which docs/themes.md and the
/// theme check are made from) against what the pages of the sample site really give their
/// templates: every name a page gives is in the vocabulary, and every name of the
/// vocabulary is given by some page.
@Suite("The names templates see")
struct TemplateVocabularyTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every page of the sample site built at the moment of its golden files, and of a
    /// site that shows what the sample site does not (Tests/Fixtures/every-name): its
    /// template and its context.
    static func pages() -> [(template: String, context: MustacheValue)] {
        [root.path, root.appendingPathComponent("Tests/Fixtures/every-name").path].flatMap(pages(of:))
    }

    /// The templates those pages use, and what a walk over their contexts found; the
    /// contexts themselves are let go. Kept until the process ended, LeakSanitizer reported
    /// one of their values as leaked: reachable, but through a pointer it cannot read.
    static let survey: (templates: Set<String>, walk: Walk) = {
        let made = TemplateVocabularyTests.pages()
        var walk = Walk()
        for (template, context) in made {
            guard let entry = TemplateVocabulary.templates.first(where: { $0.name == template }) else {
                walk.problems.append("the template '\(template)' is not in the vocabulary")
                continue
            }
            walk.record(context, TemplateVocabulary.everyPage + entry.names, as: "template:" + template, at: template)
        }
        return (Set(made.map(\.template)), walk)
    }()

    static var walk: Walk { survey.walk }

    private static func pages(of site: String) -> [(template: String, context: MustacheValue)] {
        var options = BuildOptions(source: site, output: "/nonexistent/out", today: "2026-11-25T15:00")
        options.drafts = true
        let made = SiteBuilder.make(options, reuse: nil, progress: { _ in })
        guard let index = made.index else { return [] }
        let articles = ArticleViewMemo(context: ViewContext(site: index.site, formats: Formats(language: index.site.language), photoColours: PhotoColours(made.photoColours)))
        let shared = Render.Shared(index: index, assets: ["css": ["style": "assets/style.css"]], articles: articles, homeworkSummary: nil, strings: made.settings?.strings ?? .english)
        let jobs = Render.jobs(for: index.plan, paths: index.planPaths, shared: shared, leaflet: LeafletFiles.embedded.files)
        return jobs.compactMap { job in
            guard case .template(let name, let context) = job.kind else { return nil }
            return (name, context())
        }
    }

    /// What a walk over the contexts found.
    struct Walk {
        /// The names given, by record (`template:home` for a template's own).
        var given: [String: Set<String>] = [:]
        var problems: [String] = []

        mutating func record(_ value: MustacheValue, _ names: [TemplateName], as key: String, at path: String) {
            let declared = Dictionary(names.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            var present: [(String, MustacheValue)] = []
            switch value {
            case .null:
                return
            case .fields(let fields):
                present = fields.entries
            case .dictionary(let fields):
                present = fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            case .boxed:
                // An object tells no list of its members: asked for every name there is.
                let probes = TemplateVocabulary.allNames.union(ArticleView.table.names.map(\.name)).sorted()
                present = probes.compactMap { name in value.member(name).map { (name, $0) } }
            default:
                problems.append("\(path) is \(value), where the vocabulary has a record '\(key)'")
                return
            }
            for (name, member) in present {
                guard let entry = declared[name] else {
                    problems.append("\(path).\(name) is given, but '\(key)' of the vocabulary has no '\(name)'")
                    continue
                }
                given[key, default: []].insert(name)
                walk(member, entry.holds, at: "\(path).\(name)")
            }
        }

        mutating func walk(_ value: MustacheValue, _ holds: TemplateName.Holds, at path: String) {
            switch holds {
            case .value:
                break
            case .fields:
                switch value {
                case .null, .dictionary: break
                default: problems.append("\(path) is \(value), where the vocabulary has the author's own fields")
                }
            case .record(let name):
                record(value, TemplateVocabulary.record(name)?.names ?? [], as: name, at: path)
            case .list(let name):
                guard case .array(let items) = value else {
                    problems.append("\(path) is \(value), where the vocabulary has a list")
                    return
                }
                for (place, item) in items.enumerated() {
                    record(item, TemplateVocabulary.record(name)?.names ?? [], as: name, at: "\(path).\(place)")
                }
            }
        }
    }


    @Test func theSampleSiteRendersEveryTemplate() {
        #expect(Self.survey.templates == Set(TemplateVocabulary.templates.map(\.name)))
    }

    @Test func everyNameAPageGivesIsInTheVocabulary() {
        #expect(Self.walk.problems == [])
    }

    @Test func everyNameOfTheVocabularyIsGivenBySomePage() {
        for template in TemplateVocabulary.templates {
            let missing = Set((TemplateVocabulary.everyPage + template.names).map(\.name)).subtracting(Self.walk.given["template:" + template.name] ?? [])
            #expect(missing.isEmpty, "template '\(template.name)' never has \(missing.sorted())")
        }
        for record in TemplateVocabulary.records {
            let missing = Set(record.names.map(\.name)).subtracting(Self.walk.given[record.name] ?? [])
            #expect(missing.isEmpty, "record '\(record.name)' never has \(missing.sorted())")
        }
    }

    @Test func theThemeCheckKnowsExactlyTheVocabulary() {
        #expect(TemplateNames.known == TemplateVocabulary.allNames)
        // Every record is reached from some template.
        var reached: Set<String> = []
        var pending = TemplateVocabulary.templates.flatMap(\.names) + TemplateVocabulary.everyPage
        while let name = pending.popLast() {
            switch name.holds {
            case .value, .fields: continue
            case .record(let record), .list(let record):
                guard reached.insert(record).inserted else { continue }
                pending += TemplateVocabulary.record(record)?.names ?? []
            }
        }
        #expect(reached == Set(TemplateVocabulary.records.map(\.name)))
    }
}
