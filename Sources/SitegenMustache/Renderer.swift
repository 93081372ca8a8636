/// Walks compiled nodes against a context stack and appends UTF-8 to one buffer.
struct Renderer {
    private let library: MustacheLibrary
    private(set) var output: [UInt8] = []
    private var stack: [MustacheValue]
    /// Block overrides in force: the outermost template's override of a name wins. A page
    /// has a handful: a list searched by name costs less than hashing the name.
    private var blocks: [(name: String, content: BlockContent)] = []
    private var path: String
    private var depth = 0
    /// Names of the templates this render included, for rebuilds that re-render only the
    /// pages an edited template is part of.
    private(set) var usedTemplates = TemplateUse()
    private let memo: MustachePartialMemo?
    /// What a rendering being remembered depended on: the lowest frame of the stack a
    /// lookup read, whether blocks were consulted, and how deep templates went.
    private var lowestFrameRead = Int.max
    private var readBlocks = false
    private var deepest = 0

    struct BlockContent {
        var nodes: [Node]
        var path: String
    }

    init(library: MustacheLibrary, root: MustacheValue, path: String, sizeHint: Int, memo: MustachePartialMemo?) {
        self.library = library
        self.memo = memo
        self.stack = [root]
        self.path = path
        output.reserveCapacity(sizeHint)
    }

    mutating func render(_ nodes: [Node], indent: [UInt8]) throws(MustacheError) {
        for node in nodes {
            switch node {
            case .text(let text):
                append(text, indent: indent)

            case .variable(let name, let escaped, let tag):
                if tag.startsLine { output.append(contentsOf: indent) }
                if let value = lookup(name) { interpolate(value, escaped: escaped) }

            case .section(let name, let inverted, let children, let tag):
                if tag.startsLine { output.append(contentsOf: indent) }
                let value = lookup(name) ?? .null
                if inverted {
                    if !value.isTruthy { try render(children, indent: indent) }
                } else if case .array(let items) = value {
                    for item in items {
                        stack.append(item)
                        try render(children, indent: indent)
                        stack.removeLast()
                    }
                } else if value.isTruthy {
                    stack.append(value)
                    try render(children, indent: indent)
                    stack.removeLast()
                }

            case .partial(let reference, let standaloneIndent, let tag):
                if tag.startsLine { output.append(contentsOf: indent) }
                guard let template = try resolve(reference, isParent: false, tag: tag) else { continue }
                let partialIndent = standaloneIndent.map { indent + $0 } ?? []
                if let memo, case .object(let object) = stack[stack.count - 1], let identity = object.mustacheIdentity {
                    let key = MustachePartialMemo.Key(template: template.name, identity: identity, indent: partialIndent)
                    try includeRemembered(template, indent: partialIndent, tag: tag, memo: memo, key: key)
                } else {
                    try include(template, indent: partialIndent, tag: tag)
                }

            case .parent(let reference, let standaloneIndent, let overrides, let tag):
                if tag.startsLine { output.append(contentsOf: indent) }
                guard let template = try resolve(reference, isParent: true, tag: tag) else { continue }
                readBlocks = true
                let saved = blocks
                for (name, nodes) in overrides where !blocks.contains(where: { $0.name == name }) {
                    blocks.append((name, BlockContent(nodes: nodes, path: path)))
                }
                defer { blocks = saved }
                try include(template, indent: standaloneIndent.map { indent + $0 } ?? [], tag: tag)

            case .block(let name, let children, let standaloneIndent, let tag):
                if tag.startsLine { output.append(contentsOf: indent) }
                readBlocks = true
                guard let override = blocks.first(where: { $0.name == name })?.content else {
                    try render(children, indent: standaloneIndent.map { indent + $0 } ?? indent)
                    continue
                }
                try enter(name, tag: tag)
                let savedPath = path
                path = override.path
                try render(override.nodes, indent: standaloneIndent.map { indent + $0 } ?? [])
                path = savedPath
                depth -= 1
            }
        }
    }

    private mutating func include(_ template: MustacheTemplate, indent: [UInt8], tag: Tag) throws(MustacheError) {
        usedTemplates.insert(template)
        try enter(template.name, tag: tag)
        let savedPath = path
        path = template.path
        try render(template.nodes, indent: indent)
        path = savedPath
        depth -= 1
    }

    /// Includes a partial whose context is an object with an identity: from the memo when
    /// it was rendered before, else rendered and kept if it depended on nothing else.
    private mutating func includeRemembered(_ template: MustacheTemplate, indent: [UInt8], tag: Tag, memo: MustachePartialMemo,
                                            key: MustachePartialMemo.Key) throws(MustacheError) {
        if let entry = memo[key], depth + entry.depth <= library.nestingLimit {
            output.append(contentsOf: entry.bytes)
            usedTemplates.formUnion(entry.usedTemplates)
            return
        }
        let floor = stack.count - 1
        let saved = (lowestFrameRead: lowestFrameRead, readBlocks: readBlocks, usedTemplates: usedTemplates, deepest: deepest)
        lowestFrameRead = .max
        readBlocks = false
        usedTemplates = TemplateUse()
        deepest = depth
        let start = output.count
        try include(template, indent: indent, tag: tag)
        if lowestFrameRead >= floor && !readBlocks {
            memo[key] = MustachePartialMemo.Entry(bytes: Array(output[start...]), usedTemplates: usedTemplates, depth: deepest - depth)
        }
        lowestFrameRead = min(saved.lowestFrameRead, lowestFrameRead)
        readBlocks = saved.readBlocks || readBlocks
        usedTemplates.formUnion(saved.usedTemplates)
        deepest = max(saved.deepest, deepest)
    }

