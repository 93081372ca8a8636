@testable import SitegenServer
import Testing

@Suite("Request head")
struct RequestHeadTests {
    private func status(_ head: String) -> Int {
        switch RequestHead.parse(Array(head.utf8), limits: HTTPServer.Limits()) {
        case .success: 200
        case .failure(let refusal): refusal.response.status
        }
    }

    @Test func readsAGetWithItsQueryAndHeaders() throws {
        let request = try RequestHead.parse(Array("GET /tags/?page=2 HTTP/1.1\r\nHost: localhost\r\nAccept:  text/html \r\n".utf8), limits: HTTPServer.Limits()).get()
        #expect(request.path == "/tags/")
        #expect(request.query == "page=2")
        #expect(request.header("accept") == "text/html")
    }

    @Test func refusesTwoContentLengths() {
        #expect(status("GET / HTTP/1.1\r\nContent-Length: 0\r\nContent-Length: 0\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nContent-Length: 0\r\ncontent-length: 5\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nContent-Length: 0\r\n") == 200)
    }

    @Test func refusesAHeaderNameThatIsNotAToken() {
        #expect(status("GET / HTTP/1.1\r\nContent-Length : 5\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\n: empty\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nX-Fine_Name~1: yes\r\n") == 200)
    }

    @Test func refusesBodiesMethodsAndBrokenLines() {
        #expect(status("POST / HTTP/1.1\r\n") == 405)
        #expect(status("GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n") == 413)
        #expect(status("GET / HTTP/1.1\r\nContent-Length: 5\r\n") == 413)
        #expect(status("GET /\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nno colon\r\n") == 400)
        #expect(status("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n") == 414)
    }
}
