import StoreKeeperCLI

await CommandLineExit.run()
