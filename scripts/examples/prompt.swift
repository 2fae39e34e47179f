// Stands in for the app's own PromptPresenter.
import SesameTesting

let myPrompt = RecordingPresenter()
