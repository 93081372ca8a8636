import Foundation
import SitegenMustache
import Testing

/// One case of the official Mustache spec, read from `../shared/conformance/mustache-spec/`.
struct SpecCase: Sendable, CustomTestStringConvertible {
    var module: String
    var name: String
    var template: String
    var data: MustacheValue
    var partials: [String: String]
    var expected: String

    var testDescription: String { "\(module) / \(name)" }
}

enum SpecSuite {
    static let modules = ["comments", "delimiters", "interpolation", "inverted", "partials",
                          "sections", "~inheritance", "~dynamic-names"]

    /// The spec lives beside the project, never inside it.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/conformance/mustache-spec")

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("sections.json").path)
    }

    private struct File: Decodable {
        struct Test: Decodable {
            var name: String
            var template: String
            var data: MustacheValue
            var partials: [String: String]?
            var expected: String
        }
        var tests: [Test]
    }

    static let cases: [SpecCase] = {
        guard isAvailable else { return [] }
        return modules.flatMap { module -> [SpecCase] in
            let url = directory.appendingPathComponent("\(module).json")
            guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else {
                return [SpecCase(module: module, name: "unreadable file", template: "", data: .null, partials: [:], expected: "readable JSON")]
            }
            return file.tests.map {
                SpecCase(module: module, name: $0.name, template: $0.template, data: $0.data, partials: $0.partials ?? [:], expected: $0.expected)
            }
        }
    }()
}

@Suite("Official Mustache spec")
struct SpecConformanceTests {
    @Test("spec case renders as expected", .enabled(if: SpecSuite.isAvailable, "the Mustache spec is not at ../shared/conformance/mustache-spec; its cases were skipped"), arguments: SpecSuite.cases)
    func specCase(_ specCase: SpecCase) throws {
        var library = try MustacheLibrary(sources: specCase.partials)
        let template = try MustacheTemplate(name: "<template>", source: specCase.template)
        library.add(template)
        #expect(try library.render(template, with: specCase.data) == specCase.expected)
    }

    @Test("every module of the spec is present and has cases", .enabled(if: SpecSuite.isAvailable, "the Mustache spec is not at ../shared/conformance/mustache-spec"))
    func everyModuleHasCases() {
        let modules = Set(SpecSuite.cases.map(\.module))
        #expect(modules == Set(SpecSuite.modules))
        #expect(SpecSuite.cases.count >= 180)
    }
}
