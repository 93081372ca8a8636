import Dispatch
import Foundation
import SitegenLocking
import SitegenPlatform

/// A small HTTP/1.1 server on POSIX sockets: GET and HEAD, keep-alive, byte ranges, and
/// Server-Sent Events. One thread waits on every connection at once (`poll`), so that a
/// held connection costs a few hundred bytes, not a thread: a crowd of slow clients and open
/// pages cannot keep a reader out. What it answers is up to its handler, run on that thread.
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
        /// Events instead of a body: the connection stays open and gets each message of
        /// the hub (Server-Sent Events).
        public var events: EventHub?

        public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], events: EventHub? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.events = events
        }

        public static func text(_ status: Int, _ text: String) -> Response {
            Response(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array((text + "\n").utf8))
        }
    }

    public struct Limits: Sendable {
        public var requestHead = 16 * 1024
        public var requestLine = 8 * 1024
        /// Connections waiting for or sending a request or its response. One more closes
        /// the one that has been quiet longest.
        public var connections = 1024
        /// Pages listening for events; one more closes the oldest (its page connects again).
        public var eventStreams = 1024
        /// Seconds a connection has for a whole request head, from when it was accepted or
        /// its last response was sent; and seconds a response may go without progress.
        public var requestTimeout = 10
        /// Bytes of events a page that reads none may have waiting before it is closed.
        public var eventBacklog = 256 * 1024

        public init() {}
    }

    public let port: Int
    let listener: Int32
    let handler: @Sendable (Request) -> Response
    let limits: Limits
    /// Written to wake the loop: messages for event streams are waiting, or it must stop.
    let wakeWriter: Int32
    let wakeReader: Int32
    let inbox = Locked<Inbox>(Inbox())

    struct Inbox {
        var running = true
        var messages: [(hub: ObjectIdentifier, message: String)] = []
    }

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
        var wake: [Int32] = [0, 0]
        guard listen(socketDescriptor, 4096) == 0, pipe(&wake) == 0 else {
            close(socketDescriptor)
            throw .cannotListen("cannot listen on \(host):\(port)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        for descriptor in [socketDescriptor, wake[0], wake[1]] { HTTPServer.makeNonBlocking(descriptor) }
        self.port = Int(UInt16(bigEndian: actual.sin_port))
        self.listener = socketDescriptor
        self.handler = handler
        self.limits = limits
        self.wakeReader = wake[0]
        self.wakeWriter = wake[1]
        HTTPServer.raiseDescriptorLimit()
        let thread = Thread { [self] in
            var loop = ServerLoop(server: self)
            loop.run()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Whether a port is free to bind on `host`: for "try the next one" hints.
    public static func isFree(host: String, port: Int) -> Bool {
        guard let probe = try? HTTPServer(host: host, port: port, handler: { _ in .text(503, "") }) else { return false }
        probe.stop()
        return true
    }

    /// Stops accepting and closes every connection.
    public func stop() {
        inbox.withLock { $0.running = false }
        wake()
    }

    /// Hands `message` to every connection listening to `hub`, from any thread.
    func deliver(_ message: String, from hub: EventHub) {
        let running = inbox.withLock { inbox in
            if inbox.running { inbox.messages.append((ObjectIdentifier(hub), message)) }
            return inbox.running
        }
        if running { wake() }
    }

    deinit {
        close(wakeReader)
        close(wakeWriter)
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = SystemCall.write(wakeWriter, &byte, 1)
    }

    static func makeNonBlocking(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }

    /// Lifts the soft limit of open files to the hard one: each connection holds one.
    private static func raiseDescriptorLimit() {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 416: "Range Not Satisfiable"
        case 431: "Request Header Fields Too Large"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
