import Synchronization

/// The files this run reads — the inputs named, the files a folder holds, the results stores, the settings files —
/// gathered as the command learns them. No output (`-o`, `--write-baseline`) may go over one of them, whichever option
/// or folder named it (compared by device and inode: `OutputStream.refuseInputs`).
enum RunInputs {
    private static let files = Mutex<[String]>([])

    /// Notes that the run reads `paths`.
    static func add(_ paths: [String]) {
        guard !paths.isEmpty else { return }
        files.withLock { $0 += paths }
    }

    /// Every file noted so far.
    static var all: [String] { files.withLock { $0 } }
}
