import Dispatch
import Foundation
import SitegenMustache
import Synchronization
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

    /// Each standalone block's body is dedented and parsed once: parsing it as it stands
    /// and then again dedented doubled the work at every level.
    @Test func parsesNestedIndentedBlocksOnce() throws {
        let levels = 90
        let opening = (0..<levels).map { String(repeating: "  ", count: $0) + "{{$b\($0)}}\n" }.joined()
        let closing = (0..<levels).reversed().map { String(repeating: "  ", count: $0) + "{{/b\($0)}}\n" }.joined()
        let source = opening + String(repeating: "  ", count: levels) + "{{x}}\n" + closing
        let template = try MustacheTemplate(name: "t", source: source)
        #expect(try MustacheLibrary(templates: [template]).render(template, with: ["x": "deep"]) == String(repeating: "  ", count: levels) + "deep\n")
        let parent = try MustacheTemplate(name: "page", source: "<main>\n  {{<t}}{{/t}}\n</main>\n")
        #expect(try MustacheLibrary(templates: [template, parent]).render(parent, with: ["x": "deep"]) == "<main>\n" + String(repeating: "  ", count: levels + 1) + "deep\n</main>\n")
    }

    /// Positions of tags on one long line: a column is found in constant time, ASCII or not.
    @Test func placesTagsOnAVeryLongLine() {
        for prefix in ["x", "é"] {
            let source = String(repeating: prefix + "{{a}}", count: 100_000) + "{{#open}}"
            do {
                _ = try MustacheTemplate(name: "t", source: source)
                Issue.record("compiled")
            } catch {
                #expect(error.position == TemplatePosition(line: 1, column: 600_001))
            }
        }
    }

    /// The deepest rendering the limits allow fits in the 8 MiB stack of the threads builds
    /// render on, in a debug build and under AddressSanitizer (whose frames are larger).
    @Test func rendersTheDeepestNestingOnASmallStack() {
        let sections = String(repeating: "{{#t}}", count: 99) + "{{>a}}" + String(repeating: "{{/t}}", count: 99)
        let outcome = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                let library = try MustacheLibrary(sources: ["a": sections])
                _ = try library.render(templateNamed: "a", with: ["t": true])
                outcome.withLock { $0 = "rendered" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        done.wait()
        #expect(outcome.withLock { $0 }?.hasSuffix("is a template including itself forever?") == true)
    }
}
