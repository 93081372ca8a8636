import Foundation

/// A post's HTML written as Markdown, for an assignment file an author can read and
/// correct. Blogs write HTML of every kind, so it is read tolerantly, tag by tag: what
/// Markdown has (paragraphs, headings, emphasis, links, lists, quotes, code, line breaks)
/// is kept; scripts, styles, frames, forms and embedded objects are dropped with what they
/// hold; any other tag is dropped and its text kept. Links keep only http, https and mailto
/// addresses, made absolute; an image becomes a link to it. Text is escaped, so nothing in
/// a post becomes Markdown or HTML it did not write as such.
public enum HTMLMarkdown {
    public static func markdown(from html: String, base: URL?) -> String {
        var writer = Writer(base: base)
        for token in HTMLTokens(html) { writer.take(token) }
        return writer.finish()
    }

    /// The schemes a link of a post may have.
    static let schemes: Set<String> = ["http", "https", "mailto"]

    /// Elements whose content is dropped with them.
    static let dropped: Set<String> = ["script", "style", "iframe", "object", "embed", "noscript", "template", "svg", "math", "form",
                                       "select", "textarea", "button", "head", "title", "video", "audio", "canvas"]
    static let blocks: Set<String> = ["p", "div", "section", "article", "header", "footer", "main", "aside", "figure", "figcaption",
                                      "table", "tr", "dl", "dt", "dd", "address", "center", "nav", "details", "summary"]

    /// `url` resolved against `base`, when its scheme is allowed.
    static func safeURL(_ url: String, base: URL?) -> String? {
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, let resolved = URL(string: trimmed, relativeTo: base)?.absoluteURL,
              let scheme = resolved.scheme?.lowercased(), schemes.contains(scheme) else { return nil }
        return resolved.absoluteString
    }

    /// Text as Markdown shows it literally.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\`*_[]<>#&|~".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    private struct Writer {
        let base: URL?
        var blocks: [String] = []
        var line = ""
        var skipping: [String] = []
        var lists: [(ordered: Bool, count: Int)] = []
        var quote = 0
        var preformatted = false
        var links: [String?] = []

        init(base: URL?) {
            self.base = base
        }

        var prefix: String {
            String(repeating: "> ", count: quote) + String(repeating: "   ", count: max(0, lists.count - 1))
        }

        mutating func endBlock() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { blocks.append(prefix + trimmed) }
            line = ""
        }

        mutating func take(_ token: HTMLTokens.Token) {
            switch token {
            case .text(let text):
                guard skipping.isEmpty else { return }
                if preformatted {
                    line += text
                } else {
                    let collapsed = text.replacing(#/\s+/#, with: " ")
                    if line.isEmpty || line.hasSuffix(" ") || line.hasSuffix("\n") {
                        line += HTMLMarkdown.escaped(String(collapsed.drop { $0 == " " }))
                    } else {
                        line += HTMLMarkdown.escaped(collapsed)
                    }
                }
            case .start(let name, let attributes, let closes):
                if !skipping.isEmpty || HTMLMarkdown.dropped.contains(name) {
                    if !closes, !["img", "br", "hr", "input", "source"].contains(name) { skipping.append(name) }
                    return
                }
                start(name, attributes)
            case .end(let name):
                if let last = skipping.last {
                    if last == name { skipping.removeLast() }
                    return
                }
                end(name)
            }
        }

        mutating func start(_ name: String, _ attributes: [String: String]) {
            switch name {
            case "br":
                if preformatted {
                    line += "\n"
                } else if line.hasSuffix("\\\n") {
                    // Two breaks in a row are how many editors end a paragraph.
                    line.removeLast(2)
                    endBlock()
                } else {
                    line += "\\\n"
                }
            case "hr": endBlock(); blocks.append(prefix + "* * *")
            case "h1", "h2", "h3", "h4", "h5", "h6":
                endBlock()
                line = String(repeating: "#", count: Int(String(name.dropFirst()))!) + " "
            case "strong", "b": line += "**"
            case "em", "i": line += "*"
            case "code" where !preformatted: line += "`"
            case "pre": endBlock(); preformatted = true; line = "```\n"
            case "blockquote": endBlock(); quote += 1
            case "ul", "ol": endBlock(); lists.append((name == "ol", 0))
            case "li":
                endBlock()
                guard !lists.isEmpty else { return }
                lists[lists.count - 1].count += 1
                let item = lists[lists.count - 1]
                line = item.ordered ? "\(item.count). " : "- "
            case "a":
                let url = attributes["href"].flatMap { HTMLMarkdown.safeURL($0, base: base) }
                links.append(url)
                if url != nil { line += "[" }
            case "img":
                guard let url = attributes["src"].flatMap({ HTMLMarkdown.safeURL($0, base: base) }) else { return }
                let alt = HTMLMarkdown.escaped(attributes["alt"]?.trimmingCharacters(in: .whitespaces) ?? "")
                line += "[\(alt.isEmpty ? "Image" : alt)](\(url.replacingOccurrences(of: ")", with: "%29").replacingOccurrences(of: " ", with: "%20")))"
            case "td", "th": if !line.isEmpty { line += " · " }
            default:
                if HTMLMarkdown.blocks.contains(name) { endBlock() }
            }
        }

        mutating func end(_ name: String) {
            switch name {
            case "strong", "b": line += "**"
            case "em", "i": line += "*"
            case "code" where !preformatted: line += "`"
            case "pre":
                preformatted = false
                blocks.append(line.hasSuffix("\n") ? line + "```" : line + "\n```")
                line = ""
            case "blockquote": endBlock(); quote = max(0, quote - 1)
            case "ul", "ol": endBlock(); if !lists.isEmpty { lists.removeLast() }
            case "li", "h1", "h2", "h3", "h4", "h5", "h6": endBlock()
            case "a":
                if let url = links.popLast() ?? nil {
                    line += "](\(url.replacingOccurrences(of: ")", with: "%29").replacingOccurrences(of: " ", with: "%20")))"
                }
            default:
                if HTMLMarkdown.blocks.contains(name) { endBlock() }
            }
        }

        mutating func finish() -> String {
            if preformatted { end("pre") }
            endBlock()
            return blocks.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.joined(separator: "\n\n")
        }
    }
}

