/// Why a fetch brought nothing back, in one line for people.
public struct FetchError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// libcurl is not installed.
        case unavailable
        /// Not an http or https URL.
        case badURL
        /// No such host, refused, unreachable: offline, most likely.
        case cannotConnect
        case timedOut
        case tooManyRedirects
        /// The body is larger than the limit.
        case tooLarge
        /// An HTTP status of 400 or more.
        case http(Int)
        /// Anything else libcurl reports (TLS, a broken connection...).
        case transfer
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
