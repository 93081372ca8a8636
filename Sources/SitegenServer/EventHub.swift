import SitegenLocking
import Synchronization

/// Server-Sent Events to every open page: each message goes to every connection listening
/// to the hub, on the servers that serve it.
public final class EventHub: Sendable {
    private struct State: ~Copyable {
        var latest: String?
        var servers: [WeakServer] = []
    }

    private struct WeakServer {
        weak var server: HTTPServer?
    }

    private let state = Locked(State())
    /// How many pages listen now.
    let listenerCount = Atomic<Int>(0)

    public init() {}

    public var connectionCount: Int { listenerCount.load(ordering: .relaxed) }

    /// The last message, sent to a page as soon as it connects (an error overlay stays up
    /// across reloads until the error is fixed).
    var latest: String? { state.withLock { $0.latest } }

    /// Sends `event` with `data` (one line of JSON) to every page.
    public func broadcast(event: String, data: String, sticky: Bool = false) {
        let message = "event: \(event)\ndata: \(data)\n\n"
        let servers = state.withLock { state in
            state.latest = sticky ? message : nil
            return state.servers.compactMap(\.server)
        }
        for server in servers { server.deliver(message, from: self) }
    }

    func attach(_ server: HTTPServer) {
        state.withLock { state in
            state.servers.removeAll { $0.server == nil }
            state.servers.append(WeakServer(server: server))
        }
    }
}
