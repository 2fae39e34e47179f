import Sesame
import SesameTesting
import Testing

@Suite("SPEC A5: the prompt")
struct PromptTests {
    @Test("SPEC A5: the prompt shows the app name and the reason, with default titles")
    func defaults() async throws {
        let fixture = TestMachine()
        fixture.sensor.present(.match)
        try await fixture.context().evaluate(.biometrics, localizedReason: "Pay 20 EUR to Alice")
        let prompt = try #require(fixture.presenter.prompts.first)
        #expect(prompt.appName == "Sesame Tests")
        #expect(prompt.reason == "Pay 20 EUR to Alice")
        #expect(prompt.cancelTitle == "Cancel")
        #expect(prompt.fallbackTitle == "Enter Password")
        #expect(prompt.method == .biometrics)
        #expect(fixture.presenter.endings == [nil])
    }

    @Test("SPEC A5: cancelTitle and fallbackTitle are configurable")
    func custom() async throws {
        let fixture = TestMachine()
        let context = fixture.context()
        context.cancelTitle = "Not now"
        context.fallbackTitle = "Use PIN"
        fixture.sensor.present(.noMatch, .match)
        try await context.evaluate(.biometrics, localizedReason: "Open settings")
        let prompt = try #require(fixture.presenter.prompts.first)
        #expect(prompt.cancelTitle == "Not now")
        #expect(prompt.fallbackTitle == "Use PIN")
        #expect(fixture.presenter.messages.contains(.fallbackOffered(title: "Use PIN")))
    }

    @Test("SPEC A5: an empty fallback title hides the fallback")
    func hiddenFallback() async {
        let fixture = TestMachine()
        let context = fixture.context()
        context.fallbackTitle = ""
        fixture.sensor.present(.noMatch)
        let evaluation = Task { await fixture.outcome(.biometrics, on: context) }
        while fixture.presenter.messages.isEmpty { await Task.yield() }
        await fixture.sensor.waitUntilScanning()
        // A stray fallback press is ignored: there is no such button.
        fixture.presenter.press(.fallback)
        fixture.sensor.present(.match)
        #expect(await evaluation.value == nil)
        #expect(fixture.presenter.prompts.first?.fallbackTitle == nil)
        #expect(!fixture.presenter.messages.contains { if case .fallbackOffered = $0 { true } else { false } })
    }
}
