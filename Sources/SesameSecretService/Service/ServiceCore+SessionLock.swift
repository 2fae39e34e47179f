extension ServiceCore {
    /// The owner's session locked (SPEC D14): every opening ends, and each
    /// item that was open says so, as an item's change of `Locked` is
    /// announced by the Secret Service API (the collection's `ItemChanged`,
    /// and the item's own `PropertiesChanged`). Prompts that show are
    /// cancelled by the authentication itself, which watches the same lock.
    func sessionLocked() async {
        let ended = await store.sessionLocked()
        for id in ended {
            let path = SecretObject.itemPath(id)
            emit(path, Self.propertiesInterface, "PropertiesChanged",
                 [.string(Self.itemInterface), .array(element: "{sv}", [.dictEntry(.string("Locked"), .variant(.boolean(true)))]),
                  .array(element: "s", [])])
            emit(SecretObject.collectionPath(id.collection), Self.collectionInterface, "ItemChanged", [.objectPath(path)])
        }
        if !ended.isEmpty {
            log("sesame secret-service: the session locked: \(ended.count) opened item(s) locked again")
        }
    }
}
