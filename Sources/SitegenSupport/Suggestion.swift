/// "Did you mean" hints for misspelt keys, commands and names.
public enum Suggestion {
    /// Words longer than this get no hint: no name is that long, and the distance to each of
    /// a few hundred names (the time zones) of a 100,000-character value took seconds.
    public static let longestWord = 64

    /// The candidate within a few edits of `word`, for "did you mean" hints; the first in
    /// sorted order of those closest.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let length = word.count
        guard length <= longestWord else { return nil }
        let allowed = max(2, length / 3)
        let lowered = word.lowercased()
        var best: (candidate: String, distance: Int)?
        // Lengths that differ by more than the edits allowed cannot be within them.
        for candidate in candidates.sorted() where abs(candidate.count - length) <= allowed {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= allowed, distance < length, distance < best?.distance ?? Int.max { best = (candidate, distance) }
        }
        return best?.candidate
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
