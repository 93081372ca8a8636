import Foundation

#if SITEGEN_FUZZING
/// libFuzzer's driver, from `-sanitize=fuzzer`: it reads its options from the arguments and
/// calls `callback` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// The target named by `SITEGEN_FUZZ_TARGET`, which gets each input.
private let target: @Sendable ([UInt8]) -> Void = {
    let name = ProcessInfo.processInfo.environment["SITEGEN_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTargets.all[name] else {
        fatalError("SITEGEN_FUZZ_TARGET must be one of \(FuzzTargets.all.keys.sorted().joined(separator: ", ")), found '\(name)'")
    }
    return target
}()

@main
struct Fuzz {
    static func main() {
        _ = target
        var count = CommandLine.argc
        var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(runDriver(&count, &arguments) { data, size in
            target(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
            return 0
        })
    }
}
#else
/// Built without libFuzzer (as by `swift build`): says how to build it with it.
@main
struct Fuzz {
    static func main() {
        print("sitegen-fuzz runs under libFuzzer: build and run it with `make fuzz` (Scripts/fuzz.sh).")
    }
}
#endif
