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
package struct Boxed<Fields: Sendable>: Sendable {
    private final class Box: Sendable {
        package let fields: Fields
        package init(_ fields: Fields) { self.fields = fields }
    }

    private let box: Box

    package init(_ fields: Fields) {
        box = Box(fields)
    }

    package subscript<Value>(dynamicMember field: KeyPath<Fields, Value>) -> Value {
        box.fields[keyPath: field]
    }

    /// Which model this is, shared by its copies: a key that hashes as one word.
    package var identity: ObjectIdentifier { ObjectIdentifier(box) }
}
