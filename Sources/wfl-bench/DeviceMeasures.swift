// MARK: - Devices (issue 30): `wfl test --devices` over every preset

import WFL

extension Measure {
    /// A 10,000-item file with a pinned header, margins and expectations that read the device.
    static func deviceFile(_ items: Int) -> SourceFile {
        SourceFile(name: "devices.wfl", text: """
            columns 2
            spacing 8
            insets 8 16
            header 40
            pinHeaders true
            insetsReference layoutMargins
            items \(items)
            height 80 + i % 7 * 10
            expect frame(0, \(items - 1))[1] > 0
            expect count(0, 0, cw, ch) > 0
            expect device != ""
            expect header(0, 0, 500)[1] >= 500

            """)
    }

    /// `wfl test FILE --devices` with all 34 presets against `wfl test FILE --device iPhone13`, as
    /// the command does them: on one large stack (`onLargeStack`), the file parsed once, then
    /// evaluated and its expectations checked once per device. The issue names no number: the
    /// target is that no device costs more than a run on one device, 34x; the shared parse makes
    /// it less.
    static var devices: Measure { Measure(
        name: "devices", summary: "wfl test --devices over all 34 presets of a 10,000-item file, against --device iPhone13 (1,000 items with --quick)",
        unit: "ms", target: 34, targetIsRatio: true, lowerIsBetter: true
    ) { _, options in
        let source = deviceFile(options.quick ? 1_000 : 10_000)
        func work(_ devices: [DevicePreset]) -> () -> Int {
            {
                // On one large stack, as the command works on a file.
                onLargeStack {
                    let parsed = Pipeline.parse(source)
                    var passed = 0
                    for d in devices {
                        parsed.program?.device = d
                        let c = Pipeline.evaluate(parsed)
                        passed += Pipeline.checkExpectations(c).filter(\.passed).count
                    }
                    return passed
                }
            }
        }
        let all = Devices.all, one = [Devices.preset("iPhone13")!]
        guard work(all)() == 4 * all.count, work(one)() == 4 else {
            fail("wfl-bench: the devices file does not pass its expectations on every device")
        }
        let (wfl, base) = Timer.interleaved(runs: options.runs ?? 5, warmups: 1, wfl: work(all), baseline: work(one))
        return Outcome(label: "34 devices", wfl: wfl.median * 1e3, baseline: base.median * 1e3, baselineName: "1 device",
                       notes: ["34 devices \(wfl.summary)", "1 device \(base.summary)"])
    } }
}
