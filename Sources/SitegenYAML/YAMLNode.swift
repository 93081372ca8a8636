import SitegenSupport

/// A YAML value with the place it was written, so that every later error can point at it.
public struct YAMLNode: Sendable {
    public enum Value: Sendable {
        case scalar(YAMLScalar)
        case sequence([YAMLNode])
        case mapping([YAMLPair])
    }

    public var value: Value
    public var location: SourceLocation

    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }

    public var scalar: YAMLScalar? {
        if case .scalar(let scalar) = value { scalar } else { nil }
    }

    public var sequence: [YAMLNode]? {
        if case .sequence(let items) = value { items } else { nil }
    }

    public var mapping: [YAMLPair]? {
        if case .mapping(let pairs) = value { pairs } else { nil }
    }

    /// How the node reads in an error message: the scalar itself, or what kind of thing it is.
    public var shortDescription: String {
        switch value {
        case .scalar(let scalar) where scalar.isNull: "nothing"
        case .scalar(let scalar):
            "'" + (scalar.text.count > 60 ? String(scalar.text.prefix(57)) + "..." : scalar.text)
                .replacingOccurrences(of: "\n", with: "\\n") + "'"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}

public struct YAMLScalar: Sendable, Hashable {
    public enum Style: Sendable, Hashable {
        /// Written bare: `34`, `true`, `Lovely Breakfast`. Only plain scalars are numbers,
        /// booleans or null.
        case plain
        /// Quoted or a block (`|`, `>`): always text.
        case quoted
    }

    public var text: String
    public var style: Style

    public init(_ text: String, style: Style) {
        self.text = text
        self.style = style
    }

    /// `~`, `null` or nothing at all, written bare.
    public var isNull: Bool {
        style == .plain && (text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL")
    }
}

public struct YAMLPair: Sendable {
    public var key: String
    public var keyLocation: SourceLocation
    public var value: YAMLNode

    public init(key: String, keyLocation: SourceLocation, value: YAMLNode) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
