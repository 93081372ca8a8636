import SitegenMustache
import Synchronization
import Testing

/// Counts the fields templates ask it for, to tell a remembered partial from a rendered one.
private final class Asked: Sendable {
    let count = Mutex(0)
}

private struct Dish: MustacheObject {
    var name: String
    var asked: Asked

    func mustacheMember(_ key: String) -> MustacheValue? {
        asked.count.withLock { $0 += 1 }
        switch key {
        case "name": return .string(name)
        case "view": return "dish"
        case "letters": return .array(name.map { .string(String($0)) })
        default: return nil
        }
    }

    var mustacheIdentity: MustacheIdentity? { MustacheIdentity(name) }
}

private func library(_ sources: [String: String]) throws -> MustacheLibrary {
    try MustacheLibrary(sources: sources, missingTemplates: .fail)
}

private func render(_ library: MustacheLibrary, _ name: String, _ data: MustacheValue, memo: MustachePartialMemo?) throws -> String {
    var used: Set<String> = []
    return String(decoding: try library.renderBytes(library[name]!, with: data, usedTemplates: &used, memo: memo), as: UTF8.self)
}

@Suite("Remembered partials")
struct PartialMemoTests {
    @Test func rendersAPartialOverTheSameObjectOnceAndOutputsTheSame() throws {
        let asked = Asked()
        let dishes: MustacheValue = .array(["Toast", "Noodles"].map { .object(Dish(name: $0, asked: asked)) })
        let templates = try library([
            "page": "<ul>\n{{#dishes}}\n  <li>{{>*view}}</li>\n  {{>dish}}\n{{/dishes}}\n</ul>\n",
            "dish": "<b>{{name}}</b>{{#letters}}{{.}}{{/letters}}\n",
        ])
        let plain = try render(templates, "page", ["dishes": dishes], memo: nil)
        let memo = MustachePartialMemo()
        let first = try render(templates, "page", ["dishes": dishes], memo: memo)
        let askedAfterFirst = asked.count.withLock { $0 }
        let second = try render(templates, "page", ["dishes": dishes], memo: memo)
        #expect(first == plain)
        #expect(second == plain)
        // The second page asks each dish only for the name of its view.
        #expect(asked.count.withLock { $0 } - askedAfterFirst == 2)
        // Indented on its own line and inline are two renderings of each dish.
        #expect(memo.count == 4)
    }

    @Test func doesNotKeepAPartialThatReadsThePageAroundTheObject() throws {
        let asked = Asked()
        let templates = try library(["page": "{{#dish}}{{>dish}}{{/dish}}", "dish": "{{name}} at {{place}}"])
        let memo = MustachePartialMemo()
        let dish = MustacheValue.object(Dish(name: "Toast", asked: asked))
        #expect(try render(templates, "page", ["dish": dish, "place": "Toast Box"], memo: memo) == "Toast at Toast Box")
        #expect(try render(templates, "page", ["dish": dish, "place": "Tsim Chai Kee"], memo: memo) == "Toast at Tsim Chai Kee")
        #expect(memo.count == 0)
    }

    @Test func doesNotKeepAPartialThatUsesBlocks() throws {
        let asked = Asked()
        let templates = try library([
            "page": "{{<frame}}{{$note}}from the page{{/note}}{{/frame}}",
            "frame": "{{#dish}}{{>dish}}{{/dish}}",
            "dish": "{{name}}: {{$note}}none{{/note}}",
        ])
        let memo = MustachePartialMemo()
        let dish = MustacheValue.object(Dish(name: "Toast", asked: asked))
        #expect(try render(templates, "page", ["dish": dish], memo: memo) == "Toast: from the page")
        #expect(try render(templates, "frame", ["dish": dish], memo: memo) == "Toast: none")
        #expect(memo.count == 0)
    }

    @Test func keepsAPartialThatLooksUpNothingOnceForEveryContext() throws {
        let asked = Asked()
        let templates = try library([
            "page": "{{#dishes}}{{>icon}}{{>dish}}{{/dishes}}{{>icon}}{{>dot}}{{>dot}}",
            "icon": "<svg/>", "dish": "{{name}}", "dot": "{{.}}",
        ])
        let dishes: MustacheValue = .array(["Toast", "Noodles"].map { .object(Dish(name: $0, asked: asked)) })
        let plain = try render(templates, "page", ["dishes": dishes], memo: nil)
        let memo = MustachePartialMemo()
        #expect(try render(templates, "page", ["dishes": dishes], memo: memo) == plain)
        #expect(try render(templates, "page", ["dishes": dishes], memo: memo) == plain)
        // One icon for both dishes and the page, a rendering of each dish; `{{.}}` reads
        // its context, so the dot is not kept.
        #expect(memo.count == 3)
    }

    @Test func aRememberedPartialStillMeetsTheNestingLimit() throws {
        let asked = Asked()
        var templates = try library(["shallow": "{{#dish}}{{>dish}}{{/dish}}", "deep": "{{#dish}}{{>wrap}}{{/dish}}",
                                     "wrap": "{{>dish}}", "dish": "{{name}}"])
        templates.nestingLimit = 1
        let memo = MustachePartialMemo()
        let dish = MustacheValue.object(Dish(name: "Toast", asked: asked))
        #expect(try render(templates, "shallow", ["dish": dish], memo: memo) == "Toast")
        #expect(throws: MustacheError.self) { try render(templates, "deep", ["dish": dish], memo: memo) }
    }
}
