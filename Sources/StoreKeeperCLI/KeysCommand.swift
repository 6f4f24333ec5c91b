import ArgumentParser
import StoreKeeperServer

/// `storekeeper keys new public|secret`: prints a fresh random API key for the configuration file.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Make API keys.", subcommands: [NewKeyCommand.self])
}

/// `storekeeper keys new public|secret`
struct NewKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Print a new random API key (pk_… public, sk_… secret): 256 random bits, base62.",
        discussion:
            "Put it under apiKeys in the configuration with its kind and app; the server stores only its SHA-256.")

    /// Which kind of key.
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case `public`, secret
    }

    @Argument(help: "public (for the app, the SDK) or secret (for your backend).") var kind: Kind

    func run() throws {
        FileHandleOutput.standardOutput(APIKeyGenerator.key(kind == .public ? .public : .secret))
    }
}
