// The system C libraries Shade is built on, with the versions actually loaded (for `shade --version`
// and bug reports).
import COpenSSL
import CNghttp2
import CZlib

public enum SystemLibraries {
    /// "OpenSSL 3.0.19 …", "nghttp2 1.52.0", "zlib 1.2.13".
    public static var versions: [String] {
        let openssl = String(cString: OpenSSL_version(Int32(OPENSSL_VERSION)))
        let nghttp2 = nghttp2_version(0).map { "nghttp2 " + String(cString: $0.pointee.version_str) } ?? "nghttp2"
        let zlib = "zlib " + String(cString: zlibVersion())
        return [openssl, nghttp2, zlib]
    }
}
