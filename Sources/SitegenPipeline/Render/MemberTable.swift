import SitegenMustache

/// The members of a view, each with what templates are told of it: the one list that the
/// view answers from, the theme check knows (`TemplateNames`) and docs/themes.md shows
/// (`TemplateVocabulary`). A member added here is all three.
public struct MemberTable<View>: Sendable {
    public struct Member: Sendable {
        public let name: TemplateName
        public let answer: @Sendable (View) -> MustacheValue

        public init(_ name: String, _ meaning: String, _ holds: TemplateName.Holds = .value, _ answer: @escaping @Sendable (View) -> MustacheValue) {
            self.name = TemplateName(name, meaning, holds)
            self.answer = answer
        }
    }

    public let members: [Member]
    /// The places of the members by the length of their names: most names asked of a view
    /// are not its own, on their way down the context stack, and are compared with few
    /// members or none.
    private let byLength: [[Int]]

    public init(_ members: [Member]) {
        self.members = members
        var byLength: [[Int]] = []
        for (place, member) in members.enumerated() {
            let length = member.name.name.utf8.count
            if byLength.count <= length { byLength += Array(repeating: [], count: length + 1 - byLength.count) }
            byLength[length].append(place)
        }
        self.byLength = byLength
    }

    public var names: [TemplateName] { members.map(\.name) }

    /// Where the member called `key` is in the table; nil when the view has none.
    public func place(of key: String) -> Int? {
        let length = key.utf8.count
        guard length < byLength.count else { return nil }
        for place in byLength[length] where members[place].name.name == key { return place }
        return nil
    }

    public func answer(_ key: String, of view: View) -> MustacheValue? {
        place(of: key).map { members[$0].answer(view) }
    }
}
