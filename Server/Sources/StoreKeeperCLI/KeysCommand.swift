import ArgumentParser
import StoreKeeperServer

/// `storekeeper keys new public|secret|signing`: prints a fresh random API key, or an answer-signing key pair, for
/// the configuration file.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Make API keys.", subcommands: [NewKeyCommand.self])
}

/// `storekeeper keys new public|secret|signing`
struct NewKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract:
            "Print a new random API key (pk_… public, sk_… secret: 256 random bits, base62) or an answer-signing "
            + "Ed25519 key pair (signing).",
        discussion:
            "Put an API key under apiKeys in the configuration with its kind and app; the server stores only its "
            + "SHA-256. For signing, the first line (private) goes under answerSigningKeys in the server's "
            + "configuration and the second (public) into the SDK's Configuration.answerSigningKeys.")

    /// Which kind of key.
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case `public`, secret, signing
    }

    @Argument(help: "public (for the app, the SDK), secret (for your backend) or signing (an answer-signing key pair).")
    var kind: Kind

    func run() throws {
        switch kind {
        case .public: FileHandleOutput.standardOutput(APIKeyGenerator.key(.public))
        case .secret: FileHandleOutput.standardOutput(APIKeyGenerator.key(.secret))
        case .signing:
            let pair = AnswerSigner.newKeyPair()
            FileHandleOutput.standardOutput("private: \(pair.privateKey)\npublic: \(pair.publicKey)")
        }
    }
}
