import CYAML
import SitegenSupport

/// A YAML document as a small tree that remembers where every key and value is.
public indirect enum YAMLNode: Sendable {
    case scalar(String, SourceLocation)
    case sequence([YAMLNode], SourceLocation)
    case mapping([(key: YAMLNode, value: YAMLNode)], SourceLocation)

    public var location: SourceLocation {
        switch self {
        case .scalar(_, let location), .sequence(_, let location), .mapping(_, let location): location
        }
    }
}

/// The version of libyaml sitegen is linked against, for `sitegen --version`.
public var libyamlVersion: String {
    String(cString: yaml_get_version_string())
}
