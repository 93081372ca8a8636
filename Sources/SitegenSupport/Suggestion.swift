/// "Did you mean" hints for misspelt keys, commands and names.
public enum Suggestion {
    /// The candidate within a few edits of `word`, for "did you mean" hints.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.sorted().map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, word.count / 3), best.1 < word.count else { return nil }
        return best.0
    }

    public static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
