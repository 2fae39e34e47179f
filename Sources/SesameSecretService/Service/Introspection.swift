/// `org.freedesktop.DBus.Introspectable` answers: the interfaces of each
/// object kind (Secret Service API 0.2) and, for containers, their children.
enum Introspection {
    static let properties = """
      <interface name="org.freedesktop.DBus.Properties">
        <method name="Get"><arg name="interface" type="s" direction="in"/><arg name="name" type="s" direction="in"/><arg name="value" type="v" direction="out"/></method>
        <method name="GetAll"><arg name="interface" type="s" direction="in"/><arg name="properties" type="a{sv}" direction="out"/></method>
        <method name="Set"><arg name="interface" type="s" direction="in"/><arg name="name" type="s" direction="in"/><arg name="value" type="v" direction="in"/></method>
        <signal name="PropertiesChanged"><arg type="s"/><arg type="a{sv}"/><arg type="as"/></signal>
      </interface>
      <interface name="org.freedesktop.DBus.Introspectable">
        <method name="Introspect"><arg name="xml" type="s" direction="out"/></method>
      </interface>

    """

    static let service = """
      <interface name="org.freedesktop.Secret.Service">
        <method name="OpenSession"><arg name="algorithm" type="s" direction="in"/><arg name="input" type="v" direction="in"/><arg name="output" type="v" direction="out"/><arg name="result" type="o" direction="out"/></method>
        <method name="CreateCollection"><arg name="properties" type="a{sv}" direction="in"/><arg name="alias" type="s" direction="in"/><arg name="collection" type="o" direction="out"/><arg name="prompt" type="o" direction="out"/></method>
        <method name="SearchItems"><arg name="attributes" type="a{ss}" direction="in"/><arg name="unlocked" type="ao" direction="out"/><arg name="locked" type="ao" direction="out"/></method>
        <method name="Unlock"><arg name="objects" type="ao" direction="in"/><arg name="unlocked" type="ao" direction="out"/><arg name="prompt" type="o" direction="out"/></method>
        <method name="Lock"><arg name="objects" type="ao" direction="in"/><arg name="locked" type="ao" direction="out"/><arg name="Prompt" type="o" direction="out"/></method>
        <method name="GetSecrets"><arg name="items" type="ao" direction="in"/><arg name="session" type="o" direction="in"/><arg name="secrets" type="a{o(oayays)}" direction="out"/></method>
        <method name="ReadAlias"><arg name="name" type="s" direction="in"/><arg name="collection" type="o" direction="out"/></method>
        <method name="SetAlias"><arg name="name" type="s" direction="in"/><arg name="collection" type="o" direction="in"/></method>
        <property name="Collections" type="ao" access="read"/>
        <signal name="CollectionCreated"><arg name="collection" type="o"/></signal>
        <signal name="CollectionDeleted"><arg name="collection" type="o"/></signal>
        <signal name="CollectionChanged"><arg name="collection" type="o"/></signal>
      </interface>

    """

    static let collection = """
      <interface name="org.freedesktop.Secret.Collection">
        <method name="Delete"><arg name="prompt" type="o" direction="out"/></method>
        <method name="SearchItems"><arg name="attributes" type="a{ss}" direction="in"/><arg name="results" type="ao" direction="out"/></method>
        <method name="CreateItem"><arg name="properties" type="a{sv}" direction="in"/><arg name="secret" type="(oayays)" direction="in"/><arg name="replace" type="b" direction="in"/><arg name="item" type="o" direction="out"/><arg name="prompt" type="o" direction="out"/></method>
        <property name="Items" type="ao" access="read"/>
        <property name="Label" type="s" access="readwrite"/>
        <property name="Locked" type="b" access="read"/>
        <property name="Created" type="t" access="read"/>
        <property name="Modified" type="t" access="read"/>
        <signal name="ItemCreated"><arg name="item" type="o"/></signal>
        <signal name="ItemDeleted"><arg name="item" type="o"/></signal>
        <signal name="ItemChanged"><arg name="item" type="o"/></signal>
      </interface>

    """

    static let item = """
      <interface name="org.freedesktop.Secret.Item">
        <method name="Delete"><arg name="Prompt" type="o" direction="out"/></method>
        <method name="GetSecret"><arg name="session" type="o" direction="in"/><arg name="secret" type="(oayays)" direction="out"/></method>
        <method name="SetSecret"><arg name="secret" type="(oayays)" direction="in"/></method>
        <property name="Locked" type="b" access="read"/>
        <property name="Attributes" type="a{ss}" access="readwrite"/>
        <property name="Label" type="s" access="readwrite"/>
        <property name="Created" type="t" access="read"/>
        <property name="Modified" type="t" access="read"/>
      </interface>

    """

    static let session = """
      <interface name="org.freedesktop.Secret.Session">
        <method name="Close"/>
      </interface>

    """

    static let prompt = """
      <interface name="org.freedesktop.Secret.Prompt">
        <method name="Prompt"><arg name="window-id" type="s" direction="in"/></method>
        <method name="Dismiss"/>
        <signal name="Completed"><arg name="dismissed" type="b"/><arg name="result" type="v"/></signal>
      </interface>

    """

    static func xml(for object: SecretObject, core: ServiceCore) async throws -> String {
        var body: String
        var children: [String] = []
        switch object {
        case .service:
            body = service
            children = ["collection", "aliases", "session", "prompt"]
        case .collection(let id):
            body = collection
            children = try await core.store.items(in: id).map(\.id.item).filter(SecretObject.isSafeID)
        case .alias:
            body = collection
        case .item:
            body = item
        case .session:
            body = session
        case .promptObject:
            body = prompt
        }
        body += children.map { "  <node name=\"\($0)\"/>\n" }.joined()
        return "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\"\n"
            + "\"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n<node>\n" + properties + body + "</node>\n"
    }

    /// The portal object (its Secret backend interface) or a request
    /// object under it (only `Close`).
    static func portalXML(onPortal: Bool) -> String {
        let interface = onPortal ? """
              <interface name="org.freedesktop.impl.portal.Secret">
                <method name="RetrieveSecret"><arg name="handle" type="o" direction="in"/><arg name="app_id" type="s" direction="in"/><arg name="fd" type="h" direction="in"/><arg name="options" type="a{sv}" direction="in"/><arg name="response" type="u" direction="out"/><arg name="results" type="a{sv}" direction="out"/></method>
                <property name="version" type="u" access="read"/>
              </interface>

            """ : """
              <interface name="org.freedesktop.impl.portal.Request">
                <method name="Close"/>
              </interface>

            """
        return "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\"\n"
            + "\"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n<node>\n" + properties + interface + "</node>\n"
    }
}