/// The tags and text of HTML as a browser would meet them, tolerantly: comments,
/// doctypes and processing instructions are passed over, attribute values are read
/// quoted or bare, and character references are decoded.
struct HTMLTokens: Sequence, IteratorProtocol {
    enum Token: Equatable {
        case text(String)
        case start(String, [String: String], closes: Bool)
        case end(String)
    }

    private let scalars: [Character]
    private var index = 0

    init(_ html: String) {
        scalars = Array(html)
    }

    mutating func next() -> Token? {
        guard index < scalars.count else { return nil }
        if scalars[index] == "<" {
            if let token = tag() { return token }
        }
        var text = ""
        repeat {
            text.append(scalars[index])
            index += 1
        } while index < scalars.count && scalars[index] != "<"
        return .text(HTMLTokens.decoded(text))
    }

    /// A tag at `index`, or nil when the `<` starts none (it is then text).
    private mutating func tag() -> Token? {
        let start = index
        guard index + 1 < scalars.count else { return nil }
        let following = scalars[index + 1]
        if following == "!" || following == "?" {
            let closing: [Character] = scalars[index...].starts(with: Array("<!--")) ? Array("-->") : [">"]
            index += 2
            while index < scalars.count && !scalars[index...].starts(with: closing) { index += 1 }
            index = Swift.min(scalars.count, index + closing.count)
            return next() ?? .text("")
        }
        let isEnd = following == "/"
        index += isEnd ? 2 : 1
        var name = ""
        while index < scalars.count, scalars[index].isLetter || scalars[index].isNumber || scalars[index] == "-" || scalars[index] == ":" {
            name.append(scalars[index])
            index += 1
        }
        guard !name.isEmpty else {
            index = start
            return nil
        }
        var attributes: [String: String] = [:]
        var closes = false
        while index < scalars.count, scalars[index] != ">" {
            if scalars[index] == "/" { closes = true; index += 1; continue }
            if scalars[index].isWhitespace { index += 1; continue }
            var key = ""
            while index < scalars.count, !scalars[index].isWhitespace, !"=>/".contains(scalars[index]) {
                key.append(scalars[index])
                index += 1
            }
            var value = ""
            if index < scalars.count, scalars[index] == "=" {
                index += 1
                if index < scalars.count, scalars[index] == "\"" || scalars[index] == "'" {
                    let quote = scalars[index]
                    index += 1
                    while index < scalars.count, scalars[index] != quote { value.append(scalars[index]); index += 1 }
                    index += 1
                } else {
                    while index < scalars.count, !scalars[index].isWhitespace, scalars[index] != ">" { value.append(scalars[index]); index += 1 }
                }
            }
            if !key.isEmpty { attributes[key.lowercased()] = HTMLTokens.decoded(value) }
            if key.isEmpty { index += 1 }
        }
        index += 1
        name = name.lowercased()
        return isEnd ? .end(name) : .start(name, attributes, closes: closes)
    }

    private static let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
                                                  "ndash": "–", "mdash": "—", "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“",
                                                  "rdquo": "”", "copy": "©", "middot": "·", "times": "×", "eacute": "é"]

    static func decoded(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacing(#/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});/#) { match -> String in
            let body = String(match.1)
            if body.hasPrefix("#x") || body.hasPrefix("#X") {
                return UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) } ?? String(match.0)
            }
            if body.hasPrefix("#") {
                return UInt32(body.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) } ?? String(match.0)
            }
            return named[body] ?? String(match.0)
        }
    }
}
