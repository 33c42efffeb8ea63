@testable import PortolanLua
import Testing

/// `SHA256Text` writes a digest as 64 lowercase hex digits, each byte as two, checked against the
/// published digests of FIPS 180-2 (that of "abc" has the bytes 0x01 and 0x03: "01", "03").
@Suite struct SHA256TextTests {
    @Test func theStandardVectorsAreWrittenAsPublished() {
        #expect(SHA256Text.of([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let abc = SHA256Text.of(Array("abc".utf8))
        #expect(abc == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(abc.count == 64)
    }
}
