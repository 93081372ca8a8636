import Foundation
@testable import SitegenServer
import SitegenPlatform
import Testing

/// The server itself, with a handler of its own and small limits: ranges, crowds past the
/// limits, deadlines and event streams.
@Suite("HTTP server", .serialized)
struct HTTPServerTests {
    private static let body = Array((0..<1000).map { "line \($0)\n" }.joined().utf8)

    private func start(_ limits: HTTPServer.Limits = HTTPServer.Limits(), hub: EventHub = EventHub()) throws -> HTTPServer {
        try HTTPServer(host: "127.0.0.1", port: 0, limits: limits) { request in
            request.path == "/events" ? HTTPServer.Response(status: 200, headers: [("Content-Type", "text/event-stream")], events: hub)
                : HTTPServer.Response(status: 200, headers: [("Content-Type", "text/plain")], body: HTTPServerTests.body)
        }
    }

    /// A connection that sends `text` and then holds on, reading nothing.
    private func hold(_ port: Int, sending text: String) -> Int32 {
        let descriptor = RawClient(port: port).connectSocket(timeout: 5)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { SystemCall.sendWithoutSignal(descriptor, $0.baseAddress!, $0.count) }
        return descriptor
    }

    /// What the peer sends until it closes (or resets) or is quiet for `timeout` seconds.
    private func received(_ descriptor: Int32, timeout: Int) -> (bytes: String, closed: Bool) {
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return (String(decoding: data, as: UTF8.self), true) }
            // A connection closed before the server read what it sent is reset.
            if count < 0 { return (String(decoding: data, as: UTF8.self), errno == ECONNRESET) }
            data += chunk[0..<count]
        }
    }

    @Test func answersARangeWithItsPart() throws {
        let server = try start()
        defer { server.stop() }
        let client = RawClient(port: server.port)
        let whole = try #require(client.get("/"))
        #expect(whole.status == 200 && whole.headers["accept-ranges"] == "bytes")
        let part = try #require(client.get("/", "Range: bytes=7-13\r\n"))
        #expect(part.status == 206)
        #expect(part.body == "line 1\n")
        #expect(part.headers["content-range"] == "bytes 7-13/\(Self.body.count)")
        #expect(client.get("/", "Range: bytes=-7\r\n")?.body == "ne 999\n")
        let refused = try #require(client.get("/", "Range: bytes=99999-\r\n"))
        #expect(refused.status == 416 && refused.headers["content-range"] == "bytes */\(Self.body.count)")
        // Several parts, or a unit that is not bytes: the whole body.
        #expect(client.get("/", "Range: bytes=0-1,5-6\r\n")?.status == 200)
        #expect(client.get("/", "Range: lines=1-2\r\n")?.status == 200)
    }

    @Test func readsRangesAsRFC9110Says() {
        #expect(ByteRanges.range("bytes=0-0", length: 10) == .some(0..<1))
        #expect(ByteRanges.range("bytes=5-100", length: 10) == .some(5..<10))
        #expect(ByteRanges.range("bytes=-100", length: 10) == .some(0..<10))
        #expect(ByteRanges.range("bytes=10-", length: 10) == .some(nil))
        #expect(ByteRanges.range("bytes=-0", length: 10) == .some(nil))
        #expect(ByteRanges.range("bytes=3-2", length: 10) == nil)
        #expect(ByteRanges.range("bytes=a-2", length: 10) == nil)
        #expect(ByteRanges.range("bytes=99999999999999999999-", length: 10) == nil)
    }

    @Test func servesAReaderPastACrowdOverTheLimits() throws {
        var limits = HTTPServer.Limits()
        limits.connections = 20
        limits.eventStreams = 20
        let server = try start(limits)
        defer { server.stop() }
        let slow = (0..<60).map { _ in hold(server.port, sending: "GET / HTTP/1.1\r\nX-Slow: ") }
        let listening = (0..<60).map { _ in hold(server.port, sending: "GET /events HTTP/1.1\r\n\r\n") }
        defer { (slow + listening).forEach { close($0) } }
        let reply = RawClient(port: server.port).get("/")
        #expect(reply?.status == 200)
        // The quietest were closed to make room: the first slow clients, the first pages.
        #expect(received(slow[0], timeout: 2).closed)
        #expect(received(listening[0], timeout: 2).closed)
    }

    @Test func givesAWholeRequestADeadlineNotEachRead() throws {
        var limits = HTTPServer.Limits()
        limits.requestTimeout = 1
        let server = try start(limits)
        defer { server.stop() }
        let slow = hold(server.port, sending: "GET / HTTP/1.1\r\n")
        defer { close(slow) }
        let started = Date()
        var closed = false
        // A byte every 200 ms would keep a timeout of each read from ever ending.
        for _ in 0..<40 where !closed {
            usleep(200_000)
            closed = SystemCall.sendWithoutSignal(slow, "X", 1) < 0
        }
        #expect(closed)
        #expect(Date().timeIntervalSince(started) < 4)
    }

    @Test func sendsEveryPageTheHubsMessages() throws {
        let hub = EventHub()
        let server = try start(hub: hub)
        defer { server.stop() }
        let pages = (0..<3).map { _ in hold(server.port, sending: "GET /events HTTP/1.1\r\n\r\n") }
        defer { pages.forEach { close($0) } }
        for _ in 0..<50 where hub.connectionCount < 3 { usleep(20_000) }
        #expect(hub.connectionCount == 3)
        hub.broadcast(event: "reload", data: "{}")
        for page in pages {
            let text = received(page, timeout: 1).bytes
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(text.contains("retry: 500\n\n"))
            #expect(text.hasSuffix("event: reload\ndata: {}\n\n"))
        }
        close(pages[0])
        for _ in 0..<50 where hub.connectionCount > 2 { usleep(20_000) }
        #expect(hub.connectionCount == 2)
    }
}
