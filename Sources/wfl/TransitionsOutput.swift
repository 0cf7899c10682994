import WFL

/// `wfl run --transitions` (docs/usage.md, "Updates and transitions"): the transitions of each
/// layout's batch update, as a table, json, csv or an html page whose Play button animates them.
extension RunCommand {
    /// The formats `--transitions` prints in.
    static let transitionFormats = ["table", "json", "csv", "html", "swift"]

    /// Why the options beside `--transitions` cannot go with it, or nil: `--after` or `--rect`
    /// beside it is a usage error.
    static func transitionsConflict(after: Bool, rect: Bool) -> String? {
        if after {
            return "'--transitions' and '--after' cannot be used together: '--after' prints the table after the updates, '--transitions' how every element gets there"
        }
        if rect {
            return "'--transitions' and '--rect' cannot be used together: the transitions pair every element of the two tables"
        }
        return nil
    }

    /// Why the transitions cannot be printed in `format` (given with `--format`, or taken from
    /// `-o FILE`'s extension when `givenFormat` is nil), or nil when they can.
    static func transitionsRefusal(format: String, givenFormat: String?, output: String?) -> String? {
        guard transitionFormats.contains(format) else {
            let from = givenFormat == nil ? ", the format of '\(output ?? "")'" : ""
            return "'--transitions' prints as table, json, csv, html or swift, not '\(format)'\(from)"
        }
        return nil
    }

    /// Prints the transitions of `compilation`'s layouts at `offset` in `format`, to `output` or
    /// standard output. `swift` gives the source name, the command and the `--name` of a Swift fixture.
    func writeTransitions(_ compilation: Compilation, format: String, offset: Offset, output: String?,
                          swift: (source: String, command: String, name: String?)) -> Int32 {
        let tables: [TransitionTable]
        do {
            tables = try compilation.transitionTables(at: offset)
        } catch {
            // An attribute, appear or disappear rule that fails for an element at this offset.
            writeErr(DiagnosticRenderer(color: stderrIsColourTerminal).render([error], in: compilation.source))
            return Exit.dataError
        }
        let text: String
        switch format {
        case "json": text = TransitionFormat.json(tables)
        case "csv": text = TransitionFormat.csv(tables)
        case "html": text = TransitionsHTML.format(tables)
        case "swift": text = SwiftFormat.transitions(tables, sourceName: swift.source, command: swift.command, name: swift.name)
        default: text = TransitionFormat.table(tables)
        }
        return emit(text, to: output)
    }
}
