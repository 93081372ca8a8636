import Dispatch
import Foundation
import SitegenPlatform

/// The server's one thread: it waits on the listening socket, the wake-up pipe and every
/// connection at once, reads requests, answers them through the handler and writes the
/// answers as fast as each client reads them, never waiting on one client.
struct ServerLoop {
    let server: HTTPServer
    private var connections: [Int32: Connection] = [:]
    private var requestConnections = 0
    private var eventConnections = 0
    private var hubs: [ObjectIdentifier: EventHub] = [:]
    private var lastSweep: UInt64 = 0
    private var lastPing: UInt64 = 0
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// Counts what connections do, to order them by their last doing: many are accepted at
    /// one moment of the clock.
    private var happenings: UInt64 = 0

    /// Of one connection: what it sent that is not read yet, what it is owed, and until
    /// when it may take to go on.
    final class Connection {
        enum State { case reading, writing(closeAfter: Bool), events(ObjectIdentifier) }
        let descriptor: Int32
        var state = State.reading
        var input: [UInt8] = []
        /// How far `input` was searched for the end of a head, so that a head sent a byte
        /// at a time is searched once, not once a byte.
        var searched = 0
        var output: [UInt8] = []
        var written = 0
        var deadline: UInt64
        /// When it last did something, in `happenings`.
        var lastActivity: UInt64

        init(descriptor: Int32, deadline: UInt64, activity: UInt64) {
            self.descriptor = descriptor
            self.deadline = deadline
            lastActivity = activity
        }

        var isEvents: Bool { if case .events = state { true } else { false } }
        var pending: Int { output.count - written }
    }

    init(server: HTTPServer) {
        self.server = server
    }

    private mutating func happened() -> UInt64 {
        happenings += 1
        return happenings
    }

    private var timeout: UInt64 { UInt64(server.limits.requestTimeout) * 1_000_000_000 }

