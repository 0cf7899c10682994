/// The device presets of `device NAME [portrait|landscape]` and `--device NAME` (docs/layout.md,
/// "Devices"): each sets a layout's container, safe area and readable width (672) as if written
/// there. The sizes and safe areas are those of swift-snapshot-testing's `ViewImageConfig`.

/// A device's orientation; landscape swaps the portrait width and height.
public enum Orientation: String, CaseIterable, Sendable {
    case portrait, landscape
}

/// One device in one orientation.
public struct DevicePreset: Equatable, Sendable {
    /// The device's name as written: `iPhone13`.
    public let name: String
    public let orientation: Orientation
    /// The container in this orientation.
    public let width: Double, height: Double
    /// The safe area in this orientation.
    package let safeArea: Insets

    /// The command-line form, with its orientation: `iPhone13.landscape`.
    public var id: String { name + "." + orientation.rawValue }
}

/// The table of presets.
public enum Devices {
    /// One row of the table: a name, its portrait size and its two safe areas (T L B R), and
    /// whether a bare name means landscape (the iPads).
    struct Row {
        let name: String
        let width: Double, height: Double
        let portrait: Insets, landscape: Insets
        var isPad: Bool { name.hasPrefix("iPad") }
    }

    private static func ins(_ t: Double, _ l: Double, _ b: Double, _ r: Double) -> Insets {
        Insets(top: t, left: l, bottom: b, right: r)
    }

    static let rows: [Row] = {
        let classic = (ins(20, 0, 0, 0), ins(0, 0, 0, 0))
        let x = (ins(44, 0, 34, 0), ins(0, 44, 24, 44))
        let twelve = (ins(47, 0, 34, 0), ins(0, 47, 21, 47))
        let mini = (ins(50, 0, 34, 0), ins(0, 50, 21, 50))
        let pad = (ins(20, 0, 0, 0), ins(20, 0, 0, 0))
        let pad11 = (ins(24, 0, 20, 0), ins(24, 0, 20, 0))
        func row(_ n: String, _ w: Double, _ h: Double, _ sa: (Insets, Insets)) -> Row {
            Row(name: n, width: w, height: h, portrait: sa.0, landscape: sa.1)
        }
        return [
            row("iPhoneSe", 320, 568, classic), row("iPhone8", 375, 667, classic), row("iPhone8Plus", 414, 736, classic),
            row("iPhoneX", 375, 812, x), row("iPhoneXr", 414, 896, x), row("iPhoneXsMax", 414, 896, x),
            row("iPhone12", 390, 844, twelve), row("iPhone12Pro", 390, 844, twelve), row("iPhone13", 390, 844, twelve),
            row("iPhone13Pro", 390, 844, twelve), row("iPhone12ProMax", 428, 926, twelve), row("iPhone13ProMax", 428, 926, twelve),
            row("iPhone13Mini", 375, 812, mini),
            row("iPadMini", 768, 1024, pad), row("iPadPro10_5", 834, 1112, pad), row("iPadPro12_9", 1024, 1366, pad),
            row("iPadPro11", 834, 1194, pad11),
        ]
    }()

    /// The device names, in the table's order.
    public static var names: [String] { rows.map(\.name) }

    /// Every preset: each name in portrait, then in landscape (34 in all).
    public static var all: [DevicePreset] {
        rows.flatMap { r in Orientation.allCases.map { preset(r, $0) } }
    }

    /// Every form a device may be named by on the command line: the bare names and their
    /// `.portrait` and `.landscape` forms (for "did you mean").
    public static var forms: [String] {
        rows.flatMap { [$0.name, $0.name + ".portrait", $0.name + ".landscape"] }
    }

    private static func preset(_ r: Row, _ o: Orientation) -> DevicePreset {
        o == .portrait
            ? DevicePreset(name: r.name, orientation: o, width: r.width, height: r.height, safeArea: r.portrait)
            : DevicePreset(name: r.name, orientation: o, width: r.height, height: r.width, safeArea: r.landscape)
    }

    /// The preset of `name` in `orientation`; a bare name is the library's default (portrait for
    /// iPhones, landscape for iPads). nil for an unknown name.
    public static func preset(_ name: String, _ orientation: Orientation? = nil) -> DevicePreset? {
        guard let r = rows.first(where: { $0.name == name }) else { return nil }
        return preset(r, orientation ?? (r.isPad ? .landscape : .portrait))
    }

    /// The preset named in the command-line form: `iPhone13`, `iPhone13.landscape`.
    public static func preset(named form: String) -> DevicePreset? {
        if let dot = form.firstIndex(of: ".") {
            guard let o = Orientation(rawValue: String(form[form.index(after: dot)...])) else { return nil }
            return preset(String(form[..<dot]), o)
        }
        return preset(form)
    }

    /// What a word of `device` means: a device's sizes and safe areas, or an orientation.
    package static func meaning(of word: String) -> String? {
        if let o = Orientation(rawValue: word) {
            return o == .portrait ? "the device upright: its portrait size" : "the device on its side: width and height swapped"
        }
        guard let r = rows.first(where: { $0.name == word }) else { return nil }
        func t(_ i: Insets) -> String { [i.top, i.left, i.bottom, i.right].map { NumberFormat.format($0) }.joined(separator: " ") }
        return "\(NumberFormat.format(r.width)) x \(NumberFormat.format(r.height)) in portrait, safe area \(t(r.portrait)); landscape \(t(r.landscape)); a bare name is \(r.isPad ? "landscape" : "portrait")"
    }
}