    private mutating func enter(_ name: String, tag: Tag) throws(MustacheError) {
        depth += 1
        deepest = max(deepest, depth)
        if depth > library.nestingLimit {
            throw MustacheError(path: path, position: tag.position, kind: .recursionTooDeep(name: name, limit: library.nestingLimit))
        }
    }

    private mutating func resolve(_ reference: TemplateReference, isParent: Bool, tag: Tag) throws(MustacheError) -> MustacheTemplate? {
        let name: String
        switch reference {
        case .named(let fixed):
            name = fixed
        case .dynamic(let expression):
            switch lookup(expression) {
            case .string(let found):
                name = found
            case .utf8(let bytes):
                name = String(decoding: bytes, as: UTF8.self)
            case nil where library.missingTemplates == .renderNothing:
                usedTemplates.missing.insert("*" + expression.source)
                return nil
            default:
                guard library.missingTemplates == .fail else { return nil }
                throw MustacheError(path: path, position: tag.position, kind: .dynamicNameNotString(expression: expression.source))
            }
        }
        if let template = library.templates[name] { return template }
        usedTemplates.missing.insert(name)
        guard library.missingTemplates == .fail else { return nil }
        throw MustacheError(path: path, position: tag.position, kind: isParent ? .unknownParent(name: name) : .unknownPartial(name: name))
    }

    /// `a.b.c`: the first frame from the top that has `a`, then `b` and `c` inside it,
    /// with no going back down the stack once `a` is found.
    private mutating func lookup(_ name: Name) -> MustacheValue? {
        let components = name.components
        guard let first = components.first else { return stack.last }
        var index = stack.count - 1
        // A name not found anywhere depends on every frame.
        defer { lowestFrameRead = min(lowestFrameRead, max(index, 0)) }
        while index >= 0 {
            if var value = stack[index].member(first) {
                var next = 1
                while next < components.count {
                    guard let found = value.member(components[next]) else { return nil }
                    value = found
                    next += 1
                }
                return value
            }
            index -= 1
        }
        return nil
    }

    private mutating func append(_ text: Text, indent: [UInt8]) {
        guard !indent.isEmpty, !text.lineStarts.isEmpty else {
            output.append(contentsOf: text.bytes)
            return
        }
        var written = 0
        for start in text.lineStarts {
            output.append(contentsOf: text.bytes[written..<start])
            output.append(contentsOf: indent)
            written = start
        }
        output.append(contentsOf: text.bytes[written...])
    }

    private mutating func interpolate(_ value: MustacheValue, escaped: Bool) {
        switch value {
        case .string(let string):
            if escaped { HTMLEscaping.append(string, to: &output) } else { output.append(contentsOf: string.utf8) }
        case .utf8(let bytes):
            if escaped { HTMLEscaping.append(bytes, to: &output) } else { output.append(contentsOf: bytes) }
        case .int(let number):
            output.append(contentsOf: String(number).utf8)
        case .double(let number):
            output.append(contentsOf: Self.format(number).utf8)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .object(let object):
            guard let text = object.mustacheText else { return }
            if escaped { HTMLEscaping.append(text, to: &output) } else { output.append(contentsOf: text.utf8) }
        case .null, .array, .dictionary:
            return
        }
    }

    private static func format(_ number: Double) -> String {
        if number.magnitude < 1e15, Double(Int(number)) == number { return String(Int(number)) }
        return String(number)
    }
}

/// How `{{name}}` escapes a value; public so that HTML made outside templates is escaped
/// the same way.
public enum HTMLEscaping {
    /// `string` with `& < > " '` escaped, safe in element content and in quoted attributes.
    public static func escape(_ string: String) -> String {
        var output: [UInt8] = []
        append(string, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Escapes `& < > " '` so a value is safe in element content and in quoted attributes.
    static func append(_ string: String, to output: inout [UInt8]) {
        var string = string
        string.withUTF8 { append($0, to: &output) }
    }

    static func append<Bytes: Collection>(_ bytes: Bytes, to output: inout [UInt8]) where Bytes.Element == UInt8, Bytes.Index == Int {
        var run = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let replacement: StaticString?
            switch bytes[index] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            default: replacement = nil
            }
            if let replacement {
                output.append(contentsOf: bytes[run..<index])
                replacement.withUTF8Buffer { output.append(contentsOf: $0) }
                run = index + 1
            }
            index += 1
        }
        output.append(contentsOf: bytes[run..<bytes.endIndex])
    }
}
