import StoreKeeperCLI
import StoreKeeperLab

await CommandLineExit.run(LabCommand.self)
