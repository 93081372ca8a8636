extension RandomAccessCollection where Index == Int {
    /// The first index whose element is in the second part of a collection partitioned by
    /// `isInSecondPart` (false for every element before it, true from it on).
    @inlinable
    public func partitioningIndex(where isInSecondPart: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if isInSecondPart(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
