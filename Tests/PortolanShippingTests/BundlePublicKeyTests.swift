import Crypto
import Foundation
import PortolanLua
import Testing
import PortolanShipping

/// Issue 33, item 8: a public key of small order, or not in canonical form, verifies signatures
/// no one made. Such keys are refused when the key is read, so no host can be given one.
@Suite struct BundlePublicKeyTests {
    static func text(_ bytes: [UInt8]) -> String { "ed25519:" + Data(bytes).base64EncodedString() }

    /// The points of small order (the identity, order 2, 4 and 8), each as a key.
    static let smallOrder: [[UInt8]] = [
        [0x01] + Array(repeating: 0, count: 31),
        [0xEC] + Array(repeating: 0xFF, count: 30) + [0x7F],
        Array(repeating: 0, count: 32),
        Array(repeating: 0, count: 31) + [0x80],
        Array(Data(base64Encoded: "xxdqcD1N2E+6PAt2DRBnDyogU/osOczGTsf9d5KsA3o=") ?? Data()),
        Array(Data(base64Encoded: "JuiVj8KyJ7BFw/SJ8u+Y8NXfrAXTxjM5sTgCiG1T/AU=") ?? Data()),
    ]

    @Test func theDangerIsReal() throws {
        // Under the identity as the key, R = identity and S = 0 verify any bytes at all.
        let identity = try Curve25519.Signing.PublicKey(rawRepresentation: Self.smallOrder[0])
        let forged = Self.smallOrder[0] + Array(repeating: 0, count: 32)
        #expect(identity.isValidSignature(forged, for: Array("any rules at all".utf8)))
        #expect(identity.isValidSignature(forged, for: Array("other rules".utf8)))
    }

    @Test func keysOfSmallOrderAreRefused() throws {
        for (index, bytes) in Self.smallOrder.enumerated() {
            try #require(bytes.count == 32, "\(index)")
            let refusal = #expect(throws: BundleError.self) { try BundlePublicKey(text: Self.text(bytes)) }
            #expect(refusal?.reason.contains("degenerate public key") == true, "\(index): \(String(describing: refusal))")
        }
    }

    @Test func encodingsNotInCanonicalFormAreRefused() throws {
        // y = p + k for k in 0...18 (p = 2^255 - 19), with either sign bit; and x = 0 with the sign bit set.
        var encodings: [[UInt8]] = []
        for k in 0...18 {
            for sign in [UInt8(0x7F), 0xFF] { encodings.append([UInt8(0xED + k)] + Array(repeating: 0xFF, count: 30) + [sign]) }
        }
        encodings.append([0x01] + Array(repeating: 0, count: 30) + [0x80])
        encodings.append([0xEC] + Array(repeating: 0xFF, count: 31))
        for bytes in encodings {
            #expect(throws: BundleError.self, "\(bytes)") { try BundlePublicKey(text: Self.text(bytes)) }
        }
    }

    @Test func realKeysAreRead() throws {
        for _ in 0..<200 {
            let key = BundleSigningKey().publicKey
            #expect(try BundlePublicKey(text: key.text) == key)
        }
    }
}
