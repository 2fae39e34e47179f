import ArgumentParser

/// `sesame help access-flags`: who may read an item.
struct AccessFlagsTopic: HelpTopicCommand {
    static let configuration = CommandConfiguration(
        commandName: "access-flags",
        abstract: "Who may read an item: --access and --accessibility.",
        usage: "sesame help access-flags",
        discussion: """
            --access takes one or more flags. Join them with `,` when any one of them opens the item, \
            or with `+` when all of them are needed; one item never mixes the two.

              user-presence          the fingerprint, or the login password when there is no usable reader
              biometry-any           any finger enrolled now or later
              biometry-current-set   only the fingers enrolled when the item was stored: enrolling or \
            removing a finger invalidates the item for good (`get` exits 8; store it again)
              device-passcode        the login password, checked by PAM (service --pam-service, default `sesame`; \
            scripts pass it with --password-fd N)
              app-password           the item's application password, from --password-fd N or asked on the terminal

            Examples:
              --access biometry-current-set,device-passcode   a finger of today's set, or the login password
              --access biometry-any+app-password              a finger and the item's application password

            Without --access an item needs nothing beyond opening the vault.

            --accessibility says when an item may be read and whether it leaves the machine: \
            when-unlocked (default), after-first-unlock, and their -this-device-only forms, which \
            `sesame export` leaves out. A when-unlocked item is refused (exit 13) while logind says your \
            session is locked or the machine is going to sleep; an after-first-unlock item needs one unlock \
            or authentication since boot, and suits jobs that run while you are away. Where no session \
            manager answers (a container), nothing can lock: `sesame status` says "not observed".
            """,
        shouldDisplay: false
    )
}
