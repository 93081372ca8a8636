import Foundation

// The rest of sitegen imports this module instead of the C library, so that what differs
// between systems is decided here alone.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#endif

/// C library calls under names that a type's own `read` or `write` method cannot hide.
public enum SystemCall {
    @inlinable
    public static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #else
        Darwin.read(descriptor, buffer, count)
        #endif
    }

    @inlinable
    public static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
        #else
        Darwin.write(descriptor, bytes, count)
        #endif
    }

    /// `send` on a socket whose peer may have gone: an error, not SIGPIPE, which would end
    /// the process. (A port without MSG_NOSIGNAL sets SO_NOSIGPIPE on the socket instead.)
    @inlinable
    public static func sendWithoutSignal(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
        #else
        Darwin.send(descriptor, bytes, count, 0)
        #endif
    }

    /// The type argument of `socket` for a TCP socket.
    public static var streamSocket: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }
}

extension POSIXError {
    /// The error `errno` names now.
    public static var current: POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}

extension stat {
    /// When the file's bytes last changed.
    @inlinable
    public var modificationTime: timespec {
        #if canImport(Glibc)
        st_mtim
        #else
        st_mtimespec
        #endif
    }

    /// When the file's bytes or its inode last changed.
    @inlinable
    public var changeTime: timespec {
        #if canImport(Glibc)
        st_ctim
        #else
        st_ctimespec
        #endif
    }
}
