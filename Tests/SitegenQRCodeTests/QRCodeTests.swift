import Foundation
import SitegenQRCode
import Testing

@Suite("QR codes")
struct QRCodeTests {
    /// The three finder patterns, each a dark ring around a dark 3 × 3 square, at three
    /// corners: what shows the modules are laid out as libqrencode makes them.
    @Test func hasItsFinderPatternsInThreeCorners() throws {
        let code = try #require(QRCode("https://example.org/homework/grade-8/", correction: .quartile))
        #expect((code.width - 21) % 4 == 0 && code.width >= 21)
        for (top, left) in [(0, 0), (0, code.width - 7), (code.width - 7, 0)] {
            for row in 0..<7 {
                for column in 0..<7 {
                    let ring = row == 0 || row == 6 || column == 0 || column == 6
                    let centre = (2...4).contains(row) && (2...4).contains(column)
                    #expect(code.isDark(row: top + row, column: left + column) == (ring || centre), "\(top + row), \(left + column)")
                }
            }
        }
    }

    /// zbarimg (zbar-tools) reads the code back from an image of its modules.
    @Test(arguments: ["https://example.org/homework/grade-8/", "webcal://example.org/homework/grade-8/calendar.ics",
                      "https://example.org/學校/homework/grade-p6/feed.xml"])
    func readsBackAsItsText(_ text: String) throws {
        let code = try #require(QRCode(text, correction: .quartile))
        let scale = 4
        let side = (code.width + 2 * QRCode.quietZone) * scale
        var image = Array("P5\n\(side) \(side)\n255\n".utf8)
        for y in 0..<side {
            for x in 0..<side {
                let row = y / scale - QRCode.quietZone, column = x / scale - QRCode.quietZone
                let dark = (0..<code.width).contains(row) && (0..<code.width).contains(column) && code.isDark(row: row, column: column)
                image.append(dark ? 0 : 255)
            }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-qr-\(UUID().uuidString).pgm")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(image).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
        process.arguments = ["--raw", "--quiet", "-Sbinary", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .newlines) == text)
    }

    @Test func drawsItsModulesOnALightSquareWithAQuietZone() throws {
        let code = try #require(QRCode("https://example.org/", correction: .medium))
        let svg = code.svg(label: "QR code of \"the page\" <here>")
        let side = code.width + 8
        #expect(svg.hasPrefix("<svg class=\"qr-code\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\" role=\"img\" aria-label=\"QR code of &quot;the page&quot; &lt;here&gt;\" shape-rendering=\"crispEdges\"><rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/><path fill=\"#000\" d=\"M4 4h7v1h-7z"))
        // Every dark module is drawn once: the runs' lengths add up to them.
        let runs = svg.matches(of: #/h(\d+)v1/#).map { Int($0.1)! }
        #expect(runs.reduce(0, +) == code.modules.count { $0 })
    }

    @Test func refusesTextTooLongForAnyVersion() {
        #expect(QRCode(String(repeating: "x", count: 3000), correction: .high) == nil)
    }
}
