extension Array {
    /// The elements in the order of their keys, each key made once and each element moved
    /// once (a stable sort, like `sorted(by:)`), rather than names lowercased inside the
    /// comparison and groups of articles moved about while sorting.
    @inlinable
    public func sorted<Key>(byKey key: (Element) -> Key, by areInIncreasingOrder: (Key, Key) -> Bool) -> [Element] {
        let keys = map(key)
        return indices.sorted { areInIncreasingOrder(keys[$0], keys[$1]) }.map { self[$0] }
    }
}
