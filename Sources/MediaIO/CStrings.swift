// Conversions from C strings and buffers.

/// The text of a C buffer up to its first NUL (invalid UTF-8 repaired).
func string(fromNulTerminated buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// A Swift string from a C string that may be null.
func cString(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
}
