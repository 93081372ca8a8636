import Dispatch
import Synchronization

/// Server-Sent Events to every open page: each connection waits for the next message and
/// sends a comment every few seconds so proxies and browsers keep it open.
public final class EventHub: Sendable {
    private final class Client: Sendable {
        let pending = Mutex<[String]>([])
        let signal = DispatchSemaphore(value: 0)
    }

    private let clients = Mutex<[Int: Client]>([:])
    private let counter = Mutex(0)
    /// The last message, sent to a page as soon as it connects (an error overlay stays up
    /// across reloads until the error is fixed).
    private let latest = Mutex<String?>(nil)

    public init() {}

    public var connectionCount: Int { clients.withLock { $0.count } }

    /// Sends `event` with `data` (one line of JSON) to every page.
    public func broadcast(event: String, data: String, sticky: Bool = false) {
        let message = "event: \(event)\ndata: \(data)\n\n"
        latest.withLock { $0 = sticky ? message : nil }
        for client in clients.withLock({ Array($0.values) }) {
            client.pending.withLock { $0.append(message) }
            client.signal.signal()
        }
    }

    /// The response body of `/__sitegen/events`: holds the connection until the page goes.
    public func stream(_ writer: StreamWriter) {
        let client = Client()
        let id = counter.withLock { count in
            count += 1
            return count
        }
        clients.withLock { $0[id] = client }
        defer { _ = clients.withLock { $0.removeValue(forKey: id) } }
        guard writer.write("retry: 500\n\n") else { return }
        if let sticky = latest.withLock({ $0 }), !writer.write(sticky) { return }
        while true {
            let woke = client.signal.wait(timeout: .now() + 10)
            let messages = client.pending.withLock { pending in
                defer { pending.removeAll() }
                return pending
            }
            if woke == .timedOut, messages.isEmpty {
                guard writer.write(": still here\n\n") else { return }
                continue
            }
            for message in messages {
                guard writer.write(message) else { return }
            }
        }
    }
}
