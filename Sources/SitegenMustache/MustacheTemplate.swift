/// A template compiled once and rendered any number of times.
public struct MustacheTemplate: Sendable {
    /// What never changes, held once by reference: a page includes dozens of partials, and
    /// each one found was a copy of the template that retained and released its name,
    /// path, nodes and program.
    private final class Compiled: Sendable {
        let name: String
        /// Made once, for the keys of a `MustachePartialMemo`.
        let nameHash: Int
        let path: String
        let nodes: [Node]
        let program: Program

        init(name: String, path: String, nodes: [Node]) {
            self.name = name
            nameHash = name.hashValue
            self.path = path
            self.nodes = nodes
            program = Program(nodes, path: path)
        }
    }

    private let compiled: Compiled
    /// Its place in the library that holds it, for `TemplateUse`.
    var index = -1

    /// The name partial and parent tags use for it (`article.card`).
    public var name: String { compiled.name }
    var nameHash: Int { compiled.nameHash }
    /// Where it came from, as diagnostics show it (`Themes/default/article.card.mustache`).
    public var path: String { compiled.path }
    var nodes: [Node] { compiled.nodes }
    /// The nodes laid out for rendering.
    var program: Program { compiled.program }

    public init(name: String, source: String, path: String? = nil) throws(MustacheError) {
        let path = path ?? name
        compiled = Compiled(name: name, path: path, nodes: try Parser(source: Array(source.utf8), path: path).parse())
    }

    /// Every partial and parent this template names with a fixed name, and where.
    public var references: [(name: String, isParent: Bool, position: TemplatePosition)] {
        var found: [(String, Bool, TemplatePosition)] = []
        forEachNode { node in
            switch node {
            case .partial(.named(let name), _, let tag): found.append((name, false, tag.position))
            case .parent(.named(let name), _, _, let tag): found.append((name, true, tag.position))
            default: break
            }
        }
        return found
    }

    /// A name a template looks up, split at its dots, with where its tag is and the names
    /// of the sections around it, outermost first: inside `{{#a.b}}`, a name may be a
    /// member of `a.b`, which only its owner can tell.
    public struct LookedUpName: Sendable {
        public var components: [String]
        public var position: TemplatePosition
        public var sections: [[String]]
    }

    /// Every name this template looks up — of variables, sections, and partials and parents
    /// found by name (`{{>*view}}`) — in the order of the source. The implicit iterator `.`
    /// is not a name.
    public var names: [LookedUpName] {
        var found: [LookedUpName] = []
        var sections: [[String]] = []
        func visit(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .variable(let name, _, let tag), .partial(.dynamic(let name), _, let tag):
                    if !name.isImplicitIterator { found.append(LookedUpName(components: name.components, position: tag.position, sections: sections)) }
                case .section(let name, _, let children, let tag):
                    if !name.isImplicitIterator { found.append(LookedUpName(components: name.components, position: tag.position, sections: sections)) }
                    sections.append(name.components)
                    visit(children)
                    sections.removeLast()
                case .parent(let parent, _, let blocks, let tag):
                    if case .dynamic(let name) = parent, !name.isImplicitIterator {
                        found.append(LookedUpName(components: name.components, position: tag.position, sections: sections))
                    }
                    for name in blocks.keys.sorted() { visit(blocks[name]!) }
                case .block(_, let children, _, _):
                    visit(children)
                case .text, .partial:
                    break
                }
            }
        }
        visit(nodes)
        return found.sorted { $0.position < $1.position }
    }

    /// Calls `body` with every node, those inside sections, blocks and a parent's blocks
    /// too: a node before the nodes inside it, a parent's blocks in the order of their names.
    private func forEachNode(_ body: (Node) -> Void) {
        func visit(_ nodes: [Node]) {
            for node in nodes {
                body(node)
                switch node {
                case .text, .variable, .partial:
                    break
                case .section(_, _, let children, _), .block(_, let children, _, _):
                    visit(children)
                case .parent(_, _, let blocks, _):
                    for name in blocks.keys.sorted() { visit(blocks[name]!) }
                }
            }
        }
        visit(nodes)
    }
}

/// A set of templates that can include each other by name, as partials or parents.
public struct MustacheLibrary: Sendable {
    /// What a partial or parent tag does when no template has its name.
    public enum MissingTemplates: Sendable {
        /// Render nothing, as the Mustache spec asks.
        case renderNothing
        /// Stop with an error that says which name and where: what a site build wants.
        case fail
    }

    public private(set) var templates: [String: MustacheTemplate] = [:]
    /// The templates' names by their places.
    private(set) var names: [String] = []
    public var missingTemplates: MissingTemplates
    /// How many partials, parents and block overrides may be nested inside each other.
    public var nestingLimit = 100

    public init(missingTemplates: MissingTemplates = .renderNothing) {
        self.missingTemplates = missingTemplates
    }

    public init(templates: [MustacheTemplate], missingTemplates: MissingTemplates = .renderNothing) {
        self.missingTemplates = missingTemplates
        for template in templates { add(template) }
    }

    /// Compiles `sources` (name → source) and reports the errors of all of them at once.
    public init(sources: [String: String], paths: [String: String] = [:], missingTemplates: MissingTemplates = .renderNothing) throws(MustacheLibraryError) {
        self.missingTemplates = missingTemplates
        var errors: [MustacheError] = []
        for name in sources.keys.sorted() {
            do {
                add(try MustacheTemplate(name: name, source: sources[name]!, path: paths[name]))
            } catch {
                errors.append(error)
            }
        }
        guard errors.isEmpty else { throw MustacheLibraryError(errors: errors) }
    }

