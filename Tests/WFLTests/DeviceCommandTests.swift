import Foundation
import XCTest

/// `--device` and `--devices` on the command line (docs/usage.md, "Devices"): the counting of
/// (expectation, device) pairs, the `[NAME] ` of failure lines, and the usage errors (exit 64).
final class DeviceCommandTests: XCTestCase {
    func testDevicesCountPairsAndPrefixFailures() throws {
        let file = "columns 1\nitems 1\nheight 10\nexpect cw == 390\nexpect frame(0, 0)[0] == 0\n"
        let r = try WFLCommand.run(["test", "-", "--devices", "iPhone13,iPhone13.landscape,iPadMini"], input: Data(file.utf8))
        // iPhone13: both pass; landscape: cw 844 and x 47 fail; iPadMini (landscape): cw fails.
        XCTAssertEqual(r.status, 1, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.last, "3 passed, 3 failed")
        XCTAssertEqual(lines.filter { $0.hasPrefix("[iPhone13.landscape] <stdin>:4:8: failed: cw == 390") }.count, 1, r.stdout)
        XCTAssertEqual(lines.filter { $0.hasPrefix("[iPadMini] ") }.count, 1, r.stdout)
        XCTAssertFalse(lines.contains { $0.hasPrefix("[iPhone13] ") })
        // --device: once, no prefix.
        let one = try WFLCommand.run(["test", "-", "--device", "iPhone13"], input: Data(file.utf8))
        XCTAssertEqual(one.stdout, "2 passed, 0 failed\n")
        // A file that does not evaluate on a device is one failure there.
        let bad = try WFLCommand.run(["test", "-", "--devices", "iPhoneSe,iPhone8,iPadMini"], input: Data("insets 0 200 0 200\nitems 1\nexpect cw > 0\n".utf8))
        XCTAssertEqual(bad.stdout.split(separator: "\n").last, "1 passed, 2 failed")
    }

    func testRunOnADevice() throws {
        let r = try WFLCommand.run(["run", "-", "--device", "iPhone13.landscape", "--format", "csv"], input: Data("columns 1\nitems 1\nheight 10\n".utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains(",47,0,750,10,"), r.stdout)
    }

    /// The html picture offers a device picker when the file or the command names a device:
    /// each device's picture computed by the command, one block each.
    func testHTMLDevicePicker() throws {
        let file = Data("device iPhone13 landscape\ncolumns 1\nitems 2\nheight 10\n".utf8)
        let r = try WFLCommand.run(["run", "-", "--format", "html"], input: file)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("<select class=\"device-picker\"><option value=\"0\" selected>iPhone13.landscape</option></select>"), r.stdout)
        XCTAssertEqual(r.stdout.components(separatedBy: "<div class=\"device\"").count, 2)
        let given = try WFLCommand.run(["run", "-", "--format", "html", "--device", "iPadMini.portrait"], input: file)
        XCTAssertTrue(given.stdout.contains(">iPadMini.portrait</option>"), given.stdout)
        let none = try WFLCommand.run(["run", "-", "--format", "html"], input: Data("items 2\n".utf8))
        XCTAssertFalse(none.stdout.contains("device-picker"))
    }

    func testUsageErrors() throws {
        let input = Data("items 1\n".utf8)
        for args in [["run", "-", "--device", "iPhone14"], ["run", "-", "--devices", "iPhone13"], ["test", "-", "--device", "iPhone13", "--devices", "iPadMini"],
                     ["test", "-", "--devices", "iPhone13,,iPadMini"], ["test", "-", "--devices", "iPhone13.sideways"], ["test", "-", "--device"]] {
            let r = try WFLCommand.run(args, input: input)
            XCTAssertEqual(r.status, 64, "\(args): \(r.stderr)")
        }
        let r = try WFLCommand.run(["run", "-", "--device", "iphone13.landscap"], input: input)
        XCTAssertTrue(r.stderr.contains("did you mean 'iPhone13.landscape'?"), r.stderr)
    }
}
