// The authenticators the first example builds.
let authenticators = Authenticators(appName: "Money")