    public mutating func add(_ template: MustacheTemplate) {
        var template = template
        template.index = templates[template.name]?.index ?? names.count
        if template.index == names.count { names.append(template.name) }
        templates[template.name] = template
    }

    public subscript(name: String) -> MustacheTemplate? {
        templates[name]
    }

    /// Fixed partial and parent names that no template of this library answers to.
    public func unresolvedReferences() -> [MustacheError] {
        var errors: [MustacheError] = []
        for name in templates.keys.sorted() {
            let template = templates[name]!
            for reference in template.references where templates[reference.name] == nil {
                let kind: MustacheError.Kind = reference.isParent ? .unknownParent(name: reference.name) : .unknownPartial(name: reference.name)
                errors.append(MustacheError(path: template.path, position: reference.position, kind: kind))
            }
        }
        return errors
    }

    public func render(_ template: MustacheTemplate, with value: MustacheValue) throws(MustacheError) -> String {
        String(decoding: try renderBytes(template, with: value), as: UTF8.self)
    }

    public func render(templateNamed name: String, with value: MustacheValue) throws(MustacheError) -> String {
        guard let template = templates[name] else {
            throw MustacheError(path: name, position: TemplatePosition(line: 1, column: 1), kind: .unknownPartial(name: name))
        }
        return try render(template, with: value)
    }

    /// Renders to UTF-8 bytes, the form files are written in, without a String in between.
    public func renderBytes(_ template: MustacheTemplate, with value: MustacheValue, sizeHint: Int = 4096) throws(MustacheError) -> [UInt8] {
        var used: Set<String> = []
        return try renderBytes(template, with: value, sizeHint: sizeHint, usedTemplates: &used)
    }

    /// Renders and tells which templates the output was made of: the template itself, every
    /// partial and parent it included, and the names it looked for and did not find.
    /// With a `memo`, partials over objects with an identity are rendered once per memo.
    public func renderBytes(_ template: MustacheTemplate, with value: MustacheValue, sizeHint: Int = 4096, usedTemplates: inout Set<String>,
                            memo: MustachePartialMemo? = nil) throws(MustacheError) -> [UInt8] {
        let (bytes, use) = try renderBytesAndUse(template, with: value, sizeHint: sizeHint, memo: memo)
        usedTemplates = use.names(in: self)
        return bytes
    }

    /// `renderBytes` telling which templates the output was made of as a value that pages
    /// made of the same templates share, cheap to hash: a site of thousands of pages turns
    /// each such value into names once, not each page's dozen names into a set.
    public func renderBytesAndUse(_ template: MustacheTemplate, with value: MustacheValue, sizeHint: Int = 4096,
                                  memo: MustachePartialMemo? = nil) throws(MustacheError) -> (bytes: [UInt8], use: MustacheTemplateUse) {
        try withRenderedBytes(template, with: value, sizeHint: sizeHint, memo: memo) { (Array($0), $1) }
    }

    /// `renderBytesAndUse` handing `body` the bytes where they were rendered, valid only
    /// while it runs: a caller that writes them to a file copies them nowhere else.
    public func withRenderedBytes<Result>(_ template: MustacheTemplate, with value: MustacheValue, sizeHint: Int = 4096, memo: MustachePartialMemo? = nil,
                                          _ body: (UnsafeBufferPointer<UInt8>, MustacheTemplateUse) -> Result) throws(MustacheError) -> Result {
        var renderer = Renderer(library: self, root: value, sizeHint: sizeHint, memo: memo)
        try renderer.render(template.program, 0..<template.program.count, indent: [])
        var use = renderer.usedTemplates
        if template.index >= 0, template.index < names.count, names[template.index] == template.name {
            use.insert(template)
        } else {
            use.missing.insert(template.name)
        }
        return renderer.output.withBytes { body($0, MustacheTemplateUse(use: use)) }
    }
}

/// Which templates a render was made of (`MustacheLibrary.renderBytesAndUse`): equal for
/// renders of the same library that used the same templates.
public struct MustacheTemplateUse: Hashable, Sendable {
    fileprivate let use: TemplateUse

    /// The names of the templates, and of the partials looked for in vain.
    public func names(in library: MustacheLibrary) -> Set<String> {
        use.names(in: library)
    }
}

/// The compile errors of several templates.
public struct MustacheLibraryError: Error, Sendable, CustomStringConvertible {
    public var errors: [MustacheError]

    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}

/// The templates a render included, as bits at their places in the library, and the names
/// it looked for in vain: a page includes dozens of partials, and a set of names hashed
/// each of them again and again.
struct TemplateUse: Sendable, Hashable {
    /// No word past the last one with a bit set, so that equal uses are equal values.
    private var bits: [UInt64] = []
    var missing: Set<String> = []

    mutating func insert(_ template: MustacheTemplate) {
        let (word, bit) = template.index.quotientAndRemainder(dividingBy: 64)
        if bits.count <= word { bits += repeatElement(0, count: word + 1 - bits.count) }
        bits[word] |= 1 << UInt64(bit)
    }

    mutating func formUnion(_ other: TemplateUse) {
        if bits.count < other.bits.count { bits += repeatElement(0, count: other.bits.count - bits.count) }
        for (word, value) in other.bits.enumerated() { bits[word] |= value }
        if !other.missing.isEmpty { missing.formUnion(other.missing) }
    }

    func names(in library: MustacheLibrary) -> Set<String> {
        var names = missing
        for (word, value) in bits.enumerated() where value != 0 {
            for bit in 0..<64 where value & (1 << UInt64(bit)) != 0 { names.insert(library.names[word * 64 + bit]) }
        }
        return names
    }
}
