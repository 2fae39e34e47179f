// The passcode the owner chose for a new vault.
let passcode = SecretBytes(utf8: "482913")
