import SitegenPipeline
import Testing

/// An SVG opened by its own address runs its scripts on the site's origin: one that holds
/// anything that could run is refused, at the first such thing.
@Suite("SVGs that could run scripts")
struct DrawingSafetyTests {
    private func finding(_ svg: String) -> DrawingSafety.Finding? {
        DrawingSafety.finding(in: Array(svg.utf8))
    }

    @Test func aDrawingWithNothingThatRunsIsPublished() {
        let svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">
              <title>A bowl &amp; chopsticks</title><desc>Drawn for the description of the menu</desc>
              <metadata><rdf:RDF><dc:description>Online menu</dc:description></rdf:RDF></metadata>
              <style>.bowl { fill: #c00; }</style>
              <image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>
              <a href="https://example.org/"><circle class="bowl" cx="5" cy="5" r="4" fill-opacity="0.5"/></a>
              <text x="1" y="9">Bon appétit, open 7am–3pm</text>
            </svg>
            """
        #expect(finding(svg) == nil)
    }

    @Test(arguments: [
        ("<svg>\n  <script>alert(1)</script></svg>", 2, 3, "a <script> element"),
        ("<svg><svg:script href=\"x.js\"/></svg>", 1, 10, "a <script> element"),
        ("<svg>\n<rect onload=\"alert(1)\"/></svg>", 2, 7, "an event attribute (on…=), which runs a script"),
        ("<svg><rect svg:onclick = 'x()'/></svg>", 1, 16, "an event attribute (on…=), which runs a script"),
        ("<svg><set attributeName=\"onmouseover\" to=\"alert(1)\"/></svg>", 1, 26, "an event attribute (on…=), which runs a script"),
        ("<svg><a href=\"JavaScript:alert(1)\">x</a></svg>", 1, 19, "an address that runs a script (javascript:)"),
        ("<svg><a href=\"jav&#x61;script:alert(1)\">x</a></svg>", 1, 18, "a reference (&…;) inside a tag, which could spell an address that runs a script"),
        ("<!DOCTYPE svg [<!ENTITY js \"x\">]><svg/>", 1, 16, "an entity declaration, which could spell an address that runs a script"),
        ("<svg><foreignObject><p>hi</p></foreignObject></svg>", 1, 7, "a <foreignObject>, which holds a web page"),
        ("<svg><image href=\"data:image/svg+xml;base64,PHN2Zz4=\"/></svg>", 1, 19, "a data: address that is not a PNG, JPEG, GIF or WebP picture"),
        ("<?xml-stylesheet href=\"x.xsl\"?><svg/>", 1, 1, "a style sheet processing instruction"),
    ])
    func refusesAtTheFirstThingThatCouldRun(svg: String, line: Int, column: Int, what: String) {
        #expect(finding(svg) == DrawingSafety.Finding(line: line, column: column, what: what))
    }

    @Test func textThatIsNotUTF8IsRefused() {
        #expect(DrawingSafety.finding(in: [0xFF, 0xFE, 0x3C, 0x00]) == DrawingSafety.Finding(line: 1, column: 1, what: "text that is not UTF-8"))
    }
}
