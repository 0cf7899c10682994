/// The words of a layout that every stage uses: the syntax declares them (Syntax/EngineTable.swift
/// and the settings table), the resolver and the engines read them, and the table and the formats
/// print them.

/// `style`: a section's engine; a layout's (in its table) is its sections' when they all share
/// one, else `mixed`. Each engine's word is declared once, in Syntax/EngineTable.swift.
public enum LayoutStyle: String, CaseIterable, Sendable { case waterfall, flow, shelf, mixed
    /// Compositional groups (docs/layout.md, "Groups").
    case groups
}

extension LayoutStyle {
    /// A layout's style: its sections' when they all share one, else `mixed`.
    package static func common<S: Sequence>(_ styles: S) -> LayoutStyle where S.Element == LayoutStyle {
        var it = styles.makeIterator()
        guard let first = it.next() else { return .waterfall }
        while let next = it.next() {
            if next != first { return .mixed }
        }
        return first
    }
}

/// `direction`.
public enum Direction: String, Sendable { case vertical, horizontal }
