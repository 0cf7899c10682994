import WFL

/// What `wfl run --format swift` needs besides the format itself.

extension RunCommand {
    /// The command that makes a `--format swift` file again, for its header comment.
    static func swiftCommand(_ path: String, _ layout: String?, _ offset: Offset, _ rect: Frame?, after: Bool = false,
                             transitions: Bool = false, name: String? = nil) -> String {
        let f = NumberFormat.format
        func quoted(_ s: String) -> String {
            let plain = !s.isEmpty && s.allSatisfy { $0.isLetter || $0.isNumber || "._-/,+=@%:".contains($0) }
            return plain ? s : "'" + s.replacingAll("'", with: "'\\''") + "'"
        }
        var c = "wfl run \(quoted(path)) --format swift"
        if let layout { c += " --layout \(quoted(layout))" }
        if offset != .zero { c += " --offset \(f(offset.x)),\(f(offset.y))" }
        if let r = rect { c += " --rect \(f(r.x)),\(f(r.y)),\(f(r.width)),\(f(r.height))" }
        if after { c += " --after" }
        if transitions { c += " --transitions" }
        if let name { c += " --name \(name)" }
        return c
    }
}

extension RunCommand {
    /// Why `--name TYPE` cannot be given with `format`, or nil.
    static func nameRefusal(_ name: String, format: String) -> String? {
        guard format == "swift" else {
            return "'--name' names the type of '--format swift', and the format is '\(format)'"
        }
        guard SwiftFormat.isTypeName(name) else {
            return "'--name \(name)' is not a Swift type name: use letters, digits and '_', not starting with a digit, for example '--name FeedLayout'"
        }
        return nil
    }
}

extension String {
    /// The string with every `target` replaced.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
