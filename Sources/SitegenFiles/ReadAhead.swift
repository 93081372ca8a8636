import Foundation
import SitegenPlatform
import SitegenSupport
import Synchronization

/// Has the kernel read the sources that follow one found not to be in memory, so that
/// their reads wait for the disk together instead of one after another. Sources read
/// moments ago can be out of memory: some machines hand memory not used for a minute back
/// to their host, files' pages too (DAMON), and each source dropped then costs a core a
/// wait for the disk. A site whose sources are all in memory never gets here.
///
/// How many are asked for depends on how the dropped ones lie: sources out of memory here
/// and there would have many asked for in memory for nothing. A source out of memory alone
/// is followed by a few asked for; one found near the last asked for (sources out of
/// memory one after the other) doubles that, up to `widest`.
public final class ReadAhead: Sendable {
    /// How many sources after one not in memory the kernel is asked for, at first and at
    /// most.
    public static let narrowest = 8
    public static let widest = 128

    private let places: [(folder: Int32, name: Substring)]
    /// Sources before this position have been asked for.
    private let asked = Atomic<Int>(0)
    /// How many sources the last ask was for.
    private let window = Atomic<Int>(ReadAhead.narrowest)

    public init(_ places: [(folder: Int32, name: Substring)]) {
        self.places = places
    }

    /// Sources before this position have been asked for (or were never to be).
    public var askedBefore: Int { asked.load(ordering: .relaxed) }

    /// Asks for the sources after the one at `position` not asked for yet; the cores that
    /// find sources out of memory at once split the asking.
    public func ask(after position: Int) {
        var start = asked.load(ordering: .relaxed)
        var end: Int
        while true {
            let last = window.load(ordering: .relaxed)
            let size = position < start + last ? min(last * 2, ReadAhead.widest) : ReadAhead.narrowest
            end = min(places.count, position + 1 + size)
            guard start < end else { return }
            let (exchanged, original) = asked.compareExchange(expected: start, desired: end, ordering: .relaxed)
            if exchanged {
                window.store(size, ordering: .relaxed)
                break
            }
            start = original
        }
        for next in max(start, position + 1)..<end where places[next].folder >= 0 {
            let descriptor = openat(places[next].folder, String(places[next].name), O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            KernelFiles.willNeed(descriptor)
            close(descriptor)
        }
    }
}
