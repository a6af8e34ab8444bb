import Foundation

/// A folder of Nudge's own (its database's, its cache's), readable only by its user.
public enum PrivateFolder {
    /// Creates `path` with mode 0700 if it is missing. Missing parents get the usual mode (0777
    /// less the umask): on a new account ~/.local, ~/.local/share and ~/.cache belong to the
    /// whole desktop, and FileManager would give every folder it makes the attributes asked for.
    public static func create(_ path: String) throws {
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != path {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            // Made meanwhile by another process (nudged and nudge can start together): fine.
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { throw error }
        }
    }
}
