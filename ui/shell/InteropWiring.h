#pragma once
// Reports and interoperability in the window (issue 6): File > Export report, File > Export launch
// settings, File > Import Hugging Face config (and dropping a config.json on the window), and the
// "Measured run" tab that compares a run's logged step times with the plan.
class QString;

namespace lp::ui {

class MainWindow;
class ScenarioDocument;

// Call once, after the MainWindow is built.
void installInterop(MainWindow& w, ScenarioDocument& doc);
// Imports a Hugging Face config.json as the scenario's model (one undoable edit). False with a banner
// naming the field and the reason when the file cannot be imported.
bool importHfConfigInto(MainWindow& w, ScenarioDocument& doc, const QString& path);

} // namespace lp::ui
