import WFL

/// `--device NAME` (`run`, `test`) and `--devices A,B,...` (`test`): the devices a command runs
/// its files on (docs/usage.md, "Devices").
extension CLI {
    /// The preset a `--device` value names (`iPhone13`, `iPhone13.landscape`), or the exit status
    /// of the usage error, with "did you mean" over the names and their oriented forms.
    func device(_ name: String, option: String, command: String) -> Result<DevicePreset, DeviceUsage> {
        if let d = Devices.preset(named: name) { return .success(d) }
        let guess = Suggest.closest(to: name, among: Devices.forms).map { "; did you mean '\($0)'?" }
            ?? "; the devices are \(Devices.names.joined(separator: ", ")), each also as NAME.portrait or NAME.landscape"
        return .failure(DeviceUsage(status: usageError("unknown device '\(name)' in '\(option)'\(guess)", command: command)))
    }

    /// The devices of `--devices A,B,...`, in order, each with the name as written, or the exit
    /// status of the usage error (an empty name, an unknown one).
    func devices(_ list: String, command: String) -> Result<[(String, DevicePreset)], DeviceUsage> {
        var out: [(String, DevicePreset)] = []
        for part in list.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(part.trimmingCharacters(in: " "))
            guard !name.isEmpty else {
                return .failure(DeviceUsage(status: usageError("'--devices \(list)' has an empty name: write device names separated by commas, for example '--devices iPhone13,iPadMini'", command: command)))
            }
            switch device(name, option: "--devices", command: command) {
            case .success(let d): out.append((name, d))
            case .failure(let u): return .failure(u)
            }
        }
        return .success(out)
    }
}

/// A usage error already written, with its exit status.
struct DeviceUsage: Error {
    let status: Int32
}
