import SitegenMustache
import SitegenTestSupport
import Testing

@Suite("Robustness")
struct RobustnessTests {
    /// Pieces that stress the parser: tags of every kind, broken ones, delimiter changes,
    /// newlines and indentation around standalone tags.
    static let pieces = ["{{", "}}", "{{{", "}}}", "{{#a}}", "{{/a}}", "{{^a}}", "{{#b}}", "{{/b}}", "{{>p}}", "{{<p}}", "{{/p}}",
                         "{{$a}}", "{{$b}}", "{{>*v}}", "{{<*v}}", "{{/*v}}", "{{=<% %>=}}", "<%", "%>", "<%={{ }}=%>", "{{=", "=}}",
                         "{{!", "{{! c }}", "{{a}}", "{{&a}}", "{{.}}", "{{a.b}}", "\n", "  ", "\r\n", "x", "é", "{{ }}", "{{#}}", "}", "{"]

    @Test func neverCrashesOnRandomTemplates() {
        var random = SplitMix(seed: 1)
        var compiled = 0
        let data: MustacheValue = ["a": [1, ["b": true], "s"], "b": ["a": "x"], "v": "p"]
        for _ in 0..<5000 {
            let length = Int.random(in: 1...24, using: &random)
            let source = (0..<length).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            let partial = (0..<Int.random(in: 0...8, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            guard let template = try? MustacheTemplate(name: "t", source: source) else { continue }
            compiled += 1
            var library = MustacheLibrary(templates: [template])
            if let partialTemplate = try? MustacheTemplate(name: "p", source: partial) { library.add(partialTemplate) }
            _ = try? library.render(template, with: data)
        }
        #expect(compiled > 300)
    }

    @Test func reportsErrorsInsideTheTemplate() {
        var random = SplitMix(seed: 7)
        for _ in 0..<2000 {
            let source = (0..<Int.random(in: 1...16, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            do {
                _ = try MustacheTemplate(name: "t", source: source)
            } catch {
                let lines = source.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                #expect(error.position.line >= 1 && error.position.line <= lines.count, "\(source.debugDescription): \(error)")
                #expect(error.position.column >= 1, "\(source.debugDescription): \(error)")
                #expect(!error.message.isEmpty)
            }
        }
    }
}
