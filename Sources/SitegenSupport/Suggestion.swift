/// "Did you mean" hints for misspelt keys, commands and names.
public enum Suggestion {
    /// The candidate within a few edits of `word`, for "did you mean" hints.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.sorted().map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, word.count / 3), best.1 < word.count else { return nil }
        return best.0
    }

    /// Insertions, deletions, substitutions and swaps of two neighbouring characters each
    /// count one (the optimal string alignment distance): `titel` is one edit from `title`,
    /// not two, so it is not as close to `site`.
    public static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var beforePrevious: [Int] = []
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}
