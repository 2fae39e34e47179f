import Sesame

/// `currentState()`'s work: what fprintd says without a claim.
enum FprintdDiscovery {
    static func state(_ context: BusThreadContext, configuration: FprintdSensor.Configuration) -> BiometricSensorState {
        let timeout = configuration.timeoutMicroseconds
        let bus: BusConnection
        let device: String
        do throws(BusFailure) {
            bus = try FprintdBus.connect(context, address: configuration.systemBusAddress)
            device = try FprintdBus.defaultDevice(bus, timeout: timeout)
        } catch {
            return .unavailable(FprintdFailures.reason(error))
        }
        // Properties need no polkit; a missing one is no reason to refuse.
        let name = (try? FprintdBus.property("name", device: device, bus, timeout: timeout)) ?? "fingerprint reader"

        let fingers: [String]
        do throws(BusFailure) {
            fingers = try FprintdBus.enrolledFingers(username: configuration.username, device: device, bus, timeout: timeout)
        } catch {
            if error.remoteName == "net.reactivated.Fprint.Error.NoEnrolledPrints" {
                fingers = []
            } else {
                return BiometricSensorState(
                    availability: .unavailable(FprintdFailures.reason(error)),
                    biometryType: .fingerprint,
                    deviceName: name
                )
            }
        }
        let owner = configuration.username.isEmpty ? CurrentUser.name() : configuration.username
        let prints = configuration.printStoreDirectory.flatMap { store in
            owner.flatMap { FprintdPrintStore.digest(directory: store, username: $0) }
        }
        let domainState = FprintdDomainState.digest(
            deviceName: name,
            devicePath: device,
            username: configuration.username,
            fingers: fingers,
            prints: prints
        )
        return BiometricSensorState(
            availability: fingers.isEmpty ? .notEnrolled : .ready,
            biometryType: .fingerprint,
            domainState: domainState,
            deviceName: name,
            enrolled: fingers.sorted()
        )
    }
}
