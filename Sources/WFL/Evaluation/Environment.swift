/// The environment of a layout (docs/layout.md, "The environment", "Devices"): `safeArea`,
/// `layoutMargins`, `readableWidth` and `device`, resolved once per layout; `insetsReference`
/// is read per section, by `Resolver.resolveSection`, through `Environment.edges`.

/// A layout's environment, resolved.
struct Environment {
    /// `safeArea`, physical.
    var safeArea = Insets()
    /// `layoutMargins`, measured from the safe area.
    var margins = Insets(top: 8, left: 8, bottom: 8, right: 8)
    /// `readableWidth`.
    var readableWidth = 672.0
    /// The device in force, in the command-line form (`iPhone13.portrait`), or "".
    var device = ""
    /// Where the safe area is written (`safeArea` or `device`), for the error of reference edges
    /// that leave no room when `insetsReference` is not written.
    var place: Span? = nil

    /// The reference edges (e1, e2) of `reference` across the scroll axis:
    ///   none 0, 0; safeArea sa.left, sa.right; layoutMargins sa.left + lm.left, sa.right + lm.right;
    ///   readableContent (vertical) m1 + d, m2 + d with (m1, m2) those of layoutMargins,
    ///   g = cw - m1 - m2, d = (g - min(rw, g)) / 2; horizontal: as layoutMargins, on y.
    /// Right to left, the x edges swap before the mirror.
    func edges(_ reference: InsetsReference, vertical: Bool, cw: Double, rightToLeft: Bool) -> (Double, Double) {
        let swap = vertical && rightToLeft
        let (s1, s2) = vertical ? (swap ? (safeArea.right, safeArea.left) : (safeArea.left, safeArea.right)) : (safeArea.top, safeArea.bottom)
        let (l1, l2) = vertical ? (swap ? (margins.right, margins.left) : (margins.left, margins.right)) : (margins.top, margins.bottom)
        switch reference {
        case .none: return (0, 0)
        case .safeArea: return (s1, s2)
        case .layoutMargins: return (s1 + l1, s2 + l2)
        case .readableContent:
            let (m1, m2) = (s1 + l1, s2 + l2)
            guard vertical else { return (m1, m2) }
            let g = cw - m1 - m2
            let d = (g - Swift.min(readableWidth, g)) / 2
            return (m1 + d, m2 + d)
        }
    }
}

extension Resolver {
    /// The preset a `device` setting names (the setting that wrote `w`), or nil when `w` was not
    /// written by `device`.
    static func device(of w: Written) -> DevicePreset? {
        guard w.setting.name.text == "device", case .word(let n)? = w.setting.arguments.first else { return nil }
        var orientation: Orientation? = nil
        if w.setting.arguments.count > 1, case .word(let o) = w.setting.arguments[1] { orientation = Orientation(rawValue: o.text) }
        return Devices.preset(n.text, orientation)
    }

    /// The layout's environment, its values checked: sides of `safeArea` and `layoutMargins` at
    /// least 0, `readableWidth` above 0, and a safe area that leaves room in the container.
    /// `--device` (`Program.device`) replaces the container, the safe area and the readable width.
    mutating func resolveEnvironment(_ layoutBlocks: [BlockRecord], cw: Double, ch: Double, _ m: inout Machine) -> Environment {
        var env = Environment()
        if let d = program.device {
            env.safeArea = d.safeArea
            env.device = d.id
        } else {
            for side in Side.allCases {
                guard let w = lookup(.safeArea(side), layoutBlocks) else { continue }
                env.place = env.place ?? w.setting.name.span
                let value: Double
                if case .expr(let e) = w.value {
                    value = number(e, w, &m, place: "", what: "the \(side.name) of 'safeArea'") ?? 0
                } else {
                    value = Resolver.device(of: w).map { side.of($0.safeArea) } ?? 0
                }
                side.set(&env.safeArea, value)
            }
            if let w = lookup(.device, layoutBlocks), let d = Resolver.device(of: w) { env.device = d.id }
        }
        for side in Side.allCases {
            guard let w = lookup(.layoutMargins(side), layoutBlocks), case .expr(let e) = w.value else { continue }
            side.set(&env.margins, number(e, w, &m, place: "", what: "the \(side.name) of 'layoutMargins'") ?? 8)
        }
        if program.device == nil, let w = lookup(.readableWidth, layoutBlocks), case .expr(let e) = w.value {
            env.readableWidth = number(e, w, &m, place: "", what: "'readableWidth'", bound: .positive) ?? 672
        }
        // sa.left + sa.right < cw, sa.top + sa.bottom < ch.
        let sa = env.safeArea
        for (a, b, length, what) in [(Side.left, Side.right, cw, "width"), (Side.top, Side.bottom, ch, "height")] {
            let taken = a.of(sa) + b.of(sa)
            guard taken >= length, taken > 0 else { continue }
            let w = lookup(.safeArea(a), layoutBlocks) ?? lookup(.safeArea(b), layoutBlocks)
            fail(.error(.safeAreaTooLarge, "the safe area's \(a.name) \(NumberFormat.format(a.of(sa))) and \(b.name) \(NumberFormat.format(b.of(sa))) take all of the container's \(what), \(NumberFormat.format(length))",
                        at: w?.setting.name.span ?? layout?.keyword ?? Span(0, 0),
                        help: "make the safe area smaller than the container, or the container larger"), key: w?.span)
            // Said once: the sections do not report their reference edges as well.
            env.safeArea = Insets()
        }
        return env
    }
}

extension Side {
    /// This side of `insets`.
    func of(_ insets: Insets) -> Double {
        switch self {
        case .top: return insets.top
        case .left: return insets.left
        case .bottom: return insets.bottom
        case .right: return insets.right
        }
    }

    /// Sets this side of `insets` to `value`.
    func set(_ insets: inout Insets, _ value: Double) {
        switch self {
        case .top: insets.top = value
        case .left: insets.left = value
        case .bottom: insets.bottom = value
        case .right: insets.right = value
        }
    }
}
