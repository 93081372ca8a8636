import Foundation
import SitegenMarkdown
import SitegenSupport
import SitegenYAML

/// A model whose fields live in one immutable box, so that each list showing it holds a
/// reference: an article is copied into every list that shows it (pages of the home list,
/// its tags, meal and restaurant, fingerprints, feeds), an assignment into lists by day,
/// grade, teacher and due date, and a copy of the fields would retain and release each of
/// a dozen strings and arrays. Read a field with a closure (`{ $0.title }`), not a key path
/// (`\.title`): a key path through the dynamic member is projected at run time.
@dynamicMemberLookup
public struct Boxed<Fields: Sendable>: Sendable {
    @usableFromInline
    final class Box: Sendable {
        @usableFromInline let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    @usableFromInline let box: Box

    public init(_ fields: Fields) {
        box = Box(fields)
    }

    /// Inlinable, so that `article.title` in another module reads the field: called, the
    /// key path would be looked up and projected at run time, on every read.
    @inlinable
    public subscript<Value>(dynamicMember field: KeyPath<Fields, Value>) -> Value {
        box.fields[keyPath: field]
    }

    /// Which model this is, shared by its copies: a key that hashes as one word.
    @inlinable
    public var identity: ObjectIdentifier { ObjectIdentifier(box) }
}
