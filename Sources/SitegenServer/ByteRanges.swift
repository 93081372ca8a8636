/// A `Range: bytes=…` request answered with the part it asks for (206), or refused as
/// unsatisfiable (416). A range of several parts, or one that is not of bytes or does not
/// parse, is answered with the whole body, as RFC 9110 (14.2) lets a server do.
enum ByteRanges {
    static func apply(_ header: String?, to response: HTTPServer.Response) -> HTTPServer.Response {
        guard let header, response.status == 200 else { return withAcceptRanges(response) }
        let length = response.body.count
        guard let range = range(header, length: length) else { return withAcceptRanges(response) }
        guard let range else {
            var refused = HTTPServer.Response.text(416, "range not satisfiable")
            refused.headers.append(("Content-Range", "bytes */\(length)"))
            return refused
        }
        var partial = withAcceptRanges(response)
        partial.status = 206
        partial.body = Array(response.body[range])
        partial.headers.append(("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(length)"))
        return partial
    }

    private static func withAcceptRanges(_ response: HTTPServer.Response) -> HTTPServer.Response {
        guard response.status == 200 else { return response }
        var answered = response
        answered.headers.append(("Accept-Ranges", "bytes"))
        return answered
    }

    /// The one range `header` asks for within `length` bytes: nil when the header is to be
    /// ignored, `.some(nil)` when it cannot be satisfied.
    static func range(_ header: String, length: Int) -> Range<Int>?? {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes="), !trimmed.contains(",") else { return nil }
        let spec = trimmed.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        func number(_ text: Substring) -> Int? {
            guard !text.isEmpty, text.count <= 18, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { return nil }
            return Int(text)
        }
        if first.isEmpty {
            // The last `suffix` bytes.
            guard let suffix = number(last) else { return nil }
            guard suffix > 0, length > 0 else { return .some(nil) }
            return .some(max(0, length - suffix)..<length)
        }
        guard let start = number(first) else { return nil }
        if last.isEmpty {
            guard start < length else { return .some(nil) }
            return .some(start..<length)
        }
        guard let end = number(last), end >= start else { return nil }
        guard start < length else { return .some(nil) }
        return .some(start..<(min(end, length - 1) + 1))
    }
}
