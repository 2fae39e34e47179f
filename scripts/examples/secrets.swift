// Values the fragments read or write: passcodes as typed, a token, a path.
let code = SecretBytes(utf8: "482913")
let entered = SecretBytes(utf8: "482913")
let old = entered
let new = SecretBytes(utf8: "730152")
let newCode = new
let token = SecretBytes(utf8: "server-issued-token")
let path = Vault.defaultPath(environment: env)
