import Foundation

/// A file of the built site: rendered bytes, a file to copy as it is, or a page the
/// build cache showed to be unchanged on disk.
public struct OutputFile: Sendable {
    public enum Contents: Sendable {
        case bytes([UInt8])
        /// A static file, with the hash of its bytes when the build knows it: then it is
        /// not read when the output has it as the last build wrote it, nor hashed again.
        case copy(URL, hash: UInt64?)
        case unchanged(OutputManifest.Entry)
        /// Rendered and written to the staging folder, to be moved into place.
        case staged(String, OutputManifest.Entry)
        /// Rendered, found to differ from the output's file, and kept in memory to be
        /// written over it (`FileReplacer`), with the hash of its bytes.
        case held([UInt8], hash: UInt64)
    }

    /// Relative to the output folder.
    public var path: String
    public var contents: Contents

    /// Found on disk with the bytes it would be written with.
    public var isUnchanged: Bool {
        if case .unchanged = contents { return true }
        return false
    }

    public init(path: String, contents: Contents) {
        self.path = path
        self.contents = contents
    }
}
