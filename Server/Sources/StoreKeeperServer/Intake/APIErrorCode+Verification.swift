import AppStoreVerification
import StoreKeeperAPI

extension APIErrorCode {
    /// The API's code for evidence that did not verify: the verification code itself, each declared on
    /// ``APIErrorCode`` too (`APIErrorCodeTests` holds the two lists together).
    init(_ code: VerificationError.Code) {
        self.init(rawValue: code.rawValue)
    }
}
