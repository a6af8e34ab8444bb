/// The loop every hand-written format's quoting shares (roff, JSON, notification markup):
/// each scalar the format reads as something else is written as its escape, the rest copied.
public enum TextEscaping {
    /// Appends `text` to `out`, each scalar for which `escape` returns a string written as that string.
    @inlinable
    public static func append(_ text: String, to out: inout String, escape: (Unicode.Scalar) -> String?) {
        for scalar in text.unicodeScalars {
            if let escaped = escape(scalar) {
                out += escaped
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }

    /// `text` with each scalar for which `escape` returns a string written as that string.
    @inlinable
    public static func escaped(_ text: String, escape: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        append(text, to: &out, escape: escape)
        return out
    }
}
