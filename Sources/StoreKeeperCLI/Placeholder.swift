enum _PlaceholderStoreKeeperCLI {}
