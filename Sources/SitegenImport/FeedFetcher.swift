import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches a feed over HTTP as a well-behaved client: it says who it is, asks only for
/// what changed since the last import (ETag and Last-Modified, remembered between runs),
/// gives up after a time, reads no more than a limit, and follows a few redirects, only to
/// http and https.
public final class FeedFetcher: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    public struct Limits: Sendable {
        public var timeout: TimeInterval = 20
        public var bytes = 5_000_000
        public var redirects = 5
        public init() {}
    }

    /// What the server said of a feed last time, for a conditional request.
    public struct Validators: Codable, Sendable, Equatable {
        public var etag: String?
        public var lastModified: String?
        public init(etag: String?, lastModified: String?) {
            self.etag = etag
            self.lastModified = lastModified
        }
    }

    public enum Result: Sendable {
        case notModified
        /// The feed's bytes, the address they came from (after redirects), and what to send
        /// next time.
        case feed(Data, URL, Validators)
    }

    private let limits: Limits
    private let userAgent: String
    private var received = Data()
    private var response: HTTPURLResponse?
    private var problem: String?
    private var redirects = 0
    private let done = DispatchSemaphore(value: 0)

    public init(userAgent: String, limits: Limits = Limits()) {
        self.userAgent = userAgent
        self.limits = limits
    }

    /// One feed; a fetcher fetches one at a time.
    public func fetch(_ url: URL, validators: Validators?) throws(FeedProblem) -> Result {
        received = Data()
        response = nil
        problem = nil
        redirects = 0
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: limits.timeout)
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("application/atom+xml, application/rss+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1", forHTTPHeaderField: "Accept")
        if let etag = validators?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let modified = validators?.lastModified { request.setValue(modified, forHTTPHeaderField: "If-Modified-Since") }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = limits.timeout
        configuration.timeoutIntervalForResource = limits.timeout * 3
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        session.dataTask(with: request).resume()
        done.wait()
        session.finishTasksAndInvalidate()
        if let problem { throw FeedProblem(message: problem) }
        guard let response else { throw FeedProblem(message: "gave no answer") }
        switch response.statusCode {
        case 304:
            return .notModified
        case 200..<300:
            let etag = response.value(forHTTPHeaderField: "ETag")
            let modified = response.value(forHTTPHeaderField: "Last-Modified")
            return .feed(received, response.url ?? url, Validators(etag: etag, lastModified: modified))
        case 300..<400:
            throw FeedProblem(message: "redirects more than \(limits.redirects) times, or to an address that is not http or https")
        default:
            throw FeedProblem(message: "answered \(response.statusCode) \(HTTPURLResponse.localizedString(forStatusCode: response.statusCode))")
        }
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                           completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        self.response = response as? HTTPURLResponse
        if response.expectedContentLength > Int64(limits.bytes) {
            problem = "is larger than \(limits.bytes / 1_000_000) MB (\(response.expectedContentLength / 1_000_000) MB): a feed of homework is a few hundred kilobytes"
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        received.append(data)
        if received.count > limits.bytes {
            problem = "is larger than \(limits.bytes / 1_000_000) MB: a feed of homework is a few hundred kilobytes"
            dataTask.cancel()
        }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                           newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        redirects += 1
        let scheme = request.url?.scheme?.lowercased()
        guard redirects <= limits.redirects, scheme == "http" || scheme == "https" else {
            completionHandler(nil)
            return
        }
        completionHandler(request)
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error, problem == nil {
            let code = (error as NSError).code
            problem = code == NSURLErrorTimedOut ? "did not answer within \(Int(limits.timeout)) seconds" : "could not be fetched: \(error.localizedDescription)"
        }
        done.signal()
    }
}
