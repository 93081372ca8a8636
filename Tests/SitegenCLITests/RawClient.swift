import Foundation
import SitegenPlatform

/// A plain HTTP/1.1 client on a socket, so requests go out exactly as written: URL
/// libraries would clean up the `..` that traversal tests send.
struct RawClient {
    let port: Int

    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    func send(_ request: String, timeout: Int = 5) -> Reply? {
        let descriptor = connectSocket(timeout: timeout)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let bytes = Array(request.utf8)
        _ = bytes.withUnsafeBytes { SystemCall.sendWithoutSignal(descriptor, $0.baseAddress!, $0.count) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            data += chunk[0..<count]
            if let reply = parse(data), reply.complete { return reply.reply }
        }
        return parse(data)?.reply
    }

    func get(_ path: String, _ headers: String = "") -> Reply? {
        send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\(headers)\r\n")
    }

    func connectSocket(timeout: Int) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return connected == 0 ? descriptor : -1
    }

    private func parse(_ data: [UInt8]) -> (reply: Reply, complete: Bool)? {
        let text = String(decoding: data, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return nil }
        let lines = text[..<split.lowerBound].split(separator: "\r\n")
        guard let status = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            if let colon = line.firstIndex(of: ":") { headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces) }
        }
        let body = String(text[split.upperBound...])
        let complete = headers["content-length"].flatMap(Int.init).map { body.utf8.count >= $0 } ?? false
        return (Reply(status: status, headers: headers, body: body), complete)
    }
}
