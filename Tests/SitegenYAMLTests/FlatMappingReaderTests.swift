import SitegenSupport
@testable import SitegenYAML
import Testing

/// Whether two trees are the same, locations included.
private func same(_ a: YAMLNode, _ b: YAMLNode) -> Bool {
    guard a.location == b.location else { return false }
    switch (a.value, b.value) {
    case (.scalar(let x), .scalar(let y)):
        return x == y
    case (.sequence(let x), .sequence(let y)):
        return x.count == y.count && zip(x, y).allSatisfy(same)
    case (.mapping(let x), .mapping(let y)):
        return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.keyLocation == $1.keyLocation && same($0.value, $1.value) }
    default:
        return false
    }
}

private func flat(_ text: String) -> YAMLNode? {
    FlatMappingReader.read(Array(text.utf8), path: "Content/a.md", firstLine: 2)
}

@Suite("Flat front matter without libyaml")
struct FlatMappingReaderTests {
    @Test func readsTheUsualFrontMatterAsLibYAMLDoes() throws {
        let text = "title: \"Timeline project: map skills\"\nteacher: ms-ho\n\n# a comment\ngrade: 8\ngrades: [6, \"7\", 8]\ndue: 2026-10-13T08:00\nlink: https://example.org/a#b\nempty: []\n"
            + "author: {name: \"Sam Lee\", username: samlee}\nrestaurant:\n  name: \"Toast Box\"\n  lat: 22.3\nnone: {}\n"
        let node = try #require(flat(text))
        let reference = try #require(try YAMLReader.readWithLibYAML(Array(text.utf8), path: "Content/a.md", firstLine: 2))
        #expect(same(node, reference))
        #expect(node.mapping?.map(\.key) == ["title", "teacher", "grade", "grades", "due", "link", "empty", "author", "restaurant", "none"])
        #expect(node.mapping?[3].value.sequence?.map { $0.scalar?.style } == [.plain, .quoted, .plain])
    }

    /// A location is counted on from the one before it on the same line: characters of
    /// several bytes before a later value still count once, and a new line starts again at 1.
    @Test func countsEachColumnOnFromTheValueBeforeItOnALine() throws {
        let text = "author: {name: \"Café 冰室\", username: x}\ntags: [\"點心\", b]\n"
        let node = try #require(flat(text))
        let reference = try #require(try YAMLReader.readWithLibYAML(Array(text.utf8), path: "Content/a.md", firstLine: 2))
        #expect(same(node, reference))
        let author = try #require(node.mapping?[0].value.mapping)
        #expect(author.map(\.keyLocation.column) == [10, 27])
        #expect(author.map(\.value.location.column) == [16, 37])
        let tags = try #require(node.mapping?[1])
        #expect(tags.keyLocation == SourceLocation(path: "Content/a.md", line: 3, column: 1))
        #expect(tags.value.sequence?.map(\.location.column) == [8, 14])
    }

    @Test func leavesEverythingElseToLibYAML() {
        for text in ["a: b: c\n", "a: -1\n", "a: 'x'\n", "a: \"x\\ny\"\n", "a: x # note\n", "a:\tx\n", "a: x\na: y\n",
                     "a:\n", "a: x \n", "a: [x, [y]]\n", "a: [x,]\n", "  a: x\n", "- x\n", "a: \"x\n", "a: &r x\n", "a: *r\n",
                     "a: !tag x\n", "a: |\n  x\n", "---\na: x\n", "a: x\r\n", "a: \"\u{2028}\"\n", "a: \"\u{85}\"\n", "a: é\n", "", "# only\n",
                     "a:\n  b:\n    c: d\n", "a:\n  b: c\n   d: e\n", "a:\n\n  b: c\n", "a: {b: {c: d}}\n", "a: {b:c}\n", "a: {b: c,}\n", "a: {b: c: d}\n",
                     "a: {b: c, b: d}\n", "a:\n  b: c\n  b: d\n", "a:\n  - b\n"] {
            #expect(flat(text) == nil, "\(text.debugDescription)")
        }
    }

    /// 30,000 documents made of the pieces that trip YAML up: wherever the shortcut
    /// answers, libyaml must read the same tree, locations included — and must not fail.
    @Test func agreesWithLibYAMLOnGeneratedDocuments() {
        var generator = SystemRandomNumberGenerator()
        let keys = ["title", "date", "a", "A_b", "_x", "9x", "b-c", "tags", "t\u{E9}"]
        let separators = [" ", "  ", "", "\t", " \t"]
        let pieces = ["a", "Z", "0", "7", " ", ":", ": ", "#", " #", "-", ",", "[", "]", "{", "}", "\"", "'", "\\", "\u{E9}", "\u{8336}",
                      "\u{85}", "\u{A0}", "\u{2028}", "\u{FEFF}", "\t", "~", "?", "&", "*", "!", "|", ">", "%", "@", "`", ".", "/", "\u{1F375}"]
        func text(_ count: Int) -> String { (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined() }
        func value() -> String {
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: return "\"" + text(Int.random(in: 0..<6, using: &generator)) + "\""
            case 1: return "[" + (0..<Int.random(in: 0..<4, using: &generator)).map { _ in Bool.random(using: &generator) ? text(2) : "\"\(text(2))\"" }.joined(separator: [",", ", ", " ,"].randomElement(using: &generator)!) + "]"
            case 2: return ["2026-10-13", "2026-10-13T08:00", "https://example.org/x?y=1#z", "ms-ho", "8", "Lovely Breakfast", "true", "~"].randomElement(using: &generator)!
            case 3 where Bool.random(using: &generator):
                return "{" + (0..<Int.random(in: 0..<3, using: &generator)).map { _ in keys.randomElement(using: &generator)! + [": ", ":", ":  "].randomElement(using: &generator)! + (Bool.random(using: &generator) ? text(2) : "\"\(text(2))\"") }
                    .joined(separator: [",", ", ", " ,"].randomElement(using: &generator)!) + "}"
            default: return text(Int.random(in: 0..<6, using: &generator))
            }
        }
        var handled = 0
        for _ in 0..<30_000 {
            var lines: [String] = []
            for _ in 0..<Int.random(in: 1...5, using: &generator) {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0: lines.append("")
                case 1: lines.append("# " + text(3))
                case 2: lines.append([" ", "  ", "    "].randomElement(using: &generator)! + keys.randomElement(using: &generator)! + ":" + separators.randomElement(using: &generator)! + value())
                case 3: lines.append(keys.randomElement(using: &generator)! + ":")
                default: lines.append(keys.randomElement(using: &generator)! + ":" + separators.randomElement(using: &generator)! + value())
                }
            }
            let document = lines.joined(separator: "\n") + (Bool.random(using: &generator) ? "\n" : "")
            guard let shortcut = flat(document) else { continue }
            handled += 1
            let reference: YAMLNode?
            do {
                reference = try YAMLReader.readWithLibYAML(Array(document.utf8), path: "Content/a.md", firstLine: 2)
            } catch {
                Issue.record("libyaml refuses what the shortcut read: \(document.debugDescription): \(error)")
                continue
            }
            #expect(reference.map { same(shortcut, $0) } == true, "\(document.debugDescription)")
        }
        #expect(handled > 400)
    }
}