    private static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    mutating func run() {
        var descriptors: [pollfd] = []
        while server.inbox.withLock({ $0.running }) {
            descriptors.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: server.listener, events: Int16(POLLIN), revents: 0))
            descriptors.append(pollfd(fd: server.wakeReader, events: Int16(POLLIN), revents: 0))
            let inputLimit = server.limits.requestHead + 4
            for connection in connections.values {
                // A client that sends more while its answer is still being written is not
                // read until it takes the answer.
                let events = (connection.pending > 0 ? POLLOUT : 0) | (connection.input.count <= inputLimit ? POLLIN : 0)
                descriptors.append(pollfd(fd: connection.descriptor, events: Int16(events), revents: 0))
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), 1000)
            let now = Self.now
            if ready > 0 {
                if descriptors[1].revents != 0 { takeMessages() }
                for entry in descriptors[2...] where entry.revents != 0 {
                    service(entry.fd, entry.revents, now: now)
                }
                if descriptors[0].revents != 0 { acceptAll(now: now) }
            }
            if now - lastSweep > 250_000_000 { sweep(now: now) }
        }
        for descriptor in Array(connections.keys) { closeConnection(descriptor) }
        close(server.listener)
    }

    // MARK: Connections coming and going

    private mutating func acceptAll(now: UInt64) {
        while true {
            let client = accept(server.listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                // Out of descriptors: the quietest connection makes room, or the next is
                // taken on the next turn.
                if (errno == EMFILE || errno == ENFILE), evictQuietest(events: false) || evictQuietest(events: true) { continue }
                return
            }
            HTTPServer.makeNonBlocking(client)
            var yes: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            if requestConnections >= server.limits.connections { _ = evictQuietest(events: false) }
            connections[client] = Connection(descriptor: client, deadline: now + timeout, activity: happened())
            requestConnections += 1
        }
    }

    /// Closes the connection that has been quiet longest, of those waiting for events or of
    /// the others; false when there is none.
    private mutating func evictQuietest(events: Bool) -> Bool {
        guard let quietest = connections.values.filter({ $0.isEvents == events }).min(by: { $0.lastActivity < $1.lastActivity }) else { return false }
        closeConnection(quietest.descriptor)
        return true
    }

    private mutating func closeConnection(_ descriptor: Int32) {
        guard let connection = connections.removeValue(forKey: descriptor) else { return }
        if case .events(let hub) = connection.state {
            eventConnections -= 1
            hubs[hub]?.listenerCount.subtract(1, ordering: .relaxed)
        } else {
            requestConnections -= 1
        }
        close(descriptor)
    }

    /// Closes what ran out of time; pings the pages every 10 seconds, so that proxies and
    /// browsers keep their streams open and a page that left is found.
    private mutating func sweep(now: UInt64) {
        lastSweep = now
        let ping = now - lastPing > 10_000_000_000
        if ping { lastPing = now }
        for connection in Array(connections.values) {
            if connection.isEvents {
                if ping { send(Array(": still here\n\n".utf8), to: connection, now: now) }
            } else if now > connection.deadline {
                closeConnection(connection.descriptor)
            }
        }
    }

    // MARK: Reading and answering

    private mutating func service(_ descriptor: Int32, _ events: Int16, now: UInt64) {
        guard let connection = connections[descriptor] else { return }
        if events & Int16(POLLOUT) != 0 {
            flush(connection, now: now)
            guard connections[descriptor] != nil else { return }
        }
        if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            let count = readBuffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) {
                closeConnection(descriptor)
                return
            }
            guard count > 0 else { return }
            // A page listening for events has nothing to say; what it sends is dropped.
            guard !connection.isEvents else { return }
            connection.input += readBuffer[0..<count]
            answerRequests(connection, now: now)
        }
    }

    /// Answers the requests `connection` has sent whole, one after the other: the next is
    /// read once the answer to the last is written.
    private mutating func answerRequests(_ connection: Connection, now: UInt64) {
        let limits = server.limits
        while case .reading = connection.state, connection.pending == 0 {
            let end = headEnd(connection)
            guard let end, end <= limits.requestHead else {
                guard end != nil || connection.input.count > limits.requestHead + 4 else { return }
                let firstLine = connection.input.firstIndex(of: UInt8(ascii: "\n")) ?? connection.input.count
                let refusal = firstLine > limits.requestLine ? HTTPServer.Response.text(414, "request line too long") : .text(431, "request header fields too large")
                respond(refusal, to: connection, head: false, closeAfter: true, now: now)
                return
            }
            let head = Array(connection.input[..<end])
            connection.input.removeFirst(end + 4)
            connection.searched = 0
            connection.lastActivity = happened()
            switch RequestHead.parse(head, limits: limits) {
            case .failure(let failure):
                respond(failure.response, to: connection, head: false, closeAfter: true, now: now)
            case .success(let request):
                var response = server.handler(request)
                if let hub = response.events, request.method == "GET" {
                    listen(connection, to: hub, response: response, now: now)
                    return
                }
                response.events = nil
                if request.method == "GET" { response = ByteRanges.apply(request.header("range"), to: response) }
                let keepAlive = request.header("connection")?.lowercased() != "close"
                respond(response, to: connection, head: request.method == "HEAD", closeAfter: !keepAlive, now: now)
            }
        }
    }

    private func headEnd(_ connection: Connection) -> Int? {
        let input = connection.input
        guard input.count >= 4 else { return nil }
        var index = max(0, connection.searched - 3)
        while index + 4 <= input.count {
            if input[index] == 13, input[index + 1] == 10, input[index + 2] == 13, input[index + 3] == 10 { return index }
            index += 1
        }
        connection.searched = input.count
        return nil
    }

    private mutating func respond(_ response: HTTPServer.Response, to connection: Connection, head: Bool, closeAfter: Bool, now: UInt64) {
        var text = "HTTP/1.1 \(response.status) \(HTTPServer.reason(response.status))\r\n"
        for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(response.body.count)\r\n"
        text += closeAfter ? "Connection: close\r\n\r\n" : "Connection: keep-alive\r\n\r\n"
        connection.state = .writing(closeAfter: closeAfter)
        connection.deadline = now + timeout
        send(Array(text.utf8) + (head ? [] : response.body), to: connection, now: now)
    }

    /// Makes `connection` a listener of `hub`: the head, then each message as it comes.
    private mutating func listen(_ connection: Connection, to hub: EventHub, response: HTTPServer.Response, now: UInt64) {
        var text = "HTTP/1.1 200 OK\r\n"
        for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
        text += "Connection: close\r\n\r\nretry: 500\n\n"
        if let sticky = hub.latest { text += sticky }
        let identity = ObjectIdentifier(hub)
        if hubs[identity] == nil {
            hubs[identity] = hub
            hub.attach(server)
        }
        connection.state = .events(identity)
        requestConnections -= 1
        eventConnections += 1
        hub.listenerCount.add(1, ordering: .relaxed)
        if eventConnections > server.limits.eventStreams { _ = evictQuietest(events: true) }
        guard connections[connection.descriptor] != nil else { return }
        send(Array(text.utf8), to: connection, now: now)
    }

    private mutating func takeMessages() {
        var drained = [UInt8](repeating: 0, count: 256)
        while SystemCall.read(server.wakeReader, &drained, drained.count) > 0 {}
        let messages = server.inbox.withLock { inbox in
            defer { inbox.messages.removeAll() }
            return inbox.messages
        }
        guard !messages.isEmpty else { return }
        let now = Self.now
        for connection in Array(connections.values) {
            guard case .events(let hub) = connection.state else { continue }
            let bytes = messages.filter { $0.hub == hub }.flatMap { Array($0.message.utf8) }
            if !bytes.isEmpty { send(bytes, to: connection, now: now) }
        }
    }

    // MARK: Writing

    private mutating func send(_ bytes: [UInt8], to connection: Connection, now: UInt64) {
        if connection.written > 0, connection.written == connection.output.count {
            connection.output.removeAll(keepingCapacity: true)
            connection.written = 0
        }
        connection.output += bytes
        if connection.isEvents, connection.pending > server.limits.eventBacklog {
            closeConnection(connection.descriptor)
            return
        }
        flush(connection, now: now)
    }

    /// Writes what the client will take now; once all of a response is written, the
    /// connection closes or waits for the next request.
    private mutating func flush(_ connection: Connection, now: UInt64) {
        while connection.pending > 0 {
            let count = connection.output.withUnsafeBytes {
                SystemCall.sendWithoutSignal(connection.descriptor, $0.baseAddress! + connection.written, connection.pending)
            }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                closeConnection(connection.descriptor)
                return
            }
            connection.written += count
            connection.deadline = now + timeout
        }
        connection.output.removeAll(keepingCapacity: connection.isEvents)
        connection.written = 0
        guard case .writing(let closeAfter) = connection.state else { return }
        if closeAfter {
            closeConnection(connection.descriptor)
            return
        }
        connection.state = .reading
        connection.deadline = now + timeout
        connection.lastActivity = happened()
        if !connection.input.isEmpty { answerRequests(connection, now: now) }
    }
}
