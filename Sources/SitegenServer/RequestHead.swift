/// A request's head (its request line and header fields) read into a `Request`, or the
/// response that refuses it. The server accepts only GET and HEAD without a body.
enum RequestHead {
    static func parse(_ head: [UInt8], limits: HTTPServer.Limits) -> Result<HTTPServer.Request, ResponseError> {
        guard let text = String(validating: head, as: UTF8.self) else { return .failure(ResponseError(.text(400, "bad request"))) }
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines.removeFirst()
        if requestLine.utf8.count > limits.requestLine { return .failure(ResponseError(.text(414, "request line too long"))) }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return .failure(ResponseError(.text(400, "bad request"))) }
        var headers: [String: String] = [:]
        var lengths = 0
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return .failure(ResponseError(.text(400, "bad header"))) }
            let name = line[..<colon].lowercased()
            // A space before the colon, or a name of no token characters, is how a request
            // is smuggled past a proxy that reads it otherwise (RFC 9112, 5.1).
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else { return .failure(ResponseError(.text(400, "bad header"))) }
            if name == "content-length" { lengths += 1 }
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        // Two lengths, even equal ones, are two readings of one message (RFC 9112, 6.3).
        if lengths > 1 { return .failure(ResponseError(.text(400, "more than one Content-Length"))) }
        let method = String(parts[0])
        guard method == "GET" || method == "HEAD" else {
            return .failure(ResponseError(HTTPServer.Response(status: 405, headers: [("Allow", "GET, HEAD"), ("Content-Type", "text/plain; charset=utf-8")], body: Array("method not allowed\n".utf8))))
        }
        if let length = headers["content-length"], length != "0" { return .failure(ResponseError(.text(413, "request bodies are not accepted"))) }
        if headers["transfer-encoding"] != nil { return .failure(ResponseError(.text(413, "request bodies are not accepted"))) }
        let target = String(parts[1])
        let (path, query) = target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) } ?? (target, "")
        return .success(HTTPServer.Request(method: method, path: path, query: query, headers: headers))
    }

    /// The characters of a header field's name (RFC 9110, 5.6.2).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

struct ResponseError: Error {
    var response: HTTPServer.Response
    init(_ response: HTTPServer.Response) { self.response = response }
}
