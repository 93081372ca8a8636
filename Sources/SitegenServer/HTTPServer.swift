import Dispatch
import Foundation
import SitegenPlatform
import Synchronization

/// A small HTTP/1.1 server on POSIX sockets: GET and HEAD, keep-alive, a bounded number of
/// connections each on its own thread of a pool, request heads capped in size, idle and
/// slow clients timed out. What it answers is up to its handler.
public final class HTTPServer: Sendable {
    public struct Request: Sendable {
        public var method: String
        /// The path as sent, percent-encoded, without the query.
        public var path: String
        public var query: String
        public var headers: [String: String]

        public func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]
        /// A stream instead of a body: the server writes the head, then hands the
        /// connection to this closure until it returns (Server-Sent Events).
        public var stream: (@Sendable (StreamWriter) -> Void)?

        public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], stream: (@Sendable (StreamWriter) -> Void)? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.stream = stream
        }

        public static func text(_ status: Int, _ text: String) -> Response {
            Response(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array((text + "\n").utf8))
        }
    }

    public struct Limits: Sendable {
        public var requestHead = 16 * 1024
        public var requestLine = 8 * 1024
        public var connections = 256
        /// Seconds a connection may wait between requests, and a request may take to arrive.
        public var idleTimeout = 10

        public init() {}
    }

    public let port: Int
    private let descriptor: Int32
    private let handler: @Sendable (Request) -> Response
    private let limits: Limits
    private let slots: DispatchSemaphore
    private let running = Mutex(true)

    public enum StartError: Error, CustomStringConvertible {
        case portTaken(Int)
        case cannotListen(String)

        public var description: String {
            switch self {
            case .portTaken(let port): "port \(port) is taken"
            case .cannotListen(let reason): reason
            }
        }
    }

    /// Binds `host:port` (port 0 picks a free one) and starts accepting.
    public init(host: String, port: Int, limits: Limits = Limits(), handler: @escaping @Sendable (Request) -> Response) throws(StartError) {
        let socketDescriptor = socket(AF_INET, SystemCall.streamSocket, 0)
        guard socketDescriptor >= 0 else { throw .cannotListen("cannot open a socket") }
        var yes: Int32 = 1
        setsockopt(socketDescriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else {
            close(socketDescriptor)
            throw .cannotListen("--host must be an IPv4 address like 127.0.0.1, found '\(host)'")
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            close(socketDescriptor)
            if code == EADDRINUSE { throw .portTaken(port) }
            throw .cannotListen("cannot listen on \(host):\(port): \(String(cString: strerror(code)))")
        }
        guard listen(socketDescriptor, 128) == 0 else {
            close(socketDescriptor)
            throw .cannotListen("cannot listen on \(host):\(port)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: actual.sin_port))
        self.descriptor = socketDescriptor
        self.handler = handler
        self.limits = limits
        self.slots = DispatchSemaphore(value: limits.connections)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Whether a port is free to bind on `host`: for "try the next one" hints.
    public static func isFree(host: String, port: Int) -> Bool {
        guard let probe = try? HTTPServer(host: host, port: port, handler: { _ in .text(503, "") }) else { return false }
        probe.stop()
        return true
    }

    public func stop() {
        running.withLock { $0 = false }
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    private func acceptLoop() {
        while running.withLock({ $0 }) {
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            var timeout = timeval(tv_sec: limits.idleTimeout, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

            guard slots.wait(timeout: .now() + 5) == .success else {
                send(client, Response.text(503, "too many connections"), head: false, keepAlive: false)
                close(client)
                continue
            }
            let thread = Thread { [self] in
                serve(client)
                close(client)
                slots.signal()
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        var buffer: [UInt8] = []
        while true {
            guard let (request, rest) = readRequest(client, buffer: &buffer) else { return }
            buffer = rest
            switch request {
            case .failure(let failure):
                send(client, failure.response, head: false, keepAlive: false)
                return
            case .success(let request):
                let response = handler(request)
                let keepAlive = request.header("connection")?.lowercased() != "close"
                send(client, response, head: request.method == "HEAD", keepAlive: keepAlive && response.stream == nil)
                if let stream = response.stream, request.method != "HEAD" {
                    stream(StreamWriter(descriptor: client))
                    return
                }
                if !keepAlive { return }
            }
        }
    }

    /// Reads one request head; nil when the client went away or stayed silent too long.
    private func readRequest(_ client: Int32, buffer: inout [UInt8]) -> (Result<Request, ResponseError>, [UInt8])? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = headEnd(buffer), end <= limits.requestHead {
                let head = Array(buffer[..<end])
                let rest = Array(buffer[(end + 4)...])
                return (RequestHead.parse(head, limits: limits), rest)
            }
            if buffer.count > limits.requestHead + 4 {
                let firstLine = buffer.firstIndex(of: UInt8(ascii: "\n")) ?? buffer.count
                return firstLine > limits.requestLine
                    ? (.failure(ResponseError(.text(414, "request line too long"))), [])
                    : (.failure(ResponseError(.text(431, "request header fields too large"))), [])
            }
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
        }
    }

    private func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func send(_ client: Int32, _ response: Response, head: Bool, keepAlive: Bool) {
        var text = "HTTP/1.1 \(response.status) \(HTTPServer.reason(response.status))\r\n"
        for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
        if response.stream == nil { text += "Content-Length: \(response.body.count)\r\n" }
        text += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
        var bytes = Array(text.utf8)
        if !head, response.stream == nil { bytes += response.body }
        _ = StreamWriter(descriptor: client).write(bytes)
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 431: "Request Header Fields Too Large"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

/// Writes to a connection; false once the client has gone.
public struct StreamWriter: Sendable {
    let descriptor: Int32

    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { SystemCall.sendWithoutSignal(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    @discardableResult
    public func write(_ text: String) -> Bool { write(Array(text.utf8)) }
}
