import Foundation
import PortolanShipping
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PortolanLua

/// Fetches a rules bundle over HTTP with Foundation's `URLSession`: what an iOS app uses, and on
/// Linux the same API from FoundationNetworking (libcurl beneath). No HTTP is written here.
///
/// The bytes are handed to the host as they came: whether they are a bundle, and whose, is the
/// gate's to judge (stage 1), so the download only refuses what is not a whole, successful
/// response of a size a bundle may have.
enum BundleDownload {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// An ephemeral session: no cache and no cookies, so every fetch asks the server afresh
    /// (the host refuses a replayed older version anyway), and nothing is kept on disk.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 60
        return URLSession(configuration: configuration)
    }()

    static func fetch(_ url: URL) async throws(Failure) -> [UInt8] {
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.data(from: url)
        } catch {
            throw Failure(description: "cannot fetch \(url.absoluteString): \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            let status = (response as? HTTPURLResponse).map { "HTTP \($0.statusCode)" } ?? "not an HTTP response"
            throw Failure(description: "cannot fetch \(url.absoluteString): \(status)")
        }
        guard data.count <= BundleLimits.maximumBytes else {
            throw Failure(description: "cannot fetch \(url.absoluteString): \(data.count) bytes, more than a bundle may have")
        }
        return [UInt8](data)
    }
}
