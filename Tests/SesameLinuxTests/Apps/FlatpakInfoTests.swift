import Sesame
@testable import SesameLinux
import Testing

/// The `/.flatpak-info` key file, read as xdg-desktop-portal reads it (SPEC D13).
@Suite("D13: a Flatpak sandbox's /.flatpak-info names its app")
struct FlatpakInfoTests {
    static func appID(_ text: String) -> String? {
        FlatpakInfo.appID(fromKeyFile: Array(text.utf8))
    }

    @Test("D13: the Application group's name is the app id")
    func application() {
        let text = """
            [Application]
            name=org.example.Test
            runtime=runtime/org.freedesktop.Platform/x86_64/24.08

            [Instance]
            instance-id=123456
            """
        #expect(Self.appID(text) == "org.example.Test")
    }

    @Test("D13: a Runtime group wins over Application, wherever it is in the file (a runtime run as an app)")
    func runtimeGroup() {
        #expect(Self.appID("[Application]\nname=org.example.App\n[Runtime]\nname=org.freedesktop.Sdk\n") == "org.freedesktop.Sdk")
        #expect(Self.appID("[Runtime]\nname=org.freedesktop.Sdk\n[Application]\nname=org.example.App\n") == "org.freedesktop.Sdk")
        // A Runtime group without a name is no identity, not the Application's.
        #expect(Self.appID("[Runtime]\nruntime=x\n[Application]\nname=org.example.App\n") == nil)
    }

    @Test("D13: comments, blank lines, indentation and spaces around = are GLib's key file syntax")
    func syntax() {
        #expect(Self.appID("# made by flatpak\n\n  [Application]\n  name = org.example.Test\n") == "org.example.Test")
        #expect(Self.appID("[Application]\nname[fr]=org.example.French\nname=org.example.Test\n") == "org.example.Test")
    }

    @Test("D13: hostile or broken text is no identity at all", arguments: [
        "",
        "name=org.example.Test\n",                                      // a key before any group
        "[Application]\nname=org.example.Test\nnot a key line\n",        // a line GLib refuses
        "[Application]\nname=org.example.Test\nname=org.example.Other\n", // a name given twice
        "[Application]\nname=org.example.Test\n[Application]\nname=org.example.Other\n", // merged groups: twice again
        "[Application\nname=org.example.Test\n",                         // an unclosed group
        "[Application]\nname=org.example.Test\u{0}\n",                   // a NUL
        "[Application]\nname=../../etc/passwd\n",
        "[Application]\nname=org.example.Test \n",                        // trailing space stays in the value
        "[Application]\nname=org.example.Test\r\n",                       // so does a CR
        "[Application]\nname=org.example.Te\\sst\n",                      // an escape: never a valid id
        "[Application]\nname=org.example.Tést\n",
        "[Application]\nname=org.exa-mple.Test\n",                         // '-' outside the last element
        "[Application]\nname=org..Test\n",
        "[Application]\nname=.org.example\n",
        "[Application]\nname=org.example.\n",
        "[Application]\nname=single\n",
        "[Application]\nname=\n",
        "[Application]\nname=org.example." + String(repeating: "a", count: 250) + "\n",
        "[Instance]\ninstance-id=1\n",
    ])
    func hostile(_ text: String) {
        #expect(Self.appID(text) == nil, "\(text.escapingControlCharacters())")
    }

    @Test("D13: bytes that are not UTF-8, and a file bigger than flatpak writes, are refused")
    func bytes() {
        #expect(FlatpakInfo.appID(fromKeyFile: Array("[Application]\nname=org.example.Test\n#".utf8) + [0xFF]) == nil)
        let padding = Array(repeating: UInt8(ascii: "#"), count: FlatpakInfo.maximumSize) + [UInt8(ascii: "\n")]
        #expect(FlatpakInfo.appID(fromKeyFile: padding + Array("[Application]\nname=org.example.Test\n".utf8)) == nil)
    }

    @Test("D13: app ids as xdg-desktop-portal accepts them: two elements, digits first, '-' in the last only")
    func validIDs() {
        for valid in ["org.example.Test", "snap.firefox", "org.example.my-app", "org.7zip.SevenZip", "a.b", "org._x.y"] {
            #expect(FlatpakInfo.isValidAppID(valid), "\(valid)")
        }
        for invalid in ["", "org", "org.", ".org.x", "org..x", "org.ex-ample.x", "org.example/x", "org.exämple.x", "org.example.x y",
                        String(repeating: "a.", count: 128) + "a"] {
            #expect(!FlatpakInfo.isValidAppID(invalid), "\(invalid)")
        }
        #expect(FlatpakInfo.isValidAppID("a." + String(repeating: "b", count: 253)))
        #expect(!FlatpakInfo.isValidAppID("a." + String(repeating: "b", count: 254)))
    }
}
