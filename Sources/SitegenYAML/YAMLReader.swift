import CYAML
import SitegenSupport

/// Reads one YAML document through libyaml into a `YAMLNode` tree.
public enum YAMLReader {
    public struct Limits: Sendable {
        /// Nodes a document may have once its aliases are expanded: a "billion laughs"
        /// file stops here, quickly and in little memory.
        public var maximumNodes = 100_000
        /// Lists and mappings inside each other.
        public var maximumDepth = 64

        public init() {}
    }

    /// Parses `text`, a document that starts at line `firstLine` of the file `path`.
    /// Returns nil for an empty document.
    public static func read(_ text: [UInt8], path: String, firstLine: Int = 1, limits: Limits = Limits()) throws(Diagnostic) -> YAMLNode? {
        if let flat = FlatMappingReader.read(text, path: path, firstLine: firstLine) { return flat }
        return try readWithLibYAML(text, path: path, firstLine: firstLine, limits: limits)
    }

    /// `read` without the shortcut for flat front matter, for tests that compare the two.
    static func readWithLibYAML(_ text: [UInt8], path: String, firstLine: Int = 1, limits: Limits = Limits()) throws(Diagnostic) -> YAMLNode? {
        var builder = TreeBuilder(path: path, firstLine: firstLine, limits: limits, input: text)
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw Diagnostic.error(at: SourceLocation(path: path, line: firstLine, column: 1), "could not start the YAML parser")
        }
        defer { yaml_parser_delete(&parser) }
        let input = text.isEmpty ? [UInt8(ascii: "\n")] : text
        return try input.withUnsafeBufferPointer { buffer throws(Diagnostic) -> YAMLNode? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    throw builder.syntaxError(parser)
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { return builder.root }
                try builder.handle(event)
            }
        }
    }
}

private struct TreeBuilder {
    let path: String
    let firstLine: Int
    let limits: YAMLReader.Limits
    let input: [UInt8]

    /// A list or mapping being read. A struct changed in place on the stack: an enum's
    /// payload taken out to append to would copy the whole list for every item.
    private struct Frame {
        var isMapping: Bool
        var items: [YAMLNode] = []
        var pairs: [YAMLPair] = []
        /// The line of each key given so far: a duplicate is found at once, where searching
        /// the pairs made 40,000 keys take seconds.
        var keyLines: [String: Int] = [:]
        var pendingKey: (String, SourceLocation)?
        var start: SourceLocation
        var anchor: String?
    }

    private var stack: [Frame] = []
    private var anchors: [String: (node: YAMLNode, size: Int)] = [:]
    private var sizes: [Int] = []
    private var nodeCount = 0
    private var documents = 0
    private(set) var root: YAMLNode?

    init(path: String, firstLine: Int, limits: YAMLReader.Limits, input: [UInt8]) {
        self.input = input
        self.path = path
        self.firstLine = firstLine
        self.limits = limits
    }

    func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(path: path, line: firstLine + Int(mark.line), column: Int(mark.column) + 1)
    }

    func location(ofByte offset: Int) -> SourceLocation {
        var line = firstLine
        var column = 1
        for byte in input.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourceLocation(path: path, line: line, column: column)
    }

    func syntaxError(_ parser: yaml_parser_t) -> Diagnostic {
        let problem = parser.problem.map { String(cString: $0) } ?? "unreadable YAML"
        var message = "invalid YAML: \(problem)"
        if let context = parser.context.map({ String(cString: $0) }) {
            let where_ = location(parser.context_mark)
            message += " (\(context) at line \(where_.line), column \(where_.column))"
        }
        if parser.error == YAML_READER_ERROR {
            // The reader reports a byte offset, not a mark.
            return .error(at: location(ofByte: Int(parser.problem_offset)), "invalid YAML: \(problem)")
        }
        return .error(at: location(parser.problem_mark), message)
    }

    mutating func handle(_ event: yaml_event_t) throws(Diagnostic) {
        let at = location(event.start_mark)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                throw .error(at: at, "expected one YAML document, found a second one ('---' starts a new document)")
            }
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length)), as: UTF8.self)
            let style: YAMLScalar.Style = scalar.style == YAML_PLAIN_SCALAR_STYLE ? .plain : .quoted
            let node = YAMLNode(.scalar(YAMLScalar(text, style: style)), at: at)
            try count(1, at: at)
            try add(node, size: 1, anchor: anchor(scalar.anchor))
        case YAML_SEQUENCE_START_EVENT:
            try enter(at)
            try count(1, at: at)
            stack.append(Frame(isMapping: false, start: at, anchor: anchor(event.data.sequence_start.anchor)))
            sizes.append(1)
        case YAML_MAPPING_START_EVENT:
            try enter(at)
            try count(1, at: at)
            stack.append(Frame(isMapping: true, start: at, anchor: anchor(event.data.mapping_start.anchor)))
            sizes.append(1)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            let size = sizes.removeLast()
            let frame = stack.removeLast()
            let node = YAMLNode(frame.isMapping ? .mapping(frame.pairs) : .sequence(frame.items), at: frame.start)
            try add(node, size: size, anchor: frame.anchor)
        case YAML_ALIAS_EVENT:
            let name = anchor(event.data.alias.anchor) ?? ""
            guard let target = anchors[name] else {
                throw .error(at: at, "unknown alias '*\(name)': no '&\(name)' before it")
            }
            try count(target.size, at: at)
            try add(target.node.relocated(to: at), size: target.size, anchor: nil)
        default:
            break
        }
    }

    private func anchor(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }

    private func enter(_ at: SourceLocation) throws(Diagnostic) {
        if stack.count >= limits.maximumDepth {
            throw .error(at: at, "YAML nested more than \(limits.maximumDepth) levels deep")
        }
    }

    /// Counts each value once, when it starts; an alias counts every value it repeats.
    private mutating func count(_ values: Int, at location: SourceLocation) throws(Diagnostic) {
        nodeCount += values
        if nodeCount > limits.maximumNodes {
            throw .error(at: location, "YAML expands to more than \(limits.maximumNodes) values (are aliases repeating each other?)")
        }
    }

    /// Puts `node`, already counted, of `size` values in all, into the list or mapping it is in.
    private mutating func add(_ node: YAMLNode, size: Int, anchor: String?) throws(Diagnostic) {
        if let anchor { anchors[anchor] = (node, size) }
        guard !stack.isEmpty else {
            root = node
            return
        }
        sizes[sizes.count - 1] += size
        let top = stack.count - 1
        guard stack[top].isMapping else {
            stack[top].items.append(node)
            return
        }
        if let (key, keyLocation) = stack[top].pendingKey {
            stack[top].pairs.append(YAMLPair(key: key, keyLocation: keyLocation, value: node))
            stack[top].pendingKey = nil
            return
        }
        guard let scalar = node.scalar else {
            throw .error(at: node.location, "expected a key like 'title:', found \(node.shortDescription) used as a key")
        }
        if let line = stack[top].keyLines[scalar.text] {
            throw .error(at: node.location, "duplicate key '\(scalar.text)': it is already given at line \(line)")
        }
        stack[top].keyLines[scalar.text] = node.location.line
        stack[top].pendingKey = (scalar.text, node.location)
    }
}

extension YAMLNode {
    /// An alias stands where it is written: errors about it point there.
    fileprivate func relocated(to location: SourceLocation) -> YAMLNode {
        YAMLNode(value, at: location)
    }
}
