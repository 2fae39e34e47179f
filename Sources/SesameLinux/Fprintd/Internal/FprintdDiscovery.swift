import Sesame

/// `currentState()`'s work: what fprintd says without a claim.
enum FprintdDiscovery {
    static func state(_ bus: DBusClient, configuration: FprintdSensor.Configuration) -> BiometricSensorState {
        let timeout = configuration.timeoutMicroseconds
        let device: String
        do throws(DBusError) {
            device = try FprintdBus.defaultDevice(bus, timeout: timeout)
        } catch {
            return .unavailable(FprintdFailures.reason(error))
        }
        // Properties need no polkit; a missing one is no reason to refuse.
        let name = (try? FprintdBus.property("name", device: device, bus, timeout: timeout)) ?? "fingerprint reader"

        let fingers: [String]
        do throws(DBusError) {
            fingers = try FprintdBus.enrolledFingers(username: configuration.username, device: device, bus, timeout: timeout)
        } catch {
            if FprintdFailures.isNoEnrolledPrints(error) {
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
